/**
 * The versions of the @ethereumjs libraries whose private members the engine touches. The build
 * bundles them into `dist/` (see tsup.config.ts) and writes the bundled versions into
 * `__FINALITY_EVM_VERSION__` and `__FINALITY_LIBRARY_VERSIONS__`; run from the sources, each is
 * the installed package, whose package.json says its version.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

declare const __FINALITY_EVM_VERSION__: string | undefined
declare const __FINALITY_LIBRARY_VERSIONS__: Record<string, string> | undefined

/**
 * The libraries the engine reaches inside of: the EVM (install.ts), the Common, transactions and
 * headers, and the VM whose `runTx` the engine's own run takes over (run-tx.ts).
 */
export const ENGINE_LIBRARIES = ['@ethereumjs/evm', '@ethereumjs/common', '@ethereumjs/tx', '@ethereumjs/block', '@ethereumjs/vm'] as const

/** One of {@link ENGINE_LIBRARIES}. */
export type EngineLibrary = (typeof ENGINE_LIBRARIES)[number]

/** Whether the library is the package's own bundled copy (the build) or the installed one (the sources). */
export const BUNDLED = typeof __FINALITY_EVM_VERSION__ === 'string'

/** The version of @ethereumjs/evm, or undefined when it cannot be read. */
export function evmVersion(): string | undefined {
  if (typeof __FINALITY_EVM_VERSION__ === 'string') return __FINALITY_EVM_VERSION__
  return installedVersion('@ethereumjs/evm')
}

/** The version of one of the engine's libraries, or undefined when it cannot be read. */
export function libraryVersion(name: EngineLibrary): string | undefined {
  if (name === '@ethereumjs/evm') return evmVersion()
  if (typeof __FINALITY_LIBRARY_VERSIONS__ === 'object') return __FINALITY_LIBRARY_VERSIONS__[name]
  return installedVersion(name)
}

function installedVersion(name: string): string | undefined {
  try {
    // The packages' exports do not include package.json: walk up from the entry point.
    let dir = dirname(createRequire(import.meta.url).resolve(name))
    for (let i = 0; i < 5; i++) {
      try {
        const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string }
        if (pkg.name === name) return pkg.version
      } catch {
        // not here; one level up
      }
      dir = dirname(dir)
    }
  } catch {
    // not resolvable
  }
  return undefined
}
