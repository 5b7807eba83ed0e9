/**
 * The version of @ethereumjs/evm the engine runs. The build bundles the library into `dist/`
 * (see tsup.config.ts) and writes the bundled version into `__FINALITY_EVM_VERSION__`; run from
 * the sources, the engine is the installed package, whose package.json says its version.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

declare const __FINALITY_EVM_VERSION__: string | undefined

/** Whether the library is the package's own bundled copy (the build) or the installed one (the sources). */
export const BUNDLED = typeof __FINALITY_EVM_VERSION__ === 'string'

/** The library's version, or undefined when it cannot be read. */
export function evmVersion(): string | undefined {
  if (typeof __FINALITY_EVM_VERSION__ === 'string') return __FINALITY_EVM_VERSION__
  try {
    // The package's exports do not include package.json: walk up from its entry point.
    let dir = dirname(createRequire(import.meta.url).resolve('@ethereumjs/evm'))
    for (let i = 0; i < 5; i++) {
      try {
        const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string }
        if (pkg.name === '@ethereumjs/evm') return pkg.version
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
