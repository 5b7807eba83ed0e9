/**
 * The native coin's total supply, as x/bank keeps it: a counter in the module state (the staking
 * precompile's storage, beside the rest), not a walk over every account. Every token of this
 * chain is an account balance (the bonded, not-bonded, distribution and gov pools are module
 * accounts), so the supply is the sum of all balances; the counter is kept equal to it at the
 * three places balances change:
 *
 * - genesis: the sum of the genesis allocation ({@link sealGenesis});
 * - a block: EndBlock adds what the block's execution changed in the balances of the accounts it
 *   wrote (fees burned and re-minted to validators, blob fees and SELFDESTRUCT burns, slashing and
 *   veto burns, unbonding pay-outs), read from the block's overlay ({@link trackBlock});
 * - a write outside blocks (hardhat_setBalance, anvil_setBalance, anvil_loadState,
 *   finality_setDelegation, …): the chain's write hook adds the diff's change ({@link trackWrite}).
 *
 * Snapshots, reverts and resets restore the counter with the state it is part of. A raw write of
 * the record is replaced by a count of every balance; a state without the record (a forked
 * remote's: the counter was never kept there) is answered as unknown, never guessed.
 */
import type { StateManagerInterface } from '@ethereumjs/common'
import type { Account } from '@ethereumjs/util'
import { keyOf, toBigInt, unpadded } from '../hex.js'
import type { JournaledState } from '../state/journaled-state.js'
import type { WriteHookHead } from '../chain/chain.js'
import type { StateDiff, StateReader } from '../state/types.js'
import { slot, STAKING_ADDRESS } from './staking-state.js'

const SUPPLY = slot('bank.supply')
/** 1 where the counter is kept (a genesis of this node's own); 0 where it is not known. */
const TRACKED = slot('bank.supply.tracked')
const STAKING_KEY = keyOf(STAKING_ADDRESS.bytes)
const SUPPLY_KEY = keyOf(SUPPLY)
const TRACKED_KEY = keyOf(TRACKED)

/** The total supply of the native coin in `state`, or undefined where it is not known. */
export async function totalSupply(state: StateManagerInterface): Promise<bigint | undefined> {
  const tracked = await state.getStorage(STAKING_ADDRESS, TRACKED)
  if (tracked.length === 0) return undefined
  const supply = await state.getStorage(STAKING_ADDRESS, SUPPLY)
  return supply.length === 0 ? 0n : toBigInt(supply)
}

/** Writes the counter into a genesis diff: the sum of its accounts' balances. */
export function sealGenesis(diff: StateDiff): void {
  let sum = 0n
  for (const account of diff.accounts.values()) sum += account?.balance ?? 0n
  const slots = diff.storage.get(STAKING_KEY) ?? new Map<string, Uint8Array>()
  slots.set(SUPPLY_KEY, unpadded(sum))
  slots.set(TRACKED_KEY, unpadded(1n))
  diff.storage.set(STAKING_KEY, slots)
}

/** What `accounts`' balances sum to now, minus what they summed to in `before`. */
async function change(accounts: ReadonlyMap<string, Account | null>, before: StateReader): Promise<bigint> {
  let delta = 0n
  for (const [key, account] of accounts) {
    const now = account?.balance ?? 0n
    const was = (await before.getAccount(key))?.balance ?? 0n
    delta += now - was
  }
  return delta
}

const storageValue = (bytes: Uint8Array | undefined): bigint => (bytes === undefined || bytes.length === 0 ? 0n : toBigInt(bytes))

/**
 * EndBlock's part: the block's balance changes so far (BeginBlock, the transactions and EndBlock's
 * own minting) added to the counter. The system calls after EndBlock (EIP-7002 / 7251 request
 * reads) move no value.
 */
export async function trackBlock(state: JournaledState): Promise<void> {
  // Nothing but this writes the counter in a block (a precompile's storage has no code to write it).
  const supply = await totalSupply(state)
  if (supply === undefined) return
  const delta = await change(state.diff().accounts, state.underlying())
  if (delta !== 0n) await state.putStorage(STAKING_ADDRESS, SUPPLY, unpadded(supply + delta))
}

/**
 * The chain's write hook: a test-control write's balance changes added to the counter, in the same
 * diff. A write that clears the module's storage or sets the record itself (anvil_loadState of a
 * dump that holds the staking account, hardhat_setStorageAt of the record's slots) does not say
 * what the supply is: the counter is then counted again over every balance the state will hold,
 * or, where not every account is at hand (a fork's state), left unknown.
 */
export async function trackWrite(diff: StateDiff, head: WriteHookHead): Promise<void> {
  const written = diff.storage.get(STAKING_KEY)
  const overwritten = diff.cleared.has(STAKING_KEY) || written?.has(SUPPLY_KEY) === true || written?.has(TRACKED_KEY) === true
  if (!overwritten) {
    if ((await head.getStorage(STAKING_KEY, TRACKED_KEY)).length === 0) return
    const delta = await change(diff.accounts, head)
    if (delta === 0n) return
    const supply = storageValue(await head.getStorage(STAKING_KEY, SUPPLY_KEY)) + delta
    await putSlots(diff, head, new Map([[SUPPLY_KEY, unpadded(supply)]]))
    return
  }
  const all = head.allAccounts()
  if (all === undefined) {
    await putSlots(diff, head, new Map([[TRACKED_KEY, new Uint8Array()], [SUPPLY_KEY, new Uint8Array()]]))
    return
  }
  // The head's balances, with the diff's accounts as the write leaves them.
  let sum = 0n
  for (const account of all) sum += account.balance
  sum += await change(diff.accounts, head)
  await putSlots(diff, head, new Map([[SUPPLY_KEY, unpadded(sum)], [TRACKED_KEY, unpadded(1n)]]))
}

/** Adds slot writes of the staking account to a diff (its account too: a storage write needs it). */
async function putSlots(diff: StateDiff, head: StateReader, slots: Map<string, Uint8Array>): Promise<void> {
  const own = diff.storage.get(STAKING_KEY) ?? new Map<string, Uint8Array>()
  for (const [k, v] of slots) own.set(k, v)
  diff.storage.set(STAKING_KEY, own)
  if (!diff.accounts.has(STAKING_KEY)) {
    const account = await head.getAccount(STAKING_KEY)
    if (account !== undefined) diff.accounts.set(STAKING_KEY, account)
  }
}
