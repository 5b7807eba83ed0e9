/**
 * The package the benchmarks measure: the build in `dist/` by default, which is what users
 * import (`npm run bench` builds it first), or the TypeScript sources run through tsx with
 * `BENCH_SOURCE=src` (profiles then name source files and lines). tsx compiles with esbuild's
 * keepNames, which names every closure it creates at run time: the sources run a few per cent
 * slower than the build.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

type Finality = typeof import('../src/index.js')

const fromSource = process.env.BENCH_SOURCE === 'src'
const built = new URL('../dist/index.js', import.meta.url)
if (!fromSource && !existsSync(fileURLToPath(built))) {
  throw new Error('dist/index.js not found: run `npm run build` first (or `npm run bench`, which builds), or set BENCH_SOURCE=src')
}

const finality = (await import(fromSource ? '../src/index.js' : built.href)) as Finality

/** What is measured, for the report: `dist` or `src`. */
export const MEASURED: 'dist' | 'src' = fromSource ? 'src' : 'dist'
export const createNode: Finality['createNode'] = finality.createNode
/** The crypto backends in use (commits before `cryptoBackends` existed, compared A/B, answer `unknown`). */
export const cryptoBackends: () => Record<'secp256k1' | 'ed25519' | 'keccak', string> =
  (finality as Partial<Finality>).cryptoBackends ?? (() => ({ secp256k1: 'unknown', ed25519: 'unknown', keccak: 'unknown' }))
