/**
 * The word conversions (src/hex.ts) behind the faster MLOAD / MSTORE / SLOAD / LOG handlers agree with the
 * plain definitions on every size of value, and the handlers are in the opcode table of the
 * EVM that runs code (an ERC20's MSTOREs, SLOADs and LOG3 give the same results as before:
 * the token and conformance suites run through them).
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { Account, createAddressFromString } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { isPatched, patchOpcodeTable } from './fast-opcodes.js'
import { toBigInt as wordToBigInt, word as word32 } from '../../hex.js'
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
// The same behind a jump (PUSH1 4, JUMP, INVALID, JUMPDEST): the jump-destination analysis
// runs first, so the rest runs on the patched handlers. Without a jump nothing is analysed, so
// a fresh EVM runs BODY on the original handlers.
const JUMP_FIRST = [0x60, 0x04, 0x56, 0xfe, 0x5b, ...BODY]

async function run(code: number[]) {
  const evm = await createEngineEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }) })
  const to = createAddressFromString('0x00000000000000000000000000000000000c0de5')
  await evm.stateManager.putAccount(to, new Account())
  const result = await evm.runCode({ code: Uint8Array.from(code), gasLimit: 1_000_000n, to })
  return { ...result, patched: isPatched((evm as unknown as { _opcodeMap: object })._opcodeMap) }
}

describe('the patched handlers', () => {
  it('behavior: MLOAD, MSTORE, SLOAD and LOG give what the original handlers give', async () => {
    await installEngine()
    const original = await run(BODY)
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
      stack: { peek: (n = 1) => [offset, length].slice(0, n) },
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

  async function runWith(code: number[]) {
    const evm = await createEngineEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague, customCrypto: { keccak256: (d: Uint8Array) => keccak256(d) } }) })
    const result = await evm.runCode({ code: Uint8Array.from(code), data, gasLimit: 1_000_000n })
    return { ...result, patched: isPatched((evm as unknown as { _opcodeMap: object })._opcodeMap) }
  }

  it('behavior: the same words and hashes as the original handlers', async () => {
    await installEngine()
    const original = await runWith(BODY2)
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
