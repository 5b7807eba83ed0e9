/**
 * The distribution precompile's withdraw address (rewards go there), validator rewards pool
 * deposit (commission and delegators' part, as an allocation) and slash events (recorded when
 * double-sign evidence slashes a validator), through viem in-process.
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, custom, decodeEventLog, defineChain, getAddress, parseEther, type Abi, type Hex } from 'viem'
import { createNode, type FinalityNode } from '../../src/index.js'
import { compile, type Compiled } from './compile.js'

const chain = defineChain({ id: 262144, name: 'cosmos-evm', nativeCurrency: { name: 'test', symbol: 'TEST', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:0'] } } })
const STAKING = '0x0000000000000000000000000000000000000800' as const
const DISTRIBUTION = '0x0000000000000000000000000000000000000801' as const
const BECH32 = '0x0000000000000000000000000000000000000400' as const
const POOL = `0x${createHash('sha256').update('distribution').digest('hex').slice(0, 40)}` as Hex
const FAST = { timeouts: { propose: 30, proposeDelta: 10, prevote: 10, prevoteDelta: 10, precommit: 10, precommitDelta: 10 } }
const PAGE = { key: '0x' as Hex, offset: 0n, limit: 0n, countTotal: true, reverse: false }
const E18 = 10n ** 18n

let contracts: Record<string, Compiled>
let node: FinalityNode
let abi: Abi

beforeAll(async () => {
  contracts = compile(['test/fixtures/cosmos-evm/precompiles/staking/StakingI.sol', 'test/fixtures/cosmos-evm/precompiles/distribution/DistributionI.sol', 'test/fixtures/cosmos-evm/precompiles/bech32/Bech32I.sol'])
  abi = contracts.DistributionI!.abi
  node = await createNode({ validators: 4, consensus: FAST, cosmos: {}, onConsoleLog: false })
}, 60_000)
afterAll(async () => {
  await node?.close()
})

const rpc = (method: string, ...params: unknown[]) => node.request({ method, params } as never) as Promise<unknown>

function clients() {
  const transport = custom(node.provider, { retryCount: 0 })
  const account = { address: node.accounts[0]!.address as Hex, type: 'json-rpc' as const }
  return { client: createPublicClient({ chain, transport, pollingInterval: 20 }), wallet: createWalletClient({ chain, transport, account }), me: account.address }
}
const validators = async () => (await rpc('finality_getValidators')) as Array<{ address: Hex }>
const bech32 = (address: Hex, prefix: string) =>
  clients().client.readContract({ address: BECH32, abi: contracts.Bech32I!.abi, functionName: 'hexToBech32', args: [address, prefix] }) as Promise<string>

async function send(address: Hex, callAbi: Abi, functionName: string, args: unknown[]) {
  const { client, wallet } = clients()
  const receipt = await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address, abi: callAbi, functionName, args }) })
  expect(receipt.status).toBe('success')
  return receipt
}
async function refusal(functionName: string, args: unknown[]): Promise<string> {
  const { client, me } = clients()
  return client.simulateContract({ account: me, address: DISTRIBUTION, abi, functionName, args }).then(() => 'no revert', (e: Error) => e.message)
}

describe('setWithdrawAddress', () => {
  it('behavior: rewards withdrawn go to the address set; the event carries it as bech32', async () => {
    const { client, me } = clients()
    const [a] = await validators()
    const A = await bech32(a!.address, 'cosmosvaloper')
    const to = node.accounts[2]!.address as Hex
    await send(STAKING, contracts.StakingI!.abi, 'delegate', [me, A, parseEther('10')])
    const r = await send(DISTRIBUTION, abi, 'setWithdrawAddress', [me, to])
    const log = r.logs.find((l) => l.address.toLowerCase() === DISTRIBUTION)!
    const text = await bech32(to, 'cosmos')
    expect(decodeEventLog({ abi, data: log.data, topics: log.topics as [Hex, ...Hex[]] })).toMatchObject({ eventName: 'SetWithdrawerAddress', args: { caller: getAddress(me), withdrawerAddress: text } })
    expect(await client.readContract({ address: DISTRIBUTION, abi, functionName: 'delegatorWithdrawAddress', args: [me] })).toBe(text)

    for (let i = 0; i < 3; i++) await client.waitForTransactionReceipt({ hash: await clients().wallet.sendTransaction({ to: node.accounts[1]!.address as Hex, value: 1n }) })
    const before = await client.getBalance({ address: to })
    const w = await send(DISTRIBUTION, abi, 'withdrawDelegatorRewards', [me, A])
    const paid = decodeEventLog({ abi, data: w.logs[0]!.data, topics: w.logs[0]!.topics as [Hex, ...Hex[]] }) as unknown as { eventName: string; args: { amount: bigint } }
    expect(paid.eventName).toBe('WithdrawDelegatorReward')
    expect(paid.args.amount).toBeGreaterThan(0n)
    expect((await client.getBalance({ address: to })) - before).toBe(paid.args.amount)
    // Back to itself: the bech32 form is taken too.
    await send(DISTRIBUTION, abi, 'setWithdrawAddress', [me, await bech32(me, 'cosmos')])
    expect(await client.readContract({ address: DISTRIBUTION, abi, functionName: 'delegatorWithdrawAddress', args: [me] })).toBe(await bech32(me, 'cosmos'))
  })

  it('errors: a module account is refused; a bad address; another requester', async () => {
    const { me } = clients()
    expect(await refusal('setWithdrawAddress', [me, POOL])).toMatch(/cosmos1\w+ is not allowed to receive external funds/)
    expect(await refusal('setWithdrawAddress', [me, 'cosmos1notanaddress'])).toMatch(/invalid withdraw address/)
    expect(await refusal('setWithdrawAddress', [node.accounts[1]!.address, me])).toMatch(/does not match the requester address/)
  })
})

describe('depositValidatorRewardsPool', () => {
  it('behavior: the deposit is allocated to the validator: 10% commission, the rest to its delegators', async () => {
    const { client, me } = clients()
    const [, b] = await validators()
    const B = await bech32(b!.address, 'cosmosvaloper')
    const read = async (functionName: string) => ((await client.readContract({ address: DISTRIBUTION, abi, functionName, args: [B] })) as Array<{ amount: bigint }>)[0]?.amount ?? 0n
    const [commission, outstanding, pool] = [await read('validatorCommission'), await read('validatorOutstandingRewards'), await client.getBalance({ address: POOL })]
    const r = await send(DISTRIBUTION, abi, 'depositValidatorRewardsPool', [me, B, [{ denom: 'atest', amount: parseEther('10') }]])
    const log = r.logs.find((l) => l.address.toLowerCase() === DISTRIBUTION)!
    expect(decodeEventLog({ abi, data: log.data, topics: log.topics as [Hex, ...Hex[]] })).toMatchObject({
      eventName: 'DepositValidatorRewardsPool',
      args: { depositor: getAddress(me), validatorAddress: getAddress(b!.address), denom: 'atest', amount: parseEther('10') },
    })
    // The block's own base fee is allocated too (in its EndBlock): the deposit plus at most that.
    const block = await client.getBlock({ blockNumber: r.blockNumber })
    const fee = block.baseFeePerGas! * block.gasUsed * E18
    const added = (await read('validatorCommission')) - commission
    expect(added >= E18 * E18 && added <= E18 * E18 + fee / 10n).toBe(true)
    const rewards = (await read('validatorOutstandingRewards')) - outstanding
    expect(rewards >= 10n * E18 * E18 && rewards <= 10n * E18 * E18 + fee).toBe(true)
    expect((await client.getBalance({ address: POOL })) - pool).toBe(parseEther('10') + block.baseFeePerGas! * block.gasUsed)
  })

  it('errors: another denomination, more than the balance, an unknown validator', async () => {
    const { me } = clients()
    const [, b] = await validators()
    const B = await bech32(b!.address, 'cosmosvaloper')
    expect(await refusal('depositValidatorRewardsPool', [me, B, [{ denom: 'uatom', amount: 1n }]])).toMatch(/invalid denom uatom/)
    expect(await refusal('depositValidatorRewardsPool', [me, B, [{ denom: 'atest', amount: 10n ** 30n }]])).toMatch(/insufficient funds/)
    expect(await refusal('depositValidatorRewardsPool', [me, await bech32('0x00000000000000000000000000000000000000ee', 'cosmosvaloper'), [{ denom: 'atest', amount: 1n }]])).toMatch(/validator does not exist/)
  })
})

describe('validatorSlashes', () => {
  it('behavior: double-sign evidence records a slash event (period 1, fraction 5%) at the height that slashed', async () => {
    const { client } = clients()
    const [, , c] = await validators()
    const C = await bech32(c!.address, 'cosmosvaloper')
    const slashes = (from: bigint, to: bigint) => client.readContract({ address: DISTRIBUTION, abi, functionName: 'validatorSlashes', args: [C, from, to, PAGE] }) as Promise<[Array<{ validatorPeriod: bigint; fraction: { value: bigint; precision: number } }>, { total: bigint }]>
    expect((await slashes(0n, 1000n))[0]).toEqual([])
    await rpc('finality_setFault', c!.address, { equivocate: true })
    await rpc('evm_mine')
    await rpc('evm_mine')
    await rpc('finality_heal')
    const evidence = (await rpc('finality_getEvidence')) as Array<{ height: Hex }>
    const slashedAt = BigInt(evidence[0]!.height) + 1n
    const [events, page] = await slashes(0n, 1000n)
    expect(events).toEqual([{ validatorPeriod: 1n, fraction: { value: 5n * 10n ** 16n, precision: 18 } }])
    expect(page.total).toBe(1n)
    expect((await slashes(slashedAt, slashedAt))[0]).toHaveLength(1)
    expect((await slashes(slashedAt + 1n, 1000n))[0]).toEqual([])
    await expect(client.readContract({ address: DISTRIBUTION, abi, functionName: 'validatorSlashes', args: [C, 5n, 4n, PAGE] })).rejects.toThrow(/starting height greater than ending height \(5 > 4\)/)
  })
})
