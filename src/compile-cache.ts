/**
 * The package's entry loads its bundle through V8's code cache (scripts/entry-loader.cjs,
 * docs/performance.md "Cold start") and, when it found none, leaves a function under this symbol
 * to write one. It is called when the first node has started, so the cache holds the bytecode of
 * what creating a node ran, not only of the bundle's top level; again once the first block is
 * stored, with what that compiled; and once the first block after contract code ran (a
 * deployment, as a test file's first transaction usually is) is stored. A node closed before
 * any of that tells it too. A process whose cache was written by one that ran less writes it
 * again at those points.
 *
 * The cache is written right after those first blocks, never after hundreds of transactions: a
 * cache written late (at close, after many transfers) made the first deployment of later
 * processes slower (4.2-4.4 ms against 3.1-3.4, same build, the contest's order of processes;
 * docs/performance.md, "The compile cache decides the deployment row"), and the transfers after
 * it no faster.
 * Run from the sources (tsx, vitest) or from a build without the loader, there is nothing to call.
 */
const READY = Symbol.for('finality.compileCache.ready')

/** Whether contract code has run in this process (its interpreter's code is then worth caching). */
let contractCodeRan = false
/** Whether {@link blockStored} has told the cache of the first block after contract code ran. */
let contractBlockTold = false
/** Whether {@link blockStored} has told the cache of the first block. */
let blockTold = false

function tell(level: 1 | 2 | 3): void {
  const ready = (globalThis as Record<symbol, unknown>)[READY]
  if (typeof ready === 'function') ready(level)
}

/** Tells the entry's compile cache that a node has started. */
export function nodeStarted(): void {
  tell(1)
}

/** Tells the entry's compile cache that a node has closed. */
export function nodeClosed(): void {
  tell(contractCodeRan ? 3 : 2)
}

/** Tells the entry's compile cache that a block is stored (it is written at the first, and at the first after contract code ran). */
export function blockStored(): void {
  if (contractCodeRan) {
    if (!contractBlockTold) {
      contractBlockTold = true
      tell(3)
    }
  } else if (!blockTold) {
    blockTold = true
    tell(2)
  }
}

/** Notes that the EVM has analysed contract code (once per code: see execution/engine/jump-cache.ts). */
export function contractCodeAnalysed(): void {
  contractCodeRan = true
}
