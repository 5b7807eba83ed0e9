/**
 * State overrides (eth_call / eth_estimateGas 3rd param) and block overrides (4th param), with
 * geth's field names and messages; they shape one call only and never change the chain.
 */
import { createPublicClient, custom, decodeFunctionResult, getAddress, getContractAddress, type Abi, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode, RpcTransactionRequest } from '../../src/index.js'
import type { RpcBlockOverrides, RpcStateOverrides } from '../../src/rpc-types.js'
import { artifact, calldata, deploy, qty, rpcError, sender, testNode, word } from '../helpers/execution.js'

let node: FinalityNode
let probe: Hex
let factory: Hex
let counter: Hex
const stranger = '0x00000000000000000000000000000000000000aa'

beforeAll(async () => {
  node = await testNode()
  probe = await deploy(node, 'Probe')
  factory = await deploy(node, 'Factory')
  counter = await deploy(node, 'Counter')
})
afterAll(() => node.close())

async function call(to: Hex, input: Hex, state?: RpcStateOverrides | null, block?: RpcBlockOverrides, extra: RpcTransactionRequest = {}): Promise<Hex> {
  const tx: RpcTransactionRequest = { to, input, ...extra }
  if (block !== undefined) return node.request({ method: 'eth_call', params: [tx, 'latest', state ?? null, block] })
  if (state !== undefined) return node.request({ method: 'eth_call', params: [tx, 'latest', state] })
  return node.request({ method: 'eth_call', params: [tx, 'latest'] })
}

function decode(name: string, fn: string, out: Hex): unknown {
  return decodeFunctionResult({ abi: artifact(name).abi as Abi, functionName: fn, data: out })
}

describe('state overrides', () => {
  it('balance: the call sees it, the chain does not', async () => {
    const out = await call(probe, calldata('Probe', 'balanceOf', [stranger]), { [stranger]: { balance: '0x7b' } })
    expect(decode('Probe', 'balanceOf', out)).toBe(123n)
    expect(await node.request({ method: 'eth_getBalance', params: [stranger, 'latest'] })).toBe('0x0')
  })

  it('balance: lets a sender without funds transfer value', async () => {
    const tx: RpcTransactionRequest = { from: stranger, to: probe, value: '0xde0b6b3a7640000', input: calldata('Probe', 'slot', [0n]) }
    // A priced call must be covered by the balance (an unpriced one runs, as in Hardhat).
    const refused = await rpcError(node, 'eth_call', [{ ...tx, to: sender(node, 3), gasPrice: '0x174876e800' }, 'latest'])
    expect(refused.message).toMatch(/insufficient funds/)
    const out = await node.request({ method: 'eth_call', params: [{ ...tx, to: sender(node, 3), input: '0x' }, 'latest', { [stranger]: { balance: '0xde0b6b3a7640000' } }] })
    expect(out).toBe('0x')
  })

  it('nonce: CREATE inside the call uses the overridden nonce', async () => {
    const out = await call(factory, calldata('Factory', 'deployPlain', [1n]), { [factory]: { nonce: '0x2a' } })
    const child = decode('Factory', 'deployPlain', out) as string
    expect(child.toLowerCase()).toBe(getContractAddress({ from: factory, nonce: 42n }).toLowerCase())
    expect(await node.request({ method: 'eth_getTransactionCount', params: [factory, 'latest'] })).toBe('0x1')
  })

  it('code: runs code at an address that has none', async () => {
    const out = await call(stranger, calldata('Probe', 'slot', [0n]), { [stranger]: { code: artifact('Probe').deployedBytecode } })
    expect(decode('Probe', 'slot', out)).toBe(0n)
    expect(await node.request({ method: 'eth_getCode', params: [stranger, 'latest'] })).toBe('0x')
  })

  it('stateDiff: replaces the given slots and keeps the others', async () => {
    await node.request({ method: 'eth_sendTransaction', params: [{ from: sender(node), to: counter, input: calldata('Counter', 'increment') }] })
    const before = decode('Counter', 'count', await call(counter, calldata('Counter', 'count')))
    expect(before).toBe(1n)
    const code = { code: artifact('Probe').deployedBytecode }
    const diff = { [counter]: { ...code, stateDiff: { [word(5n)]: word(9n) } } }
    expect(decode('Probe', 'slot', await call(counter, calldata('Probe', 'slot', [5n]), diff))).toBe(9n)
    expect(decode('Probe', 'slot', await call(counter, calldata('Probe', 'slot', [0n]), diff))).toBe(1n)
  })

  it('state: replaces the whole storage', async () => {
    const full = { [counter]: { code: artifact('Probe').deployedBytecode, state: { [word(5n)]: word(9n) } } }
    expect(decode('Probe', 'slot', await call(counter, calldata('Probe', 'slot', [5n]), full))).toBe(9n)
    expect(decode('Probe', 'slot', await call(counter, calldata('Probe', 'slot', [0n]), full))).toBe(0n)
    expect(decode('Counter', 'count', await call(counter, calldata('Counter', 'count')))).toBe(1n)
  })

  it('error: state and stateDiff together, in geth\'s words', async () => {
    const e = await rpcError(node, 'eth_call', [{ to: counter, input: '0x' }, 'latest', { [counter]: { state: {}, stateDiff: {} } }])
    expect(e.code).toBe(-32000)
    expect(e.message).toBe(`account ${getAddress(counter)} has both 'state' and 'stateDiff'`)
  })

  it('error: a malformed override is invalid params', async () => {
    const e = await rpcError(node, 'eth_call', [{ to: counter }, 'latest', { [counter]: { balance: '0x01' } }])
    expect(e.code).toBe(-32602)
    expect(e.message).toBe('invalid argument 2: hex number with leading zero digits')
    const slot = await rpcError(node, 'eth_call', [{ to: counter }, 'latest', { [counter]: { stateDiff: { '0x01': word(1n) } } }])
    expect(slot.message).toMatch(/^invalid argument 2: hex string has length 2, want 64/)
    const addr = await rpcError(node, 'eth_call', [{ to: counter }, 'latest', { '0x1234': {} }])
    expect(addr.code).toBe(-32602)
  })

  it('movePrecompileToAddress: the precompile answers at its new address, and the old one can hold code', async () => {
    const sha = '0x0000000000000000000000000000000000000002'
    const moved = '0x0000000000000000000000000000000000123456'
    const direct = (await node.request({ method: 'eth_call', params: [{ to: sha, input: '0xc0ffee' }, 'latest'] })) as Hex
    const atNew = await node.request({ method: 'eth_call', params: [{ to: moved, input: '0xc0ffee' }, 'latest', { [sha]: { movePrecompileToAddress: moved } }] })
    expect(atNew).toBe(direct)
    const gone = await node.request({ method: 'eth_call', params: [{ to: sha, input: '0xc0ffee' }, 'latest', { [sha]: { movePrecompileToAddress: moved } }] })
    expect(gone).toBe('0x')
    const e = await rpcError(node, 'eth_call', [{ to: moved }, 'latest', { [stranger]: { movePrecompileToAddress: moved } }])
    expect(e.message).toMatch(/^account 0x0{38}[aA]{2} is not a precompile$/)
    const taken = await rpcError(node, 'eth_call', [{ to: moved }, 'latest', { [sha]: { movePrecompileToAddress: moved }, [moved]: { balance: '0x1' } }])
    expect(taken.message).toBe('account 0x0000000000000000000000000000000000123456 is already overridden')
  })

  it('error: a priced call below the base fee and a call below the intrinsic gas, in geth\'s words', async () => {
    const fee = await rpcError(node, 'eth_call', [{ from: sender(node), to: probe, maxFeePerGas: '0x1' }])
    expect(fee.message).toMatch(/^max fee per gas less than block base fee: address 0x[0-9a-f]{40}, maxFeePerGas: 1, baseFee: \d+$/)
    const intrinsic = await rpcError(node, 'eth_call', [{ from: sender(node), to: probe, gas: '0x5207' }])
    expect(intrinsic).toMatchObject({ code: -32000, message: 'intrinsic gas too low: gas 20999, minimum needed 21000' })
  })

  it('eth_estimateGas honours state overrides', async () => {
    const input = calldata('Probe', 'slot', [0n])
    const e = await rpcError(node, 'eth_estimateGas', [{ from: stranger, to: sender(node, 2), value: '0x1', gasPrice: '0x174876e800' }])
    expect(e.message).toMatch(/insufficient funds/)
    const gas = await node.request({ method: 'eth_estimateGas', params: [{ from: stranger, to: sender(node, 2), value: '0x1' }, 'latest', { [stranger]: { balance: '0x10' } }] })
    expect(gas).toBe('0x5208')
    const withCode = await node.request({ method: 'eth_estimateGas', params: [{ to: stranger, input }, 'latest', { [stranger]: { code: artifact('Probe').deployedBytecode } }] })
    expect(BigInt(withCode as string)).toBeGreaterThan(21_000n)
  })
})

describe('block overrides', () => {
  it('number, time, gasLimit, feeRecipient, prevRandao, baseFeePerGas', async () => {
    const coinbase = '0x00000000000000000000000000000000000000cb'
    const randao = word(0x1234n)
    const out = await call(
      probe,
      calldata('Probe', 'blockInfo'),
      {},
      { number: '0x3e8', time: '0x5f5e100', gasLimit: '0x1c9c380', feeRecipient: coinbase, prevRandao: randao, baseFeePerGas: '0x7' },
      { gasPrice: '0x7', from: sender(node) },
    )
    const [number, time, gasLimit, cb, baseFee, prevRandao] = decode('Probe', 'blockInfo', out) as [bigint, bigint, bigint, string, bigint, bigint]
    expect(number).toBe(1000n)
    expect(time).toBe(100_000_000n)
    expect(gasLimit).toBe(30_000_000n)
    expect(cb.toLowerCase()).toBe(coinbase)
    expect(baseFee).toBe(7n)
    expect(prevRandao).toBe(0x1234n)
  })

  it('aliases coinbase and random; without a price BASEFEE reads 0 as in geth', async () => {
    const out = await call(probe, calldata('Probe', 'blockInfo'), null, { coinbase: '0x00000000000000000000000000000000000000cc', random: word(5n), baseFeePerGas: '0x9' })
    const [, , , cb, baseFee, prevRandao] = decode('Probe', 'blockInfo', out) as [bigint, bigint, bigint, string, bigint, bigint]
    expect(cb.toLowerCase()).toBe('0x00000000000000000000000000000000000000cc')
    expect(baseFee).toBe(0n)
    expect(prevRandao).toBe(5n)
  })

  it('blobBaseFee', async () => {
    const out = await call(probe, calldata('Probe', 'blobBaseFee'), null, { blobBaseFee: '0x2a' })
    expect(decode('Probe', 'blobBaseFee', out)).toBe(42n)
  })

  it('BLOCKHASH of heights past the real head reads zero, not an error', async () => {
    const head = BigInt((await node.request({ method: 'eth_blockNumber' })) as string)
    const out = await call(probe, calldata('Probe', 'hashOf', [head + 5n]), null, { number: qty(head + 10n) })
    expect(decode('Probe', 'hashOf', out)).toBe(word(0n))
    const real = await call(probe, calldata('Probe', 'hashOf', [head]), null, { number: qty(head + 10n) })
    const block = (await node.request({ method: 'eth_getBlockByNumber', params: [qty(head), false] })) as { hash: Hex }
    expect(decode('Probe', 'hashOf', real)).toBe(block.hash)
  })

  it('gasLimit bounds the default call gas', async () => {
    const e = await rpcError(node, 'eth_estimateGas', [{ from: sender(node), to: counter, input: calldata('Counter', 'burn', [50n]) }, 'latest', null, { gasLimit: '0x7530' }])
    expect(e.message).toBe('gas required exceeds allowance (30000)')
  })

  it('error: a malformed block override is invalid params', async () => {
    const e = await rpcError(node, 'eth_call', [{ to: probe }, 'latest', null, { number: 5 }])
    expect(e.code).toBe(-32602)
    expect(e.message).toMatch(/^invalid argument 3: /)
  })
})

describe('through viem', () => {
  it('call with stateOverride and blockOverrides', async () => {
    const client = createPublicClient({ transport: custom(node.provider, { retryCount: 0 }) })
    const { data } = await client.call({
      to: probe,
      data: calldata('Probe', 'balanceOf', [stranger]),
      stateOverride: [{ address: stranger, balance: 5n }],
    })
    expect(decode('Probe', 'balanceOf', data as Hex)).toBe(5n)
    const { data: info } = await client.call({ to: probe, data: calldata('Probe', 'blockInfo'), blockOverrides: { number: 77n } })
    expect((decode('Probe', 'blockInfo', info as Hex) as bigint[])[0]).toBe(77n)
  })
})

describe('calls from an account with code', () => {
  it('behavior: eth_call and eth_estimateGas accept a contract as `from` (geth skips EIP-3607 for calls); the callee sees its real code hash', async () => {
    const caller = '0x00000000000000000000000000000000000c0de1'
    // The callee returns EXTCODEHASH(CALLER): CALLER EXTCODEHASH PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
    const callee = '0x00000000000000000000000000000000000c0de2'
    const overrides: RpcStateOverrides = { [caller]: { code: '0x00' }, [callee]: { code: '0x333f60005260206000f3' } }
    const out = await node.request({ method: 'eth_call', params: [{ from: caller, to: callee }, 'latest', overrides] })
    // keccak256(0x00)
    expect(out).toBe('0xbc36789e7a1e281436464229828f817d6612f7b477d66591ff96a9e064bcc98a')
    expect(await node.request({ method: 'eth_estimateGas', params: [{ from: caller, to: callee }, 'latest', overrides] })).toMatch(/^0x[0-9a-f]+$/)
  })
})
