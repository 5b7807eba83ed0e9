/**
 * The ABCI-shaped seam: the BFT engine runs the application's ProcessProposal before prevoting
 * (a rejected proposal moves the height to the next round and proposer), and the EVM application
 * answers PrepareProposal, ProcessProposal, FinalizeBlock and Commit in that order only.
 */
import { describe, expect, it } from 'vitest'
import { EvmApplication } from '../../src/app/application.js'
import { Chain } from '../../src/chain/chain.js'
import { createChainCommon } from '../../src/chain/common.js'
import { Forks } from '../../src/chain/forks.js'
import { BftEngine, ValidatorSet } from '../../src/consensus/bft.js'
import type { PrepareProposalRequest } from '../../src/consensus/application.js'
import { createValidator } from '../../src/consensus/keys.js'
import { BlockBuilder } from '../../src/execution/builder.js'
import { emptyDiff } from '../../src/state/types.js'
import type { PoolEntry } from '../../src/txpool/pool.js'
import { sameHiddenClass } from '../helpers/hidden-class.js'
import { manualClock, type ManualClock } from '../helpers/manual-clock.js'

const validators = () => new ValidatorSet([1, 2, 3, 4].map((i) => createValidator(new Uint8Array(32).fill(i))))

/** Steps `clock` from timer to timer until `work` settles (time-outs are waited out on it). */
async function stepping<T>(clock: ManualClock, work: Promise<T>): Promise<T> {
  let done = false
  void work.finally(() => (done = true))
  while (!done && (await clock.next()));
  return work
}

describe('consensus ↔ application seam', () => {
  it('a proposal ProcessProposal rejects gets nil prevotes: the next round, with the next proposer, decides', async () => {
    const clock = manualClock()
    const bft = new BftEngine(1n, validators(), { clock })
    const proposers: string[] = []
    const decision = await stepping(clock, bft.decide(
      7n,
      async (proposer, round) => {
        proposers.push(proposer.address)
        return { hash: new Uint8Array(32).fill(round + 1) }
      },
      async (candidate) => candidate.hash[0] !== 1,
    ))
    expect(decision?.certificate.round).toBe(1)
    expect(decision?.certificate.proposer).toBe(bft.proposer(7n, 1).address)
    expect(proposers).toEqual([bft.proposer(7n, 0).address, bft.proposer(7n, 1).address])
    expect(decision?.candidate.hash[0]).toBe(2)
  })

  it('when every round is rejected the height stays undecided once the round limit passes', async () => {
    const clock = manualClock()
    const bft = new BftEngine(1n, validators(), { clock, maxRounds: 4 })
    let rounds = 0
    const decision = await stepping(clock, bft.decide(
      1n,
      async () => {
        rounds++
        return { hash: new Uint8Array(32) }
      },
      async () => false,
    ))
    expect(decision).toBeUndefined()
    expect(rounds).toBe(4)
  })

  it('the EVM application checks proposals against its head and commits only what was finalized', async () => {
    const common = createChainCommon(1337n, 'prague')
    const chain = new Chain(common, undefined, new Forks(common))
    await chain.initGenesis(emptyDiff(), { gasLimit: 30_000_000n, timestamp: 1_000n, baseFeePerGas: 1_000_000_000n })
    const app = new EvmApplication(chain, await BlockBuilder.create(chain, common))
    const bft = new BftEngine(1337n, validators())
    const request = (height: bigint, round: number, time: bigint): PrepareProposalRequest<PoolEntry> => ({
      height,
      round,
      feeRecipient: '00000000000000000000000000000000000000aa',
      time,
      txs: [],
      header: { gasLimit: 30_000_000n },
    })

    await expect(app.commit()).rejects.toThrow(/no finalized block/)
    const first = await app.prepareProposal(request(1n, 0, 1_001n))
    const rival = await app.prepareProposal(request(1n, 1, 1_002n))
    expect(await app.processProposal(first, 1n)).toBe(true)
    expect(await app.processProposal(first, 2n)).toBe(false)
    app.discardProposal(rival)

    const decision = await bft.decide(1n, async () => first, (p) => app.processProposal(p, 1n))
    expect(decision).toBeDefined()
    const finalized = await app.finalizeBlock(first, decision!.certificate)
    expect(finalized.block.header.number).toBe(1n)
    expect(finalized.appHash).toEqual(finalized.block.header.stateRoot)
    // An empty block's lists have the hidden class of a full block's, which the producer reads too.
    expect(finalized.txResults).toEqual([])
    expect(sameHiddenClass(finalized.txResults, [{ hash: '00', outcome: undefined }])).toBe(true)
    expect(sameHiddenClass(finalized.leftOut, [{ hash: '00', error: new Error('x'), retry: false }])).toBe(true)
    // Nothing is visible before Commit.
    expect(chain.head.header.number).toBe(0n)
    await expect(app.finalizeBlock(first, decision!.certificate)).rejects.toThrow(/not yet committed/)
    await app.commit()
    expect(chain.head.header.number).toBe(1n)
    expect(chain.head.header.timestamp).toBe(1_001n)

    // The rival of height 1 no longer extends the head.
    expect(await app.processProposal(rival, 1n)).toBe(false)
    expect(await app.processProposal(rival, 2n)).toBe(false)
  })
})
