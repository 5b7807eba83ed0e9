#!/usr/bin/env node
/** The `finality` executable: runs {@link main} and closes cleanly on SIGINT / SIGTERM. */
import { main } from './main.js'

main(process.argv.slice(2)).then(
  (stop) => {
    const shutdown = (signal: string) => {
      process.stdout.write(`\n${signal}: shutting down\n`)
      stop().then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`error while closing: ${error instanceof Error ? error.message : String(error)}\n`)
          process.exit(1)
        },
      )
    }
    process.once('SIGINT', () => shutdown('SIGINT'))
    process.once('SIGTERM', () => shutdown('SIGTERM'))
  },
  (error: unknown) => {
    process.stderr.write(`finality: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  },
)
