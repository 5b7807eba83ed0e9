/**
 * The journal's clean-up without promises (src/execution/engine/fast-journal.ts): on the node's own
 * state it deletes the same touched empty accounts as the library's `Journal#cleanup` (EIP-161),
 * keeps the others, resets the warm sets, and reads no account through a promise.
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { createEVM } from '@ethereumjs/evm'
import { Account, createAddressFromString } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { createEngineEVM, installEngine } from './index.js'
import { keyOf } from '../../hex.js'
import { JournaledState } from '../../state/journaled-state.js'
import type { StateReader } from '../../state/types.js'

const EMPTY = createAddressFromString('0x00000000000000000000000000000000000000e1')
const FUNDED = createAddressFromString('0x00000000000000000000000000000000000000f1')
const BASE_EMPTY = createAddressFromString('0x00000000000000000000000000000000000000e2')

/** A base read synchronously holding BASE_EMPTY as an empty account (as a state can after a revert of its funding). */
function base(): StateReader {
  const accounts = new Map([[keyOf(BASE_EMPTY.bytes), new Account()]])
  return {
    getAccount: async (a) => accounts.get(a),
    getStorage: async () => new Uint8Array(0),
    getCode: async () => new Uint8Array(0),
    now: { account: (a) => accounts.get(a), storage: () => new Uint8Array(0), code: () => new Uint8Array(0) },
  }
}

interface JournalLike {
  touched: Set<string>
  journal: Map<string, unknown>
  cleanup(): Promise<void>
  addWarmedAddress(address: Uint8Array): void
}

async function cleanUp(engine: boolean) {
  await installEngine()
  const state = new JournaledState(base())
  let promised = 0
  const getAccount = state.getAccount.bind(state)
  state.getAccount = (address) => {
    promised++
    return getAccount(address)
  }
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague })
  const evm = engine ? await createEngineEVM({ common, stateManager: state as never }) : await createEVM({ common, stateManager: state as never })
  await state.putAccount(EMPTY, new Account())
  await state.putAccount(FUNDED, new Account(0n, 5n))
  const journal = (evm as unknown as { journal: JournalLike }).journal
  for (const a of [EMPTY, FUNDED, BASE_EMPTY]) journal.touched.add(keyOf(a.bytes))
  journal.addWarmedAddress(FUNDED.bytes)
  promised = 0
  await journal.cleanup()
  const diff = state.diff()
  return {
    promised,
    accounts: [...diff.accounts].map(([a, acc]) => [a, acc === null ? null : acc.balance.toString()]).sort(),
    touched: journal.touched.size,
    warm: journal.journal.size,
  }
}

describe('the journal clean-up on the node state', () => {
  it('behavior: deletes the touched empty accounts and keeps the rest, as the library does, without a promised read', async () => {
    const ours = await cleanUp(true)
    const library = await cleanUp(false)
    expect(ours.promised).toBe(0)
    expect(library.promised).toBe(3)
    expect({ ...ours, promised: 0 }).toEqual({ ...library, promised: 0 })
    expect(ours.accounts).toEqual([
      [keyOf(EMPTY.bytes), null],
      [keyOf(BASE_EMPTY.bytes), null],
      [keyOf(FUNDED.bytes), '5'],
    ].sort())
    expect([ours.touched, ours.warm]).toEqual([0, 0])
  })
})

interface WarmLike {
  alwaysWarmJournal: Map<string, Set<string>>
  accessList?: Map<string, Set<string>>
  addAlwaysWarmAddress(address: unknown, addToAccessList?: boolean): void
}

/** The warm sets after the same calls, on an engine EVM's journal or the library's. */
async function warmed(engine: boolean) {
  await installEngine()
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague })
  const evm = engine ? await createEngineEVM({ common, stateManager: new JournaledState(base()) as never }) : await createEVM({ common, stateManager: new JournaledState(base()) as never })
  const journal = (evm as unknown as { journal: WarmLike }).journal
  const seen = (): Array<[string, string[]]> => [...journal.alwaysWarmJournal].map(([a, slots]) => [a, [...slots]])
  const lists = (): Array<[string, string[]]> | undefined => (journal.accessList === undefined ? undefined : [...journal.accessList].map(([a, slots]) => [a, [...slots]]))
  journal.accessList = undefined
  journal.addAlwaysWarmAddress('00000000000000000000000000000000000000aa')
  journal.addAlwaysWarmAddress('0x00000000000000000000000000000000000000Bb')
  journal.addAlwaysWarmAddress('00000000000000000000000000000000000000cc', true)
  const before = { warm: seen(), list: lists() }
  journal.accessList = new Map()
  journal.addAlwaysWarmAddress('00000000000000000000000000000000000000aa', true)
  journal.addAlwaysWarmAddress('0x00000000000000000000000000000000000000dd', true)
  journal.addAlwaysWarmAddress('0xnot-hex', true)
  journal.addAlwaysWarmAddress('00000000000000000000000000000000000000ee')
  let thrown: string | undefined
  try {
    journal.addAlwaysWarmAddress(42)
  } catch (error) {
    thrown = (error as Error).message
  }
  return { before, after: { warm: seen(), list: lists() }, thrown }
}

describe('warm addresses on the node state', () => {
  it('behavior: addAlwaysWarmAddress fills the same warm sets and access list as the library, prefixed or not, and refuses a non-string alike', async () => {
    const ours = await warmed(true)
    const library = await warmed(false)
    expect(ours).toEqual(library)
    expect(ours.thrown).toMatch(/stripHexPrefix/)
    expect(ours.after.warm.map(([a]) => a)).toContain('00000000000000000000000000000000000000dd')
  })
})
