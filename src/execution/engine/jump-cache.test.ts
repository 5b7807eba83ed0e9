/**
 * The jump-destination cache (src/execution/engine/jump-cache.ts) changes no result: code runs the
 * same when cached, and a buffer reused for other code is analysed again.
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { describe, expect, it } from 'vitest'
import { createEngineEVM, installEngine } from './index.js'
import { cached } from './jump-cache.js'

// PUSH1 5, JUMP, INVALID, INVALID, JUMPDEST (at 5), PUSH1 42, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN
const JUMPS_TO_5 = Uint8Array.from([0x60, 0x05, 0x56, 0xfe, 0xfe, 0x5b, 0x60, 0x2a, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3])

async function run(code: Uint8Array) {
  const evm = await createEngineEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }) })
  return evm.runCode({ code, gasLimit: 100_000n })
}

describe('the jump-destination cache', () => {
  it('behavior: the same code gives the same result on every run once the cache is installed', async () => {
    await installEngine()
    for (let i = 0; i < 3; i++) {
      const result = await run(JUMPS_TO_5)
      expect(result.exceptionError).toBeUndefined()
      expect(BigInt(`0x${Buffer.from(result.returnValue).toString('hex')}`)).toBe(42n)
    }
  })

  it('behavior: a buffer changed in place after a run is analysed again (no stale jump table)', async () => {
    await installEngine()
    // One EVM (one opcode table) and one buffer: only the bytes change between the runs.
    const evm = await createEngineEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }) })
    const code = JUMPS_TO_5.slice()
    expect((await evm.runCode({ code, gasLimit: 100_000n })).exceptionError).toBeUndefined()
    // Byte 5 is no longer a JUMPDEST: the same jump must now fail.
    code[5] = 0x00
    const result = await evm.runCode({ code, gasLimit: 100_000n })
    expect(result.exceptionError?.error).toMatch(/^invalid JUMP/)
  })
})

describe('the jump-destination cache by content', () => {
  // A stand-in for the library's analysis (the EIP-8024 path calls it), counting its calls.
  function counting() {
    const calls: Uint8Array[] = []
    const analyse = cached(function (code: Uint8Array) {
      calls.push(code)
      return { analysed: code.length }
    })
    const self = { _evm: { _opcodeMap: [] as unknown[] }, common: { isActivatedEIP: (eip: number) => eip === 8024 } }
    return { calls, analyse: (code: Uint8Array) => analyse.call(self, code) }
  }

  it('behavior: the same code in a new array is not analysed again; other code is', () => {
    const { calls, analyse } = counting()
    const first = analyse(JUMPS_TO_5.slice())
    expect(analyse(JUMPS_TO_5.slice())).toBe(first)
    expect(calls).toHaveLength(1)
    const other = JUMPS_TO_5.slice()
    other[15] = 0x00
    expect(analyse(other)).not.toBe(first)
    expect(calls).toHaveLength(2)
  })

  it('behavior: past its bound the oldest code is dropped and analysed again when it comes back', () => {
    const { calls, analyse } = counting()
    const big = (fill: number) => new Uint8Array(512 * 1024).fill(fill)
    for (let i = 1; i <= 5; i++) analyse(big(i))
    expect(calls).toHaveLength(5)
    analyse(big(5))
    expect(calls).toHaveLength(5)
    analyse(big(1))
    expect(calls).toHaveLength(6)
  })
})

describe('the interpreter after its run', () => {
  it('behavior: a run state still names its environment (runState.env), whose copy the result no longer spreads', async () => {
    await installEngine()
    const result = await run(JUMPS_TO_5)
    const runState = (result as unknown as { runState: { env: { code: Uint8Array; depth: number }; programCounter: number } }).runState
    expect(runState.env.code).toEqual(JUMPS_TO_5)
    expect(runState.env.depth).toBe(0)
    expect(runState.programCounter).toBeGreaterThan(0)
  })
})
