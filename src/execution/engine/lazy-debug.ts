/**
 * What the bundled engine gets for `import debug from 'debug'` (tsup.config.ts aliases it here).
 * ethereumjs creates its debuggers at load and in constructors but calls them only when `DEBUG`
 * names `ethjs`; loading `debug` itself (supports-color, tty, environment scan) costs 10–20 ms of
 * every cold import. Each debugger here loads the real `debug` (the one installed, shared with the
 * user's own) at its first call or `enabled` read, so logging behaves exactly as before.
 */
import { createRequire } from 'node:module'

type Debugger = ((...args: unknown[]) => void) & { enabled: boolean; namespace: string }
type CreateDebug = (namespace: string) => Debugger

let real: CreateDebug | undefined
function load(): CreateDebug {
  real ??= createRequire(import.meta.url)('debug') as CreateDebug
  return real
}

/** A debugger for `namespace` that loads `debug` when first used. */
export default function lazyDebug(namespace: string): Debugger {
  let target: Debugger | undefined
  const resolve = (): Debugger => (target ??= load()(namespace))
  const fn = ((...args: unknown[]) => resolve()(...args)) as Debugger
  Object.defineProperty(fn, 'enabled', {
    get: () => resolve().enabled,
    set: (value: boolean) => { resolve().enabled = value },
  })
  Object.defineProperty(fn, 'namespace', { value: namespace })
  return fn
}
