// CometBFT for the devnet: the version finality speaks to, built from the Go module proxy into a
// git-ignored cache (.cache/cometbft/<version>/bin), once; later runs reuse the binary.
// Usage: node scripts/cometbft.mjs           prints the binary's path (building it if needed)
//        node scripts/cometbft.mjs --protos  prints the module's source folder (its .proto files)
// Exits 2 with a message when `go` is not on the PATH.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The CometBFT release the ABCI types are generated from and the devnet runs. */
export const COMETBFT_VERSION = 'v0.38.26'
export const COMETBFT_MODULE = 'github.com/cometbft/cometbft'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

/** True when a `go` command runs. */
export function hasGo() {
  try {
    execFileSync('go', ['version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** The cometbft binary's path, built with `go install` into the cache the first time. */
export function cometbftBinary(cacheDir = join(ROOT, '.cache', 'cometbft', COMETBFT_VERSION)) {
  const bin = join(cacheDir, 'bin', 'cometbft')
  if (existsSync(bin)) return bin
  mkdirSync(dirname(bin), { recursive: true })
  execFileSync('go', ['install', `${COMETBFT_MODULE}/cmd/cometbft@${COMETBFT_VERSION}`], {
    env: { ...process.env, GOBIN: dirname(bin), GOFLAGS: '-buildvcs=false', CGO_ENABLED: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  return bin
}

/** The module's source folder in the Go module cache (downloaded if needed). */
export function cometbftSource() {
  const out = execFileSync('go', ['mod', 'download', '-json', `${COMETBFT_MODULE}@${COMETBFT_VERSION}`], { encoding: 'utf8' })
  return JSON.parse(out).Dir
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!hasGo()) {
    console.error('cometbft: `go` is not on the PATH; install Go (1.22 or newer) to build CometBFT')
    process.exit(2)
  }
  console.log(process.argv[2] === '--protos' ? cometbftSource() : cometbftBinary())
}
