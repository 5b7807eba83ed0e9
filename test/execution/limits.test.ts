/**
 * The call limits of the spec's settings: `rpc-gas-cap` (limits.rpcGasCap; 0 = none, above it the
 * call gas is capped) and `rpc-evm-timeout` (limits.rpcEvmTimeoutMs; default 10 s): a call that
 * runs longer is aborted with -32000 `execution aborted (timeout = …)` while the node keeps
 * producing blocks and answering other requests.
 */
import { describe, expect, it } from 'vitest'
import type { Clock } from '../../src/clock.js'
import { goDuration } from '../../src/execution/timeout.js'
import { DEFAULT_LIMITS } from '../../src/limits.js'
import { qty, rpcError, sender, testNode } from '../helpers/execution.js'

/** Runtime code: JUMPDEST PUSH1 0 JUMP, an infinite loop. */
const LOOP = '0x00000000000000000000000000000000000100f0'
/** Runtime code: returns the gas left after GAS (the call's gas − 21000 − 2). */
const GAS = '0x00000000000000000000000000000000000100f1'
const alloc = { [LOOP]: { code: '0x5b600056' as const }, [GAS]: { code: '0x5a60005260206000f3' as const } }

function turns(n: number): Promise<void> {
  return n === 0 ? Promise.resolve() : new Promise((resolve) => setImmediate(() => void turns(n - 1).then(resolve)))
}

function fakeClock(start: number, step = 0): Clock & { set(ms: number): void; now(): number } {
  let t = start
  return {
    now: () => (t += step),
    set: (ms) => {
      t = ms
    },
    setTimer: (fn, ms) => {
      const timer = setTimeout(fn, ms)
      return () => clearTimeout(timer)
    },
  }
}

describe('rpc-gas-cap', () => {
  it('default: 0, no cap; the call gets the gas it asks for', async () => {
    expect(DEFAULT_LIMITS.rpcGasCap).toBe(0n)
    const node = await testNode({ alloc })
    const out = await node.request({ method: 'eth_call', params: [{ to: GAS, gas: qty(50_000_000n) }] })
    expect(BigInt(out as string)).toBe(50_000_000n - 21_002n)
    await node.close()
  })

  it('at N the call runs with N; at N+1 it is capped to N; without gas the cap applies', async () => {
    const N = 100_000n
    const node = await testNode({ alloc, limits: { rpcGasCap: N } })
    const at = await node.request({ method: 'eth_call', params: [{ to: GAS, gas: qty(N) }] })
    const past = await node.request({ method: 'eth_call', params: [{ to: GAS, gas: qty(N + 1n) }] })
    const none = await node.request({ method: 'eth_call', params: [{ to: GAS }] })
    expect(BigInt(at as string)).toBe(N - 21_002n)
    expect(past).toBe(at)
    expect(none).toBe(at)
    await node.close()
  })

  it('eth_estimateGas: a need of N fits a cap of N, not a cap of N-1', async () => {
    const fits = await testNode({ limits: { rpcGasCap: 21_000n } })
    const transfer = { from: sender(fits), to: sender(fits, 1), value: qty(1) }
    expect(await fits.request({ method: 'eth_estimateGas', params: [transfer] })).toBe('0x5208')
    await fits.close()
    const short = await testNode({ limits: { rpcGasCap: 20_999n } })
    const e = await rpcError(short, 'eth_estimateGas', [transfer])
    expect(e).toMatchObject({ code: -32000, message: 'gas required exceeds allowance (20999)' })
    await short.close()
  })
})

describe('rpc-evm-timeout', () => {
  it('default: 10 s, worded as geth prints durations', () => {
    expect(DEFAULT_LIMITS.rpcEvmTimeoutMs).toBe(10_000)
    expect(goDuration(10_000)).toBe('10s')
    expect(goDuration(1500)).toBe('1.5s')
    expect(goDuration(250)).toBe('250ms')
    expect(goDuration(90_000)).toBe('1m30s')
    expect(goDuration(3_600_000)).toBe('1h0m0s')
  })

  it('at N-1 ms the call still runs, at N it is aborted; meanwhile the node answers and mines', async () => {
    const clock = fakeClock(1_700_000_000_000)
    const node = await testNode({ alloc, clock, limits: { rpcEvmTimeoutMs: 1000 } })
    const start = clock.now()
    const running = node.request({ method: 'eth_call', params: [{ to: LOOP, gas: '0xffffffffffff' }] })
    let settled = false
    const outcome = running.then(
      () => ({ ok: true as const }),
      (error: unknown) => ({ ok: false as const, error }),
    )
    void outcome.then(() => {
      settled = true
    })
    await turns(10)
    clock.set(start + 999)
    await turns(10)
    expect(settled).toBe(false)
    expect(await node.request({ method: 'eth_blockNumber' })).toBe('0x0')
    const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from: sender(node), to: sender(node, 1), value: '0x1' }] })
    const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: string; blockNumber: string }
    expect(receipt).toMatchObject({ status: '0x1', blockNumber: '0x1' })
    expect(settled).toBe(false)
    clock.set(start + 1000)
    const result = await outcome
    expect(result.ok).toBe(false)
    expect(result.ok ? undefined : result.error).toMatchObject({ code: -32000, message: 'execution aborted (timeout = 1s)' })
    expect(await node.request({ method: 'eth_call', params: [{ to: GAS, gas: '0x186a0' }] })).toBe(`0x${(100_000n - 21_002n).toString(16).padStart(64, '0')}`)
    await node.close()
  })

  it('on the system clock: a 200 ms limit aborts an infinite loop while other requests complete', async () => {
    const node = await testNode({ alloc, limits: { rpcEvmTimeoutMs: 200 } })
    const t0 = Date.now()
    const running = rpcError(node, 'eth_call', [{ to: LOOP, gas: '0xffffffffffff' }])
    const order: string[] = []
    const others = (async () => {
      await node.request({ method: 'eth_blockNumber' })
      order.push('blockNumber')
      await node.request({ method: 'eth_sendTransaction', params: [{ from: sender(node), to: sender(node, 1), value: '0x1' }] })
      order.push('transfer')
    })()
    const error = await running
    order.push('aborted')
    await others
    expect(error).toEqual({ code: -32000, message: 'execution aborted (timeout = 200ms)', data: undefined })
    expect(order).toEqual(['blockNumber', 'transfer', 'aborted'])
    expect(Date.now() - t0).toBeGreaterThanOrEqual(199)
    expect(Date.now() - t0).toBeLessThan(5000)
    expect(await node.request({ method: 'eth_blockNumber' })).toBe('0x1')
    await node.close()
  })

  it('eth_estimateGas shares one deadline across its runs', async () => {
    const node = await testNode({ alloc, limits: { rpcEvmTimeoutMs: 100 } })
    const e = await rpcError(node, 'eth_estimateGas', [{ to: LOOP, gas: '0xffffffffffff' }])
    expect(e).toMatchObject({ code: -32000, message: 'execution aborted (timeout = 100ms)' })
    await node.close()
  })

  it('0 turns the limit off: a clock racing ahead never aborts the call', async () => {
    const racing = fakeClock(1_700_000_000_000, 1_000_000)
    const off = await testNode({ alloc, clock: racing, limits: { rpcEvmTimeoutMs: 0 } })
    const e = await rpcError(off, 'eth_call', [{ to: LOOP, gas: qty(1_000_000n) }])
    expect(e.message).toBe('out of gas')
    await off.close()
    const on = await testNode({ alloc, clock: fakeClock(1_700_000_000_000, 1_000_000), limits: { rpcEvmTimeoutMs: 1 } })
    const aborted = await rpcError(on, 'eth_call', [{ to: LOOP, gas: qty(1_000_000n) }])
    expect(aborted.message).toBe('execution aborted (timeout = 1ms)')
    await on.close()
  })
})
