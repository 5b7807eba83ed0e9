/**
 * Packages loaded at their first use, with `require` (Node 20.19 and later require ES modules
 * too), not with `import()`: the package's entry runs its bundle as a `vm.Script` so that V8's
 * code cache serves it (scripts/entry-loader.cjs), and an `import()` inside such a script either
 * needs `--experimental-vm-modules` or prints an experimental warning in the user's process.
 * `scripts/check-dist.mjs` fails the build if the bundle holds an `import()`.
 */
import { createRequire } from 'node:module'

const load = createRequire(import.meta.url)

/** The module, loaded on the first call and cached by `require`; a failure to load rejects. */
export function requireLater<T>(specifier: string): Promise<T> {
  return new Promise<T>((resolve) => resolve(load(specifier) as T))
}

/** The module, loaded now (synchronously) and cached by `require`: for a caller that cannot wait. */
export function requireNow<T>(specifier: string): T {
  return load(specifier) as T
}
