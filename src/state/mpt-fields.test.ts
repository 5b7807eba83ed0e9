/**
 * The trie's nodes keep one kind of field from the start (mpt.ts, `generalizeNodeFields`): a run
 * that changes nodes in place, hashes them, stores them and loads them back makes V8 generalise
 * none of their fields (`--trace-generalization`), so no optimised code that read them is thrown
 * away mid-run, even when a collection between the module's loading and the run's first node would
 * have freed the hidden classes the set-up generalised. A child process: the trace covers the
 * whole process, and the module's own set-up (which generalises them on purpose) is told apart
 * from the run by a field the script generalises where the run starts (V8 prints its trace through
 * C's buffered output, which a line the script printed itself would not keep its place in).
 */
import { spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const MPT = path.join(ROOT, 'src', 'state', 'mpt.ts')
/** A field the script generalises where its run starts: V8 prints that through the same buffered stream as the rest. */
const MARK = 'runStartsHere'

const SCRIPT = `
import { loadNode, nibbles, persist, refNode, rootHash, trieGetAtNow, trieSetAtNow } from ${JSON.stringify(MPT)}
const key = (i) => { const k = new Uint8Array(32); k[0] = i & 15; k[1] = i >> 4; k[31] = i; return nibbles(k) }
const short = (i) => nibbles(Uint8Array.of(0x12, 0x30 + (i & 7)))
// Collected now, the hidden classes the module's set-up generalised would be made anew by the run's first nodes.
globalThis.gc()
globalThis.gc()
const mark = { ${MARK}: 1 }
mark.${MARK} = 2
const map = new Map()
const source = { get: async (k) => map.get(k) }
let root = null
for (let round = 0; round < 3; round++) {
  // Owned writes: a leaf's and a branch's value and an extension's child changed in place.
  for (let i = 0; i < 40; i++) root = await trieSetAtNow(root, key(i), Uint8Array.of(round, i), source, true)
  for (let i = 0; i < 8; i++) root = await trieSetAtNow(root, short(i), Uint8Array.of(round + 1), source, true)
  root = await trieSetAtNow(root, nibbles(Uint8Array.of(0x12)), Uint8Array.of(round + 2), source, true)
  rootHash(root)
  // Stored (stored, enc), then read back through the store (enc, hs, ho of loaded nodes).
  const hash = persist(root, (k, v) => void map.set(k, v))
  const loaded = await loadNode(refNode(hash), source)
  const read = loaded
  for (let i = 0; i < 40; i++) {
    const got = trieGetAtNow(read, key(i), source)
    if (got instanceof Promise) await got
  }
  root = loaded
}
`

/**
 * Runs the script with V8's trace on; the trace as written. Its output goes to a file, not a pipe:
 * V8 writes the trace through C's buffered output, whose tail a pipe's reader did not always get.
 */
function run(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'finality-mpt-fields-'))
  const file = path.join(dir, 'fields.mts')
  const log = path.join(dir, 'trace.txt')
  writeFileSync(file, SCRIPT)
  const fd = openSync(log, 'w')
  // --no-sparkplug: Node 20's V8 stops on a failed check printing a baseline frame's position in this trace.
  const child = spawn(process.execPath, ['--trace-generalization', '--no-sparkplug', '--expose-gc', '--import', 'tsx', file], { cwd: ROOT, stdio: ['ignore', fd, fd] })
  closeSync(fd)
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => (code === 0 ? resolve(readFileSync(log, 'utf8')) : reject(new Error(`exit ${code}: ${readFileSync(log, 'utf8').slice(-2000)}`))))
  })
}

describe('trie nodes’ fields', () => {
  test('behavior: writes in place, hashing, storing and loading generalise no field of a node after the module has loaded', async () => {
    const out = await run()
    const lines = out.split('\n')
    const start = lines.findIndex((l) => l.startsWith(`[generalizing]${MARK}:`))
    expect(start).toBeGreaterThan(0)
    // A node's fields, in mpt.ts; `fromHexPrefix`'s `{ path, leaf }` is no node.
    const nodeField = (l: string) => /^\[generalizing\](t|path|value|child|children|enc|hs|ho|stored):/.test(l) && l.includes('mpt.ts') && !l.includes('~fromHexPrefix+')
    // The run's trace does name mpt.ts (other objects of it, a walk's state), so the check below can see a node's field.
    expect(lines.slice(start).some((l) => l.startsWith('[generalizing]') && l.includes('mpt.ts'))).toBe(true)
    const after = lines.slice(start).filter(nodeField)
    expect(after).toEqual([])
  }, 60_000)
})
