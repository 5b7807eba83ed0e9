import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build as esbuild } from 'esbuild'
import { defineConfig, type Options } from 'tsup'
// @ts-expect-error: a plain JavaScript build script, without types
import { writeDistEntries } from './scripts/dist-entries.mjs'

type Plugin = NonNullable<Options['esbuildPlugins']>[number]

/** The version of an @ethereumjs package the build bundles (its package.json, beside its entry point). */
function libraryVersion(name: string): string {
  let dir = dirname(createRequire(import.meta.url).resolve(name))
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version: string }
      if (pkg.name === name) return pkg.version
    } catch {
      // one level up
    }
    const up = dirname(dir)
    if (up === dir) throw new Error(`${name}: package.json not found`)
    dir = up
  }
}

/** The libraries whose private members the engine touches (src/execution/engine/version.ts). */
export const ENGINE_LIBRARIES = ['@ethereumjs/evm', '@ethereumjs/common', '@ethereumjs/tx', '@ethereumjs/block', '@ethereumjs/vm']

/**
 * Pure-JS ESM libraries bundled into dist/ as well: Node.js loads one file much faster than the
 * ~400 small modules they are made of (resolution, reading and linking each; measured ~70 ms of a
 * cold import, docs/performance.md "Cold start"). CommonJS packages (debug), packages with native
 * parts (secp256k1, sodium-native, classic-level) and what is loaded only on demand (ws,
 * smol-toml, micro-eth-signer, the KZG setup, quickjs) stay external. hash-wasm is bundled from
 * its ES module build (aliased below), so only its keccak (~14 KB with the WebAssembly inline) is
 * in dist/: its CommonJS entry, which Node would otherwise load, holds every algorithm (284 KB
 * for Node's CommonJS export scan and compiler, ~14 ms of a cold import).
 */
const FAST_LOADING = [/^@ethereumjs\//, /^@noble\//, /^@scure\//, 'eventemitter3']

/**
 * Start-up work of bundled libraries moved to first use, their cold paths pointed at the node's
 * own faster code, or a hot path's needless steps dropped, by replacing source text as the bundle
 * is built; the build fails if a
 * text is not found (a library update changed it), so a patch is never silently lost. Each keeps
 * the library's results exactly.
 */
export const START_UP_PATCHES: { file: RegExp; from: string; to: string; why: string }[] = [
  {
    file: /@ethereumjs[\\/]util[\\/]dist[\\/]esm[\\/]bytes\.js$/,
    why: '65,536 BigInts made at import (~6 ms of every cold start) for bytesToBigInt of 1 and 2 bytes',
    from: `const BIGINT_CACHE = [];
for (let i = 0; i <= 256 * 256 - 1; i++) {
    BIGINT_CACHE[i] = BigInt(i);
}`,
    to: `const BIGINT_CACHE = [];
for (let i = 0; i <= 255; i++) {
    BIGINT_CACHE[i] = BigInt(i);
}`,
  },
  {
    file: /@ethereumjs[\\/]util[\\/]dist[\\/]esm[\\/]bytes\.js$/,
    why: 'the same: two-byte values made when asked for',
    from: `return BIGINT_CACHE[bytes[0] * 256 + bytes[1]];`,
    to: `return BigInt(bytes[0] * 256 + bytes[1]);`,
  },
  {
    file: /@ethereumjs[\\/]util[\\/]dist[\\/]esm[\\/]bytes\.js$/,
    why: "bigIntToBytes of a non-negative bigint without the `0x` prefix that hexToBytes then tests with a regex and cuts off again: every address the EVM takes off its stack (each CALL's, BALANCE's, EXTCODESIZE's) goes through it, ~2 % of a warm Rocket Pool pass's profile; a negative or a non-bigint goes the library's way",
    from: "const bytes = hexToBytes(`0x${padToEven(num.toString(16))}`);",
    to: "const bytes = typeof num === 'bigint' && num >= 0n ? hexToBytesNoble(padToEven(num.toString(16))) : hexToBytes(`0x${padToEven(num.toString(16))}`);",
  },
  {
    file: /@ethereumjs[\\/]util[\\/]dist[\\/]esm[\\/]account\.js$/,
    why: "CREATE and CREATE2 addresses (generateAddress, generateAddress2) hashed by the node's keccak (WebAssembly) instead of noble's: a process's first deployment spent ~0.8 ms in noble's not yet compiled keccak; init code remembered by content (the library hashes it twice per CREATE2, and an estimate's search runs it a dozen times)",
    from: `import { keccak_256 } from '@noble/hashes/sha3.js';`,
    to: `import { keccak256Code as keccak_256 } from ${JSON.stringify(join(dirname(fileURLToPath(import.meta.url)), 'src', 'crypto', 'keccak.ts'))};`,
  },
  {
    file: /@ethereumjs[\\/]tx[\\/]dist[\\/]esm[\\/]capabilities[\\/]legacy\.js$/,
    why: "a transaction's data gas (getDataGas) counted with numbers and priced once, not one BigInt addition per byte: a process's first deployment (~3 KB of initcode, priced three times or more, by code not yet compiled) spent ~1 ms there",
    from: `    let cost = BIGINT_0;
    for (let i = 0; i < tx.data.length; i++) {
        tx.data[i] === 0 ? (cost += txDataZero) : (cost += txDataNonZero);
    }`,
    to: `    const bytes = tx.data;
    let zeros = ZERO_BYTES_OF_DATA.get(bytes);
    if (zeros === undefined) {
        zeros = 0;
        for (let i = 0; i < bytes.length; i++) {
            if (bytes[i] === 0) zeros++;
        }
        if (bytes.length >= 256) ZERO_BYTES_OF_DATA.set(bytes, zeros);
    }
    let cost = BigInt(zeros) * txDataZero + BigInt(bytes.length - zeros) * txDataNonZero;`,
  },
  {
    file: /@ethereumjs[\\/]tx[\\/]dist[\\/]esm[\\/]capabilities[\\/]legacy\.js$/,
    why: "the zero bytes of a large data array counted once: each run of an eth_estimateGas search builds a new transaction (with an empty cache) around the same data, and prices it twice",
    from: `export function getDataGas(tx) {`,
    to: `const ZERO_BYTES_OF_DATA = new WeakMap();
export function getDataGas(tx) {`,
  },
  {
    file: /@ethereumjs[\\/]tx[\\/]dist[\\/]esm[\\/]util[\\/]intrinsic\.js$/,
    why: 'the same for the calldata floor (EIP-7623): tokens counted with numbers',
    from: `        for (let i = 0; i < tx.data.length; i++) {
            tokens += tx.data[i] === 0 ? 1n : 4n;
        }`,
    to: `        const bytes = tx.data;
        let zeros = 0;
        for (let i = 0; i < bytes.length; i++) {
            if (bytes[i] === 0) zeros++;
        }
        tokens += BigInt(zeros) + BigInt(bytes.length - zeros) * 4n;`,
  },
  {
    file: /hash-wasm[\\/]dist[\\/]index\.esm\.js$/,
    why: "the keccak module's own functions exposed on the hasher createKeccak makes (`exports`), which src/crypto/keccak.ts calls directly: the hasher's update and digest make three objects per hash (two views of the input, a copy of the digest), ~8 KB of garbage a send",
    from: `            digest: (outputType) => wasm.digest(outputType, 0x01),`,
    to: `            digest: (outputType) => wasm.digest(outputType, 0x01),
            exports: wasm.getExports(),`,
  },
]

/**
 * Entries that run beside the package's main module rather than carry a copy of it (the engine
 * bundle is loaded once per process, through the compile cache): their imports of `./index.js`
 * stay imports of the package's own entry, `./index.js` or `./index.cjs` by format.
 */
const COMPANION_ENTRIES = ['src/prool.ts']

const companionEntries: Plugin = {
  name: 'companion-entries',
  setup(build) {
    const entry = build.initialOptions.outExtension?.['.js'] === '.cjs' ? './index.cjs' : './index.js'
    const companions = COMPANION_ENTRIES.map((file) => join(dirname(fileURLToPath(import.meta.url)), file))
    build.onResolve({ filter: /^\.\/index\.js$/ }, (args) => (companions.includes(args.importer) ? { path: entry, external: true } : undefined))
  },
}

const startUpPatches: Plugin = {
  name: 'start-up-patches',
  setup(build) {
    const sources = [...new Set(START_UP_PATCHES.map((p) => p.file.source))]
    for (const source of sources) {
      build.onLoad({ filter: new RegExp(source) }, (args) => {
        let text = readFileSync(args.path, 'utf8')
        for (const patch of START_UP_PATCHES.filter((p) => p.file.source === source)) {
          if (!text.includes(patch.from)) throw new Error(`start-up patch not applicable to ${args.path} (${patch.why}): text not found`)
          text = text.replace(patch.from, patch.to)
        }
        return { contents: text, loader: 'js' }
      })
    }
  },
}

/**
 * The Hardhat plugins (`finality-evm/hardhat`), each built after the bundle by esbuild alone: for
 * Hardhat 2, dist/hardhat.cjs (CommonJS: Hardhat 2 requires plugins; no types), for Hardhat 3,
 * dist/hardhat.js (an ES module: Hardhat 3 imports its config and plugins; its types come from
 * tsup's declaration build, the `dts` entries below). Each loads the package's main entry (the
 * engine bundle through its code cache) at its first use instead of bundling a second copy: the
 * sources' `../index.js` is mapped to './index.cjs' or './index.js', and a relative import of
 * anything but the plugin's own files fails the build. Hardhat is the project's own, never bundled.
 */
export async function buildHardhatPlugin(hardhat: 2 | 3): Promise<void> {
  const esm = hardhat === 3
  const entry = esm ? './index.js' : './index.cjs'
  const own = esm ? /^\.\/(hardhat3-[a-z-]+|network-options)\.js$/ : /^\.\/network-options\.js$/
  await esbuild({
    entryPoints: [esm ? 'src/hardhat/hardhat3.ts' : 'src/hardhat/hardhat2.ts'],
    outfile: esm ? 'dist/hardhat.js' : 'dist/hardhat.cjs',
    bundle: true,
    format: esm ? 'esm' : 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    external: ['hardhat', 'hardhat/*'],
    plugins: [
      {
        name: 'main-entry',
        setup(build) {
          build.onResolve({ filter: /^\.\.\/index\.js$/ }, (args) => {
            if (!/[\\/]src[\\/]hardhat$/.test(args.resolveDir)) return undefined
            return { path: entry, external: true }
          })
          build.onResolve({ filter: /^\.\.?\// }, (args) => {
            if (args.kind === 'entry-point' || own.test(args.path) || args.path === entry) return undefined
            return { errors: [{ text: `the Hardhat ${hardhat} plugin imports ${args.path}: load it through the main entry ('../index.js')` }] }
          })
        },
      },
    ],
  })
}

/**
 * The explorer page (src/explorer/page/, preact): bundled for browsers, with its libraries, into
 * one self-contained dist/explorer.html (no CDN: it works offline). No entry of the package
 * imports it: src/explorer/serve.ts reads the file at the first request (test/explorer/serve.test.ts).
 */
export async function buildExplorerPage(outDir = 'dist'): Promise<void> {
  const out = await esbuild({
    entryPoints: ['src/explorer/page/main.tsx'],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  })
  const script = (out.outputFiles[0]?.text ?? '').replace(/<\/script/gi, '<\\/script')
  const template = readFileSync('src/explorer/page/index.html', 'utf8')
  if (!template.includes('<!--finality-script-->') || !template.includes('<!--finality-settings-->')) throw new Error('src/explorer/page/index.html: the script or settings mark is missing')
  mkdirSync(outDir, { recursive: true })
  writeFileSync(join(outDir, 'explorer.html'), template.replace('<!--finality-script-->', () => script))
}

export default defineConfig({
  entry: { index: 'src/index.ts', viem: 'src/adapters/viem.ts', ethers: 'src/adapters/ethers.ts', cli: 'src/cli/bin.ts', prool: 'src/prool.ts' },
  format: ['esm', 'cjs'],
  // The Hardhat 3 plugin's types too (its code is built by buildHardhatPlugin(3)).
  dts: { entry: { index: 'src/index.ts', viem: 'src/adapters/viem.ts', ethers: 'src/adapters/ethers.ts', cli: 'src/cli/bin.ts', prool: 'src/prool.ts', hardhat: 'src/hardhat/hardhat3.ts' } },
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  clean: true,
  splitting: false,
  treeshake: true,
  // Less source for V8 to parse at import (~10 ms); names are kept, and the source maps map back.
  minifyWhitespace: true,
  minifySyntax: true,
  // import.meta.url in the CJS build (the native secp256k1 loader uses it).
  shims: true,
  // The EVM engine is the package's own copy: @ethereumjs/evm (which finality patches) and
  // @ethereumjs/vm (which creates its EVMs) are bundled, so a user's own imports of them in the
  // same process get the installed, unpatched library (src/execution/engine/install.ts).
  // ethers (a development dependency here) is the user's own for `finality-evm/ethers`.
  external: ['ethers'],
  noExternal: ['@ethereumjs/evm', '@ethereumjs/vm', ...FAST_LOADING, 'debug', 'hash-wasm'],
  // The engine's `debug` loads on first use (src/execution/engine/lazy-debug.ts); hash-wasm from
  // its ES module build (see FAST_LOADING).
  esbuildOptions(options) {
    options.alias = { ...options.alias, debug: './src/execution/engine/lazy-debug.ts', 'hash-wasm': 'hash-wasm/dist/index.esm.js' }
  },
  esbuildPlugins: [startUpPatches, companionEntries],
  define: {
    __FINALITY_EVM_VERSION__: JSON.stringify(libraryVersion('@ethereumjs/evm')),
    __FINALITY_LIBRARY_VERSIONS__: JSON.stringify(Object.fromEntries(ENGINE_LIBRARIES.map((name) => [name, libraryVersion(name)]))),
  },
  // dist/index.cjs and dist/index.js become a small loader of the CommonJS bundle (renamed
  // dist/finality.cjs) through V8's code cache (scripts/entry-loader.cjs, scripts/dist-entries.mjs).
  async onSuccess() {
    writeDistEntries()
    await buildHardhatPlugin(2)
    await buildHardhatPlugin(3)
    await buildExplorerPage()
  },
})
