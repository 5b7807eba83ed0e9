/**
 * The node under seeded random faults (a manual clock, automine): whatever the faults, every
 * committed block's certificate verifies (independent checker) against the set of its height, no
 * transaction is included twice, and once everything is healed every transaction sent is included
 * exactly once.
 */
import { describe, expect, it } from 'vitest'
import { hexToBytes, type Hex } from 'viem'
import { SeededRandom } from '../../src/consensus/tendermint/random.js'
import { trackNodes } from '../helpers/nodes.js'
import { manualClock, type ManualClock } from '../helpers/manual-clock.js'
import { checkCertificate } from './certificate-checker.js'

const newNode = trackNodes()

async function stepping<T>(clock: ManualClock, work: Promise<T>): Promise<T> {
  let done = false
  void work.then(() => (done = true), () => (done = true))
  while (!done && (await clock.next()));
  return work
}

const KINDS = ['offline', 'silent', 'nil', 'equivocate', 'delay'] as const

describe('the node on random fault schedules', () => {
  it('certificates always verify, nothing is included twice, everything is included after the heal', async () => {
    let halts = 0
    let laterRounds = 0
    for (let seed = 1; seed <= 30; seed++) {
      const rng = new SeededRandom(seed)
      const clock = manualClock()
      const n = 4 + rng.below(3)
      const node = await newNode({ validators: n, clock, consensus: { maxRounds: 6, seed } })
      const rpc = (method: string, ...params: unknown[]): Promise<any> => node.request({ method, params })
      const addresses = node.validators.map((v) => v.address)
      const [from, to] = node.accounts
      const sent: Hex[] = []
      for (let step = 0; step < 8; step++) {
        const r = rng.next()
        if (r < 0.35) {
          const v = addresses[rng.below(n)]!
          const kind = KINDS[rng.below(KINDS.length)]!
          await rpc('finality_setFault', v, kind === 'delay' ? { delay: 500 + rng.below(3000) } : { [kind]: true })
        } else if (r < 0.45) {
          await rpc('finality_partition', [addresses.filter(() => rng.next() < 0.5)])
        } else if (r < 0.55) {
          await rpc('finality_heal')
        } else {
          const hash: Hex = await stepping(clock, rpc('eth_sendTransaction', { from: from!.address, to: to!.address, value: '0x1' }))
          sent.push(hash)
          if ((await rpc('eth_getTransactionReceipt', hash)) === null) halts++
        }
      }
      await rpc('finality_heal')
      for (let i = 0; i < 500 && (await rpc('txpool_status')).pending !== '0x0'; i++) await clock.next()
      const head = BigInt(await rpc('eth_blockNumber'))
      const included: Hex[] = []
      for (let h = 1n; h <= head; h++) {
        const block = await rpc('eth_getBlockByNumber', `0x${h.toString(16)}`, false)
        included.push(...block.transactions)
        const cert = await rpc('finality_getCommitCertificate', `0x${h.toString(16)}`)
        const members = cert.validatorSet.map((v: { publicKey: Hex; votingPower: Hex }) => ({ publicKey: hexToBytes(v.publicKey), power: BigInt(v.votingPower) }))
        const decoded = { height: h, round: Number(cert.round), blockHash: hexToBytes(cert.blockHash), precommits: cert.precommits.map((p: { validator: string; signature: Hex }) => ({ validator: p.validator, signature: hexToBytes(p.signature) })) }
        expect(cert.blockHash, `seed ${seed} block ${h}`).toBe(block.hash)
        expect(checkCertificate(decoded, members, 31337n), `seed ${seed} block ${h}`).toBe(true)
        if (cert.round !== '0x0') laterRounds++
      }
      expect(new Set(included).size, `seed ${seed}`).toBe(included.length)
      expect([...included].sort(), `seed ${seed}`).toEqual([...sent].sort())
      await node.close()
    }
    // The schedules do halt the chain and do make rounds go past 0.
    expect(halts).toBeGreaterThan(0)
    expect(laterRounds).toBeGreaterThan(0)
  }, 120_000)
})
