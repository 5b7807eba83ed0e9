import { execFile } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { compileFixtures } from './compile.js'

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

/**
 * The cometbft binary for the devnet tests, built once before any test file starts (a cold build
 * takes minutes), so that two files running at once do not both build it. A failure is left to
 * the tests, which skip saying why (test/helpers/cometbft.ts asks the same script).
 */
function buildCometbft(): Promise<void> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'scripts', 'cometbft.mjs')], { timeout: 30 * 60_000 }, () => resolve())
  })
}

/** vitest globalSetup: compile the Solidity fixtures (cached on disk) and build cometbft, once per run. */
export default async function setup(): Promise<void> {
  await Promise.all([compileFixtures(), buildCometbft()])
}
