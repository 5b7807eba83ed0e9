/**
 * The package's entry loads its bundle through V8's code cache (scripts/entry-loader.cjs,
 * docs/performance.md "Cold start") and, when it found none, leaves a function under this symbol
 * to write one. It is called when the first node has started, so the cache holds the bytecode of
 * what creating a node ran, not only of the bundle's top level, and again when a node closes,
 * with what the process's transactions compiled meanwhile; a process whose cache was written by
 * one that ran less (no node closed, or no contract code) writes it again when it closes a node.
 * Run from the sources (tsx, vitest) or from a build without the loader, there is nothing to call.
 */
const READY = Symbol.for('finality.compileCache.ready')

/** Whether contract code has run in this process (its interpreter's code is then worth caching). */
let contractCodeRan = false

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

/** Notes that the EVM has analysed contract code (once per code: see execution/jump-cache.ts). */
export function contractCodeAnalysed(): void {
  contractCodeRan = true
}
