/**
 * The staking precompile over WebSocket (a real server on 127.0.0.1, an ephemeral port): a viem
 * client delegates and redelegates while watching the precompile's events through eth_subscribe
 * logs; the events arrive decoded, in order, with the blocks they were in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, defineChain, parseAbi, parseEther, webSocket, type Hex } from 'viem'
import { createNode, type FinalityNode } from '../../src/index.js'
import type { Listening } from '../../src/adapters/listen.js'

const chain = defineChain({ id: 262144, name: 'cosmos-evm', nativeCurrency: { name: 'test', symbol: 'TEST', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:0'] } } })
const STAKING = '0x0000000000000000000000000000000000000800' as const
const staking = parseAbi([
  'function delegate(address delegatorAddress, string validatorAddress, uint256 amount) returns (bool)',
  'function redelegate(address delegatorAddress, string validatorSrcAddress, string validatorDstAddress, uint256 amount) returns (int64 completionTime)',
  'event Delegate(address indexed delegatorAddress, address indexed validatorAddress, uint256 amount, uint256 newShares)',
  'event Redelegate(address indexed delegatorAddress, address indexed validatorSrcAddress, address indexed validatorDstAddress, uint256 amount, uint256 completionTime)',
])
const bech32 = parseAbi(['function hexToBech32(address addr, string prefix) returns (string)'])

let node: FinalityNode
let listening: Listening

beforeAll(async () => {
  node = await createNode({ validators: 2, cosmos: { unbondingBlocks: 4 }, onConsoleLog: false })
  listening = await node.listen({ address: false, wsAddress: '127.0.0.1:0', api: ['eth', 'net', 'web3', 'evm', 'finality'] })
})
afterAll(async () => {
  await listening?.close()
  await node?.close()
})

describe('cosmos precompiles over WebSocket', () => {
  it('behavior: delegate and redelegate; eth_subscribe logs delivers the Delegate and Redelegate events', async () => {
    const transport = webSocket(listening.ws!, { retryCount: 0, reconnect: false })
    const client = createPublicClient({ chain, transport })
    const me = node.accounts[0]!.address as Hex
    const wallet = createWalletClient({ chain, transport, account: { address: me, type: 'json-rpc' } })
    const [a, b] = (await client.request({ method: 'finality_getValidators' as never })) as Array<{ address: Hex }>
    const valoper = (address: Hex) => client.readContract({ address: '0x0000000000000000000000000000000000000400', abi: bech32, functionName: 'hexToBech32', args: [address, 'cosmosvaloper'] })
    const [A, B] = [await valoper(a!.address), await valoper(b!.address)]

    const seen: Array<{ eventName: string; blockNumber: bigint; args: Record<string, unknown> }> = []
    let done: () => void = () => {}
    const both = new Promise<void>((resolve) => (done = resolve))
    const stop = client.watchContractEvent({
      address: STAKING,
      abi: staking,
      // eth_subscribe('logs') over the socket, not polling.
      poll: false,
      onLogs: (logs) => {
        for (const l of logs) seen.push({ eventName: l.eventName, blockNumber: l.blockNumber!, args: l.args as Record<string, unknown> })
        if (seen.length >= 2) done()
      },
    })
    try {
      const d = await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: STAKING, abi: staking, functionName: 'delegate', args: [me, A, parseEther('3')] }) })
      const r = await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: STAKING, abi: staking, functionName: 'redelegate', args: [me, A, B, parseEther('1')] }) })
      await Promise.race([both, new Promise((_, reject) => setTimeout(() => reject(new Error(`events seen: ${seen.length}`)), 5_000))])
      expect(seen).toEqual([
        { eventName: 'Delegate', blockNumber: d.blockNumber, args: { delegatorAddress: expect.stringMatching(new RegExp(me.slice(2), 'i')), validatorAddress: expect.stringMatching(new RegExp(a!.address.slice(2), 'i')), amount: parseEther('3'), newShares: parseEther('3') * 10n ** 18n } },
        {
          eventName: 'Redelegate',
          blockNumber: r.blockNumber,
          args: {
            delegatorAddress: expect.stringMatching(new RegExp(me.slice(2), 'i')),
            validatorSrcAddress: expect.stringMatching(new RegExp(a!.address.slice(2), 'i')),
            validatorDstAddress: expect.stringMatching(new RegExp(b!.address.slice(2), 'i')),
            amount: parseEther('1'),
            completionTime: r.blockNumber + 4n,
          },
        },
      ])
    } finally {
      stop()
    }
    // The power moved at H + 2 of the redelegation, as over any transport.
    const r = await client.getBlockNumber()
    await client.request({ method: 'evm_mine' as never })
    await client.request({ method: 'evm_mine' as never })
    const set = (await client.request({ method: 'finality_getValidators' as never, params: [`0x${(r + 2n).toString(16)}`] as never })) as Array<{ address: Hex; votingPower: Hex }>
    expect(set.map((v) => [v.address, BigInt(v.votingPower)])).toEqual([
      [a!.address, 12n],
      [b!.address, 11n],
    ])
    await transport({ chain }).value?.getRpcClient().then((c) => c.close())
  })
})
