/**
 * Genesis state and block, built one way for every source: the node's accounts and `alloc`, a
 * state dump (`createNode({ state })`, anvil_loadState), and a geth genesis file. Each source
 * reads its own format and hands its accounts here as {@link AllocAccount}s.
 */
import { type Block, type HeaderData, createBlock } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { Account, KECCAK256_NULL } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.js'
import { fromHex, keyOf } from '../hex.js'
import type { StateDiff } from '../state/types.js'

/** One account of an allocation, its fields decoded (storage still as hex slot → hex value). */
export interface AllocAccount {
  nonce?: bigint | undefined
  balance?: bigint | undefined
  code?: Uint8Array | undefined
  /** Slot → value, hex (any length up to 32 bytes); a value is kept without its leading zeros. */
  storage?: Readonly<Record<string, string>> | undefined
}

/** `value` without its leading zero bytes (a slot's stored form; empty for zero). */
export function withoutLeadingZeros(value: Uint8Array): Uint8Array {
  let i = 0
  while (i < value.length && value[i] === 0) i++
  return value.subarray(i)
}

/**
 * Puts `account` at `address` (hex, with or without 0x, any case) into `diff`. `replace`: the
 * account replaces what the state holds (anvil_loadState): its storage is cleared first and its
 * code written even when empty.
 */
export function putAccount(diff: StateDiff, address: string, account: AllocAccount, replace = false): void {
  const key = address.toLowerCase().replace(/^0x/, '')
  const code = account.code ?? new Uint8Array()
  diff.accounts.set(key, new Account(account.nonce ?? 0n, account.balance ?? 0n, undefined, code.length > 0 ? keccak256(code) : KECCAK256_NULL))
  if (code.length > 0 || replace) diff.code.set(key, code)
  if (replace) diff.cleared.add(key)
  if (account.storage === undefined) return
  const slots = new Map<string, Uint8Array>()
  for (const [slot, value] of Object.entries(account.storage)) slots.set(keyOf(fromHex(slot)).padStart(64, '0'), withoutLeadingZeros(fromHex(value)))
  if (slots.size > 0 || !replace) diff.storage.set(key, slots)
}

/** The genesis block of `header` over a state with `stateRoot`. */
export function genesisBlock(header: HeaderData, stateRoot: Uint8Array, common: Common): Block {
  return createBlock(
    { header: { ...header, number: 0n, stateRoot }, withdrawals: common.isActivatedEIP(4895) ? [] : undefined },
    { common, setHardfork: false },
  )
}
