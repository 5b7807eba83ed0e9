/**
 * The governance precompile's list queries with Cosmos's pagination: getVotes (voter-address
 * order), getDeposit / getDeposits (the initial deposit while a proposal is voted on, gone once
 * x/gov refunds or burns it), getProposals (filters before paging), getConstitution; voteWeighted; deposit; cancelProposal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, custom, parseAbi, parseEther, parseEventLogs, toHex, zeroAddress, type Hex } from 'viem'
import { createNode, type FinalityNode } from '../../src/index.js'
import { compile, type Compiled } from './compile.js'

const GOV = '0x0000000000000000000000000000000000000805' as const

let contracts: Record<string, Compiled>
let node: FinalityNode

beforeAll(async () => {
  contracts = compile(['test/fixtures/cosmos-evm/precompiles/gov/IGov.sol'])
  node = await createNode({ validators: 2, cosmos: { votingBlocks: 20 }, onConsoleLog: false })
}, 60_000)
afterAll(async () => {
  await node?.close()
})

type Page = { key?: Hex; offset?: bigint; limit?: bigint; countTotal?: boolean; reverse?: boolean }
const page = (p: Page = {}) => ({ key: p.key ?? '0x', offset: p.offset ?? 0n, limit: p.limit ?? 0n, countTotal: p.countTotal ?? false, reverse: p.reverse ?? false })
type Vote = { proposalId: bigint; voter: Hex; options: Array<{ option: number; weight: string }>; metadata: string }

describe('governance queries', () => {
  it('behavior: votes, deposits and proposals as Cosmos pages them; deposits gone after the voting period', async () => {
    const transport = custom(node.provider, { retryCount: 0 })
    const client = createPublicClient({ transport })
    const abi = contracts.IGov!.abi
    const read = (functionName: string, args: unknown[] = []) => client.readContract({ address: GOV, abi, functionName, args } as never) as Promise<unknown>
    const [a, b, c] = node.accounts.slice(0, 3).map((x) => x.address as Hex) as [Hex, Hex, Hex]
    for (const who of [a, b, c]) await node.setDelegation(who, node.validators[0]!.address, parseEther('10'))
    const send = async (from: Hex, functionName: string, args: unknown[]) => {
      const wallet = createWalletClient({ transport, account: { address: from, type: 'json-rpc' } })
      await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: GOV, abi, functionName, args, chain: null } as never) })
    }
    const text = (title: string) => toHex(JSON.stringify({ messages: [], title, summary: 's', metadata: '' }))
    const deposit = [{ denom: 'atest', amount: parseEther('1') }]
    await send(a, 'submitProposal', [a, text('one'), deposit])
    await send(b, 'submitProposal', [b, text('two'), deposit])
    await send(a, 'submitProposal', [a, text('three'), deposit])
    await send(a, 'vote', [a, 1n, 1, ''])
    await send(b, 'vote', [b, 1n, 3, ''])
    await send(c, 'vote', [c, 1n, 2, ''])
    await send(b, 'vote', [b, 2n, 4, ''])

    // Votes in voter-address order; limit 0: the default limit, and the total counted.
    const sorted = [a, b, c].sort((x, y) => (x.toLowerCase() < y.toLowerCase() ? -1 : 1))
    const option = { [a]: 1, [b]: 3, [c]: 2 }
    const [all, allPage] = (await read('getVotes', [1n, page()])) as [Vote[], { nextKey: Hex; total: bigint }]
    expect(all.map((v) => v.voter)).toEqual(sorted)
    expect(all.map((v) => v.options)).toEqual(sorted.map((v) => [{ option: option[v], weight: '1.000000000000000000' }]))
    expect(allPage).toEqual({ nextKey: '0x', total: 3n })
    // Two at a time: the next key carries on; a key page counts no total.
    const [first, firstPage] = (await read('getVotes', [1n, page({ limit: 2n, countTotal: true })])) as [Vote[], { nextKey: Hex; total: bigint }]
    expect(first.map((v) => v.voter)).toEqual(sorted.slice(0, 2))
    expect(firstPage.total).toBe(3n)
    expect(firstPage.nextKey).not.toBe('0x')
    const [rest, restPage] = (await read('getVotes', [1n, page({ key: firstPage.nextKey, limit: 2n, countTotal: true })])) as [Vote[], { nextKey: Hex; total: bigint }]
    expect(rest.map((v) => v.voter)).toEqual(sorted.slice(2))
    expect(restPage).toEqual({ nextKey: '0x', total: 0n })
    const [reversed] = (await read('getVotes', [1n, page({ reverse: true, offset: 1n, limit: 1n })])) as [Vote[]]
    expect(reversed.map((v) => v.voter)).toEqual([sorted[1]])
    await expect(read('getVotes', [1n, page({ key: firstPage.nextKey, offset: 1n })])).rejects.toThrow(/either offset or key is expected, got both/)
    await expect(read('getVotes', [0n, page()])).rejects.toThrow(/proposal id can not be 0/)
    expect(await read('getVotes', [99n, page()])).toEqual([[], { nextKey: '0x', total: 0n }])

    // Deposits: the proposer's, while the proposal is voted on.
    expect(await read('getDeposit', [1n, a])).toEqual({ proposalId: 1n, depositor: a, amount: [{ denom: 'atest', amount: parseEther('1') }] })
    await expect(read('getDeposit', [1n, b])).rejects.toThrow(new RegExp(`depositer: ${b} not found for proposal: 1`))
    const [deposits, depositsPage] = (await read('getDeposits', [2n, page({ countTotal: true, limit: 5n })])) as [Array<{ depositor: Hex }>, { total: bigint }]
    expect(deposits.map((d) => d.depositor)).toEqual([b])
    expect(depositsPage.total).toBe(1n)

    // Proposals: filtered by status, voter and depositor before paging.
    const ids = async (status: number, voter: Hex, depositor: Hex, p: Page = {}) =>
      ((await read('getProposals', [status, voter, depositor, page(p)])) as [Array<{ id: bigint; title: string }>, { total: bigint }])
    const [every, everyPage] = await ids(0, zeroAddress, zeroAddress)
    expect(every.map((p) => [p.id, p.title])).toEqual([[1n, 'one'], [2n, 'two'], [3n, 'three']])
    expect(everyPage.total).toBe(3n)
    expect((await ids(2, b, zeroAddress))[0].map((p) => p.id)).toEqual([1n, 2n])
    expect((await ids(0, zeroAddress, a))[0].map((p) => p.id)).toEqual([1n, 3n])
    expect((await ids(0, c, a))[0].map((p) => p.id)).toEqual([1n])
    const [second, secondPage] = await ids(0, zeroAddress, zeroAddress, { offset: 1n, limit: 1n, countTotal: true })
    expect(second.map((p) => p.id)).toEqual([2n])
    expect(secondPage.total).toBe(3n)

    // After the voting period x/gov has refunded or burned the deposits and deleted their records.
    await node.request({ method: 'hardhat_mine', params: ['0x14'] })
    expect((await ids(2, zeroAddress, zeroAddress))[0]).toEqual([])
    const ended = (await ids(3, zeroAddress, zeroAddress))[0].length + (await ids(4, zeroAddress, zeroAddress))[0].length
    expect(ended).toBe(3)
    await expect(read('getDeposit', [1n, a])).rejects.toThrow(/not found for proposal: 1/)
    expect(await read('getDeposits', [1n, page()])).toEqual([[], { nextKey: '0x', total: 0n }])
    expect((await ids(0, zeroAddress, a))[0]).toEqual([])
    // The votes stay readable.
    expect(((await read('getVotes', [1n, page()])) as [Vote[]])[0]).toHaveLength(3)

    expect(await read('getConstitution')).toBe('')
  }, 30_000)

  it('voteWeighted: x/gov\'s checks in its order; the tally splits each voter\'s power by the weights', async () => {
    const transport = custom(node.provider, { retryCount: 0 })
    const client = createPublicClient({ transport })
    const abi = contracts.IGov!.abi
    const [a, b, c] = node.accounts.slice(0, 3).map((x) => x.address as Hex) as [Hex, Hex, Hex]
    const wallet = (from: Hex) => createWalletClient({ transport, account: { address: from, type: 'json-rpc' } })
    const send = async (from: Hex, functionName: string, args: unknown[]) =>
      client.waitForTransactionReceipt({ hash: await wallet(from).writeContract({ address: GOV, abi, functionName, args, chain: null } as never) })
    await send(a, 'submitProposal', [a, toHex(JSON.stringify({ messages: [], title: 'split', summary: 's', metadata: '' })), [{ denom: 'atest', amount: parseEther('1') }]])
    const id = 4n
    const refused = (options: Array<{ option: number; weight: string }>) =>
      client.simulateContract({ account: a, address: GOV, abi, functionName: 'voteWeighted', args: [a, id, options, ''] } as never)
    await expect(refused([])).rejects.toThrow(/invalid request/)
    await expect(refused([{ option: 5, weight: '1' }])).rejects.toThrow(/option:5 weight:"1": invalid vote option/)
    await expect(refused([{ option: 1, weight: '0' }])).rejects.toThrow(/option:VOTE_OPTION_YES weight:"0": invalid vote option/)
    await expect(refused([{ option: 1, weight: '1.5' }])).rejects.toThrow(/weight:"1.5": invalid vote option/)
    await expect(refused([{ option: 1, weight: '0.' + '1'.repeat(19) }])).rejects.toThrow(/invalid vote option/)
    await expect(refused([{ option: 1, weight: '0.5' }, { option: 1, weight: '0.5' }])).rejects.toThrow(/duplicated vote option/)
    await expect(refused([{ option: 1, weight: '0.6' }, { option: 3, weight: '0.6' }])).rejects.toThrow(/total weight overflow 1.00/)
    await expect(refused([{ option: 1, weight: '0.5' }])).rejects.toThrow(/total weight lower than 1.00/)
    await expect(client.simulateContract({ account: b, address: GOV, abi, functionName: 'voteWeighted', args: [a, id, [{ option: 1, weight: '1' }], ''] } as never)).rejects.toThrow(/does not match the requester address/)
    await expect(client.simulateContract({ account: a, address: GOV, abi, functionName: 'voteWeighted', args: [a, 1n, [{ option: 1, weight: '1' }], ''] } as never)).rejects.toThrow(/1: inactive proposal/)

    const receipt = await send(a, 'voteWeighted', [a, id, [{ option: 1, weight: '0.7' }, { option: 3, weight: '0.3' }], ''])
    const [event] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'VoteWeighted' }) as unknown as Array<{ args: { voter: Hex; proposalId: bigint; options: unknown[] } }>
    expect(event!.args).toEqual({ voter: a, proposalId: id, options: [{ option: 1, weight: '0.7' }, { option: 3, weight: '0.3' }] })
    await send(b, 'vote', [b, id, 3, ''])
    await send(c, 'voteWeighted', [c, id, [{ option: 2, weight: '0.5' }, { option: 4, weight: '.5' }], ''])
    expect(((await client.readContract({ address: GOV, abi, functionName: 'getVote', args: [id, c] } as never)) as Vote).options).toEqual([{ option: 2, weight: '0.5' }, { option: 4, weight: '.5' }])
    // Each voter has 10 tokens delegated: yes 7, abstain 5, no 3 + 10, veto 5.
    const tokens = (n: string) => parseEther(n).toString()
    expect(await client.readContract({ address: GOV, abi, functionName: 'getTallyResult', args: [id] } as never)).toEqual({ yes: tokens('7'), abstain: tokens('5'), no: tokens('13'), noWithVeto: tokens('5') })
    // A later vote replaces the split.
    await send(a, 'vote', [a, id, 1, ''])
    expect(((await client.readContract({ address: GOV, abi, functionName: 'getVote', args: [id, a] } as never)) as Vote).options).toEqual([{ option: 1, weight: '1.000000000000000000' }])
    expect(await client.readContract({ address: GOV, abi, functionName: 'getTallyResult', args: [id] } as never)).toMatchObject({ yes: tokens('10'), no: tokens('10') })
  }, 30_000)

  it('deposit: more tokens on a proposal while it is voted on, with x/gov\'s checks; every depositor refunded at the end', async () => {
    const transport = custom(node.provider, { retryCount: 0 })
    const client = createPublicClient({ transport })
    const abi = contracts.IGov!.abi
    const [a, b, c] = node.accounts.slice(0, 3).map((x) => x.address as Hex) as [Hex, Hex, Hex]
    const wallet = (from: Hex) => createWalletClient({ transport, account: { address: from, type: 'json-rpc' } })
    const send = async (from: Hex, functionName: string, args: unknown[]) =>
      client.waitForTransactionReceipt({ hash: await wallet(from).writeContract({ address: GOV, abi, functionName, args, chain: null } as never) })
    // The earlier proposals end first.
    await node.request({ method: 'hardhat_mine', params: ['0x14'] })
    await send(b, 'submitProposal', [b, toHex(JSON.stringify({ messages: [], title: 'fund', summary: 's', metadata: '' })), [{ denom: 'atest', amount: parseEther('1') }]])
    const id = 5n
    const coins = (amount: bigint, denom = 'atest') => [{ denom, amount }]
    const refused = (from: Hex, proposal: bigint, amount: unknown) => client.simulateContract({ account: from, address: GOV, abi, functionName: 'deposit', args: [from, proposal, amount] } as never)
    await expect(refused(c, id, coins(0n))).rejects.toThrow(/0atest: invalid coins/)
    await expect(refused(c, id, coins(5n, 'uatom'))).rejects.toThrow(/deposited 5uatom, but gov accepts only the following denom\(s\): \[atest\]: invalid deposit denom/)
    await expect(refused(c, id, coins(10n ** 16n - 1n))).rejects.toThrow(/received 9999999999999999atest but need at least one of the following: 10000000000000000atest: minimum deposit is too small/)
    await expect(refused(c, 99n, coins(parseEther('1')))).rejects.toThrow(/proposal 99 doesn't exist/)
    await expect(refused(c, 1n, coins(parseEther('1')))).rejects.toThrow(/1: inactive proposal/)
    await expect(refused(c, id, coins(parseEther('100000000')))).rejects.toThrow(/insufficient funds/)
    await expect(client.simulateContract({ account: a, address: GOV, abi, functionName: 'deposit', args: [c, id, coins(parseEther('1'))] } as never)).rejects.toThrow(/does not match the requester address/)

    const pool = `0x${(await import('node:crypto')).createHash('sha256').update('gov').digest('hex').slice(0, 40)}` as Hex
    const poolBefore = await client.getBalance({ address: pool })
    const receipt = await send(c, 'deposit', [c, id, coins(parseEther('2'))])
    const [event] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'Deposit' }) as unknown as Array<{ args: unknown }>
    expect(event!.args).toEqual({ depositor: c, proposalId: id, amount: coins(parseEther('2')) })
    await send(a, 'deposit', [a, id, coins(parseEther('0.5'))])
    await send(c, 'deposit', [c, id, coins(parseEther('1'))])
    expect(await client.getBalance({ address: pool })).toBe(poolBefore + parseEther('3.5'))
    const [records] = (await client.readContract({ address: GOV, abi, functionName: 'getDeposits', args: [id, page()] } as never)) as [Array<{ depositor: Hex; amount: Array<{ amount: bigint }> }>]
    const expected = new Map([[a, parseEther('0.5')], [b, parseEther('1')], [c, parseEther('3')]])
    expect(records.map((r) => r.depositor)).toEqual([a, b, c].sort((x, y) => (x.toLowerCase() < y.toLowerCase() ? -1 : 1)))
    for (const r of records) expect(r.amount[0]!.amount).toBe(expected.get(r.depositor))
    expect(((await client.readContract({ address: GOV, abi, functionName: 'getProposal', args: [id] } as never)) as { totalDeposit: Array<{ amount: bigint }> }).totalDeposit[0]!.amount).toBe(parseEther('4.5'))

    // Nobody votes: rejected without quorum, every deposit refunded to its depositor.
    const before = await Promise.all([a, b, c].map((x) => client.getBalance({ address: x })))
    await node.request({ method: 'hardhat_mine', params: ['0x14'] })
    const after = await Promise.all([a, b, c].map((x) => client.getBalance({ address: x })))
    expect(after.map((v, i) => v - before[i]!)).toEqual([parseEther('0.5'), parseEther('1'), parseEther('3')])
    expect(await client.getBalance({ address: pool })).toBe(poolBefore - parseEther('1'))
  }, 30_000)

  it('cancelProposal: only its proposer, while voted on; half of each deposit burned, the rest refunded; the proposal and its votes deleted', async () => {
    const transport = custom(node.provider, { retryCount: 0 })
    const client = createPublicClient({ transport })
    const abi = contracts.IGov!.abi
    const [a, b, c] = node.accounts.slice(0, 3).map((x) => x.address as Hex) as [Hex, Hex, Hex]
    const wallet = (from: Hex) => createWalletClient({ transport, account: { address: from, type: 'json-rpc' } })
    const send = async (from: Hex, functionName: string, args: unknown[]) =>
      client.waitForTransactionReceipt({ hash: await wallet(from).writeContract({ address: GOV, abi, functionName, args, chain: null } as never) })
    await send(a, 'submitProposal', [a, toHex(JSON.stringify({ messages: [], title: 'oops', summary: 's', metadata: '' })), [{ denom: 'atest', amount: parseEther('1') }]])
    const id = 6n
    await send(c, 'deposit', [c, id, [{ denom: 'atest', amount: parseEther('0.3') }]])
    await send(b, 'vote', [b, id, 1, ''])
    const cancel = (from: Hex, proposer: Hex, proposal: bigint) => client.simulateContract({ account: from, address: GOV, abi, functionName: 'cancelProposal', args: [proposer, proposal] } as never)
    const bech32 = await client.readContract({ address: '0x0000000000000000000000000000000000000400', abi: parseAbi(['function hexToBech32(address, string) view returns (string)']), functionName: 'hexToBech32', args: [b, 'cosmos'] })
    await expect(cancel(b, b, id)).rejects.toThrow(new RegExp(`invalid proposer ${bech32}`))
    await expect(cancel(a, a, 1n)).rejects.toThrow(/proposal should be in the deposit or voting period/)
    await expect(cancel(a, a, 99n)).rejects.toThrow(/proposal 99 doesn't exist/)
    await expect(cancel(b, a, id)).rejects.toThrow(/does not match the requester address/)

    const BANK = '0x0000000000000000000000000000000000000804' as const
    const supply = () => client.readContract({ address: BANK, abi: parseAbi(['function supplyOf(address) view returns (uint256)']), functionName: 'supplyOf', args: ['0xD4949664cD82660AaE99bEdc034a0deA8A0bd517'] })
    const supplyBefore = await supply()
    const cBefore = await client.getBalance({ address: c })
    const receipt = await send(a, 'cancelProposal', [a, id])
    const [event] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'CancelProposal' }) as unknown as Array<{ args: unknown }>
    expect(event!.args).toEqual({ proposer: a, proposalId: id })
    expect(await client.getBalance({ address: c })).toBe(cBefore + parseEther('0.15'))
    // Half of 1.3 tokens burned.
    expect(await supply()).toBe(supplyBefore - parseEther('0.65'))
    await expect(client.readContract({ address: GOV, abi, functionName: 'getProposal', args: [id] } as never)).rejects.toThrow(/proposal 6 doesn't exist/)
    expect(await client.readContract({ address: GOV, abi, functionName: 'getVotes', args: [id, page()] } as never)).toEqual([[], { nextKey: '0x', total: 0n }])
    expect(await client.readContract({ address: GOV, abi, functionName: 'getDeposits', args: [id, page()] } as never)).toEqual([[], { nextKey: '0x', total: 0n }])
    const [listed] = (await client.readContract({ address: GOV, abi, functionName: 'getProposals', args: [0, zeroAddress, zeroAddress, page()] } as never)) as [Array<{ id: bigint }>]
    expect(listed.map((p) => p.id)).toEqual([1n, 2n, 3n, 4n, 5n])
    expect(((await client.readContract({ address: GOV, abi, functionName: 'getParams' } as never)) as { proposalCancelRatio: string }).proposalCancelRatio).toBe('0.500000000000000000')
  }, 30_000)
})
