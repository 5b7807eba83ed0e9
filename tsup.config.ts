import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { defineConfig } from 'tsup'

/** The version of the @ethereumjs/evm the build bundles (its package.json, beside its entry point). */
function evmVersion(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@ethereumjs/evm'))
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version: string }
      if (pkg.name === '@ethereumjs/evm') return pkg.version
    } catch {
      // one level up
    }
    const up = dirname(dir)
    if (up === dir) throw new Error('@ethereumjs/evm: package.json not found')
    dir = up
  }
}

export default defineConfig({
  entry: { index: 'src/index.ts', viem: 'src/adapters/viem.ts', cli: 'src/cli/bin.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  clean: true,
  splitting: false,
  treeshake: true,
  // import.meta.url in the CJS build (the native secp256k1 loader uses it).
  shims: true,
  // The EVM engine is the package's own copy: @ethereumjs/evm (which finality patches) and
  // @ethereumjs/vm (which creates its EVMs) are bundled, so a user's own imports of them in the
  // same process get the installed, unpatched library (src/execution/engine/install.ts).
  noExternal: ['@ethereumjs/evm', '@ethereumjs/vm'],
  define: { __FINALITY_EVM_VERSION__: JSON.stringify(evmVersion()) },
})
