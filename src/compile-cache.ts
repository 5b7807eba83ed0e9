/**
 * The package's entry loads its bundle through V8's code cache (scripts/entry-loader.cjs,
 * docs/performance.md "Cold start") and, when it found none, leaves a function under this symbol
 * to write one. It is called when the first node has started, so the cache holds the bytecode of
 * what creating a node ran, not only of the bundle's top level, and again when a node closes,
 * with what the process's transactions compiled meanwhile. Run from the sources (tsx, vitest) or
 * from a build without the loader, there is nothing to call.
 */
const READY = Symbol.for('finality.compileCache.ready')

function tell(stage: 'started' | 'closed'): void {
  const ready = (globalThis as Record<symbol, unknown>)[READY]
  if (typeof ready === 'function') ready(stage)
}

/** Tells the entry's compile cache that a node has started. */
export function nodeStarted(): void {
  tell('started')
}

/** Tells the entry's compile cache that a node has closed. */
export function nodeClosed(): void {
  tell('closed')
}
