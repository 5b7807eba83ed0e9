#!/usr/bin/env node
/**
 * The `finality` executable: runs {@link main} and closes cleanly on SIGINT / SIGTERM. The
 * handlers are installed before the node starts: the servers answer before the banner is
 * written, and a signal in between shuts the node down once it is up instead of killing the
 * process half-way.
 */
import { main } from './main.js'

let stop: (() => Promise<void>) | undefined
let signalled: string | undefined
let stopping = false

function shutdown(signal: string): void {
  if (stop === undefined) {
    if (signalled !== undefined) process.exit(130)
    signalled = signal
    process.stdout.write(`\n${signal}: shutting down once started (again to quit now)\n`)
    return
  }
  if (stopping) process.exit(130)
  stopping = true
  process.stdout.write(`\n${signal}: shutting down\n`)
  stop().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`error while closing: ${error instanceof Error ? error.message : String(error)}\n`)
      process.exit(1)
    },
  )
}
process.on('SIGINT', () => shutdown('SIGINT'))
process.on('SIGTERM', () => shutdown('SIGTERM'))

main(process.argv.slice(2)).then(
  (started) => {
    stop = started
    if (signalled !== undefined) shutdown(signalled)
  },
  (error: unknown) => {
    process.stderr.write(`finality: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  },
)
