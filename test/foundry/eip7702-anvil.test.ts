/**
 * EIP-7702 in every path that runs a request (eth_call, eth_estimateGas, eth_createAccessList,
 * debug_traceCall, a gas-less eth_sendTransaction, eth_simulateV1, eth_fillTransaction), against
 * Anvil's answers to the same requests:
 * an EOA's authorization delegates it to a compiled Counter for the run.
 */
import { encodeFunctionData, toHex, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'
import { loadArtifacts } from '../helpers/compile.js'
import { startAnvil, type RunningAnvil } from '../helpers/anvil.js'
import { httpEndpoint, nodeEndpoint, receiptOf, resultOf, type Endpoint } from '../helpers/anvil-diff.js'

const Counter = loadArtifacts().Counter!
// Anvil's and finality's default accounts (the same mnemonic): 3 sponsors, 4 delegates.
const SPONSOR_KEY = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6'
const EOA_KEY = '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a'
const sponsor = privateKeyToAccount(SPONSOR_KEY)
const eoa = privateKeyToAccount(EOA_KEY)

let anvil: RunningAnvil
let node: FinalityNode
let sides: Endpoint[]
let counter: Hex
let authorization: Record<string, Hex>

const increment = encodeFunctionData({ abi: Counter.abi, functionName: 'increment' })
const count = encodeFunctionData({ abi: Counter.abi, functionName: 'count' })

beforeAll(async () => {
  anvil = await startAnvil(['--hardfork', 'prague'])
  node = await createNode({ hardfork: 'prague' })
  sides = [httpEndpoint('anvil', anvil.http), nodeEndpoint(node)]
  const deployed: string[] = []
  for (const side of sides) {
    const hash = await resultOf<string>(side, 'eth_sendTransaction', [{ from: sponsor.address, data: Counter.bytecode, gas: '0x100000' }])
    deployed.push((await receiptOf(side, hash)).contractAddress as string)
  }
  expect(deployed[0]).toBe(deployed[1])
  counter = deployed[0] as Hex
  // The wire form viem's formatter sends: quantities without leading zeros (geth refuses them).
  const signed = await eoa.signAuthorization({ chainId: 31337, address: counter, nonce: 0 })
  authorization = { chainId: toHex(signed.chainId), address: signed.address, nonce: toHex(signed.nonce), yParity: toHex(signed.yParity ?? 0), r: toHex(BigInt(signed.r)), s: toHex(BigInt(signed.s)) }
}, 60_000)

afterAll(async () => {
  await node?.close()
  await anvil?.stop()
})

/** The same request's answer on both sides. */
async function both(method: string, params: unknown[]): Promise<[unknown, unknown]> {
  const [a, f] = await Promise.all(sides.map((side) => side.rpc(method, params)))
  return [a, f]
}

const request = (data: Hex) => ({ from: sponsor.address, to: eoa.address, data, authorizationList: [authorization] })

describe('EIP-7702 authorizations in simulations, as Anvil answers them', () => {
  it('eth_call runs the delegate\'s code at the authority (without the list: no code, 0x)', async () => {
    const [a, f] = await both('eth_call', [request(count), 'latest'])
    expect(f).toEqual(a)
    expect(f).toEqual({ result: `0x${'0'.repeat(64)}` })
    const [plainA, plainF] = await both('eth_call', [{ from: sponsor.address, to: eoa.address, data: count }, 'latest'])
    expect(plainF).toEqual(plainA)
    expect(plainF).toEqual({ result: '0x' })
  })

  it('eth_estimateGas counts each authorization\'s intrinsic gas and the delegate\'s execution', async () => {
    const [a, f] = await both('eth_estimateGas', [request(increment), 'latest'])
    expect(f).toEqual(a)
    expect(BigInt((f as { result: Hex }).result)).toBeGreaterThan(46_000n)
  })

  it('eth_createAccessList lists the authority\'s slot written by the delegate', async () => {
    const [a, f] = await both('eth_createAccessList', [request(increment), 'latest'])
    expect(f).toEqual(a)
  })

  it('debug_traceCall (callTracer) traces the delegate\'s code at the authority', async () => {
    const [a, f] = await both('debug_traceCall', [request(increment), 'latest', { tracer: 'callTracer' }])
    const pick = (x: unknown) => {
      const r = (x as { result: Record<string, unknown> }).result
      return { from: r.from, to: r.to, gasUsed: r.gasUsed, input: r.input, output: r.output, type: r.type, logs: r.logs }
    }
    expect(pick(f)).toEqual(pick(a))
  })

  it('a gas-less eth_sendTransaction is estimated with the list, mined, and delegates the EOA', async () => {
    const receipts: Record<string, unknown>[] = []
    for (const side of sides) receipts.push(await receiptOf(side, await resultOf<string>(side, 'eth_sendTransaction', [request(increment)])))
    const [a, f] = receipts as [Record<string, unknown>, Record<string, unknown>]
    expect(f.status).toBe('0x1')
    expect([f.status, f.gasUsed, f.type]).toEqual([a.status, a.gasUsed, a.type])
    const [codeA, codeF] = await both('eth_getCode', [eoa.address, 'latest'])
    expect(codeF).toEqual(codeA)
    expect(codeF).toEqual({ result: `0xef0100${counter.slice(2).toLowerCase()}` })
    const [countA, countF] = await both('eth_call', [{ to: eoa.address, data: count }, 'latest'])
    expect(countF).toEqual(countA)
    expect(countF).toEqual({ result: `0x${'0'.repeat(63)}1` })
  })
})

describe('EIP-7702 authorizations in eth_simulateV1', () => {
  it('a simulated call delegates as a sent one: the same return data, gas and status', async () => {
    const fresh = privateKeyToAccount('0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba')
    const signed = await fresh.signAuthorization({ chainId: 31337, address: counter, nonce: 0 })
    const auth = { chainId: toHex(signed.chainId), address: signed.address, nonce: toHex(signed.nonce), yParity: toHex(signed.yParity ?? 0), r: toHex(BigInt(signed.r)), s: toHex(BigInt(signed.s)) }
    const calls = [
      { from: sponsor.address, to: fresh.address, data: increment, authorizationList: [auth] },
      { from: sponsor.address, to: fresh.address, data: count },
    ]
    const [a, f] = await both('eth_simulateV1', [{ blockStateCalls: [{ calls }] }, 'latest'])
    const pick = (x: unknown) => (x as { result: { calls: Record<string, unknown>[] }[] }).result[0]!.calls.map((c) => ({ status: c.status, gasUsed: c.gasUsed, returnData: c.returnData }))
    expect(pick(f)).toEqual(pick(a))
    expect(pick(f)[1]!.returnData).toBe(`0x${'0'.repeat(63)}1`)
  })
})

describe('EIP-7702 authorizations in filled and signed requests', () => {
  it('eth_fillTransaction keeps the list and types the transaction 0x4, as Anvil', async () => {
    const req = { from: sponsor.address, to: eoa.address, data: count, authorizationList: [authorization], gas: '0x30000' }
    const [a, f] = await both('eth_fillTransaction', [req])
    const pick = (x: unknown) => {
      const tx = (x as { result: { tx: Record<string, unknown> } }).result.tx
      return { type: tx.type, to: tx.to, authorizationList: tx.authorizationList }
    }
    expect(pick(f)).toEqual(pick(a))
    expect(pick(f).type).toBe('0x4')
  })
})
