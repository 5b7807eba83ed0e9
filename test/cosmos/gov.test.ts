/**
 * Governance: a text proposal voted on by staked tokens passes at the end of its voting period
 * (counted in blocks) and its deposit comes back; one without quorum is rejected; proposals with
 * messages are refused with the reason.
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, custom, defineChain, parseEther, toHex, type Hex } from 'viem'
import { createNode, type FinalityNode } from '../../src/index.js'
import { compile, type Compiled } from './compile.js'

const chain = defineChain({ id: 262144, name: 'cosmos-evm', nativeCurrency: { name: 'test', symbol: 'TEST', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:0'] } } })
const GOV = '0x0000000000000000000000000000000000000805' as const
const POOL = `0x${createHash('sha256').update('gov').digest('hex').slice(0, 40)}` as Hex

let contracts: Record<string, Compiled>
let node: FinalityNode

beforeAll(async () => {
  contracts = compile(['test/fixtures/cosmos-evm/precompiles/gov/IGov.sol'])
  node = await createNode({ validators: 2, cosmos: { votingBlocks: 3 } })
}, 60_000)
afterAll(async () => {
  await node?.close()
})

describe('governance', () => {
  it('behavior: a text proposal passes on staked votes after its voting blocks; the deposit comes back; no quorum rejects', async () => {
    const transport = custom(node.provider, { retryCount: 0 })
    const me = node.accounts[0]!.address as Hex
    const client = createPublicClient({ chain, transport })
    const wallet = createWalletClient({ chain, transport, account: { address: me, type: 'json-rpc' } })
    const abi = contracts.IGov!.abi
    await node.setDelegation(me, node.validators[0]!.address, parseEther('30'))
    const text = (title: string, messages: unknown[] = []) => toHex(JSON.stringify({ messages, title, summary: 'a test', metadata: 'ipfs://x' }))
    const deposit = [{ denom: 'atest', amount: parseEther('1') }]

    await expect(
      client.simulateContract({ account: me, address: GOV, abi, functionName: 'submitProposal', args: [me, text('send', [{ '@type': '/cosmos.bank.v1beta1.MsgSend' }]), deposit] }),
    ).rejects.toThrow(/proposals with messages are not modelled on this chain/)

    const submitted = await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: GOV, abi, functionName: 'submitProposal', args: [me, text('raise the bar'), deposit] }) })
    expect(await client.getBalance({ address: POOL })).toBe(parseEther('1'))
    await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: GOV, abi, functionName: 'vote', args: [me, 1n, 1, ''] }) })
    const during = (await client.readContract({ address: GOV, abi, functionName: 'getProposal', args: [1n] })) as { status: number; title: string; votingEndTime: bigint; proposer: Hex }
    expect(during).toMatchObject({ status: 2, title: 'raise the bar', votingEndTime: submitted.blockNumber + 3n })
    expect(during.proposer.toLowerCase()).toBe(me.toLowerCase())

    const rejected = await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: GOV, abi, functionName: 'submitProposal', args: [me, text('nobody votes'), deposit] }) })
    await node.request({ method: 'hardhat_mine', params: ['0x3'] })
    expect(await client.getBlockNumber()).toBeGreaterThanOrEqual(rejected.blockNumber + 3n)
    const passed = (await client.readContract({ address: GOV, abi, functionName: 'getProposal', args: [1n] })) as { status: number; finalTallyResult: { yes: string } }
    expect(passed.status).toBe(3)
    expect(passed.finalTallyResult.yes).toBe(parseEther('30').toString())
    expect(((await client.readContract({ address: GOV, abi, functionName: 'getProposal', args: [2n] })) as { status: number }).status).toBe(4)
    expect(await client.getBalance({ address: POOL })).toBe(0n)
    await expect(client.simulateContract({ account: me, address: GOV, abi, functionName: 'vote', args: [me, 1n, 1, ''] })).rejects.toThrow(/1: inactive proposal/)
    await expect(client.readContract({ address: GOV, abi, functionName: 'getProposal', args: [9n] })).rejects.toThrow(/proposal 9 doesn't exist/)
  })
})
