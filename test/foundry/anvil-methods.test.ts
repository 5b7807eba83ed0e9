/**
 * Anvil's methods Foundry users call, sent to Anvil 1.7.1 and to finality alike and compared:
 * eth_getAccountInfo, anvil_snapshot / anvil_revert, anvil_getGenesisTime,
 * anvil_getIntervalMining, anvil_nodeInfo (which forge asks of a node on chain 31337), anvil_dealERC20 / anvil_setERC20Balance / anvil_setERC20Allowance (on a
 * compiled OpenZeppelin ERC-20), and their answers to bad input. anvil_reorg and anvil_rollback
 * have no meaning on a chain of final blocks: finality answers why. (The blob readers:
 * anvil-blobs.test.ts.)
 */
import { decodeFunctionResult, encodeAbiParameters, encodeFunctionData, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'
import { loadArtifacts } from '../helpers/compile.js'
import { startAnvil, type RunningAnvil } from '../helpers/anvil.js'
import { httpEndpoint, nodeEndpoint, receiptOf, resultOf, type Answer, type Endpoint } from '../helpers/anvil-diff.js'

const Token = loadArtifacts().Token!
const DEV = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const HOLDER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const SPENDER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

let anvil: RunningAnvil
let node: FinalityNode
let sides: [Endpoint, Endpoint]
let token: Hex

beforeAll(async () => {
  anvil = await startAnvil(['--hardfork', 'prague'])
  node = await createNode({ hardfork: 'prague' })
  sides = [httpEndpoint('anvil', anvil.http), nodeEndpoint(node)]
  const args = encodeAbiParameters([{ type: 'string' }, { type: 'string' }, { type: 'uint256' }], ['Tok', 'TOK', 10n ** 24n])
  const deployed: string[] = []
  for (const side of sides) {
    const hash = await resultOf<string>(side, 'eth_sendTransaction', [{ from: DEV, data: `${Token.bytecode}${args.slice(2)}`, gas: '0x300000' }])
    deployed.push((await receiptOf(side, hash)).contractAddress as string)
  }
  expect(deployed[0]).toBe(deployed[1])
  token = deployed[0] as Hex
}, 60_000)

afterAll(async () => {
  await node?.close()
  await anvil?.stop()
})

async function both(method: string, params: unknown[] = []): Promise<[Answer, Answer]> {
  return [await sides[0].rpc(method, params), await sides[1].rpc(method, params)]
}

async function read(side: Endpoint, functionName: 'balanceOf' | 'allowance', args: readonly Hex[]): Promise<bigint> {
  const out = await resultOf<Hex>(side, 'eth_call', [{ to: token, data: encodeFunctionData({ abi: Token.abi, functionName, args }) }, 'latest'])
  return decodeFunctionResult({ abi: Token.abi, functionName, data: out }) as bigint
}

/** Bad input: -32602 on both sides (finality's message is geth's wording, Anvil's serde's). */
async function badOnBoth(method: string, params: unknown[], ours: RegExp) {
  const [a, f] = await both(method, params)
  expect(a, `anvil ${method}`).toMatchObject({ error: { code: -32602 } })
  expect(f, `finality ${method}`).toMatchObject({ error: { code: -32602 } })
  expect((f as { error: { message: string } }).error.message).toMatch(ours)
}

describe('eth_getAccountInfo', () => {
  it('default: balance, nonce and code in one answer, as Anvil gives them', async () => {
    // Not the deployer: its balance after the deployment depends on the gas price each node filled in.
    for (const who of [SPENDER, token, '0x00000000000000000000000000000000000000ff']) {
      const [a, f] = await both('eth_getAccountInfo', [who, 'latest'])
      expect(f).toEqual(a)
    }
    const [, f] = await both('eth_getAccountInfo', [token, 'latest'])
    expect(Object.keys((f as { result: object }).result)).toEqual(['balance', 'nonce', 'code'])
  })

  it('params: a block number reads that block\'s state', async () => {
    const [a, f] = await both('eth_getAccountInfo', [DEV, '0x0'])
    expect(f).toEqual(a)
  })

  it('error: a bad address is -32602', async () => {
    await badOnBoth('eth_getAccountInfo', ['0x12', 'latest'], /^invalid argument 0: /)
  })
})

describe('anvil_snapshot / anvil_revert', () => {
  it('default: a snapshot is reverted to once (true), then is gone (false), as evm_revert', async () => {
    const ids = await Promise.all(sides.map((side) => resultOf<Hex>(side, 'anvil_snapshot')))
    for (const id of ids) expect(id).toMatch(/^0x[0-9a-f]+$/)
    for (const side of sides) await resultOf(side, 'anvil_setBalance', [HOLDER, '0x1234'])
    const reverts = await Promise.all(sides.map((side, i) => side.rpc('anvil_revert', [ids[i]])))
    expect(reverts[1]).toEqual(reverts[0])
    expect(reverts[1]).toEqual({ result: true })
    const [a, f] = await both('eth_getBalance', [HOLDER, 'latest'])
    expect(f).toEqual(a)
    const again = await Promise.all(sides.map((side, i) => side.rpc('anvil_revert', [ids[i]])))
    expect(again[1]).toEqual(again[0])
    expect(again[1]).toEqual({ result: false })
  })

  it('error: params anvil_snapshot does not take, and a revert without an id, are -32602', async () => {
    await badOnBoth('anvil_snapshot', [1], /^too many arguments, want at most 0$/)
    await badOnBoth('anvil_revert', [], /^missing value for required argument 0$/)
  })
})

describe('anvil_getGenesisTime and anvil_getIntervalMining', () => {
  it('anvil_getGenesisTime: the genesis block\'s timestamp as a JSON number', async () => {
    for (const side of sides) {
      const genesis = await resultOf<{ timestamp: Hex }>(side, 'eth_getBlockByNumber', ['0x0', false])
      expect(await resultOf(side, 'anvil_getGenesisTime')).toBe(Number(genesis.timestamp))
    }
  })

  it('anvil_getIntervalMining: null unless interval mining, then its period in seconds', async () => {
    expect(await both('anvil_getIntervalMining')).toEqual([{ result: null }, { result: null }])
    for (const side of sides) await resultOf(side, 'anvil_setIntervalMining', [7])
    const [a, f] = await both('anvil_getIntervalMining')
    expect(f).toEqual(a)
    expect(f).toEqual({ result: 7 })
    for (const side of sides) await resultOf(side, 'anvil_setAutomine', [true])
    expect(await both('anvil_getIntervalMining')).toEqual([{ result: null }, { result: null }])
  })
})

describe('anvil_nodeInfo', () => {
  it('default: Anvil\'s shape: quantities, numbers, the hardfork\'s name, forkConfig\'s nulls without a fork', async () => {
    const [a, f] = (await both('anvil_nodeInfo')).map((answer) => (answer as { result: Record<string, any> }).result) as [Record<string, any>, Record<string, any>]
    // The shape of every field: which are quantities (hex strings), which JSON numbers, which null.
    const shape = (v: unknown): unknown =>
      v === null ? null : typeof v === 'object' ? Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, shape(x)])) : typeof v === 'string' && /^0x[0-9a-f]{64}$/.test(v) ? 'hash' : typeof v === 'string' && /^0x(0|[1-9a-f][0-9a-f]*)$/.test(v) ? 'quantity' : typeof v
    expect(shape(f)).toEqual(shape(a))
    expect(f.hardFork).toBe(a.hardFork)
    expect(f.hardFork).toBe('Prague')
    expect(f.environment.chainId).toBe(31337)
    expect(f.environment.gasLimit).toBe(a.environment.gasLimit)
    expect(f.forkConfig).toEqual({ forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null })
    expect(f.currentBlockNumber).toBe(await resultOf(sides[1], 'eth_blockNumber'))
  })
})

describe('anvil_dealERC20, anvil_setERC20Balance, anvil_setERC20Allowance', () => {
  it('default: the balance slot is found from balanceOf\'s reads and written', async () => {
    for (const [method, value] of [['anvil_dealERC20', 123_456n], ['anvil_setERC20Balance', 10n ** 30n]] as const) {
      const [a, f] = await both(method, [HOLDER, token, `0x${value.toString(16)}`])
      expect(f).toEqual(a)
      expect(f).toEqual({ result: null })
      for (const side of sides) expect(await read(side, 'balanceOf', [HOLDER])).toBe(value)
    }
  })

  it('default: the allowance slot is found from allowance\'s reads and written', async () => {
    const [a, f] = await both('anvil_setERC20Allowance', [HOLDER, SPENDER, token, 77])
    expect(f).toEqual(a)
    expect(f).toEqual({ result: null })
    for (const side of sides) expect(await read(side, 'allowance', [HOLDER, SPENDER])).toBe(77n)
    // The owner's balance is another slot, left as it was.
    for (const side of sides) expect(await read(side, 'balanceOf', [HOLDER])).toBe(10n ** 30n)
  })

  it('error: an address whose getter reads no slot has none to set (Anvil\'s -32603 and words)', async () => {
    const [a, f] = await both('anvil_dealERC20', [HOLDER, SPENDER, '0x10'])
    expect(f).toEqual(a)
    expect(f).toEqual({ error: { code: -32603, message: 'Unable to set ERC20 balance, no slot found' } })
    const [a2, f2] = await both('anvil_setERC20Allowance', [HOLDER, SPENDER, SPENDER, '0x10'])
    expect(f2).toEqual(a2)
  })

  it('error: bad addresses and amounts are -32602', async () => {
    await badOnBoth('anvil_dealERC20', [HOLDER, '0x12', '0x10'], /^invalid argument 1: /)
    await badOnBoth('anvil_dealERC20', [HOLDER, token, '0x' + '1'.repeat(65)], /^invalid argument 2: hex number > 256 bits$/)
    await badOnBoth('anvil_setERC20Allowance', [HOLDER, SPENDER, token], /^missing value for required argument 3$/)
  })
})

describe('anvil_reorg and anvil_rollback', () => {
  it('error: a chain of final blocks cannot be reorganised or rolled back; the answer says so', async () => {
    for (const method of ['anvil_reorg', 'anvil_rollback']) {
      const answer = await sides[1].rpc(method, [1])
      expect(answer).toMatchObject({ error: { code: -32601 } })
      expect((answer as { error: { message: string } }).error.message).toMatch(/final here \(BFT consensus\)/)
    }
  })
})

describe('anvil_impersonateSignature', () => {
  const r = '11'.repeat(32)
  const s = '22'.repeat(32)
  const signature = `0x${r}${s}1b`
  // ecrecover's input: hash, v (a word), r, s.
  const input = `0x${'33'.repeat(32)}${'0'.repeat(62)}1b${r}${s}`
  const holderWord = `0x${'0'.repeat(24)}${HOLDER.slice(2).toLowerCase()}`
  // CALLDATACOPY(0, 0, 128); STATICCALL(gas, 0x01, 0, 128, 0, 32); SSTORE(0, MLOAD(0)); STOP
  const RECOVERER = '0x60806000600037602060006080600060015afa50600051600055' + '00'
  const recoverer = '0x00000000000000000000000000000000000ec0de'

  it('default: ecrecover answers the registered address for that signature, in calls, traces and blocks', async () => {
    const before = await both('eth_call', [{ to: '0x0000000000000000000000000000000000000001', data: input }, 'latest'])
    expect(before[1]).toEqual(before[0])
    // Anvil 1.7.1's form: the pair in one array (it refuses the two as separate params).
    expect(await both('anvil_impersonateSignature', [[signature, HOLDER]])).toEqual([{ result: null }, { result: null }])
    const [a, f] = await both('eth_call', [{ to: '0x0000000000000000000000000000000000000001', data: input }, 'latest'])
    expect(f).toEqual(a)
    expect(f).toEqual({ result: holderWord })
    const traced = await both('debug_traceCall', [{ to: '0x0000000000000000000000000000000000000001', data: input }, 'latest', { tracer: 'callTracer' }])
    expect((traced[1] as { result: { output: string } }).result.output).toBe(holderWord)
    expect((traced[1] as { result: { output: string } }).result.output).toBe((traced[0] as { result: { output: string } }).result.output)
    for (const side of sides) {
      await resultOf(side, 'anvil_setCode', [recoverer, RECOVERER])
      const hash = await resultOf<string>(side, 'eth_sendTransaction', [{ from: DEV, to: recoverer, data: input, gas: '0x30000' }])
      expect((await receiptOf(side, hash)).status).toBe('0x1')
    }
    const stored = await both('eth_getStorageAt', [recoverer, '0x0', 'latest'])
    expect(stored[1]).toEqual(stored[0])
    expect(stored[1]).toEqual({ result: holderWord })
  })

  it('error: missing or bad params are -32602', async () => {
    await badOnBoth('anvil_impersonateSignature', ['0x1234'], /^missing value for required argument 1$/)
    await badOnBoth('anvil_impersonateSignature', [['0x123', HOLDER]], /^invalid argument 0: /)
    await badOnBoth('anvil_impersonateSignature', [['0x1234']], /^invalid argument 0: want \[signature, address\]/)
  })

  it('params: finality also takes the signature and the address as two params', async () => {
    const other = `0x${'44'.repeat(64)}1c`
    expect(await sides[1].rpc('anvil_impersonateSignature', [other, SPENDER])).toEqual({ result: null })
    const call = await sides[1].rpc('eth_call', [{ to: '0x0000000000000000000000000000000000000001', data: `0x${'33'.repeat(32)}${'0'.repeat(62)}1c${'44'.repeat(64)}` }, 'latest'])
    expect(call).toEqual({ result: `0x${'0'.repeat(24)}${SPENDER.slice(2).toLowerCase()}` })
  })
})
