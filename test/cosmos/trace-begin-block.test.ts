/**
 * debug_trace* replays of a block whose BeginBlock wrote state before the first transaction (an
 * undelegation completing: the unbonding entry dropped, the tokens paid out): the replay re-runs
 * BeginBlock, so the traced transaction sees what it saw when the block was built.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, custom, decodeFunctionResult, defineChain, encodeFunctionData, parseAbi, parseEther, type Hex } from 'viem'
import { createNode, type FinalityNode } from '../../src/index.js'

const chain = defineChain({ id: 262144, name: 'cosmos-evm', nativeCurrency: { name: 'test', symbol: 'TEST', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:0'] } } })
const STAKING = '0x0000000000000000000000000000000000000800' as const
const staking = parseAbi([
  'function undelegate(address delegatorAddress, string validatorAddress, uint256 amount) returns (int64 completionTime)',
  'function unbondingDelegation(address delegatorAddress, string validatorAddress) view returns ((string delegatorAddress, string validatorAddress, (int64 creationHeight, int64 completionTime, uint256 initialBalance, uint256 balance, uint64 unbondingId, int64 unbondingOnHoldRefCount)[] entries) unbondingDelegation)',
])
const bech32 = parseAbi(['function hexToBech32(address addr, string prefix) returns (string)'])

let node: FinalityNode

beforeAll(async () => {
  node = await createNode({ validators: 2, cosmos: { unbondingBlocks: 2 }, onConsoleLog: false })
})
afterAll(async () => {
  await node?.close()
})

const rpc = (method: string, ...params: unknown[]) => node.request({ method, params } as never) as Promise<unknown>

describe('replays of blocks with BeginBlock writes', () => {
  it('behavior: the trace of a transaction in the block where an undelegation completes sees it completed, as the block did', async () => {
    const transport = custom(node.provider, { retryCount: 0 })
    const me = node.accounts[0]!.address as Hex
    const client = createPublicClient({ chain, transport, pollingInterval: 20 })
    const wallet = createWalletClient({ chain, transport, account: { address: me, type: 'json-rpc' } })
    const [v] = (await rpc('finality_getValidators')) as Array<{ address: Hex }>
    const V = await client.readContract({ address: '0x0000000000000000000000000000000000000400', abi: bech32, functionName: 'hexToBech32', args: [v!.address, 'cosmosvaloper'] })
    // The validator's own delegation (genesis self-delegation): the validator undelegates.
    await rpc('hardhat_impersonateAccount', v!.address)
    await rpc('hardhat_setBalance', v!.address, '0x56bc75e2d63100000')
    const validatorWallet = createWalletClient({ chain, transport, account: { address: v!.address, type: 'json-rpc' } })
    const u = await client.waitForTransactionReceipt({ hash: await validatorWallet.writeContract({ address: STAKING, abi: staking, functionName: 'undelegate', args: [v!.address, V, parseEther('1')] }) })
    await rpc('evm_mine')
    // Block u + 2: BeginBlock completes the entry (pays 1 token to the validator) before this transaction.
    const query = encodeFunctionData({ abi: staking, functionName: 'unbondingDelegation', args: [v!.address, V] })
    const probe = await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: STAKING, data: query, gas: 100_000n }) })
    expect(probe.blockNumber).toBe(u.blockNumber + 2n)
    const entriesOf = (output: Hex) => decodeFunctionResult({ abi: staking, functionName: 'unbondingDelegation', data: output }).entries
    // Before the block: one entry; in it, none.
    expect(entriesOf(await client.call({ to: STAKING, data: query, blockNumber: probe.blockNumber - 1n }).then((r) => r.data!))).toHaveLength(1)

    const traced = (await rpc('debug_traceTransaction', probe.transactionHash, { tracer: 'callTracer' })) as { output: Hex }
    expect(entriesOf(traced.output)).toEqual([])
    const block = (await rpc('debug_traceBlockByNumber', `0x${probe.blockNumber.toString(16)}`, { tracer: 'callTracer' })) as Array<{ result: { output: Hex } }>
    expect(entriesOf(block[0]!.result.output)).toEqual([])
  })
})
