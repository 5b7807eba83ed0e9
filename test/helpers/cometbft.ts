/**
 * The cometbft binary for the devnet tests: scripts/cometbft.mjs builds it once from the Go module
 * proxy into .cache/cometbft (a cold build takes minutes; later runs reuse it). Without `go` the
 * tests that need it skip, saying why.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

/** The binary's path, or why there is none (`go` missing, the build failed). */
export function cometbft(): { binary: string } | { skip: string } {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'cometbft.mjs')], { encoding: 'utf8', timeout: 30 * 60_000 })
  if (run.status === 2) return { skip: 'the CometBFT devnet tests need Go (`go` on the PATH) to build cometbft from the Go module proxy' }
  if (run.status !== 0) return { skip: `building cometbft failed: ${run.stderr.trim().split('\n').slice(-3).join(' / ')}` }
  return { binary: run.stdout.trim() }
}
