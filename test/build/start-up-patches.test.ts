/**
 * The build's source patches of bundled libraries (tsup.config.ts, START_UP_PATCHES) keep the
 * libraries' results: each patch's text is found in the installed library, and the replaced code
 * computes what the library's own code computes. The data-gas counts (a transaction's data gas and
 * its EIP-7623 calldata floor) are run side by side, the library's lines and the patch's, on
 * data of every shape, and so is bigIntToBytes on values of every size and on what it refuses. keccak256 through the functions the hash-wasm patch exposes equals noble's.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { hexToBytes as nobleHexToBytes } from '@noble/hashes/utils.js'
import { hexToBytes, padToEven } from '@ethereumjs/util'
import type { IHasher } from 'hash-wasm'
import { describe, expect, it } from 'vitest'
import { START_UP_PATCHES } from '../../tsup.config.js'
import { keccak256, keccak256Kept, keccak256OfHex, keccak256Word, useHasher } from '../../src/crypto/keccak.js'

const require = createRequire(import.meta.url)

function libraryFile(pattern: RegExp): string {
  if (pattern.source.startsWith('hash-wasm')) return join(dirname(require.resolve('hash-wasm/package.json')), 'dist', 'index.esm.js')
  const pkg = /@ethereumjs\[\\\\\/\]([a-z]+)/.exec(pattern.source)?.[1]
  if (pkg === undefined) throw new Error(`no package in ${pattern.source}`)
  const root = join(dirname(require.resolve(`@ethereumjs/${pkg}`)), '..', '..')
  const rel = pattern.source.replace(/^.*dist\[\\\\\/\]/, 'dist/').replace(/\[\\\\\/\]/g, '/').replace(/\\\./g, '.').replace(/\$$/, '')
  return join(root, rel)
}

const patch = (why: string) => START_UP_PATCHES.find((p) => p.why.startsWith(why)) ?? expect.fail(`no patch "${why}"`)

/** Inputs of every shape: empty, all zero, none zero, mixed, and a contract's initcode length. */
function samples(): Uint8Array[] {
  let seed = 7
  const random = (n: number, zeroShare: number) =>
    Uint8Array.from({ length: n }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed / 2 ** 31 < zeroShare ? 0 : 1 + (seed % 255)
    })
  return [new Uint8Array(0), new Uint8Array(68), new Uint8Array(33).fill(0xff), Uint8Array.of(0), Uint8Array.of(1), random(68, 0.5), random(3092, 0.3), random(1000, 0.9)]
}

describe('the build\'s start-up patches', () => {
  it('each patch\'s text is in the installed library (the build fails otherwise)', () => {
    for (const p of START_UP_PATCHES) expect(readFileSync(libraryFile(p.file), 'utf8'), p.why).toContain(p.from)
  })

  it('behavior: the data gas, counted with numbers, is the library\'s per-byte BigInt sum', () => {
    const p = patch("a transaction's data gas")
    const args = ['tx', 'txDataZero', 'txDataNonZero', 'BIGINT_0', 'ZERO_BYTES_OF_DATA']
    const library = new Function(...args, `${p.from}\nreturn cost`) as (...a: unknown[]) => bigint
    const patched = new Function(...args, `${p.to}\nreturn cost`) as (...a: unknown[]) => bigint
    // The patch's declaration of the memo, as the module gets it.
    const memo = patch('the zero bytes of a large data array')
    expect(memo.to).toContain('const ZERO_BYTES_OF_DATA = new WeakMap();')
    const zeros = new WeakMap()
    for (const data of samples()) {
      for (const [zero, nonZero] of [[4n, 16n], [4n, 68n], [0n, 1n]] as const) {
        // Twice: the second count of a large array comes from the memo.
        expect(patched({ data }, zero, nonZero, 0n, zeros)).toBe(library({ data }, zero, nonZero, 0n))
        expect(patched({ data }, zero, nonZero, 0n, zeros)).toBe(library({ data }, zero, nonZero, 0n))
      }
    }
    expect(patched({ data: Uint8Array.of(0, 1, 0, 2) }, 4n, 16n, 0n, zeros)).toBe(40n)
  })

  it('behavior: the calldata floor\'s tokens, counted with numbers, are the library\'s', () => {
    const p = patch('the same for the calldata floor')
    const library = new Function('tx', 'start', `let tokens = start;\n${p.from}\nreturn tokens`) as (tx: unknown, start: bigint) => bigint
    const patched = new Function('tx', 'start', `let tokens = start;\n${p.to}\nreturn tokens`) as (tx: unknown, start: bigint) => bigint
    for (const data of samples()) expect(patched({ data }, 0n)).toBe(library({ data }, 0n))
    expect(patched({ data: Uint8Array.of(0, 1, 0, 2) }, 0n)).toBe(10n)
  })

  it('behavior: bigIntToBytes without the prefix gives the library\'s bytes, and a negative or a non-bigint the library\'s answer', () => {
    const p = patch('bigIntToBytes of a non-negative bigint')
    const make = (line: string) =>
      new Function('hexToBytes', 'hexToBytesNoble', 'padToEven', `return (num, littleEndian = false) => {\n${line}\nreturn littleEndian ? bytes.reverse() : bytes\n}`)(
        hexToBytes,
        nobleHexToBytes,
        padToEven,
      ) as (num: unknown, littleEndian?: boolean) => Uint8Array
    const library = make(p.from)
    const patched = make(p.to)
    const answer = (f: typeof library, num: unknown, le?: boolean): string => {
      try {
        return Buffer.from(f(num, le)).toString('hex')
      } catch (e) {
        return `threw ${(e as Error).message}`
      }
    }
    const values: unknown[] = [0n, 1n, 15n, 16n, 255n, 256n, 0xabcn, 2n ** 64n - 1n, 2n ** 160n - 1n, 2n ** 255n, 2n ** 256n - 1n, 2n ** 300n + 7n, -1n, -(2n ** 70n), 0, 5, 1.5, -3, 'ff']
    for (let i = 0n; i < 300n; i += 7n) values.push(3n ** i)
    for (const v of values) for (const le of [false, true]) expect(answer(patched, v, le), `${String(v)} ${le}`).toBe(answer(library, v, le))
    expect(answer(patched, 0x0102n)).toBe('0102')
    expect(answer(patched, 0x102n)).toBe('0102')
    expect(answer(patched, -1n)).toMatch(/^threw /)
  })

  it('behavior: keccak256 through the keccak module\'s exposed functions equals noble\'s, kept, from hex and across the 16 KB input area', async () => {
    const p = patch("the keccak module's own functions")
    const dir = mkdtempSync(join(tmpdir(), 'finality-hash-wasm-'))
    try {
      const file = join(dir, 'index.esm.mjs')
      writeFileSync(file, readFileSync(libraryFile(p.file), 'utf8').replace(p.from, p.to))
      const { createKeccak } = (await import(pathToFileURL(file).href)) as { createKeccak(bits: number): Promise<IHasher & { exports?: unknown }> }
      const hasher = await createKeccak(256)
      expect(hasher.exports).toBeDefined()
      useHasher(hasher)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')
    const input = (length: number) => Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 0xff)
    const lengths = [...Array.from({ length: 301 }, (_, i) => i), 16_383, 16_384, 16_385, 40_000]
    const answers: Uint8Array[] = []
    for (const length of lengths) {
      const expected = hex(keccak_256(input(length)))
      const answer = keccak256(input(length))
      answers.push(answer)
      expect(hex(answer), `${length} bytes`).toBe(expected)
      expect(hex(keccak256Kept(input(length))), `${length} bytes, kept`).toBe(expected)
      // A view into a larger array, as trie nodes and words are hashed.
      expect(hex(keccak256(new Uint8Array([1, ...input(length), 2]).subarray(1, length + 1))), `${length} bytes, a view`).toBe(expected)
      // As the EVM's KECCAK256 hashes its memory: a range of a larger array, into a bigint.
      expect(keccak256Word(new Uint8Array([1, 2, 3, ...input(length), 4]), 3, length), `${length} bytes, as a word`).toBe(BigInt(`0x${expected}`))
    }
    // Each answer is its own array: a later hash does not change an earlier answer.
    for (const [i, length] of lengths.entries()) expect(hex(answers[i]!)).toBe(hex(keccak_256(input(length))))
    for (const h of ['', 'ab', 'f39fd6e51aad88f6f4ce6ab8827279cfffb92266', 'ff'.repeat(64), 'ee'.repeat(65)]) {
      const expected = hex(keccak_256(Uint8Array.from(Buffer.from(h, 'hex'))))
      expect(hex(keccak256OfHex(h, false))).toBe(expected)
      expect(hex(keccak256OfHex(h, true))).toBe(expected)
    }
  })
})
