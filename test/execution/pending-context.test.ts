/**
 * The `pending` block as calls and estimates run on it when nothing is pending (the producer's
 * `pendingContext`): the header the full pending block has, field for field but the state root
 * and hash, and the state that block's state root commits to (the system contracts' writes of
 * an empty block included), also once the head has moved on from the state it was made on.
 */
import type { Block } from '@ethereumjs/block'
import { describe, expect, it } from 'vitest'
import { EvmApplication } from '../../src/app/application.js'
import { Chain } from '../../src/chain/chain.js'
import { createChainCommon } from '../../src/chain/common.js'
import { Forks } from '../../src/chain/forks.js'
import { putAccount } from '../../src/chain/genesis.js'
import { SYSTEM_CONTRACTS } from '../../src/chain/system-contracts.js'
import type { PrepareProposalRequest } from '../../src/consensus/application.js'
import { BlockBuilder } from '../../src/execution/builder.js'
import { fromHex, keyOf } from '../../src/hex.js'
import type { StateReader } from '../../src/state/types.js'
import { emptyDiff } from '../../src/state/types.js'
import type { PoolEntry } from '../../src/txpool/pool.js'

const ACCOUNT = '00000000000000000000000000000000000000a1'
const RING = 8191n
const slot = (n: bigint) => n.toString(16).padStart(64, '0')

async function setup(hardfork: 'cancun' | 'prague') {
  const common = createChainCommon(1337n, hardfork)
  const chain = new Chain(common, undefined, new Forks(common))
  const diff = emptyDiff()
  for (const c of SYSTEM_CONTRACTS) putAccount(diff, c.address, { nonce: 1n, code: fromHex(c.code) })
  putAccount(diff, ACCOUNT, { balance: 1000n })
  await chain.initGenesis(diff, { gasLimit: 30_000_000n, timestamp: 1_000n, baseFeePerGas: 1_000_000_000n })
  const app = new EvmApplication(chain, await BlockBuilder.create(chain, common))
  return { chain, app }
}

const request = (chain: Chain, header: PrepareProposalRequest<PoolEntry>['header'] = { gasLimit: 30_000_000n }): PrepareProposalRequest<PoolEntry> => ({
  height: chain.height + 1n,
  round: 0,
  feeRecipient: '00000000000000000000000000000000000000cc',
  time: chain.head.header.timestamp + 12n,
  txs: [],
  header,
})

/** What a call reads of the system contracts and the account, in one list. */
async function reads(state: StateReader, block: Block): Promise<unknown[]> {
  const beacon = SYSTEM_CONTRACTS[0]!.address.slice(2)
  const history = SYSTEM_CONTRACTS[1]!.address.slice(2)
  const t = block.header.timestamp
  const n = block.header.number
  const account = await state.getAccount(ACCOUNT)
  return [
    keyOf(await state.getStorage(beacon, slot(t % RING))),
    keyOf(await state.getStorage(beacon, slot((t % RING) + RING))),
    keyOf(await state.getStorage(history, slot((n - 1n) % RING))),
    keyOf(await state.getCode(beacon)),
    `${account?.nonce}/${account?.balance}`,
  ]
}

/** Every field of a header but the state root (and so the hash). */
function fields(block: Block): Record<string, unknown> {
  const { stateRoot: _, ...rest } = block.header.toJSON()
  return rest
}

describe('the pending block as calls run on it', () => {
  it.each(['cancun', 'prague'] as const)('%s: the full pending block\'s header but the state root, and the state its root commits to', async (hardfork) => {
    const { chain, app } = await setup(hardfork)
    // A block first, so that the history contract has a parent hash to write.
    const built = await app.prepareProposal(request(chain))
    await app.finalizeBlock(built, undefined)
    await app.commit()
    const header = { gasLimit: 29_000_000n, baseFeePerGas: 7n, prevRandao: new Uint8Array(32).fill(9), extraData: Uint8Array.of(1, 2), coinbase: '00000000000000000000000000000000000000dd' }
    for (const choices of [undefined, header]) {
      const req = request(chain, choices)
      const context = app.previewContext(req)
      const full = await app.preview(req)
      expect(context).toBeDefined()
      expect(fields(context!)).toEqual(fields(full.block))
      const contextState = chain.stateAt(context!)
      const fullState = chain.stateAt(full.block)
      const seen = await reads(contextState, context!)
      expect(seen).toEqual(await reads(fullState, full.block))
      // The system writes are there: the timestamp in the beacon roots' ring, and (Prague) the parent's hash.
      expect(seen[0]).toBe(keyOf(fromHex(context!.header.timestamp.toString(16).padStart(2, '0'))))
      if (hardfork === 'prague') expect(seen[2]).toBe(keyOf(chain.head.hash()))
      contextState.close()
      fullState.close()
      full.release()
    }
  })

  it('behavior: after the head state changed, the state is still the one it was made on, with the system writes', async () => {
    const { chain, app } = await setup('prague')
    const req = request(chain)
    const context = app.previewContext(req)!
    const full = await app.preview(req)
    const before = await reads(chain.stateAt(full.block), full.block)
    const write = emptyDiff()
    putAccount(write, ACCOUNT, { balance: 5n, nonce: 3n })
    await chain.modify(write)
    const state = chain.stateAt(context)
    expect(await reads(state, context)).toEqual(before)
    expect(before[4]).toBe('0/1000')
    state.close()
    full.release()
  })
})
