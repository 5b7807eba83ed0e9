/**
 * Faults on demand and validator-set changes through node.request (the finality_ controls), on a
 * manual clock: round changes and halts happen when the test moves time, never by chance.
 */
import { describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../src/index.js'
import { hexToBytes, type Hex } from 'viem'
import { trackNodes } from '../helpers/nodes.js'
import { manualClock, type ManualClock } from '../helpers/manual-clock.js'
import { checkCertificate } from './certificate-checker.js'

const newNode = trackNodes()

interface Setup {
  node: FinalityNode
  clock: ManualClock
  rpc: (method: string, ...params: unknown[]) => Promise<any>
  addresses: Hex[]
}

async function setup(validators = 4, maxRounds = 16): Promise<Setup> {
  const clock = manualClock()
  const node = await newNode({ validators, clock, consensus: { maxRounds } })
  const rpc = (method: string, ...params: unknown[]) => node.request({ method, params })
  return { node, clock, rpc, addresses: node.validators.map((v) => v.address) }
}

/** Runs `work`, stepping the clock from timer to timer until it settles. */
async function stepping<T>(clock: ManualClock, work: Promise<T>): Promise<T> {
  let done = false
  void work.then(() => (done = true), () => (done = true))
  while (!done && (await clock.next()));
  return work
}

async function send(s: Setup): Promise<Hex> {
  const [from, to] = s.node.accounts
  return stepping(s.clock, s.rpc('eth_sendTransaction', { from: from!.address, to: to!.address, value: '0x1' }))
}

const errorOf = async (p: Promise<unknown>) => {
  try {
    await p
  } catch (e) {
    return e as { code: number; message: string }
  }
  throw new Error('expected a rejection')
}

describe('faults on demand', () => {
  it('a silent proposer: its height is decided in round 1, after the propose and precommit time-outs', async () => {
    const s = await setup()
    // Height 1's round-0 proposer is the first by address.
    expect(await s.rpc('finality_setFault', s.addresses[0], { silent: true })).toBe(true)
    const start = s.clock.now()
    const hash = await send(s)
    expect((await s.rpc('eth_getTransactionReceipt', hash)).status).toBe('0x1')
    const cert = await s.rpc('finality_getCommitCertificate', '0x1')
    expect(cert.round).toBe('0x1')
    expect(cert.proposer).toBe(s.addresses[1])
    expect(s.clock.now() - start).toBe(3000 + 1000)
  })

  it('more than 1/3 offline halts: the send answers its hash, the receipt stays null; heal resumes and includes it once', async () => {
    const s = await setup()
    await s.rpc('finality_setFault', s.addresses[1], { offline: true })
    await s.rpc('finality_setFault', s.addresses[2], { offline: true })
    const hash = await send(s)
    expect(await s.rpc('eth_blockNumber')).toBe('0x0')
    expect(await s.rpc('eth_getTransactionReceipt', hash)).toBeNull()
    expect(await s.rpc('txpool_status')).toEqual({ pending: '0x1', queued: '0x0' })
    const state = await s.rpc('finality_getConsensusState')
    expect(state.running).toBe(false)
    expect(state.faults).toHaveLength(2)
    expect(await s.rpc('finality_heal', s.addresses[1])).toBe(true)
    await stepping(s.clock, s.node.request({ method: 'eth_blockNumber' }))
    for (let i = 0; i < 50 && (await s.rpc('eth_blockNumber')) === '0x0'; i++) await s.clock.next()
    expect(await s.rpc('eth_blockNumber')).toBe('0x1')
    const receipt = await s.rpc('eth_getTransactionReceipt', hash)
    expect(receipt.blockNumber).toBe('0x1')
    const block = await s.rpc('eth_getBlockByNumber', '0x1', false)
    expect(block.transactions).toEqual([hash])
    for (const tag of ['safe', 'finalized']) expect((await s.rpc('eth_getBlockByNumber', tag, false)).hash).toBe(block.hash)
  })

  it('more than 1/3 voting nil: no quorum can vote for a block, so the height is given up before any round runs', async () => {
    const s = await setup()
    await s.rpc('finality_setFault', s.addresses[0], { nil: true })
    await s.rpc('finality_setFault', s.addresses[3], { nil: true })
    const start = s.clock.now()
    const hash = await send(s)
    expect(await s.rpc('eth_getTransactionReceipt', hash)).toBeNull()
    // Known from the faults alone: no time-out is waited out.
    expect(s.clock.now() - start).toBe(0)
    expect(await s.rpc('finality_getConsensusState')).toMatchObject({ running: false })
    await s.rpc('finality_heal')
    for (let i = 0; i < 50 && (await s.rpc('eth_blockNumber')) === '0x0'; i++) await s.clock.next()
    expect((await s.rpc('eth_getTransactionReceipt', hash)).blockNumber).toBe('0x1')
  })

  it('two silent proposers in a row: rounds 0 and 1 time out with growing time-outs, round 2 decides', async () => {
    const s = await setup()
    await s.rpc('finality_setFault', s.addresses[0], { silent: true })
    await s.rpc('finality_setFault', s.addresses[1], { silent: true })
    const start = s.clock.now()
    const hash = await send(s)
    expect((await s.rpc('eth_getTransactionReceipt', hash)).blockNumber).toBe('0x1')
    expect((await s.rpc('finality_getCommitCertificate', '0x1')).round).toBe('0x2')
    expect(s.clock.now() - start).toBe(3000 + 1000 + (3500 + 1500))
  })

  it('an equivocating validator: blocks keep coming and its duplicate votes are evidence', async () => {
    const s = await setup()
    await s.rpc('finality_setFault', s.addresses[2], { equivocate: true })
    for (let i = 0; i < 4; i++) await send(s)
    expect(await s.rpc('eth_blockNumber')).toBe('0x4')
    const evidence = await s.rpc('finality_getEvidence', '0x1', '0x4')
    expect(evidence.length).toBeGreaterThan(0)
    for (const e of evidence) {
      expect(e.validator).toBe(s.addresses[2])
      expect(e.type).toBe('duplicateVote')
      expect(e.voteA.blockHash).not.toBe(e.voteB.blockHash)
    }
    expect(await s.rpc('finality_getEvidence', '0x5', '0x6')).toEqual([])
  })

  it('a partition into halves halts; the heal resumes', async () => {
    const s = await setup()
    expect(await s.rpc('finality_partition', [[s.addresses[0], s.addresses[1]]])).toBe(true)
    const state = await s.rpc('finality_getConsensusState')
    expect(state.partition).toEqual([[s.addresses[0], s.addresses[1]], [s.addresses[2], s.addresses[3]]])
    const hash = await send(s)
    expect(await s.rpc('eth_getTransactionReceipt', hash)).toBeNull()
    await s.rpc('finality_heal')
    for (let i = 0; i < 50 && (await s.rpc('eth_blockNumber')) === '0x0'; i++) await s.clock.next()
    expect((await s.rpc('eth_getTransactionReceipt', hash)).blockNumber).toBe('0x1')
  })

  it('a delayed validator: its messages arrive late, blocks still come', async () => {
    const s = await setup()
    await s.rpc('finality_setFault', s.addresses[0], { delay: 10_000 })
    const hash = await send(s)
    expect((await s.rpc('eth_getTransactionReceipt', hash)).blockNumber).toBe('0x1')
  })

  it('bad params are -32602 with the reason, and change nothing', async () => {
    const s = await setup()
    const bad: Array<[string, unknown[], RegExp]> = [
      ['finality_setFault', [`0x${'12'.repeat(20)}`, { offline: true }], /unknown validator/],
      ['finality_setFault', [s.addresses[0], { sleepy: true }], /unknown fault "sleepy"/],
      ['finality_setFault', [s.addresses[0], { delay: -1 }], /delay must be an integer/],
      ['finality_setFault', [s.addresses[0], { offline: 'yes' }], /offline must be true or false/],
      ['finality_setFault', [s.addresses[0], []], /a fault is an object/],
      ['finality_setFault', ['0x12', {}], /invalid argument 0/],
      ['finality_heal', [`0x${'12'.repeat(20)}`], /unknown validator/],
      ['finality_partition', [[[s.addresses[0]], [s.addresses[0]]]], /in two groups/],
      ['finality_partition', ['x'], /array of groups/],
      ['finality_changeValidators', [[]], /non-empty array/],
      ['finality_changeValidators', [s.addresses.map((address) => ({ address, power: 0 }))], /empty/],
      ['finality_changeValidators', [[{ address: `0x${'12'.repeat(20)}`, power: 5 }]], /unknown validator/],
      ['finality_changeValidators', [[{ index: -1, power: 5 }]], /index must be/],
      ['finality_changeValidators', [[{ address: s.addresses[0], power: 2n ** 60n }].map((c) => ({ ...c, power: `0x${c.power.toString(16)}` }))], /above CometBFT's maximum/],
      ['finality_changeValidators', [[{ index: 5 }]], /needs power/],
      ['finality_changeValidators', [[{ index: 5, power: 1, weight: 2 }]], /unknown field "weight"/],
      ['finality_getEvidence', ['0x5', '0x1'], /after toBlock/],
    ]
    for (const [method, params, message] of bad) {
      const e = await errorOf(s.rpc(method, ...params))
      expect(e.code, method).toBe(-32602)
      expect(e.message, method).toMatch(message)
    }
    const state = await s.rpc('finality_getConsensusState')
    expect(state.faults).toEqual([])
    expect(state.partition).toBeNull()
    expect(await s.rpc('finality_getValidatorHistory')).toHaveLength(1)
    await send(s)
    expect(await s.rpc('eth_blockNumber')).toBe('0x1')
  })
})

describe('the JS API', () => {
  it('setValidatorFault, partitionValidators, healValidators and changeValidators do what the RPC does', async () => {
    const s = await setup()
    const [a, b, c] = s.addresses
    s.node.setValidatorFault(a!, { nil: true })
    s.node.partitionValidators([[b!]])
    const state = await s.rpc('finality_getConsensusState')
    expect(state.faults).toEqual([{ validator: a, nil: true }])
    expect(state.partition).toEqual([[b], s.addresses.filter((x) => x !== b)])
    expect(() => s.node.partitionValidators([[`0x${'12'.repeat(20)}`]])).toThrow(/unknown validator/)
    s.node.healValidators()
    expect((await s.rpc('finality_getConsensusState')).faults).toEqual([])
    expect(s.node.changeValidators([{ address: c!, power: 0 }])).toBe(2n)
    expect(s.node.validators).toHaveLength(4)
    await send(s)
    // Head 1: the next height (2) has the new set.
    expect(s.node.validators.map((v) => v.address)).not.toContain(c)
  })

  it('the controls are private methods (a JWT beyond loopback); the reads are not', async () => {
    const { isPrivate } = await import('../../src/adapters/auth.js')
    for (const m of ['finality_setFault', 'finality_heal', 'finality_partition', 'finality_changeValidators']) expect(isPrivate(m), m).toBe(true)
    for (const m of ['finality_getValidators', 'finality_getConsensusState', 'finality_getEvidence']) expect(isPrivate(m), m).toBe(false)
  })

  it('finality_subscribe on the EIP-1193 provider: events arrive as finality_subscription messages', async () => {
    const s = await setup()
    const messages: Array<{ type: string; data: { subscription: Hex; result: { type: string; height: Hex } } }> = []
    s.node.provider.on('message', (m: (typeof messages)[number]) => messages.push(m))
    const id = (await s.node.provider.request({ method: 'finality_subscribe', params: ['consensus'] })) as Hex
    await send(s)
    await s.clock.settle()
    const mine = messages.filter((m) => m.type === 'finality_subscription' && m.data.subscription === id).map((m) => m.data.result)
    expect(mine.map((e) => e.type)).toContain('commit')
    expect(mine.every((e) => e.height === '0x1')).toBe(true)
    expect(await s.node.provider.request({ method: 'finality_unsubscribe', params: [id] })).toBe(true)
  })

  it('finality_subscribe tells a halt (with its reason) and the resume after the heal, once each', async () => {
    const s = await setup()
    const events: Array<{ type: string; height: Hex; reason?: string }> = []
    s.node.provider.on('message', (m: { type: string; data: { result: (typeof events)[number] } }) => {
      if (m.type === 'finality_subscription') events.push(m.data.result)
    })
    await s.node.provider.request({ method: 'finality_subscribe', params: ['consensus'] })
    const [a, b] = s.addresses
    await s.rpc('finality_setFault', a, { offline: true })
    await s.rpc('finality_setFault', b, { offline: true })
    await send(s)
    expect((await errorOf(s.rpc('evm_mine'))).message).toMatch(/the chain is halted/)
    await s.clock.settle()
    const halts = events.filter((e) => e.type === 'halt')
    expect(halts).toHaveLength(1)
    expect(halts[0]).toMatchObject({ height: '0x1' })
    expect(halts[0]!.reason).toMatch(/20 of 40 voting power/)
    expect(events.filter((e) => e.type === 'resume')).toEqual([])
    await s.rpc('finality_heal')
    await stepping(s.clock, s.rpc('evm_mine'))
    await s.clock.settle()
    expect(events.filter((e) => e.type === 'resume')).toEqual([{ type: 'resume', height: '0x1' }])
    expect(events.filter((e) => e.type === 'halt')).toHaveLength(1)
  })

  it('finality_subscribe tells each change of the faults or the partition, as finality_getConsensusState gives them; a refused change tells nothing', async () => {
    const s = await setup()
    const events: Array<{ type: string; faults?: unknown; partition?: unknown }> = []
    s.node.provider.on('message', (m: { type: string; data: { result: (typeof events)[number] } }) => {
      if (m.type === 'finality_subscription' && m.data.result.type === 'faults') events.push(m.data.result)
    })
    await s.node.provider.request({ method: 'finality_subscribe', params: ['consensus'] })
    const [a, b, c] = s.addresses
    const state = async () => {
      const { faults, partition } = await s.rpc('finality_getConsensusState')
      return { type: 'faults', faults, partition }
    }
    await s.rpc('finality_setFault', a, { offline: true })
    expect(events).toEqual([{ type: 'faults', faults: [{ validator: a, offline: true }], partition: null }])
    expect(events.at(-1)).toEqual(await state())
    await s.rpc('finality_partition', [[b]])
    expect(events).toHaveLength(2)
    expect(events.at(-1)).toEqual(await state())
    expect(events.at(-1)!.partition).toEqual([[b], s.addresses.filter((x) => x !== b)])
    expect((await errorOf(s.rpc('finality_partition', [[b], [b]]))).code).toBe(-32602)
    expect((await errorOf(s.rpc('finality_setFault', '0x' + '11'.repeat(20), { offline: true }))).code).toBe(-32602)
    expect(events).toHaveLength(2)
    s.node.setValidatorOnline(c!, false)
    expect(events.at(-1)).toEqual(await state())
    await s.rpc('finality_heal')
    expect(events.at(-1)).toEqual({ type: 'faults', faults: [], partition: null })
    expect(events).toHaveLength(4)
  })

  it('finality_subscribe without a connection that carries notifications is -32601', async () => {
    const s = await setup()
    const e = await errorOf(s.rpc('finality_subscribe', 'consensus'))
    expect(e.code).toBe(-32601)
    expect(e.message).toMatch(/notifications not supported/)
  })
})

describe('limits (createNode({ limits }))', () => {
  it('faultDelayMs, validatorChanges and evidenceBlockRange: at the limit accepted, past it -32602', async () => {
    const clock = manualClock()
    const node = await newNode({ validators: 4, clock, limits: { faultDelayMs: 500, validatorChanges: 2, evidenceBlockRange: 3 } })
    const rpc = (method: string, ...params: unknown[]): Promise<any> => node.request({ method, params })
    const [a, b] = node.validators.map((v) => v.address)
    expect(await rpc('finality_setFault', a, { delay: 500 })).toBe(true)
    expect((await errorOf(rpc('finality_setFault', a, { delay: 501 }))).message).toMatch(/from 0 to 500 \(the faultDelayMs limit\)/)
    expect(() => node.setValidatorFault(a!, { delay: 501 })).toThrow(/faultDelayMs/)
    expect((await rpc('finality_getConsensusState')).faults).toEqual([{ validator: a, delay: 500 }])
    expect(await rpc('finality_changeValidators', [{ address: a, power: 20 }, { address: b, power: 20 }])).toEqual({ effectiveBlock: '0x2' })
    const three = [{ address: a, power: 30 }, { address: b, power: 30 }, { index: 9, power: 30 }]
    expect((await errorOf(rpc('finality_changeValidators', three))).message).toMatch(/at most 2 changes at once \(the validatorChanges limit\), got 3/)
    expect(await rpc('finality_getValidatorHistory')).toHaveLength(2)
    expect(await rpc('finality_getEvidence', '0x0', '0x2')).toEqual([])
    expect((await errorOf(rpc('finality_getEvidence', '0x0', '0x3'))).message).toMatch(/at most 3 heights at once/)
  })
})

describe('validator-set changes', () => {
  it('take effect two heights later; each certificate verifies against the set of its own height', async () => {
    const s = await setup()
    await send(s)
    // Head 1: the change applies at 3.
    const { effectiveBlock } = await s.rpc('finality_changeValidators', [
      { index: 4, power: 10 },
      { address: s.addresses[0], power: 0 },
      { address: s.addresses[1], power: '0x1e' },
    ])
    expect(effectiveBlock).toBe('0x3')
    expect(await s.rpc('finality_getValidators', 'pending')).toEqual(await s.rpc('finality_getValidators'))
    expect(await s.rpc('finality_getValidators', 'latest')).toEqual(await s.rpc('finality_getValidators', '0x1'))
    // Known in advance: block 3's set is fixed once the change is requested.
    expect(await s.rpc('finality_getValidators', '0x3')).toHaveLength(4)
    expect((await s.rpc('finality_getValidators', '0x2')).map((v: { address: Hex }) => v.address)).toContain(s.addresses[0])
    for (let i = 0; i < 4; i++) await send(s)
    const sets = await Promise.all(['0x1', '0x2', '0x3', '0x4'].map((b) => s.rpc('finality_getValidators', b)))
    expect(sets.map((x: unknown[]) => x.length)).toEqual([4, 4, 4, 4])
    expect(sets[2].map((v: { address: Hex }) => v.address)).not.toContain(s.addresses[0])
    expect(sets[2].find((v: { address: Hex }) => v.address === s.addresses[1]).votingPower).toBe('0x1e')
    for (let n = 1; n <= 5; n++) {
      const cert = await s.rpc('finality_getCommitCertificate', `0x${n.toString(16)}`)
      const set = await s.rpc('finality_getValidators', `0x${n.toString(16)}`)
      expect(cert.validatorSet.map((v: { address: Hex }) => v.address)).toEqual(set.map((v: { address: Hex }) => v.address))
      const members = cert.validatorSet.map((v: { publicKey: Hex; votingPower: Hex }) => ({ publicKey: hexToBytes(v.publicKey), power: BigInt(v.votingPower) }))
      const decoded = { height: BigInt(cert.height), round: Number(cert.round), blockHash: hexToBytes(cert.blockHash), precommits: cert.precommits.map((p: { validator: string; signature: Hex }) => ({ validator: p.validator, signature: hexToBytes(p.signature) })) }
      expect(checkCertificate(decoded, members, 31337n), `block ${n}`).toBe(true)
      expect((await s.node.commitCertificate(BigInt(n)))?.valid).toBe(true)
      // Block 3's certificate does not verify against block 2's set (the removed validator is gone).
      if (n === 3) {
        const old = (await s.rpc('finality_getValidators', '0x2')).map((v: { publicKey: Hex }) => ({ publicKey: hexToBytes(v.publicKey), power: 10n }))
        expect(checkCertificate(decoded, old, 31337n)).toBe(false)
      }
    }
    const history = await s.rpc('finality_getValidatorHistory')
    expect(history.map((e: { fromBlock: Hex; requestedAt: Hex }) => [e.fromBlock, e.requestedAt])).toEqual([['0x1', '0x0'], ['0x3', '0x1']])
  })

  it('evm_revert forgets the changes requested and the evidence recorded after the snapshot', async () => {
    const s = await setup()
    await send(s)
    const snapshot = await s.rpc('evm_snapshot')
    await s.rpc('finality_changeValidators', [{ index: 4, power: 10 }])
    await s.rpc('finality_setFault', s.addresses[2], { equivocate: true })
    for (let i = 0; i < 3; i++) await send(s)
    expect(await s.rpc('finality_getValidatorHistory')).toHaveLength(2)
    expect((await s.rpc('finality_getEvidence')).length).toBeGreaterThan(0)
    expect(await s.rpc('evm_revert', snapshot)).toBe(true)
    expect(await s.rpc('finality_getValidatorHistory')).toHaveLength(1)
    expect(await s.rpc('finality_getEvidence')).toEqual([])
    expect(await s.rpc('finality_getValidators', '0x3')).toHaveLength(4)
    expect((await errorOf(s.rpc('finality_getValidators', '0x4'))).message).toMatch(/beyond 3, the last height whose validator set is known/)
  })

  it('the proposers follow voting power (CometBFT weighted round-robin)', async () => {
    const s = await setup(2)
    await s.rpc('finality_changeValidators', [{ address: s.addresses[0], power: 30 }])
    for (let i = 0; i < 10; i++) await send(s)
    const proposers: string[] = []
    for (let n = 3; n <= 10; n++) proposers.push((await s.rpc('finality_getCommitCertificate', `0x${n.toString(16)}`)).proposer)
    // Power 30 against 10: three of every four blocks.
    expect(proposers.filter((p) => p === s.addresses[0])).toHaveLength(6)
  })
})
