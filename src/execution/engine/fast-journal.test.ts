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

interface CleanLike extends WarmLike {
  journal: Map<string, Set<string>>
  journalDiff: Array<[number, [Set<string>, Map<string, Set<string>>, Set<string>]]>
  journalHeight: number
  touched: Set<string>
  cleanJournal(): void
  checkpoint(): Promise<void>
  commit(): Promise<void>
  revert(): Promise<void>
  addAlwaysWarmSlot(address: string, slot: string, addToAccessList?: boolean): void
  isWarmedAddress(address: Uint8Array): boolean
  addWarmedAddress(address: Uint8Array): void
  addWarmedStorage(address: Uint8Array, slot: Uint8Array): void
  isWarmedStorage(address: Uint8Array, slot: Uint8Array): boolean
  touchAddress(address: unknown): void
}

/** A journal of an engine EVM or of the library's, on the node's state. */
async function journalOf(engine: boolean): Promise<CleanLike> {
  await installEngine()
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague })
  const stateManager = new JournaledState(base()) as never
  const evm = engine ? await createEngineEVM({ common, stateManager }) : await createEVM({ common, stateManager })
  return (evm as unknown as { journal: CleanLike }).journal
}

/** What a journal holds, in plain data. */
function contents(j: CleanLike) {
  const sets = (m: Map<string, Set<string>>) => [...m].map(([a, s]) => [a, [...s].sort()]).sort()
  return {
    height: j.journalHeight,
    warm: sets(j.journal),
    always: sets(j.alwaysWarmJournal),
    touched: [...j.touched].sort(),
    diff: j.journalDiff.map(([h, [a, s, t]]) => [h, [...a].sort(), sets(s), [...t].sort()]),
  }
}

const A = '00000000000000000000000000000000000000a1'
const B = '00000000000000000000000000000000000000b1'
const SLOT = '0000000000000000000000000000000000000000000000000000000000000007'

describe('the journal between runs', () => {
  it('behavior: cleanJournal, checkpoints, warm slots and touches leave the same journal as the library, step by step', async () => {
    const seen: Array<Array<ReturnType<typeof contents>>> = []
    for (const engine of [true, false]) {
      const j = await journalOf(engine)
      const steps: Array<ReturnType<typeof contents>> = []
      // Two runs' worth of steps, as runTx makes them: clean, checkpoint, warm, write, commit, clean.
      for (let run = 0; run < 2; run++) {
        j.cleanJournal()
        steps.push(contents(j))
        await j.checkpoint()
        j.addAlwaysWarmAddress(A)
        j.addAlwaysWarmAddress(B)
        if (run === 1) j.addAlwaysWarmSlot(B, SLOT)
        j.touchAddress(createAddressFromString(`0x${A}`))
        await j.checkpoint()
        j.addWarmedStorage(createAddressFromString(`0x${A}`).bytes, new Uint8Array(32).fill(1))
        await j.revert()
        steps.push(contents(j))
        await j.commit()
        steps.push(contents(j))
        j.cleanJournal()
        steps.push(contents(j))
        await j.commit()
        j.cleanJournal()
        steps.push(contents(j))
      }
      seen.push(steps)
    }
    expect(seen[0]).toEqual(seen[1])
    // The second run warmed one slot of B, and of B only.
    expect(seen[0]![7]!.always).toEqual([[A, []], [B, [SLOT]]])
  })

  it('behavior: a slot warmed for one address is warm there only, whatever addresses were warmed without slots', async () => {
    const j = await journalOf(true)
    j.cleanJournal()
    for (const a of [A, B]) j.addAlwaysWarmAddress(a)
    j.addAlwaysWarmSlot(A, SLOT)
    j.addAlwaysWarmSlot(`0x${B.slice(0, 38)}c1`, SLOT)
    const slot = new Uint8Array(32)
    slot[31] = 7
    expect(j.isWarmedStorage(createAddressFromString(`0x${A}`).bytes, slot)).toBe(true)
    expect(j.isWarmedStorage(createAddressFromString(`0x${B}`).bytes, slot)).toBe(false)
    expect(j.isWarmedStorage(createAddressFromString(`0x${B.slice(0, 38)}c1`).bytes, slot)).toBe(true)
    // The next run's warm addresses start without slots.
    j.cleanJournal()
    j.addAlwaysWarmAddress(A)
    expect(j.isWarmedStorage(createAddressFromString(`0x${A}`).bytes, slot)).toBe(false)
  })

  it('behavior: touchAddress touches the same key as the library, for any Address object of the same bytes', async () => {
    const keys: string[][] = []
    for (const engine of [true, false]) {
      const j = await journalOf(engine)
      const bytes = createAddressFromString('0x00000000000000000000000000000000000000Fe').bytes
      j.touchAddress(createAddressFromString('0x00000000000000000000000000000000000000fe'))
      j.touchAddress(createAddressFromString(`0x${A}`))
      j.touchAddress(createAddressFromString('0x00000000000000000000000000000000000000fe'))
      j.touchAddress(createAddressFromString(`0x${keyOf(bytes)}`))
      keys.push([...j.touched])
    }
    expect(keys[0]).toEqual(keys[1])
    expect(keys[0]).toEqual(['00000000000000000000000000000000000000fe', A])
  })

  it('behavior: isWarmedAddress and addWarmedAddress answer and record as the library, through checkpoints, reverts and a reported access list', async () => {
    const C = createAddressFromString('0x00000000000000000000000000000000000000C1')
    const seen: unknown[][] = []
    for (const engine of [true, false]) {
      const j = await journalOf(engine)
      const steps: unknown[] = []
      const asked = () => [A, B].map((a) => j.isWarmedAddress(createAddressFromString(`0x${a}`).bytes)).concat(j.isWarmedAddress(C.bytes))
      j.cleanJournal()
      j.accessList = undefined
      j.addAlwaysWarmAddress(B)
      steps.push(asked())
      await j.checkpoint()
      j.addWarmedAddress(createAddressFromString(`0x${A}`).bytes)
      j.addWarmedAddress(createAddressFromString(`0x${A}`).bytes)
      steps.push(asked(), contents(j))
      await j.revert()
      steps.push(asked(), contents(j))
      j.accessList = new Map()
      await j.checkpoint()
      // Another array of C's bytes, and a view into a larger one: the key is the bytes'.
      const wide = new Uint8Array(24)
      wide.set(C.bytes, 2)
      j.addWarmedAddress(wide.subarray(2, 22))
      j.addWarmedAddress(createAddressFromString(`0x${B}`).bytes)
      steps.push(asked(), contents(j), [...j.accessList.keys()])
      await j.commit()
      steps.push(asked(), contents(j))
      seen.push(steps)
    }
    expect(seen[0]).toEqual(seen[1])
    expect(seen[0]![0]).toEqual([false, true, false])
    expect(seen[0]![1]).toEqual([true, true, false])
    expect(seen[0]![3]).toEqual([false, true, false])
    expect(seen[0]![5]).toEqual([false, true, true])
    expect(seen[0]![7]).toEqual([keyOf(C.bytes), B])
  })
})
