/**
 * The word conversions (src/hex.ts) behind the faster MLOAD / MSTORE / SLOAD / LOG handlers agree with the
 * plain definitions on every size of value, and the handlers are in the opcode table of the
 * EVM that runs code (an ERC20's MSTOREs, SLOADs and LOG3 give the same results as before:
 * the token and conformance suites run through them).
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { createEVM } from '@ethereumjs/evm'
import { Account, createAddressFromString } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { isPatched, patchOpcodeTable } from './fast-opcodes.js'
import { toBigInt as wordToBigInt, word as word32, wordAt } from '../../hex.js'
import { keccak256 } from '../../crypto/keccak.js'
import { createEngineEVM, installEngine } from './index.js'

function reference(value: bigint): string {
  return value.toString(16).padStart(64, '0')
}

const samples: bigint[] = [0n, 1n, 0xffn, 0x100n, 0xffffffffffffn, 0x1000000000000n, 2n ** 64n - 1n, 2n ** 160n - 1n, 2n ** 255n, 2n ** 256n - 1n]
for (let bits = 1; bits <= 256; bits += 7) samples.push((2n ** BigInt(bits)) / 3n + BigInt(bits))

describe('word32 / wordToBigInt', () => {
  it.each(samples)('word32(%s) is the 32-byte big-endian word and reads back', (v) => {
    const word = word32(v)
    expect(word.length).toBe(32)
    expect(Buffer.from(word).toString('hex')).toBe(reference(v))
    expect(wordToBigInt(word)).toBe(v)
  })

  it('wordAt reads the 32-byte word at any offset of a larger array, every value size', () => {
    for (const v of samples) {
      for (const at of [0, 1, 31, 40]) {
        const bytes = new Uint8Array(at + 40).fill(0xee)
        bytes.set(word32(v), at)
        expect(wordAt(bytes, at)).toBe(v)
      }
    }
  })

  it('wordToBigInt reads unpadded values of every length', () => {
    for (let length = 0; length <= 32; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 53 + 7) & 0xff)
      const expected = length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`)
      expect(wordToBigInt(bytes)).toBe(expected)
    }
  })
})

const X = Array.from({ length: 32 }, (_, i) => i + 1)
const Y = Array.from({ length: 32 }, (_, i) => 0xff - i)
// MSTORE X at 0, MLOAD it, SSTORE it at slot 7, SLOAD it, MSTORE it at 32,
// LOG2(data = memory[0..64], topics Y and 5), RETURN memory[0..64].
const BODY = [
  0x7f, ...X, 0x60, 0x00, 0x52, 0x60, 0x00, 0x51, 0x60, 0x07, 0x55, 0x60, 0x07, 0x54, 0x60, 0x20, 0x52,
  0x60, 0x05, 0x7f, ...Y, 0x60, 0x40, 0x60, 0x00, 0xa2,
  0x60, 0x40, 0x60, 0x00, 0xf3,
]
// The same behind a jump (PUSH1 4, JUMP, INVALID, JUMPDEST), run on the engine's EVM (whose
// table is patched before its first frame runs); BODY runs on the library's own EVM
// (`library`), whose handlers are the original ones.
const JUMP_FIRST = [0x60, 0x04, 0x56, 0xfe, 0x5b, ...BODY]

async function run(code: number[], library = false) {
  const evm = await (library ? createEVM : createEngineEVM)({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }) })
  const to = createAddressFromString('0x00000000000000000000000000000000000c0de5')
  await evm.stateManager.putAccount(to, new Account())
  const result = await evm.runCode({ code: Uint8Array.from(code), gasLimit: 1_000_000n, to })
  return { ...result, patched: isPatched((evm as unknown as { _opcodeMap: object })._opcodeMap) }
}

describe('the patched handlers', () => {
  it('behavior: MLOAD, MSTORE, SLOAD and LOG give what the original handlers give', async () => {
    await installEngine()
    const original = await run(BODY, true)
    const patched = await run(JUMP_FIRST)
    expect([original.patched, patched.patched]).toEqual([false, true])
    expect(original.exceptionError).toBeUndefined()
    expect(patched.exceptionError).toBeUndefined()
    expect(Buffer.from(patched.returnValue).toString('hex')).toBe(Buffer.from(original.returnValue).toString('hex'))
    expect(Buffer.from(patched.returnValue.subarray(32)).toString('hex')).toBe(Buffer.from(X).toString('hex'))
    const logs = (r: typeof original) => (r.logs ?? []).map(([address, topics, data]) => [address, topics.map((t) => Buffer.from(t).toString('hex')), Buffer.from(data).toString('hex')])
    expect(logs(patched)).toEqual(logs(original))
    expect(logs(patched)[0]?.[1]).toEqual([Buffer.from(Y).toString('hex'), reference(5n)])
    // PUSH1 + JUMP + JUMPDEST: 3 + 8 + 1 gas more, nothing else.
    expect(patched.executionGasUsed).toBe(original.executionGasUsed + 12n)
  })
})

const MAX = 2n ** 256n - 1n
const OPERANDS = [0n, 1n, 2n, 3n, 255n, 256n, 257n, 2n ** 64n + 5n, 2n ** 255n, MAX - 1n, MAX]
/** The EVM's two-operand opcodes the engine replaces, with their definitions (a: the top). */
const BINARY: Array<[string, number, (a: bigint, b: bigint) => bigint]> = [
  ['ADD', 0x01, (a, b) => (a + b) % 2n ** 256n],
  ['MUL', 0x02, (a, b) => (a * b) % 2n ** 256n],
  ['SUB', 0x03, (a, b) => (((a - b) % 2n ** 256n) + 2n ** 256n) % 2n ** 256n],
  ['DIV', 0x04, (a, b) => (b === 0n ? 0n : a / b)],
  ['LT', 0x10, (a, b) => (a < b ? 1n : 0n)],
  ['GT', 0x11, (a, b) => (a > b ? 1n : 0n)],
  ['EQ', 0x14, (a, b) => (a === b ? 1n : 0n)],
  ['AND', 0x16, (a, b) => a & b],
  ['OR', 0x17, (a, b) => a | b],
  ['XOR', 0x18, (a, b) => a ^ b],
  ['SHL', 0x1b, (a, b) => (a >= 256n ? 0n : (b << a) % 2n ** 256n)],
  ['SHR', 0x1c, (a, b) => (a >= 256n ? 0n : b >> a)],
]
const push32 = (v: bigint) => [0x7f, ...Buffer.from(v.toString(16).padStart(64, '0'), 'hex')]

describe('the two-operand and jump handlers', () => {
  it.each(BINARY)('behavior: %s gives what the library gives and what the opcode defines, on edge operands', async (_name, opcode, definition) => {
    await installEngine()
    // For each pair: PUSH32 b, PUSH32 a, OP, PUSH2 at, MSTORE; then RETURN all the words.
    const pairs = OPERANDS.flatMap((a) => OPERANDS.map((b) => [a, b] as const))
    const body = pairs.flatMap(([a, b], i) => [...push32(b), ...push32(a), opcode, 0x61, (i * 32) >> 8, (i * 32) & 0xff, 0x52])
    const size = pairs.length * 32
    const code = [...body, 0x61, size >> 8, size & 0xff, 0x60, 0x00, 0xf3]
    const original = await run(code, true)
    const patched = await run([0x60, 0x04, 0x56, 0xfe, 0x5b, ...code])
    expect([original.patched, patched.patched]).toEqual([false, true])
    expect(patched.exceptionError).toBeUndefined()
    const expected = pairs.map(([a, b]) => reference(definition(a, b))).join('')
    expect(Buffer.from(original.returnValue).toString('hex')).toBe(expected)
    expect(Buffer.from(patched.returnValue).toString('hex')).toBe(expected)
    expect(patched.executionGasUsed).toBe(original.executionGasUsed + 12n)
  })

  it.each(BINARY)('behavior: %s on a stack of one item fails as the library does', async (_name, opcode) => {
    await installEngine()
    const original = await run([0x60, 0x01, opcode], true)
    const patched = await run([0x60, 0x04, 0x56, 0xfe, 0x5b, 0x60, 0x01, opcode])
    expect(patched.patched).toBe(true)
    expect(patched.exceptionError?.error).toBe('stack underflow')
    expect(patched.exceptionError?.error).toBe(original.exceptionError?.error)
  })

  it('behavior: JUMP and JUMPI go where the library goes and fail where it fails', async () => {
    await installEngine()
    // JUMPI taken (cond 1) to 12, not taken (cond 0), JUMP to 17, then RETURN 32 bytes holding 0x2a.
    // pc 0: PUSH1 12, PUSH1 1, JUMPI (pc 4), INVALID, ... pc 12: JUMPDEST
    const ok = [0x60, 0x04, 0x56, 0xfe, 0x5b, 0x60, 0x01, 0x60, 0x0c, 0x57, 0xfe, 0xfe, 0x5b, 0x60, 0x00, 0x60, 0x00, 0x57, 0x60, 0x17, 0x56, 0xfe, 0xfe, 0x5b, 0x60, 0x2a, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3]
    const done = await run(ok)
    expect(done.patched).toBe(true)
    expect(done.exceptionError).toBeUndefined()
    expect(Buffer.from(done.returnValue).toString('hex')).toBe(reference(0x2an))
    // Into a PUSH's data, past the code, and a JUMPI with a stack of one: the library's errors.
    for (const tail of [[0x60, 0x01, 0x60, 0x06, 0x57], [0x61, 0x01, 0x00, 0x56], [0x60, 0x01, 0x57]]) {
      const failed = await run([0x60, 0x04, 0x56, 0xfe, 0x5b, ...tail])
      const library = await run([0x60, 0x04, 0x56, 0xfe, 0x5b, ...tail].slice(5))
      expect(failed.exceptionError?.error).toBeDefined()
      expect(failed.exceptionError?.error.split(' at ')[0]).toBe(library.exceptionError?.error.split(' at ')[0])
      expect(failed.executionGasUsed).toBe(1_000_000n)
    }
  })
})

describe('the synchronous memory gas handlers', () => {
  type Gas = (runState: unknown, gas: bigint, common: unknown) => bigint | Promise<bigint>
  const table = async () => {
    const evm = await createEngineEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }) })
    return { map: (evm as unknown as { _opcodeMap: Array<{ gasHandler: Gas }> })._opcodeMap, common: evm.common }
  }
  // [offset, length] pairs: no expansion, growth within a word, growth by many words, zero length
  // at a huge offset, and a shrink after a larger memory was paid for.
  const accesses: Array<[bigint, bigint]> = [[0n, 32n], [1n, 32n], [31n, 1n], [64n, 0n], [2n ** 40n, 0n], [1000n, 64n], [4096n, 33n], [0n, 1n]]
  const opcodes = { KECCAK256: 0x20, MLOAD: 0x51, MSTORE: 0x52, MSTORE8: 0x53, RETURN: 0xf3, REVERT: 0xfd }

  it.each(Object.entries(opcodes))('behavior: %s charges what the library charges, with the same memory bookkeeping', async (_name, opcode) => {
    await installEngine()
    const pristine = await table()
    const patched = await table()
    patchOpcodeTable(patched.map)
    const original = pristine.map[opcode]!.gasHandler
    const fast = patched.map[opcode]!.gasHandler
    expect(fast).not.toBe(original)
    const state = (words: bigint, paid: bigint, offset: bigint, length: bigint) => ({
      memoryWordCount: words,
      highestMemCost: paid,
      // The library's stack keeps its top last in `_store` (the fast handlers read it there).
      stack: { peek: (n = 1) => [offset, length].slice(0, n), _store: [length, offset], length: 2 },
    })
    for (const [words, paid] of [[0n, 0n], [2n, 6n], [40n, 400n]] as Array<[bigint, bigint]>) {
      for (const [offset, length] of accesses) {
        const a = state(words, paid, offset, length)
        const b = state(words, paid, offset, length)
        const charged = fast(b, 3n, patched.common)
        expect(typeof charged).toBe('bigint')
        expect(charged).toBe(await original(a, 3n, pristine.common))
        expect([b.memoryWordCount, b.highestMemCost]).toEqual([a.memoryWordCount, a.highestMemCost])
      }
    }
  })
})

describe('CALLDATALOAD and KECCAK256', () => {
  // CALLDATALOAD at 0, 20 (partly past the end), 40 (at the end) and 1000 (past it), each stored
  // in memory; KECCAK256 of the 128 bytes written and of nothing; RETURN memory[0..192].
  const loads = [0, 20, 40, 1000].flatMap((at, i) => [0x61, at >> 8, at & 0xff, 0x35, 0x60, i * 32, 0x52])
  const BODY2 = [...loads, 0x60, 0x80, 0x60, 0x00, 0x20, 0x60, 0x80, 0x52, 0x60, 0x00, 0x60, 0x00, 0x20, 0x60, 0xa0, 0x52, 0x60, 0xc0, 0x60, 0x00, 0xf3]
  const data = Uint8Array.from({ length: 40 }, (_, i) => 0xa0 + i)

  async function runWith(code: number[], library = false) {
    const evm = await (library ? createEVM : createEngineEVM)({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague, customCrypto: { keccak256: (d: Uint8Array) => keccak256(d) } }) })
    const result = await evm.runCode({ code: Uint8Array.from(code), data, gasLimit: 1_000_000n })
    return { ...result, patched: isPatched((evm as unknown as { _opcodeMap: object })._opcodeMap) }
  }

  it('behavior: the same words and hashes as the original handlers', async () => {
    await installEngine()
    const original = await runWith(BODY2, true)
    const patched = await runWith([0x60, 0x04, 0x56, 0xfe, 0x5b, ...BODY2])
    expect([original.patched, patched.patched]).toEqual([false, true])
    expect(patched.exceptionError).toBeUndefined()
    const out = Buffer.from(patched.returnValue).toString('hex')
    expect(out).toBe(Buffer.from(original.returnValue).toString('hex'))
    expect(out.slice(0, 64)).toBe(Buffer.from(data.subarray(0, 32)).toString('hex'))
    expect(out.slice(64, 128)).toBe(Buffer.from(data.subarray(20, 40)).toString('hex') + '00'.repeat(12))
    expect(out.slice(128, 256)).toBe('00'.repeat(64))
    expect(out.slice(320, 384)).toBe(Buffer.from(keccak256(new Uint8Array(0))).toString('hex'))
    expect(patched.executionGasUsed).toBe(original.executionGasUsed + 12n)
  })
})
