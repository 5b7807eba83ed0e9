/**
 * Genesis state and block, built one way for every source: the node's accounts and `alloc`, a
 * state dump (`createNode({ state })`, anvil_loadState), and a geth genesis file. Each source
 * reads its own format and hands its accounts here as {@link AllocAccount}s.
 */
import { type Block, type HeaderData, createBlock } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { Account, Address, KECCAK256_NULL, createZeroAddress } from '@ethereumjs/util'
import { sealBlock } from '../execution/block-rlp.js'
import { type BuiltHeaderFields, builtHeader } from '../execution/engine/header.js'
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

/**
 * The genesis block of `header` over a state with `stateRoot`. Made as the builder makes its
 * blocks (`builtHeader`, `sealBlock`) where the header's fields are of the types a built header
 * holds, so the head block has one hidden class from genesis on (the producer's and the
 * builder's compiled reads of the head are not thrown away at the first built block); the same
 * hash as @ethereumjs/block's `createBlock` makes (test/chain/genesis-hash.test.ts), which makes
 * it where they are not.
 */
export function genesisBlock(header: HeaderData, stateRoot: Uint8Array, common: Common): Block {
  const fields = builtGenesisFields(header, stateRoot)
  if (fields !== undefined) return sealBlock(builtHeader(fields, common), [], common)
  return createBlock(
    { header: { ...header, number: 0n, stateRoot }, withdrawals: common.isActivatedEIP(4895) ? [] : undefined },
    { common, setHardfork: false },
  )
}

/** The fields a genesis header's constructor would set from `header`, when each is of a built header's type; else undefined. */
function builtGenesisFields(header: HeaderData, stateRoot: Uint8Array): BuiltHeaderFields | undefined {
  const known: ReadonlySet<string> = GENESIS_FIELDS
  for (const [name, value] of Object.entries(header)) if (value !== undefined && !known.has(name)) return undefined
  const { timestamp, gasLimit, difficulty, gasUsed, baseFeePerGas, excessBlobGas, blobGasUsed, extraData, mixHash, nonce, parentHash, coinbase } = header
  const numbers = [timestamp, gasLimit, difficulty, gasUsed, baseFeePerGas, excessBlobGas, blobGasUsed]
  const bytes = [extraData, mixHash, nonce, parentHash]
  if (!numbers.every((v) => v === undefined || typeof v === 'bigint') || !bytes.every((v) => v === undefined || v instanceof Uint8Array)) return undefined
  if (typeof gasLimit !== 'bigint' || (coinbase !== undefined && !(typeof coinbase === 'string' && /^0x[0-9a-fA-F]{40}$/.test(coinbase)))) return undefined
  return {
    parentHash: (parentHash as Uint8Array | undefined) ?? new Uint8Array(32),
    coinbase: coinbase === undefined ? createZeroAddress() : new Address(fromHex(coinbase)),
    stateRoot,
    number: 0n,
    gasLimit,
    difficulty: difficulty as bigint | undefined,
    gasUsed: gasUsed as bigint | undefined,
    timestamp: (timestamp as bigint | undefined) ?? 0n,
    extraData: extraData as Uint8Array | undefined,
    mixHash: (mixHash as Uint8Array | undefined) ?? new Uint8Array(32),
    nonce: nonce as Uint8Array | undefined,
    baseFeePerGas: baseFeePerGas as bigint | undefined,
    excessBlobGas: excessBlobGas as bigint | undefined,
    blobGasUsed: blobGasUsed as bigint | undefined,
  }
}

/** The header fields a genesis given here may set (the node's options and a geth genesis file); another makes it the library's way. */
const GENESIS_FIELDS = new Set([
  'number', 'timestamp', 'gasLimit', 'difficulty', 'gasUsed', 'baseFeePerGas', 'excessBlobGas', 'blobGasUsed', 'extraData', 'mixHash', 'nonce', 'parentHash', 'coinbase', 'stateRoot',
])
