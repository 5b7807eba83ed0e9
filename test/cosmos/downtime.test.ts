/**
 * Downtime slashing from the certificates: a validator taken offline misses blocks; at the limit of
 * its window (signedBlocksWindow 10, minSignedPerWindow 0.5: 5 may be missed) nothing happens,
 * one more and BeginBlock slashes it 1% (Cosmos's default slash_fraction_downtime), jails it for
 * downtimeJailBlocks blocks and starts its count again; it leaves the set at H + 2; unjail is
 * refused until the jail ends, then it is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, custom, defineChain, parseEther, type Hex } from 'viem'
import { createNode, type FinalityNode } from '../../src/index.js'
import { compile, type Compiled } from './compile.js'

const chain = defineChain({ id: 262144, name: 'cosmos-evm', nativeCurrency: { name: 'test', symbol: 'TEST', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:0'] } } })
const STAKING = '0x0000000000000000000000000000000000000800' as const
const SLASHING = '0x0000000000000000000000000000000000000806' as const
const FAST = { timeouts: { propose: 30, proposeDelta: 10, prevote: 10, prevoteDelta: 10, precommit: 10, precommitDelta: 10 } }

let contracts: Record<string, Compiled>
let node: FinalityNode

beforeAll(async () => {
  contracts = compile(['test/fixtures/cosmos-evm/precompiles/slashing/ISlashing.sol', 'test/fixtures/cosmos-evm/precompiles/staking/StakingI.sol'])
  node = await createNode({ validators: 4, consensus: FAST, cosmos: { signedBlocksWindow: 10, minSignedPerWindow: 0.5, downtimeJailBlocks: 5 }, onConsoleLog: false })
}, 60_000)
afterAll(async () => {
  await node?.close()
})

const rpc = (method: string, ...params: unknown[]) => node.request({ method, params } as never) as Promise<unknown>
const hex = (n: bigint) => `0x${n.toString(16)}`
const mineTo = async (height: bigint) => {
  while (BigInt((await rpc('eth_blockNumber')) as Hex) < height) await rpc('evm_mine')
}

describe('downtime slashing', () => {
  it('behavior: 5 misses in the window are allowed, the 6th jails and slashes 1%; out of the set at H + 2; unjail after the jail', async () => {
    const client = createPublicClient({ chain, transport: custom(node.provider, { retryCount: 0 }), pollingInterval: 20 })
    const members = (await rpc('finality_getValidators', '0x0')) as Array<{ address: Hex }>
    const x = members[1]!.address
    const info = (address: Hex) =>
      client.readContract({ address: SLASHING, abi: contracts.ISlashing!.abi, functionName: 'getSigningInfo', args: [address] }) as Promise<{
        startHeight: bigint
        indexOffset: bigint
        jailedUntil: bigint
        tombstoned: boolean
        missedBlocksCounter: bigint
      }>
    const validator = () => client.readContract({ address: STAKING, abi: contracts.StakingI!.abi, functionName: 'validator', args: [x] }) as Promise<{ jailed: boolean; tokens: bigint }>

    // Past the first window, all signing.
    await mineTo(12n)
    expect(await info(x)).toMatchObject({ missedBlocksCounter: 0n, indexOffset: 11n })
    // Offline for blocks 13…17: five misses, counted by BeginBlock of 14…18. At the limit: nothing.
    await rpc('finality_setFault', x, { offline: true })
    await mineTo(17n)
    await rpc('finality_heal')
    await mineTo(19n)
    expect(await info(x)).toMatchObject({ missedBlocksCounter: 5n, jailedUntil: 0n })
    expect((await validator()).jailed).toBe(false)
    // The others signed every block.
    for (const m of members.filter((m) => m.address !== x)) expect((await info(m.address)).missedBlocksCounter).toBe(0n)

    // One more miss in the window (block 20, counted by BeginBlock of 21): jailed and slashed.
    await rpc('finality_setFault', x, { offline: true })
    await mineTo(20n)
    await rpc('finality_heal')
    expect((await validator()).jailed).toBe(false)
    await mineTo(21n)
    expect(await info(x)).toMatchObject({ missedBlocksCounter: 0n, indexOffset: 0n, jailedUntil: 26n, tombstoned: false })
    expect(await validator()).toMatchObject({ jailed: true, tokens: parseEther('9.9') })
    await mineTo(23n)
    const power = async (n: bigint) => ((await rpc('finality_getValidators', hex(n))) as Array<{ address: Hex; votingPower: Hex }>).find((m) => m.address === x)?.votingPower
    expect(await power(22n)).toBe('0xa')
    expect(await power(23n)).toBeUndefined()

    // Unjail: refused before block 26, accepted from it; the window starts afresh.
    await rpc('hardhat_impersonateAccount', x)
    await rpc('hardhat_setBalance', x, hex(parseEther('1')))
    await expect(client.simulateContract({ account: x, address: SLASHING, abi: contracts.ISlashing!.abi, functionName: 'unjail', args: [x] })).rejects.toThrow(/jailed until block 26/)
    await mineTo(25n)
    const hash = (await rpc('eth_sendTransaction', { from: x, to: SLASHING, gas: '0x30000', data: '0x449ecfe6' + x.slice(2).padStart(64, '0') })) as Hex
    const receipt = await client.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.blockNumber).toBe(26n)
    expect((await validator()).jailed).toBe(false)
    expect((await info(x)).startHeight).toBe(26n)
    await mineTo(28n)
    expect(await power(28n)).toBe('0x9')
  }, 60_000)

  it('default: Cosmos\'s parameters (window 100, half signed, 1% downtime slash), the jail in blocks', async () => {
    const plain = await createNode({ validators: 1, cosmos: {}, onConsoleLog: false })
    try {
      const client = createPublicClient({ chain, transport: custom(plain.provider, { retryCount: 0 }) })
      const params = await client.readContract({ address: SLASHING, abi: contracts.ISlashing!.abi, functionName: 'getParams' })
      expect(params).toMatchObject({
        signedBlocksWindow: 100n,
        minSignedPerWindow: { value: 5n * 10n ** 17n, precision: 18 },
        downtimeJailDuration: 100n,
        slashFractionDowntime: { value: 10n ** 16n, precision: 18 },
      })
    } finally {
      await plain.close()
    }
    await expect(createNode({ cosmos: { minSignedPerWindow: 1.5 } })).rejects.toThrow(/option cosmos.minSignedPerWindow must be a number from 0 to 1, got the number 1.5/)
  })
})
