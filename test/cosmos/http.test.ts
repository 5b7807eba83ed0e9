/**
 * The staking precompile over HTTP (a real server on 127.0.0.1, an ephemeral port), through viem's
 * http transport: a delegation's event and its power change at H + 2, and a revert's reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, defineChain, http, parseAbi, parseEther, toHex, type Hex } from 'viem'
import { createNode, type FinalityNode } from '../../src/index.js'
import type { Listening } from '../../src/adapters/listen.js'

const chain = defineChain({ id: 262144, name: 'cosmos-evm', nativeCurrency: { name: 'test', symbol: 'TEST', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:0'] } } })
const staking = parseAbi([
  'function delegate(address delegatorAddress, string validatorAddress, uint256 amount) returns (bool)',
  'function delegation(address delegatorAddress, string validatorAddress) view returns (uint256 shares, (string denom, uint256 amount) balance)',
  'event Delegate(address indexed delegatorAddress, address indexed validatorAddress, uint256 amount, uint256 newShares)',
])
const bech32 = parseAbi(['function hexToBech32(address addr, string prefix) returns (string)'])

let node: FinalityNode
let listening: Listening

beforeAll(async () => {
  node = await createNode({ validators: 2, cosmos: { bech32Prefix: 'evmos' } })
  listening = await node.listen({ address: '127.0.0.1:0', wsAddress: false, api: ['eth', 'net', 'web3', 'evm', 'finality'] })
})
afterAll(async () => {
  await listening?.close()
  await node?.close()
})

describe('cosmos precompiles over HTTP', () => {
  it('behavior: delegate with a configured prefix; the event; the power at H + 2', async () => {
    const transport = http(listening.http!, { retryCount: 0 })
    const client = createPublicClient({ chain, transport })
    const me = node.accounts[0]!.address as Hex
    const wallet = createWalletClient({ chain, transport, account: { address: me, type: 'json-rpc' } })
    const rpc = (method: string, params: unknown[] = []) => client.request({ method: method as never, params: params as never }) as Promise<unknown>
    const [validator] = (await rpc('finality_getValidators')) as Array<{ address: Hex }>
    const operator = await client.readContract({ address: '0x0000000000000000000000000000000000000400', abi: bech32, functionName: 'hexToBech32', args: [validator!.address, 'evmosvaloper'] })
    expect(operator).toMatch(/^evmosvaloper1/)

    const cosmosOperator = await client.readContract({ address: '0x0000000000000000000000000000000000000400', abi: bech32, functionName: 'hexToBech32', args: [validator!.address, 'cosmosvaloper'] })
    await expect(
      client.simulateContract({ account: me, address: '0x0000000000000000000000000000000000000800', abi: staking, functionName: 'delegate', args: [me, cosmosOperator, 1n] }),
    ).rejects.toThrow(/expected prefix evmosvaloper, got cosmosvaloper/)

    const hash = await wallet.writeContract({ address: '0x0000000000000000000000000000000000000800', abi: staking, functionName: 'delegate', args: [me, operator, parseEther('2')] })
    const receipt = await client.waitForTransactionReceipt({ hash })
    const logs = await client.getContractEvents({ address: '0x0000000000000000000000000000000000000800', abi: staking, eventName: 'Delegate', fromBlock: receipt.blockNumber, toBlock: receipt.blockNumber })
    expect(logs.map((l) => l.args.amount)).toEqual([parseEther('2')])
    const [shares, balance] = await client.readContract({ address: '0x0000000000000000000000000000000000000800', abi: staking, functionName: 'delegation', args: [me, operator] })
    expect(shares).toBe(parseEther('2') * 10n ** 18n)
    expect(balance).toEqual({ denom: 'atest', amount: parseEther('2') })

    await rpc('evm_mine')
    await rpc('evm_mine')
    const power = async (n: bigint) => ((await rpc('finality_getValidators', [toHex(n)])) as Array<{ address: Hex; votingPower: Hex }>).find((v) => v.address === validator!.address)!.votingPower
    expect(await power(receipt.blockNumber + 1n)).toBe('0xa')
    expect(await power(receipt.blockNumber + 2n)).toBe('0xc')
  })
})
