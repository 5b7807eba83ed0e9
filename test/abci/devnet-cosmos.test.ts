/**
 * The cosmos option on a CometBFT devnet: the staking state bonds CometBFT's genesis validators,
 * and a delegation through the staking precompile, sent with viem to one node, changes the power
 * CometBFT's own `/validators` reports on every node two blocks later (FinalizeBlock's
 * validator updates).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createPublicClient, createWalletClient, defineChain, encodeFunctionData, http, parseEther, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevnet, type Devnet } from '../../src/abci/devnet.js'
import { cometbft } from '../helpers/cometbft.js'
import { until } from '../helpers/until.js'
import { compile, type Compiled } from '../cosmos/compile.js'

const found = cometbft()
const skip = 'skip' in found ? found.skip : undefined
if (skip !== undefined) console.warn(`test/abci/devnet-cosmos.test.ts skipped: ${skip}`)

const STAKING = '0x0000000000000000000000000000000000000800' as const
const BECH32 = '0x0000000000000000000000000000000000000400' as const
const chain = defineChain({ id: 262144, name: 'cosmos-evm devnet', nativeCurrency: { name: 'test', symbol: 'TEST', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:0'] } } })

interface CometValidator {
  address: string
  pub_key: { value: string }
  voting_power: string
}
/** CometBFT's own validator set at `height` (its RPC's /validators). */
async function cometValidators(rpc: string, height: bigint): Promise<CometValidator[]> {
  const body = (await (await fetch(`${rpc}/validators?height=${height}&per_page=100`)).json()) as { result?: { validators: CometValidator[] }; error?: unknown }
  if (body.result === undefined) throw new Error(`no validators at ${height}: ${JSON.stringify(body.error)}`)
  return body.result.validators
}
const cometHeight = async (rpc: string): Promise<bigint> =>
  BigInt(((await (await fetch(`${rpc}/status`)).json()) as { result: { sync_info: { latest_block_height: string } } }).result.sync_info.latest_block_height)

describe.skipIf(skip !== undefined)('the cosmos option on a 2-validator CometBFT devnet', () => {
  let net: Devnet
  let dir: string
  let contracts: Record<string, Compiled>
  const errors: string[] = []
  beforeAll(async () => {
    contracts = compile(['test/fixtures/cosmos-evm/precompiles/staking/StakingI.sol', 'test/fixtures/cosmos-evm/precompiles/bech32/Bech32I.sol'])
    dir = mkdtempSync(path.join(tmpdir(), 'finality-devnet-cosmos-'))
    net = await startDevnet({ binary: (found as { binary: string }).binary, dir, validators: 2, timeoutCommit: '100ms', node: { cosmos: {} }, onError: (i, e) => errors.push(`node${i}: ${e.message}`) })
    await until('block 2', async () => (await Promise.all(net.nodes.map((n) => cometHeight(n.cometRpc)))).every((h) => h >= 2n))
  }, 60_000)
  afterAll(async () => {
    await net?.close()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it('a delegation sent to node 1 changes the power CometBFT reports on every node at H + 2, and the staking state agrees', async () => {
    const client = createPublicClient({ chain, transport: http(net.nodes[1]!.url) })
    const wallet = createWalletClient({ chain, transport: http(net.nodes[1]!.url) })
    const [delegator] = (await wallet.getAddresses()) as [Hex]
    const start = await cometHeight(net.nodes[0]!.cometRpc)
    const before = await cometValidators(net.nodes[0]!.cometRpc, start)
    expect(before.map((v) => v.voting_power)).toEqual(['10', '10'])
    // The staking state's validators are CometBFT's: the same addresses, 10 power's tokens each.
    const target = `0x${before[0]!.address.toLowerCase()}` as Hex
    const stakingAbi = contracts.StakingI!.abi
    const onChain = (await client.readContract({ address: STAKING, abi: stakingAbi, functionName: 'validator', args: [target] })) as { tokens: bigint; consensusPubkey: string }
    expect(onChain.tokens).toBe(parseEther('10'))
    expect(onChain.consensusPubkey).toBe(before[0]!.pub_key.value)
    const operator = (await client.readContract({ address: BECH32, abi: contracts.Bech32I!.abi, functionName: 'hexToBech32', args: [target, 'cosmosvaloper'] })) as string

    const hash = await wallet.sendTransaction({ account: delegator, to: STAKING, data: encodeFunctionData({ abi: stakingAbi, functionName: 'delegate', args: [delegator, operator, parseEther('5')] }) })
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 100, timeout: 20_000 })
    expect(receipt.status).toBe('success')
    const h = receipt.blockNumber
    await until('H + 2 on every node', async () => (await Promise.all(net.nodes.map((n) => cometHeight(n.cometRpc)))).every((x) => x >= h + 2n))
    for (const n of net.nodes) {
      const power = async (height: bigint) => (await cometValidators(n.cometRpc, height)).find((v) => v.address.toLowerCase() === before[0]!.address.toLowerCase())?.voting_power
      // Returned in FinalizeBlock of H, applied by CometBFT at H + 2.
      expect(await power(h + 1n), `node${n.index} at H + 1`).toBe('10')
      expect(await power(h + 2n), `node${n.index} at H + 2`).toBe('15')
    }
    // The other validator is unchanged; the staking state holds the new tokens on every node.
    expect((await cometValidators(net.nodes[1]!.cometRpc, h + 2n)).find((v) => v.address === before[1]!.address)?.voting_power).toBe('10')
    for (const n of net.nodes) {
      const c = createPublicClient({ chain, transport: http(n.url) })
      expect(((await c.readContract({ address: STAKING, abi: stakingAbi, functionName: 'validator', args: [target] })) as { tokens: bigint }).tokens).toBe(parseEther('15'))
    }

    // An undelegation lowers it again the same way.
    const undo = await wallet.sendTransaction({ account: delegator, to: STAKING, data: encodeFunctionData({ abi: stakingAbi, functionName: 'undelegate', args: [delegator, operator, parseEther('3')] }) })
    const undone = await client.waitForTransactionReceipt({ hash: undo, pollingInterval: 100, timeout: 20_000 })
    await until('H + 2 after the undelegation', async () => (await cometHeight(net.nodes[0]!.cometRpc)) >= undone.blockNumber + 2n)
    expect((await cometValidators(net.nodes[0]!.cometRpc, undone.blockNumber + 2n)).find((v) => v.address === before[0]!.address)?.voting_power).toBe('12')
    // Every node agrees on the blocks (and so on the state roots CometBFT commits to).
    const hashes = await Promise.all(net.nodes.map(async (n) => ((await createPublicClient({ chain, transport: http(n.url) }).getBlock({ blockNumber: undone.blockNumber })).hash)))
    expect(new Set(hashes).size).toBe(1)
    expect(errors).toEqual([])
  }, 60_000)

  it('createValidator still answers why it cannot hold here', async () => {
    const client = createPublicClient({ chain, transport: http(net.nodes[0]!.url) })
    const [from] = (await createWalletClient({ chain, transport: http(net.nodes[0]!.url) }).getAddresses()) as [Hex]
    const abi = contracts.StakingI!.abi
    const create = abi.find((e) => e.type === 'function' && e.name === 'createValidator')
    expect(create).toBeDefined()
    await expect(
      client.call({ account: from, to: STAKING, data: encodeFunctionData({ abi, functionName: 'createValidator', args: [{ moniker: 'm', identity: '', website: '', securityContact: '', details: '' }, { rate: 0n, maxRate: 0n, maxChangeRate: 0n }, 1n, from, '', 1n] } as never) }),
    ).rejects.toThrow(/createValidator: a validator here must be one of the node's in-process validators/)
  })
})
