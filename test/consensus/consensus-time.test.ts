/**
 * Consensus time (the default for in-process nodes): the validators' rounds run on a discrete-event
 * clock that jumps to the next time-out or delivery as soon as nothing else can happen. A faulty
 * round costs a round, never a wait on the node's clock, at CometBFT's default time-outs (3 s
 * propose): the tests check the rounds that ran, the round that committed and the halts answered,
 * and that no timer was ever set on the node's clock for them. `consensus.time: 'clock'` waits the
 * time-outs out on the node's clock instead.
 */
import { describe, expect, it } from 'vitest'
import { systemClock, type Clock } from '../../src/clock.js'
import type { FinalityNode, NodeOptions } from '../../src/index.js'
import type { LogEntry } from '../../src/log/entries.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()

/** The wall clock, counting the timers set on it and their lengths. */
function countingClock(): Clock & { timers: number[] } {
  const timers: number[] = []
  return {
    timers,
    now: () => systemClock.now(),
    setTimer: (fn, ms, keepAlive) => {
      timers.push(ms)
      return systemClock.setTimer(fn, ms, keepAlive)
    },
  }
}

interface Setup {
  node: FinalityNode
  clock: ReturnType<typeof countingClock>
  v: `0x${string}`[]
  /** Round changes and time-outs the node's log told, as `round <h>/<r>` and `timeout <h>/<r> <step>`. */
  told: string[]
}

/** A node of `validators` on the wall clock, consensus time asked for explicitly (an injected clock defaults to `clock`). */
async function setup(options: NodeOptions = {}): Promise<Setup> {
  const clock = countingClock()
  const told: string[] = []
  const onLog = (e: LogEntry) => {
    if (e.type !== 'consensus') return
    if (e.event === 'round') told.push(`round ${e.height}/${e.round}`)
    else if (e.event === 'timeout') told.push(`timeout ${e.height}/${e.round} ${e.step}`)
    else if (e.event === 'halt' || e.event === 'resume') told.push(`${e.event} ${e.height}`)
  }
  const node = await newNode({ validators: 4, clock, onLog, onConsoleLog: false, ...options, consensus: { time: 'simulated', ...options.consensus } })
  return { node, clock, v: node.validators.map((x) => x.address), told }
}

function send(node: FinalityNode): Promise<`0x${string}`> {
  const [a, b] = node.accounts
  return node.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: b!.address, value: '0x1' }] })
}

async function receipt(node: FinalityNode, hash: `0x${string}`) {
  return node.request({ method: 'eth_getTransactionReceipt', params: [hash] })
}

describe('consensus time: faulty rounds cost rounds, not waits', () => {
  it('default: a silent proposer: round 0 times out, round 1 (the next proposer) commits; no timer on the node\'s clock', async () => {
    const s = await setup()
    s.node.setValidatorFault(s.v[0]!, { silent: true })
    const hash = await send(s.node)
    expect((await receipt(s.node, hash))?.blockNumber).toBe('0x1')
    const cert = await s.node.commitCertificate(1n)
    expect(cert).toMatchObject({ round: '0x1', proposer: s.v[1], valid: true })
    // The prevote time-out started with the nil prevotes fires too (they precommitted nil already).
    expect(s.told).toEqual(['timeout 1/0 propose', 'timeout 1/0 prevote', 'timeout 1/0 precommit', 'round 1/1'])
    expect(s.clock.timers).toEqual([])
    expect((await s.node.request({ method: 'finality_getConsensusState' })).time).toBe('simulated')
  })

  it('behavior: two silent proposers in a row: round 2 commits, proposed by the third validator', async () => {
    const s = await setup()
    s.node.setValidatorFault(s.v[0]!, { silent: true })
    s.node.setValidatorFault(s.v[1]!, { silent: true })
    await send(s.node)
    expect(await s.node.commitCertificate(1n)).toMatchObject({ round: '0x2', proposer: s.v[2] })
    expect(s.told.filter((t) => t.startsWith('round'))).toEqual(['round 1/1', 'round 1/2'])
    expect(s.clock.timers).toEqual([])
  })

  it('behavior: an offline validator: its turn to propose passes to round 1, the certificate carries the 3 others\' precommits; the next height is round 0', async () => {
    const s = await setup()
    s.node.setValidatorOnline(s.v[0]!, false)
    await send(s.node)
    await send(s.node)
    const first = await s.node.commitCertificate(1n)
    expect(first).toMatchObject({ round: '0x1', proposer: s.v[1] })
    expect(first?.precommits.map((p) => p.validator).sort()).toEqual([s.v[1], s.v[2], s.v[3]])
    // Height 2's round-0 proposer is the second validator, online.
    expect(await s.node.commitCertificate(2n)).toMatchObject({ round: '0x0', proposer: s.v[1] })
    expect(s.clock.timers).toEqual([])
  })

  it('behavior: a proposer whose messages arrive a minute late: the others time out, round 1 commits; the delay is consensus time too', async () => {
    const s = await setup()
    s.node.setValidatorFault(s.v[0]!, { delay: 60_000 })
    await send(s.node)
    expect(await s.node.commitCertificate(1n)).toMatchObject({ round: '0x1', proposer: s.v[1] })
    expect(s.clock.timers).toEqual([])
  })

  it('behavior: a partition isolating the proposer: round 1 commits among the other three; healed, the next height is round 0', async () => {
    const s = await setup()
    s.node.partitionValidators([[s.v[0]!], [s.v[1]!, s.v[2]!, s.v[3]!]])
    await send(s.node)
    expect(await s.node.commitCertificate(1n)).toMatchObject({ round: '0x1', proposer: s.v[1] })
    s.node.healValidators()
    await send(s.node)
    expect(await s.node.commitCertificate(2n)).toMatchObject({ round: '0x0', proposer: s.v[1] })
    expect(s.clock.timers).toEqual([])
  })

  it('behavior: a halt found by running the rounds (the round limit passes) is answered at once; healed, the height is decided', async () => {
    const s = await setup({ consensus: { maxRounds: 2 } })
    s.node.setValidatorFault(s.v[0]!, { silent: true })
    s.node.setValidatorFault(s.v[1]!, { silent: true })
    // Rounds 0 and 1 have silent proposers and the limit is 2 rounds: the height is given up.
    const hash = await send(s.node)
    expect(await receipt(s.node, hash)).toBeNull()
    expect(await s.node.request({ method: 'eth_blockNumber' })).toBe('0x0')
    await expect(s.node.request({ method: 'evm_mine' })).rejects.toMatchObject({
      code: -32000,
      message: 'the chain is halted: no round of height 1 gathered precommits of more than 2/3 of the voting power',
    })
    expect(s.told).toContain('halt 1')
    s.node.healValidators()
    await s.node.mine()
    expect((await receipt(s.node, hash))?.status).toBe('0x1')
    expect(s.told).toContain('resume 1')
    expect(s.clock.timers).toEqual([])
  })

  it('behavior: an equivocating validator is outvoted and its double votes are evidence', async () => {
    const s = await setup()
    s.node.setValidatorFault(s.v[3]!, { equivocate: true })
    await send(s.node)
    expect((await s.node.commitCertificate(1n))?.valid).toBe(true)
    const evidence = await s.node.request({ method: 'finality_getEvidence' })
    expect(evidence.length).toBeGreaterThan(0)
    expect(evidence.every((e) => e.validator === s.v[3])).toBe(true)
  })

  it('behavior: the same faults give the same rounds, time-outs and blocks on every run', async () => {
    const runs = []
    for (let i = 0; i < 2; i++) {
      const s = await setup({ genesisTimestamp: 1_700_000_000n, consensus: { seed: 7 } })
      s.node.setValidatorFault(s.v[0]!, { delay: 3_200 })
      s.node.setValidatorFault(s.v[2]!, { silent: true })
      for (let n = 0; n < 4; n++) await send(s.node)
      const certs = await Promise.all([1n, 2n, 3n, 4n].map((n) => s.node.commitCertificate(n)))
      runs.push({ told: s.told, certs: certs.map((c) => [c?.round, c?.proposer, c?.precommits.map((p) => p.validator)]) })
    }
    expect(runs[1]).toEqual(runs[0])
  })
})

describe('block time is not consensus time', () => {
  /** The wall clock's timers at a fixed time: the block time depends on nothing but the node's clock and the controls. */
  const fixed = (): Clock => ({ now: () => 1_800_000_000_000, setTimer: (fn, ms, keepAlive) => systemClock.setTimer(fn, ms, keepAlive) })
  const SHORT = { propose: 40, proposeDelta: 10, prevote: 20, prevoteDelta: 10, precommit: 20, precommitDelta: 10 }

  it("default: a block decided in round 2 has the timestamp of one decided in round 0, on consensus time and on the node's clock; evm_increaseTime moves both alike", async () => {
    const stamps: Record<string, string[]> = {}
    for (const [name, faulty, time] of [['calm', false, 'simulated'], ['simulated', true, 'simulated'], ['clock', true, 'clock']] as const) {
      const node = await newNode({ validators: 4, clock: fixed(), consensus: { time, timeouts: SHORT } })
      const [v0, v1] = node.validators.map((v) => v.address)
      if (faulty) {
        node.setValidatorFault(v0!, { silent: true })
        node.setValidatorFault(v1!, { silent: true })
      }
      await send(node)
      await node.request({ method: 'evm_increaseTime', params: [100] })
      await send(node)
      if (faulty) expect((await node.commitCertificate(1n))?.round, name).toBe('0x2')
      stamps[name] = await Promise.all((['0x1', '0x2'] as const).map(async (n) => (await node.request({ method: 'eth_getBlockByNumber', params: [n, false] }))!.timestamp))
    }
    expect(stamps.simulated).toEqual(stamps.calm)
    expect(stamps.clock).toEqual(stamps.calm)
    expect(BigInt(stamps.calm![1]!) - BigInt(stamps.calm![0]!)).toBe(100n)
  })
})

describe('consensus.time: the option', () => {
  it("default: 'simulated' for a node on the wall clock, 'clock' for a node given a clock (its owner moves time)", async () => {
    const plain = await newNode({ validators: 4 })
    expect((await plain.request({ method: 'finality_getConsensusState' })).time).toBe('simulated')
    const clocked = await newNode({ validators: 4, clock: countingClock() })
    expect((await clocked.request({ method: 'finality_getConsensusState' })).time).toBe('clock')
  })

  it("'clock': a silent proposer's propose and precommit time-outs are timers of the node's clock, waited out", async () => {
    const clock = countingClock()
    const node = await newNode({ validators: 4, clock, consensus: { time: 'clock', timeouts: { propose: 40, proposeDelta: 10, prevote: 20, prevoteDelta: 10, precommit: 20, precommitDelta: 10 } } })
    node.setValidatorFault(node.validators[0]!.address, { silent: true })
    await send(node)
    expect(await node.commitCertificate(1n)).toMatchObject({ round: '0x1', proposer: node.validators[1]!.address })
    // Round 0's propose time-out (40 ms), its prevote and precommit time-outs (20 ms), round 1's propose time-out (50 ms).
    expect(clock.timers).toEqual(expect.arrayContaining([40, 20, 50]))
    expect((await node.request({ method: 'finality_getConsensusState' })).time).toBe('clock')
  })

  it('error: another value or type is refused at once, naming the option', async () => {
    await expect(newNode({ consensus: { time: 'wall' as never } })).rejects.toThrow(/option consensus\.time must be one of 'simulated', 'clock', got the string "wall"/)
    await expect(newNode({ consensus: { time: 1 as never } })).rejects.toThrow(/option consensus\.time must be one of 'simulated', 'clock', got the number 1/)
    await expect(newNode({ consensus: { tim: 'clock' } as never })).rejects.toThrow(/consensus\.tim/)
  })
})
