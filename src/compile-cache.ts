/**
 * The package's entry loads its bundle through V8's code cache (scripts/entry-loader.cjs,
 * docs/performance.md "Cold start") and, when it found none, leaves a function under this symbol
 * to write one. It is called once the first node has started, so the cache holds the bytecode
 * of what creating a node ran, not only of the bundle's top level. Run from the sources (tsx,
 * vitest) or from a build without the loader, there is nothing to call.
 */
const READY = Symbol.for('finality.compileCache.ready')

/** Tells the entry's compile cache that a node has started (first call only does anything). */
export function nodeStarted(): void {
  const ready = (globalThis as Record<symbol, unknown>)[READY]
  if (typeof ready === 'function') ready()
}
