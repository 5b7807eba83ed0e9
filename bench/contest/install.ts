/**
 * Installs the contestants into the bench's own folder, `bench/contestants` (its own package.json
 * and lock file; never the project's node_modules): `npm ci` on first use and whenever the lock
 * file changed (a stamp in that folder's node_modules holds the lock's hash).
 *
 * EDR 0.22 declares `node >= 22` but runs on Node 20; npm skips an optional platform package whose
 * engines do not match, so the lock names the linux-x64 packages (EDR's N-API binary, Anvil's
 * binary) directly and the install ignores engines. Anvil's postinstall (which would fetch the
 * same binary again) is not run: the binary is taken from its platform package.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const CONTESTANTS_DIR = fileURLToPath(new URL('../contestants/', import.meta.url))

export interface Installed {
  contestantsDir: string
  anvilBin: string
  edrVersion: string
  anvilVersion: string
}

const versionOf = (pkg: string): string =>
  (JSON.parse(readFileSync(path.join(CONTESTANTS_DIR, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version

/** Installs when needed; returns undefined (with the reason) where the pinned binaries cannot run. */
export function ensureContestants(log: (message: string) => void): Installed | { unavailable: string } {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return { unavailable: `the contestants are pinned for linux-x64 (this is ${process.platform}-${process.arch}); see bench/contestants/package.json` }
  }
  const lock = readFileSync(path.join(CONTESTANTS_DIR, 'package-lock.json'))
  const hash = createHash('sha256').update(lock).digest('hex')
  const stamp = path.join(CONTESTANTS_DIR, 'node_modules', '.lock-sha256')
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== hash) {
    log('installing the contestants (npm ci in bench/contestants)')
    const r = spawnSync('npm', ['ci', '--engine-strict=false', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: CONTESTANTS_DIR,
      stdio: ['ignore', 2, 2],
    })
    if (r.status !== 0) return { unavailable: `npm ci in bench/contestants failed (exit ${r.status ?? r.signal})` }
    writeFileSync(stamp, hash)
  }
  return {
    contestantsDir: CONTESTANTS_DIR,
    anvilBin: path.join(CONTESTANTS_DIR, 'node_modules', '@foundry-rs', 'anvil-linux-amd64', 'bin', 'anvil'),
    edrVersion: versionOf('@nomicfoundation/edr'),
    anvilVersion: versionOf('@foundry-rs/anvil'),
  }
}
