/**
 * The bank precompile's supply: `totalSupply()` and `supplyOf(nativeErc20)` answer the counter the
 * module state keeps, checked against a full walk of the state (every account's balance, through
 * debug_accountRange) after each step of a long mixed sequence: sends, a SELFDESTRUCT burn,
 * delegation, undelegation and its pay-out, test-control writes, a vetoed proposal's burned
 * deposit, a snapshot and its revert,
 * downtime and double-sign slashing, a reset; and at every block of the chain afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, custom, encodeFunctionData, parseAbi, parseEther, toHex, type Hex } from 'viem'
import { createNode, type FinalityNode } from '../../src/index.js'
import { compile, type Compiled } from './compile.js'

const BANK = '0x0000000000000000000000000000000000000804' as const
const STAKING = '0x0000000000000000000000000000000000000800' as const
const NATIVE = '0xD4949664cD82660AaE99bEdc034a0deA8A0bd517' as const
const FAST = { timeouts: { propose: 30, proposeDelta: 10, prevote: 10, prevoteDelta: 10, precommit: 10, precommitDelta: 10 } }
const bank = parseAbi([
  'function totalSupply() view returns ((address contractAddress, uint256 amount)[])',
  'function supplyOf(address erc20Address) view returns (uint256)',
])
const staking = parseAbi([
  'function delegate(address delegatorAddress, string validatorAddress, uint256 amount) returns (bool)',
  'function undelegate(address delegatorAddress, string validatorAddress, uint256 amount) returns (int64)',
])

let node: FinalityNode
let contracts: Record<string, Compiled>
beforeAll(async () => {
  contracts = compile(['test/fixtures/cosmos-evm/precompiles/gov/IGov.sol'])
  node = await createNode({ validators: 4, consensus: FAST, cosmos: { unbondingBlocks: 2, signedBlocksWindow: 4, downtimeJailBlocks: 2 }, onConsoleLog: false })
}, 60_000)
afterAll(async () => {
  await node?.close()
})

const rpc = (method: string, ...params: unknown[]) => node.request({ method, params } as never) as Promise<unknown>
const hex = (n: bigint): Hex => `0x${n.toString(16)}`
const client = () => createPublicClient({ transport: custom(node.provider, { retryCount: 0 }) })

/** The sum of every account's balance at a block: the supply by definition. */
async function walk(block: bigint): Promise<bigint> {
  let sum = 0n
  let start: string = '0x' + '00'.repeat(32)
  for (;;) {
    const page = (await rpc('debug_accountRange', hex(block), start, 256, true, true, false)) as { accounts: Record<string, { balance: string }>; next?: string }
    for (const a of Object.values(page.accounts)) sum += BigInt(a.balance)
    if (page.next === undefined) return sum
    start = '0x' + Buffer.from(page.next, 'base64').toString('hex')
  }
}

async function supplyAt(block: bigint): Promise<bigint> {
  const c = client()
  const total = await c.readContract({ address: BANK, abi: bank, functionName: 'totalSupply', blockNumber: block })
  const of = await c.readContract({ address: BANK, abi: bank, functionName: 'supplyOf', args: [NATIVE], blockNumber: block })
  expect(total).toEqual([{ contractAddress: NATIVE, amount: of }])
  return of
}

/** The counter at the head, checked against the walk; answers it. */
async function check(): Promise<bigint> {
  const head = BigInt((await rpc('eth_blockNumber')) as Hex)
  const supply = await supplyAt(head)
  expect(supply).toBe(await walk(head))
  return supply
}

async function send(tx: Record<string, unknown>): Promise<{ status: Hex; blockNumber: Hex }> {
  const hash = (await rpc('eth_sendTransaction', { from: node.accounts[0]!.address, ...tx })) as Hex
  return (await rpc('eth_getTransactionReceipt', hash)) as { status: Hex; blockNumber: Hex }
}

const mine = async (n: number) => {
  for (let i = 0; i < n; i++) await rpc('evm_mine')
}

describe('bank supply', () => {
  it('supplyOf: 0 for an ERC-20 address without a token pair', async () => {
    expect(await client().readContract({ address: BANK, abi: bank, functionName: 'supplyOf', args: ['0x00000000000000000000000000000000000000ee'] })).toBe(0n)
  })

  it('behavior: the counter equals the sum of all balances after every kind of change, and at every block', async () => {
    const me = node.accounts[0]!.address as Hex
    const genesis = await check()
    expect(genesis).toBeGreaterThan(0n)

    // A send: the base fee burned by the EVM is minted to the validators, the tip goes to the miner.
    expect((await send({ to: node.accounts[1]!.address, value: hex(parseEther('3')) })).status).toBe('0x1')
    expect(await check()).toBe(genesis)

    // A contract that self-destructs to itself in its creation burns the value it was sent (EIP-6780).
    expect((await send({ data: '0x30ff', value: hex(parseEther('1')) })).status).toBe('0x1')
    expect(await check()).toBe(genesis - parseEther('1'))

    // Delegation, undelegation and its pay-out move tokens between accounts and pools only.
    const validators = (await rpc('finality_getValidators')) as Array<{ address: Hex }>
    const bech32 = parseAbi(['function hexToBech32(address addr, string prefix) returns (string)'])
    const valoper = (address: Hex) => client().readContract({ address: '0x0000000000000000000000000000000000000400', abi: bech32, functionName: 'hexToBech32', args: [address, 'cosmosvaloper'] })
    const operator = await valoper(validators[0]!.address)
    expect((await send({ to: STAKING, data: encodeFunctionData({ abi: staking, functionName: 'delegate', args: [me, operator, parseEther('5')] }) })).status).toBe('0x1')
    expect(await check()).toBe(genesis - parseEther('1'))
    expect((await send({ to: STAKING, data: encodeFunctionData({ abi: staking, functionName: 'undelegate', args: [me, operator, parseEther('2')] }) })).status).toBe('0x1')
    await mine(3)
    expect(await check()).toBe(genesis - parseEther('1'))
    let expected = genesis - parseEther('1')

    // Test controls that mint and burn.
    const stranger = '0x00000000000000000000000000000000000000aa'
    await rpc('hardhat_setBalance', stranger, hex(parseEther('7')))
    expected += parseEther('7')
    expect(await check()).toBe(expected)
    const before = BigInt((await rpc('eth_getBalance', node.accounts[2]!.address, 'latest')) as Hex)
    await rpc('anvil_setBalance', node.accounts[2]!.address, hex(1n))
    expected += 1n - before
    expect(await check()).toBe(expected)
    await rpc('finality_setDelegation', me, validators[1]!.address, hex(parseEther('100')))
    expected += parseEther('100')
    expect(await check()).toBe(expected)
    // A vetoed proposal's deposit is burned.
    const gov = { address: '0x0000000000000000000000000000000000000805' as const, abi: contracts.IGov!.abi }
    const proposal = toHex(JSON.stringify({ messages: [], title: 'veto me', summary: 'a test', metadata: '' }))
    const submit = encodeFunctionData({ ...gov, functionName: 'submitProposal', args: [me, proposal, [{ denom: 'atest', amount: parseEther('1') }]] })
    expect((await send({ to: gov.address, data: submit })).status).toBe('0x1')
    expect((await send({ to: gov.address, data: encodeFunctionData({ ...gov, functionName: 'vote', args: [me, 1n, 4, ''] }) })).status).toBe('0x1')
    await mine(5)
    expect(((await client().readContract({ ...gov, functionName: 'getProposal', args: [1n] })) as { status: number }).status).toBe(4)
    expected -= parseEther('1')
    expect(await check()).toBe(expected)
    await rpc('hardhat_setStorageAt', stranger, '0x0', '0x' + '11'.repeat(32))
    await rpc('hardhat_setNonce', stranger, '0x5')
    expect(await check()).toBe(expected)

    // A snapshot and its revert take the counter with the state.
    const snapshot = await rpc('evm_snapshot')
    await rpc('hardhat_setBalance', stranger, hex(parseEther('1000')))
    await send({ to: stranger, value: '0x1' })
    expect(await check()).toBe(expected + parseEther('993'))
    expect(await rpc('evm_revert', snapshot)).toBe(true)
    expect(await check()).toBe(expected)

    // Downtime: a validator offline past the window's allowance is slashed (its tokens burned).
    const slow = validators[3]!.address
    await rpc('finality_setFault', slow, { offline: true })
    await mine(8)
    await rpc('finality_heal')
    await mine(1)
    const afterDowntime = await check()
    expect(afterDowntime).toBeLessThan(expected)

    // Double signing: 5% of the validator's tokens burned by the block that commits the evidence.
    await rpc('finality_setFault', validators[2]!.address, { equivocate: true })
    await send({ to: node.accounts[1]!.address, value: '0x1' })
    await mine(1)
    await rpc('finality_heal')
    await mine(1)
    expect(await check()).toBeLessThan(afterDowntime)

    // Every block of the chain: the counter read at it equals the walk of its state.
    const head = BigInt((await rpc('eth_blockNumber')) as Hex)
    for (let n = 0n; n <= head; n++) expect(await supplyAt(n)).toBe(await walk(n))

    // A reset goes back to the genesis supply.
    await rpc('hardhat_reset')
    expect(await check()).toBe(genesis)
  }, 60_000)

  it('behavior: a raw write of the record, or a state load over the module account, is counted again; a reset to a fork is refused', async () => {
    const { keccak256, toBytes } = await import('viem')
    await rpc('hardhat_setStorageAt', STAKING, keccak256(toBytes('bank.supply')), '0x' + '00'.repeat(31) + '05')
    expect(await check()).toBeGreaterThan(5n)
    // An unknown token's answer needs no record.
    expect(await client().readContract({ address: BANK, abi: bank, functionName: 'supplyOf', args: ['0x00000000000000000000000000000000000000ee'] })).toBe(0n)

    // A dump loaded back after the balances moved: the dumped accounts replace the node's.
    const dump = await rpc('anvil_dumpState')
    const before = await check()
    await rpc('hardhat_setBalance', node.accounts[5]!.address, '0x0')
    await rpc('hardhat_setBalance', '0x00000000000000000000000000000000000000bb', hex(parseEther('3')))
    expect(await rpc('anvil_loadState', dump)).toBe(true)
    // The account made after the dump keeps its balance: the supply counts it.
    expect(await check()).toBe(before + parseEther('3'))

    await expect(rpc('hardhat_reset', { forking: { jsonRpcUrl: 'http://127.0.0.1:1' } })).rejects.toThrow(/a reset to a fork is refused with the cosmos option/)
    await rpc('hardhat_reset')
    await check()
  }, 30_000)
})
