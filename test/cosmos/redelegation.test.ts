/**
 * The staking precompile's redelegate and cancelUnbondingDelegation through viem in-process:
 * both validators' powers change at H + 2, the redelegation entry lives for the unbonding blocks
 * and is slashed when its source double-signs, Cosmos's checks revert with its reasons, and a
 * cancelled unbonding entry is bonded again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, custom, decodeEventLog, defineChain, getAddress, parseEther, type Abi, type Hex } from 'viem'
import { createNode, type FinalityNode } from '../../src/index.js'
import { compile, type Compiled } from './compile.js'

const chain = defineChain({ id: 262144, name: 'cosmos-evm', nativeCurrency: { name: 'test', symbol: 'TEST', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:0'] } } })
const STAKING = '0x0000000000000000000000000000000000000800' as const
const BECH32 = '0x0000000000000000000000000000000000000400' as const
const FAST = { timeouts: { propose: 30, proposeDelta: 10, prevote: 10, prevoteDelta: 10, precommit: 10, precommitDelta: 10 } }
const PAGE = { key: '0x' as Hex, offset: 0n, limit: 0n, countTotal: true, reverse: false }
const E18 = 10n ** 18n

let contracts: Record<string, Compiled>
let node: FinalityNode
let abi: Abi

beforeAll(async () => {
  contracts = compile(['test/fixtures/cosmos-evm/precompiles/staking/StakingI.sol', 'test/fixtures/cosmos-evm/precompiles/bech32/Bech32I.sol'])
  abi = contracts.StakingI!.abi
  node = await createNode({ validators: 4, consensus: FAST, cosmos: { unbondingBlocks: 3 }, onConsoleLog: false })
}, 60_000)
afterAll(async () => {
  await node?.close()
})

const rpc = (method: string, ...params: unknown[]) => node.request({ method, params } as never) as Promise<unknown>
const hex = (n: bigint) => `0x${n.toString(16)}`
type Member = { address: Hex; votingPower: Hex }
const setAt = (n: bigint) => rpc('finality_getValidators', hex(n)) as Promise<Member[]>

function clients() {
  const transport = custom(node.provider, { retryCount: 0 })
  const account = { address: node.accounts[0]!.address as Hex, type: 'json-rpc' as const }
  return { client: createPublicClient({ chain, transport, pollingInterval: 20 }), wallet: createWalletClient({ chain, transport, account }), me: account.address }
}

async function valoper(address: Hex): Promise<string> {
  return clients().client.readContract({ address: BECH32, abi: contracts.Bech32I!.abi, functionName: 'hexToBech32', args: [address, 'cosmosvaloper'] }) as Promise<string>
}

/** Sends a staking call from the first account; answers its receipt. */
async function send(functionName: string, args: unknown[]) {
  const { client, wallet } = clients()
  const receipt = await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: STAKING, abi, functionName, args }) })
  expect(receipt.status).toBe('success')
  return receipt
}

/** Simulates a staking call from the first account; answers the revert's message. */
async function refusal(functionName: string, args: unknown[]): Promise<string> {
  const { client, me } = clients()
  return client.simulateContract({ account: me, address: STAKING, abi, functionName, args }).then(
    () => 'no revert',
    (error: Error) => error.message,
  )
}

describe('redelegate', () => {
  it('behavior: moves the delegation; both powers change at H + 2; the entry lives for the unbonding blocks', async () => {
    const { client, me } = clients()
    const [a, b, c] = await setAt(0n)
    const [A, B, C] = [await valoper(a!.address), await valoper(b!.address), await valoper(c!.address)]
    await send('delegate', [me, A, parseEther('5')])
    const receipt = await send('redelegate', [me, A, B, parseEther('2')])
    const h = receipt.blockNumber
    const log = receipt.logs.find((l) => l.address.toLowerCase() === STAKING)!
    const event = decodeEventLog({ abi, data: log.data, topics: log.topics as [Hex, ...Hex[]] })
    expect(event).toMatchObject({
      eventName: 'Redelegate',
      args: { delegatorAddress: getAddress(me), validatorSrcAddress: getAddress(a!.address), validatorDstAddress: getAddress(b!.address), amount: parseEther('2'), completionTime: h + 3n },
    })

    const power = async (n: bigint, who: Hex) => BigInt((await setAt(n)).find((m) => m.address === who)!.votingPower)
    await rpc('evm_mine')
    await rpc('evm_mine')
    expect([await power(h + 1n, a!.address), await power(h + 1n, b!.address)]).toEqual([15n, 10n])
    expect([await power(h + 2n, a!.address), await power(h + 2n, b!.address)]).toEqual([13n, 12n])
    const [, balance] = (await client.readContract({ address: STAKING, abi, functionName: 'delegation', args: [me, B] })) as [bigint, { amount: bigint }]
    expect(balance.amount).toBe(parseEther('2'))

    const entry = { creationHeight: h, completionTime: h + 3n, initialBalance: parseEther('2'), sharesDst: parseEther('2') * E18 }
    expect(await client.readContract({ address: STAKING, abi, functionName: 'redelegation', args: [me, A, B], blockNumber: h })).toMatchObject({
      validatorSrcAddress: A,
      validatorDstAddress: B,
      entries: [entry],
    })
    const [rows, page] = (await client.readContract({ address: STAKING, abi, functionName: 'redelegations', args: [me, '', '', PAGE], blockNumber: h })) as [
      Array<{ redelegation: { validatorDstAddress: string }; entries: Array<{ balance: bigint }> }>,
      { total: bigint },
    ]
    expect(page.total).toBe(1n)
    expect(rows[0]).toMatchObject({ redelegation: { validatorDstAddress: B }, entries: [{ balance: parseEther('2') }] })

    // While it lives, B cannot pass it on (a transitive redelegation).
    expect(await refusal('redelegate', [me, B, C, parseEther('1')])).toMatch(/redelegation to this validator already in progress/)
    // Completed at its height: the entry is gone and B may pass it on.
    await rpc('evm_mine')
    expect((await client.getBlockNumber()) >= h + 3n).toBe(true)
    expect(await client.readContract({ address: STAKING, abi, functionName: 'redelegation', args: [me, A, B] })).toMatchObject({ delegatorAddress: '', entries: [] })
    expect(await refusal('redelegate', [me, B, C, parseEther('1')])).toBe('no revert')
  }, 120_000)

  it("errors: Cosmos's checks in its order", async () => {
    const { me } = clients()
    const [a, b, , d] = await setAt(0n)
    const [A, B, D] = [await valoper(a!.address), await valoper(b!.address), await valoper(d!.address)]
    const nobody = await valoper('0x00000000000000000000000000000000000000ee')
    expect(await refusal('redelegate', [me, A, A, parseEther('1')])).toMatch(/cannot redelegate to the same validator/)
    expect(await refusal('redelegate', [me, A, nobody, parseEther('1')])).toMatch(/redelegation destination validator not found/)
    expect(await refusal('redelegate', [me, nobody, A, parseEther('1')])).toMatch(/validator does not exist/)
    expect(await refusal('redelegate', [me, D, A, parseEther('1')])).toMatch(/no delegation for \(address, validator\) tuple/)
    expect(await refusal('redelegate', [me, A, D, parseEther('100')])).toMatch(/invalid shares amount/)
    expect(await refusal('redelegate', [me, A, D, 0n])).toMatch(/amount must be positive/)
    expect(await refusal('redelegate', ['0x00000000000000000000000000000000000000ee', A, D, 1n])).toMatch(/does not match the requester address/)
    // Seven entries per (delegator, source, destination), Cosmos's default max_entries.
    // (In one block: entries complete after the unbonding blocks.)
    const { wallet, client } = clients()
    await rpc('evm_setAutomine', false)
    const hashes: Hex[] = []
    for (let i = 0; i < 7; i++) hashes.push(await wallet.writeContract({ address: STAKING, abi, functionName: 'redelegate', args: [me, A, D, E18 / 10n] }))
    await rpc('evm_mine')
    await rpc('evm_setAutomine', true)
    for (const hash of hashes) expect((await client.getTransactionReceipt({ hash })).status).toBe('success')
    expect(await refusal('redelegate', [me, A, D, E18 / 10n])).toMatch(/too many redelegation entries for \(delegator, src-validator, dst-validator\) tuple/)
    expect(await refusal('redelegate', [me, A, B, 1n])).toBe('no revert')
  }, 120_000)

  it('slashing: the source double-signs; an entry begun at or after the infraction loses 5% of the shares it bought, one before it nothing', async () => {
    const { client, me } = clients()
    const [a, b] = await setAt(0n)
    const [A, B] = [await valoper(a!.address), await valoper(b!.address)]
    const held = async () => ((await client.readContract({ address: STAKING, abi, functionName: 'delegation', args: [me, B] })) as [bigint])[0]
    await send('redelegate', [me, A, B, parseEther('1')])
    await rpc('finality_setFault', a!.address, { equivocate: true })
    const r = await send('redelegate', [me, A, B, parseEther('1')])
    const evidence = (await rpc('finality_getEvidence')) as Array<{ validator: Hex; height: Hex }>
    expect(BigInt(evidence[0]!.height)).toBe(r.blockNumber)
    const entries = ((await client.readContract({ address: STAKING, abi, functionName: 'redelegation', args: [me, A, B] })) as { entries: Array<{ creationHeight: bigint; sharesDst: bigint }> }).entries
    expect(entries).toHaveLength(2)
    const before = await held()
    // The next block commits the evidence: BeginBlock slashes A and its redelegations.
    await rpc('evm_mine')
    await rpc('finality_heal')
    expect(((await client.readContract({ address: STAKING, abi, functionName: 'validator', args: [a!.address] })) as { jailed: boolean }).jailed).toBe(true)
    expect(before - (await held())).toBe((entries[1]!.sharesDst * 5n) / 100n)
  }, 120_000)
})

describe('cancelUnbondingDelegation', () => {
  it('behavior: bonds an unbonding entry again, in part then whole; the event; the power at H + 2', async () => {
    const { client, me } = clients()
    const [, , c] = await setAt(0n)
    const C = await valoper(c!.address)
    await send('delegate', [me, C, parseEther('4')])
    const u = (await send('undelegate', [me, C, parseEther('2')])).blockNumber
    const r = await send('cancelUnbondingDelegation', [me, C, parseEther('1'), u])
    const log = r.logs.find((l) => l.address.toLowerCase() === STAKING)!
    expect(decodeEventLog({ abi, data: log.data, topics: log.topics as [Hex, ...Hex[]] })).toMatchObject({
      eventName: 'CancelUnbondingDelegation',
      args: { delegatorAddress: getAddress(me), validatorAddress: getAddress(c!.address), amount: parseEther('1'), creationHeight: u },
    })
    const unbonding = async () =>
      ((await client.readContract({ address: STAKING, abi, functionName: 'unbondingDelegation', args: [me, C] })) as { entries: Array<{ balance: bigint; initialBalance: bigint }> }).entries
    expect(await unbonding()).toMatchObject([{ balance: parseEther('1'), initialBalance: parseEther('1') }])
    const [, held] = (await client.readContract({ address: STAKING, abi, functionName: 'delegation', args: [me, C] })) as [bigint, { amount: bigint }]
    expect(held.amount).toBe(parseEther('3'))

    expect(await refusal('cancelUnbondingDelegation', [me, C, parseEther('1'), u + 1n])).toMatch(/unbonding delegation entry is not found at block height/)
    expect(await refusal('cancelUnbondingDelegation', [me, C, parseEther('2'), u])).toMatch(/amount is greater than the unbonding delegation entry balance/)
    expect(await refusal('cancelUnbondingDelegation', [me, C, parseEther('1'), 0n])).toMatch(/invalid height/)
    await send('cancelUnbondingDelegation', [me, C, parseEther('1'), u])
    expect(await unbonding()).toEqual([])
    await rpc('evm_mine')
    expect(BigInt((await setAt(r.blockNumber + 2n)).find((m) => m.address === c!.address)!.votingPower)).toBe(13n)
    expect(await refusal('cancelUnbondingDelegation', [me, C, parseEther('1'), u])).toMatch(/unbonding delegation with delegator cosmos1\w+ not found for validator/)
  }, 120_000)

  it('errors: a jailed validator refuses it', async () => {
    const { me } = clients()
    const [, , c] = await setAt(0n)
    const C = await valoper(c!.address)
    const u = (await send('undelegate', [me, C, parseEther('1')])).blockNumber
    await rpc('finality_jailValidator', c!.address)
    expect(await refusal('cancelUnbondingDelegation', [me, C, parseEther('1'), u])).toMatch(/validator for this address is currently jailed/)
  }, 120_000)
})
