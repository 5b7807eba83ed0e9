/**
 * The layers point one way: the services under src/ (chain, consensus, execution, state, txpool,
 * controls, filters, accounts, crypto, app) import nothing from rpc/ or adapters/, type-only
 * imports included; they throw domain errors, which carry no JSON-RPC code (those live in rpc/
 * and adapters/); consensus reaches the EVM only through the application seam; no module of
 * src/ reaches itself again through its imports; and only the engine (src/execution/engine/)
 * reaches inside a library's objects (private `_members`, prototypes, objects made without their
 * constructors), behind its version gate. Unit tests beside the code (`.test.ts` files under
 * src/) are no part of those layers: they need no node and no test/ helper, and no module of src/
 * imports one.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src')
const LOWER = ['chain', 'consensus', 'producer', 'execution', 'state', 'txpool', 'controls', 'filters', 'accounts', 'crypto', 'app', 'profiling', 'fork']
const UPPER = ['rpc', 'adapters', 'explorer']

/** The test files beside the code: `*.test.ts` under src/, never built into dist/ (no entry reaches one). */
const isTest = (name: string) => name.endsWith('.test.ts')

/** The modules of src/ (its tests beside the code apart: `tests` true lists those instead). */
function sources(dir: string, tests = false): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path, tests)
    return name.endsWith('.ts') && !name.endsWith('.d.ts') && isTest(name) === tests ? [path] : []
  })
}

/**
 * What a test beside the code may not import: anything outside src/ by a relative path (test/
 * helpers, fixtures compiled for nodes), and the node itself (src/index.ts, src/node.ts), since a
 * unit that needs a node is tested end to end under test/. Packages are allowed (reference
 * implementations to compare with). No module of src/ may import a test file.
 */
export function testImportFaults(files: Map<string, string>): string[] {
  const bad: string[] = []
  for (const [file, text] of files) {
    for (const spec of specifiers(text)) {
      if (!spec.startsWith('.')) continue
      const target = relative(SRC, resolve(SRC, dirname(file), spec)).split('\\').join('/')
      if (isTest(file) && (target.startsWith('..') || ['index.js', 'node.js'].includes(target))) bad.push(`${file} → ${spec}`)
      if (!isTest(file) && /\.test(\.js|\.ts)?$/.test(target)) bad.push(`${file} → ${spec}`)
    }
  }
  return bad
}

/** The module specifiers of a file's import and export-from statements, `import type` and `import('…')` types included. */
export function specifiers(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
  const out: string[] = []
  const patterns = [
    /\bimport\s+(?:type\s+)?[^'";]*?\s+from\s+['"]([^'"]+)['"]/g,
    /\bexport\s+(?:type\s+)?(?:\*|\{[^}]*\})(?:\s+as\s+\w+)?\s+from\s+['"]([^'"]+)['"]/g,
    /\bimport\s+['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ]
  for (const re of patterns) for (const m of code.matchAll(re)) out.push(m[1] as string)
  return out
}

/** The src file a relative specifier names (`./x.js` → `x.ts`), or undefined for packages. */
function resolveSpecifier(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined
  const base = resolve(dirname(from), spec)
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate
    } catch {
      // next candidate
    }
  }
  return undefined
}

function graph(): Map<string, string[]> {
  const edges = new Map<string, string[]>()
  for (const file of sources(SRC)) {
    const targets = specifiers(readFileSync(file, 'utf8'))
      .map((spec) => resolveSpecifier(file, spec))
      .filter((t): t is string => t !== undefined)
    edges.set(rel(file), [...new Set(targets.map(rel))])
  }
  return edges
}

const rel = (path: string) => relative(SRC, path).split('\\').join('/')

/** Every import cycle, each listed once from its first module in sorted order (Tarjan's components). */
export function cycles(edges: Map<string, string[]>): string[][] {
  let index = 0
  const stack: string[] = []
  const on = new Set<string>()
  const idx = new Map<string, number>()
  const low = new Map<string, number>()
  const found: string[][] = []
  const visit = (v: string) => {
    idx.set(v, index)
    low.set(v, index++)
    stack.push(v)
    on.add(v)
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!))
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        on.delete(w)
        component.push(w)
      } while (w !== v)
      const self = (edges.get(v) ?? []).includes(v)
      if (component.length > 1 || self) found.push(path(edges, component.sort()))
    }
  }
  for (const v of [...edges.keys()].sort()) if (!idx.has(v)) visit(v)
  return found
}

/** One concrete cycle through a strongly connected component: a → … → a. */
function path(edges: Map<string, string[]>, component: string[]): string[] {
  const members = new Set(component)
  const start = component[0] as string
  const prev = new Map<string, string>()
  const queue = [start]
  const seen = new Set([start])
  while (queue.length > 0) {
    const v = queue.shift() as string
    for (const w of edges.get(v) ?? []) {
      if (!members.has(w)) continue
      if (w === start) {
        const out = [start]
        for (let at = v; at !== start; at = prev.get(at) as string) out.splice(1, 0, at)
        return [...out, start]
      }
      if (!seen.has(w)) {
        seen.add(w)
        prev.set(w, v)
        queue.push(w)
      }
    }
  }
  return component
}

/**
 * Lower-layer files that import `errors.ts` (the JSON-RPC errors) instead of `domain-errors.ts`,
 * and `domain-errors.ts` itself if it does (its errors are mapped to JSON-RPC in rpc/error-map.ts).
 */
function errorClassImports(edges: Map<string, string[]>): string[] {
  const bad: string[] = []
  for (const [file, targets] of edges) {
    if (!LOWER.includes(file.split('/')[0] as string) && file !== 'domain-errors.ts') continue
    for (const t of targets) if (t === 'errors.ts') bad.push(`${file} → ${t}`)
  }
  return bad
}

/** JSON-RPC error codes of EIP-1193 (4001, 4100, 4200, 4900, 4901) and EIP-1474's execution error 3. */
const POSITIVE_CODES = new Set(['3', '4001', '4100', '4200', '4900', '4901'])

/**
 * The JSON-RPC error code literals a file's code gives (comments aside), each with its line: a
 * negative literal of JSON-RPC's ranges (-32768..-32000 reserved, -32xxx/-38xxx/-39xxx of geth and
 * eth_simulateV1) anywhere but on the right of a comparison (reading a remote's answer is no giving
 * of a code), and a positive code (3, 4900…) set as a `code`. Other numbers are not codes.
 */
export function errorCodeLiterals(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/\/\/.*$/gm, '')
  const out: string[] = []
  code.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/(===?|!==?|<=?|>=?)?\s*(-3[2-9]\d{3})\b/g)) if (m[1] === undefined) out.push(`${i + 1}: ${m[2]}`)
    for (const m of line.matchAll(/\bcode\s*:\s*(\d+)\b(?![.xn])/g)) if (POSITIVE_CODES.has(m[1] as string)) out.push(`${i + 1}: ${m[1]}`)
  })
  return out
}

/** Where the engine lives: the one directory allowed inside library objects. */
const ENGINE_DIR = 'execution/engine/'

/**
 * Reaches inside an object: a `_`-prefixed member (`._x`, `?._x`, `['_x']`), a prototype, or an
 * object made from or re-pointed at one (`Object.create`, `Object.getPrototypeOf`/`setPrototypeOf`).
 */
const INTERNAL_TOUCH = /(?:\?)?\.\s*_[A-Za-z$][\w$]*|\[\s*['"`]_[A-Za-z$][\w$]*['"`]\s*\]|\.prototype\b|\bObject\.(?:create|getPrototypeOf|setPrototypeOf)\s*\(|\b__proto__\b/g

/** Touches outside the engine that are not of @ethereumjs objects, each with the reason. */
export const INTERNAL_TOUCH_ALLOWED: readonly { file: string; match: string; why: string }[] = [
  { file: 'hex.ts', match: '.prototype', why: "Node's Buffer.prototype.latin1Slice, read once" },
  { file: 'execution/tracers/js-prelude.ts', match: '.prototype', why: "a JavaScript tracer's prelude (bignumber aliases), run inside QuickJS" },
  { file: 'hardhat/hardhat2.ts', match: '._wrappedProvider', why: "Hardhat 2's ProviderWrapper: the member its plugins extend it through" },
  { file: 'adapters/http.ts', match: '._body', why: "body-parser's mark of a parsed request body (Express, Connect)" },
]

/**
 * Every touch of an object's insides in `files` (path relative to src/ → text) outside the
 * engine's directory and the allow-list, as `file: match`.
 */
export function internalTouches(files: Map<string, string>, allowed = INTERNAL_TOUCH_ALLOWED): string[] {
  const out: string[] = []
  for (const [file, text] of files) {
    if (file.startsWith(ENGINE_DIR)) continue
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '').replace(/([^:'"`])\/\/.*$/gm, '$1')
    for (const m of code.matchAll(INTERNAL_TOUCH)) {
      const match = m[0].replace(/^\?/, '').replace(/\s+/g, '').replace(/\($/, '')
      if (allowed.some((a) => a.file === file && a.match === match)) continue
      out.push(`${file}: ${match}`)
    }
  }
  return out
}

function sourceTexts(): Map<string, string> {
  return new Map(sources(SRC).map((file) => [rel(file), readFileSync(file, 'utf8')]))
}

/** What consensus/ may not import: the chain, the pool, execution, state, the application, the producer and @ethereumjs. */
const CONSENSUS_FORBIDDEN = ['chain/', 'txpool/', 'execution/', 'state/', 'app/', 'producer/']

/** Imports of consensus/ files (path relative to src/ → text) that reach what the core may not, as `file → target`. */
export function consensusReaches(files: Map<string, string>): string[] {
  const bad: string[] = []
  for (const [file, text] of files) {
    if (!file.startsWith('consensus/')) continue
    for (const spec of specifiers(text)) {
      if (spec.startsWith('@ethereumjs/')) bad.push(`${file} → ${spec}`)
      else if (spec.startsWith('.')) {
        const target = join(dirname(file), spec).split('\\').join('/')
        if (CONSENSUS_FORBIDDEN.some((d) => target.startsWith(d))) bad.push(`${file} → ${target}`)
      }
    }
  }
  return bad
}

/** Every module `from` reaches through its imports (itself excluded). */
function reachable(edges: Map<string, string[]>, from: string): Set<string> {
  const seen = new Set<string>()
  const todo = [...(edges.get(from) ?? [])]
  while (todo.length > 0) {
    const v = todo.pop() as string
    if (seen.has(v)) continue
    seen.add(v)
    todo.push(...(edges.get(v) ?? []))
  }
  return seen
}

/**
 * The rpc/ files that declare methods with `method` (every service) instead of a namespace's own
 * `methodsOf<…>()` (only the ports it lists): only rpc/method.ts, which defines both, and
 * rpc/registry.ts (rpc_modules and rpc_discover read the registry itself) may.
 */
export function allServiceMethods(files: Map<string, string>): string[] {
  const allowed = new Set(['rpc/method.ts', 'rpc/registry.ts'])
  return [...files]
    .filter(([file, text]) => file.startsWith('rpc/') && !allowed.has(file) && /import\s*\{[^}]*\bmethod\b[^}]*\}\s*from\s*'[./]*method\.js'/.test(text))
    .map(([file]) => file)
}

/**
 * Folders of test/ that mirror no folder of src/: one group per tool or path users take, the
 * separate packages those groups run, and the tests' shared code and data (docs/architecture.md,
 * "Tests").
 */
const TEST_GROUPS = ['hardhat', 'hardhat3', 'foundry', 'docs', 'conformance', 'differential', 'build', 'bench', 'types', 'user-project', 'prool-project', 'helpers', 'fixtures']

/** The test files under `dir` (`*.test.ts`, `*.test-d.ts`), as paths from the repository root; no hidden folder, no node_modules. */
function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name.startsWith('.') || name === 'node_modules' ? [] : testFiles(path)
    return /\.test(-d)?\.ts$/.test(name) ? [relative(resolve(SRC, '..'), path).split('\\').join('/')] : []
  })
}

/**
 * Where the test tree leaves src/'s shape: a test under test/ outside the groups whose folder is
 * no folder of src/ (nor, one level down, the name of a module at src/'s root: test/options for
 * options.ts), a test at test/'s root other than this one, and two test files of one name that do
 * not mirror two modules of that name (adapters/ws.ts and fork/remote/ws.ts may each have a ws.test.ts).
 */
export function testTreeFaults(tests: string[], srcFolders: Set<string>, srcModules: string[]): string[] {
  const bad: string[] = []
  const rootModules = new Set(srcModules.filter((m) => !m.includes('/')).map((m) => m.replace(/\.ts$/, '')))
  for (const file of tests.filter((f) => f.startsWith('test/'))) {
    const folders = file.split('/').slice(1, -1)
    if (folders.length === 0) {
      if (file !== 'test/architecture.test.ts') bad.push(`${file}: at the root of test/`)
    } else if (!TEST_GROUPS.includes(folders[0] as string) && !srcFolders.has(folders.join('/')) && !(folders.length === 1 && rootModules.has(folders[0] as string))) {
      bad.push(`${file}: test/${folders.join('/')} is no folder of src/`)
    }
  }
  const byName = new Map<string, string[]>()
  for (const file of tests) byName.set(file.split('/').pop() as string, [...(byName.get(file.split('/').pop() as string) ?? []), file])
  for (const [name, files] of byName) {
    const modules = srcModules.filter((m) => m.split('/').pop() === name.replace(/\.test(-d)?\.ts$/, '.ts'))
    if (files.length > 1 && modules.length < files.length) bad.push(`${name}: ${files.join(', ')}`)
  }
  return bad
}

describe('architecture', () => {
  const edges = graph()

  it('reads the import statements of src/', () => {
    expect(edges.size).toBeGreaterThan(100)
    expect(edges.get('node/components.ts')).toContain('chain/chain.ts')
    expect(specifiers("import type { A } from './a.js'\nexport * from \"./b.js\"\nexport { c } from './c.js'\nconst d: import('./d.js').D")).toEqual([
      './a.js',
      './b.js',
      './c.js',
      './d.js',
    ])
  })

  it('lower layers import nothing from rpc/ or adapters/, types included', () => {
    const bad: string[] = []
    for (const [file, targets] of edges) {
      if (!LOWER.includes(file.split('/')[0] as string)) continue
      for (const t of targets) if (UPPER.includes(t.split('/')[0] as string)) bad.push(`${file} → ${t}`)
    }
    expect(bad).toEqual([])
  })

  it('services throw domain errors: no lower layer, nor domain-errors.ts, imports the JSON-RPC error classes of errors.ts', () => {
    expect(errorClassImports(edges)).toEqual([])
  })

  it('finds a lower layer that imports errors.ts', () => {
    const g = new Map([
      ['txpool/pool.ts', ['domain-errors.ts', 'errors.ts']],
      ['rpc/eth.ts', ['errors.ts']],
      ['domain-errors.ts', ['errors.ts']],
    ])
    expect(errorClassImports(g)).toEqual(['txpool/pool.ts → errors.ts', 'domain-errors.ts → errors.ts'])
  })

  it('JSON-RPC codes live in rpc/ (and adapters/): no lower layer, nor domain-errors.ts, gives an error code literal', () => {
    const bad: string[] = []
    for (const file of sources(SRC)) {
      const at = rel(file)
      if (!LOWER.includes(at.split('/')[0] as string) && at !== 'domain-errors.ts') continue
      for (const hit of errorCodeLiterals(readFileSync(file, 'utf8'))) bad.push(`${at}:${hit}`)
    }
    expect(bad).toEqual([])
  })

  it('finds an error code literal planted in a file, and not a number that is no code', () => {
    const planted = [
      "throw new RpcError(-32000, 'nonce too low')",
      "out.error = { code: 3, message: 'execution reverted', data }",
      '  const closed = { code: 4900, message }',
      'const codes = { nonceTooLow: -38010 }',
      "if (item.error?.code === -32600 && /batch/.test(m)) retry()",
      'if (e.code === 4900 || e.code === 4901) reconnect()',
      '// -32602 in a comment',
      '/* code: 3 */ const gas = 4900n, code = 0x00, step = { code: 0x03 }, n = -1, limit = 32000',
    ].join('\n')
    expect(errorCodeLiterals(planted)).toEqual(['1: -32000', '2: 3', '3: 4900', '4: -38010'])
  })

  it('the consensus core imports no chain, pool, execution, state, application, producer or @ethereumjs', () => {
    const files = new Map(sources(SRC).map((file) => [rel(file), readFileSync(file, 'utf8')]))
    expect(consensusReaches(files)).toEqual([])
    const planted = new Map([
      ['consensus/bft.ts', "import type { Chain } from '../chain/chain.js'\nimport { RLP } from '@ethereumjs/rlp'\nimport { keyOf } from '../hex.js'"],
      ['consensus/tendermint/x.ts', "import type { PoolEntry } from '../../txpool/pool.js'"],
      ['rpc/finality.ts', "import type { Chain } from '../chain/chain.js'"],
    ])
    expect(consensusReaches(planted)).toEqual(['consensus/bft.ts → chain/chain.js', 'consensus/bft.ts → @ethereumjs/rlp', 'consensus/tendermint/x.ts → txpool/pool.js'])
  })

  it('the Tendermint state machine signs and verifies nothing: it reaches no crypto, keys or signing module', () => {
    const reached = [...reachable(edges, 'consensus/tendermint/machine.ts')]
    expect(reached.length).toBeGreaterThan(0)
    expect(reached.filter((m) => m.startsWith('crypto/') || m === 'consensus/keys.ts' || m === 'consensus/tendermint/signing.ts')).toEqual([])
  })

  it("every namespace's handlers see only the ports it lists (methodsOf), not every service", () => {
    const files = new Map(sources(SRC).map((file) => [rel(file), readFileSync(file, 'utf8')]))
    expect(allServiceMethods(files)).toEqual([])
    expect(allServiceMethods(new Map([['rpc/eth/x.ts', "import { method, type MethodTable } from '../method.js'"], ['rpc/registry.ts', "import { method } from './method.js'"]]))).toEqual(['rpc/eth/x.ts'])
  })

  it('consensus decides on opaque proposals: it imports nothing from execution/, state/ or the application', () => {
    const bad: string[] = []
    for (const [file, targets] of edges) {
      if (!file.startsWith('consensus/')) continue
      for (const t of targets) if (['execution', 'state', 'app'].includes(t.split('/')[0] as string)) bad.push(`${file} → ${t}`)
    }
    expect(bad).toEqual([])
  })

  it('no import cycle among the modules of src/', () => {
    expect(cycles(edges).map((c) => c.join(' → '))).toEqual([])
  })

  it('only the engine reaches inside library objects: no `_` member, prototype or Object.create outside src/execution/engine/', () => {
    expect(internalTouches(sourceTexts())).toEqual([])
  })

  it('each allowed touch outside the engine is still there (a stale entry would hide a new one)', () => {
    const texts = sourceTexts()
    for (const a of INTERNAL_TOUCH_ALLOWED) expect(internalTouches(new Map([[a.file, texts.get(a.file) ?? '']]), [])).toContain(`${a.file}: ${a.match}`)
  })

  it('finds the touches it is given, and none inside the engine or in comments', () => {
    const files = new Map([
      ['chain/x.ts', "const p = (common as any)._chainParams\nconst q = c?._cache\nconst r = o['_store']"],
      ['execution/y.ts', 'Made.prototype = BlockHeader.prototype\nconst tx = Object.create(FeeMarket1559Tx.prototype)\nObject.getPrototypeOf(tx)'],
      ['execution/engine/z.ts', 'const t = (evm as any)._opcodeMap'],
      ['rpc/w.ts', '/** reads `_chainParams` */\n// o._x\nconst a = b.c_d // x._y'],
    ])
    expect(internalTouches(files, [])).toEqual([
      'chain/x.ts: ._chainParams',
      'chain/x.ts: ._cache',
      "chain/x.ts: ['_store']",
      'execution/y.ts: .prototype',
      'execution/y.ts: .prototype',
      'execution/y.ts: Object.create',
      'execution/y.ts: .prototype',
      'execution/y.ts: Object.getPrototypeOf',
    ])
  })

  it('tests beside the code import only src/ modules (not the node) and packages; no module imports a test', () => {
    const texts = [...sources(SRC, true), ...sources(SRC)].map((file) => [rel(file), readFileSync(file, 'utf8')] as const)
    expect(texts.filter(([file]) => isTest(file)).length).toBeGreaterThan(10)
    expect(testImportFaults(new Map(texts))).toEqual([])
  })

  it('finds a test beside the code that reaches test/ or the node, and a module that imports a test', () => {
    const planted = new Map([
      ['state/a.test.ts', "import { x } from '../../test/helpers/nodes.js'\nimport { y } from './mpt.js'\nimport { keccak_256 } from '@noble/hashes/sha3.js'"],
      ['crypto/b.test.ts', "import { createNode } from '../index.js'\nimport type { FinalityNode } from '../node.js'"],
      ['state/c.ts', "import { z } from './a.test.js'"],
    ])
    expect(testImportFaults(planted)).toEqual([
      'state/a.test.ts → ../../test/helpers/nodes.js',
      'crypto/b.test.ts → ../index.js',
      'crypto/b.test.ts → ../node.js',
      'state/c.ts → ./a.test.js',
    ])
  })

  it('finds a cycle it is given', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ])
    expect(cycles(g)).toEqual([['a', 'b', 'c', 'a']])
  })
})

describe('the test tree', () => {
  const ROOT = resolve(SRC, '..')
  const folders = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? [relative(SRC, join(dir, name)).split('\\').join('/'), ...folders(join(dir, name))] : []))

  it("mirrors src/: each test's folder is src/'s, or a group of what users touch; one name, one file", () => {
    const tests = [...testFiles(join(ROOT, 'test')).filter((f) => !/^test\/(user-project|prool-project|hardhat3)\//.test(f)), ...testFiles(SRC)]
    expect(tests.length).toBeGreaterThan(150)
    expect(testTreeFaults(tests, new Set(folders(SRC)), sources(SRC).map(rel))).toEqual([])
  })

  it('finds a test outside the mirror, one at the root, and a name two files share', () => {
    const tests = ['test/transports/http.test.ts', 'test/rpc/codecs.test.ts', 'test/options/x.test.ts', 'test/hardhat/calls.test.ts', 'test/viem.test.ts', 'test/adapters/ws.test.ts', 'test/fork/remote/ws.test.ts', 'test/rpc/cli.test.ts', 'test/docs/cli.test.ts']
    const modules = ['rpc/codecs.ts', 'options.ts', 'adapters/ws.ts', 'fork/remote/ws.ts']
    expect(testTreeFaults(tests, new Set(['rpc', 'adapters', 'fork', 'fork/remote']), modules)).toEqual([
      'test/transports/http.test.ts: test/transports is no folder of src/',
      'test/viem.test.ts: at the root of test/',
      'cli.test.ts: test/rpc/cli.test.ts, test/docs/cli.test.ts',
    ])
  })
})
