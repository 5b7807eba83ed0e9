import { defineConfig } from 'tsup'

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
})
