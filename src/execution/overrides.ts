/**
 * State and block overrides (geth's `StateOverride` and `BlockOverrides`): the third and fourth
 * params of eth_call and eth_estimateGas, and the per-block overrides of eth_simulateV1. They
 * apply to one run's view of the state and block only; the chain never sees them.
 */
import { Block, createBlock } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import type { EVMInterface } from '@ethereumjs/evm'
import { Account, KECCAK256_NULL, toChecksumAddress } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { Refused } from '../domain-errors.js'
import { precompilesOf, setPrecompiles, type Precompiles } from './engine/precompiles.js'
import { setBlobGasPrice, withBaseFee } from './engine/header.js'
import { data } from '../hex.js'
import type { StateReader } from '../state/types.js'

const EMPTY = new Uint8Array(0)

/** One account's override; storage keys are 64 hex digits, values unpadded bytes (empty = zero). */
export interface AccountOverride {
  balance?: bigint
  nonce?: bigint
  code?: Uint8Array
  /** Replaces the whole storage. */
  state?: Map<string, Uint8Array>
  /** Replaces only these slots. */
  stateDiff?: Map<string, Uint8Array>
  /** Moves the precompile at this account's address to another address (key form). */
  movePrecompileToAddress?: string
}

/** Overrides by address (lower-case, unprefixed hex), in the order given. */
export type StateOverrides = Map<string, AccountOverride>

/** Header fields a caller may override. */
export interface BlockOverrides {
  number?: bigint
  time?: bigint
  gasLimit?: bigint
  feeRecipient?: Uint8Array
  prevRandao?: Uint8Array
  baseFeePerGas?: bigint
  blobBaseFee?: bigint
}

function checksum(key: string): string {
  return toChecksumAddress(`0x${key}`)
}

/** A state reader with the overrides laid over it. */
export class OverriddenState implements StateReader {
  constructor(
    private readonly base: StateReader,
    private readonly overrides: StateOverrides,
  ) {}

  async getAccount(address: string): Promise<Account | undefined> {
    const base = await this.base.getAccount(address)
    const o = this.overrides.get(address)
    if (o === undefined || (o.balance === undefined && o.nonce === undefined && o.code === undefined && o.state === undefined && o.stateDiff === undefined)) return base
    const account = base === undefined ? new Account() : new Account(base.nonce, base.balance, base.storageRoot, base.codeHash)
    if (o.nonce !== undefined) account.nonce = o.nonce
    if (o.balance !== undefined) account.balance = o.balance
    if (o.code !== undefined) account.codeHash = o.code.length === 0 ? KECCAK256_NULL : keccak_256(o.code)
    return account
  }

  async getStorage(address: string, slot: string): Promise<Uint8Array> {
    const o = this.overrides.get(address)
    if (o?.state !== undefined) return o.state.get(slot) ?? EMPTY
    const diff = o?.stateDiff?.get(slot)
    if (diff !== undefined) return diff
    return this.base.getStorage(address, slot)
  }

  async getCode(address: string): Promise<Uint8Array> {
    return this.overrides.get(address)?.code ?? this.base.getCode(address)
  }
}

/** geth's checks that do not depend on the precompile set. */
export function validateOverrides(overrides: StateOverrides): void {
  for (const [address, o] of overrides) {
    if (o.state !== undefined && o.stateDiff !== undefined) {
      throw new Refused(`account ${checksum(address)} has both 'state' and 'stateDiff'`)
    }
  }
}


/**
 * The overridden precompile set, which still lists the fork's own precompiles: the EVM dispatches
 * through `get`, and runTx warms (EIP-2929) the addresses `entries()` yields. geth warms the
 * fork's precompile addresses whatever the overrides, so an overridden precompile's address
 * stays warm and a moved one's new address starts cold.
 */
class OverriddenPrecompiles extends Map<string, unknown> {
  private fork: Precompiles = new Map()

  static of(active: Precompiles, fork: Precompiles): OverriddenPrecompiles {
    const set = new OverriddenPrecompiles(active)
    set.fork = fork
    return set
  }

  override entries(): MapIterator<[string, unknown]> {
    return this.fork.entries()
  }
}

/**
 * Applies the precompile side of the overrides to an EVM (geth's order and messages): a moved
 * precompile answers at its new address, and any overridden precompile address stops being one.
 * Returns the function that restores the EVM's precompiles.
 */
export function applyPrecompileOverrides(evm: EVMInterface, overrides: StateOverrides): () => void {
  const original = precompilesOf(evm)
  let touched = false
  for (const a of overrides.keys()) if (original.has(a)) touched = true
  for (const o of overrides.values()) if (o.movePrecompileToAddress !== undefined) touched = true
  if (!touched) return () => {}
  const active: Precompiles = new Map(original)
  const moved = new Set<string>()
  for (const [address, o] of overrides) {
    if (moved.has(address)) throw new Refused(`account ${checksum(address)} has already been overridden by a precompile`)
    const precompile = original.get(address)
    if (o.movePrecompileToAddress !== undefined) {
      if (precompile === undefined) throw new Refused(`account ${checksum(address)} is not a precompile`)
      const to = o.movePrecompileToAddress
      if (overrides.has(to)) throw new Refused(`account ${checksum(to)} is already overridden`)
      active.set(to, precompile)
      moved.add(to)
    }
    if (precompile !== undefined && !moved.has(address)) active.delete(address)
  }
  setPrecompiles(evm, OverriddenPrecompiles.of(active, original))
  return () => setPrecompiles(evm, original)
}

/** The block a run executes in: `block` with the header overrides applied. */
export function overriddenBlock(block: Block, o: BlockOverrides | undefined, common: Common): Block {
  if (o === undefined) return block
  const keys = Object.keys(o).length
  if (keys === 0) return block
  // The commonest override by far: a call without a price runs with base fee 0 (geth's NoBaseFee).
  // Its context block is made once per block, not once per run (an estimate runs several times).
  const feeless = keys === 1 && o.baseFeePerGas === 0n
  if (feeless) {
    const known = FEELESS.get(block)
    if (known !== undefined && known.common === common) return known
  }
  const out = (feeless ? feelessBlock(block, common) : undefined) ?? buildOverridden(block, o, common)
  if (feeless) FEELESS.set(block, out)
  return out
}

/** The base-fee-0 context of each block (read-only once made: nothing sets fields on it). */
const FEELESS = new WeakMap<Block, Block>()

/** `block` with base fee 0 (none before London), its header copied as it is otherwise; undefined where the copy cannot be made. */
function feelessBlock(block: Block, common: Common): Block | undefined {
  if (common !== block.common) return undefined
  const fee = block.header.baseFeePerGas === undefined ? undefined : 0n
  const header = withBaseFee(block.header, fee)
  return header === undefined ? undefined : new Block(header, [], [], undefined, { common, freeze: false })
}

function buildOverridden(block: Block, o: BlockOverrides, common: Common): Block {
  const header = block.header.toJSON() as Record<string, unknown>
  if (o.number !== undefined) header.number = o.number
  if (o.time !== undefined) header.timestamp = o.time
  if (o.gasLimit !== undefined) {
    header.gasLimit = o.gasLimit
    // The real block's gas used may exceed the new limit; a context block has used none.
    header.gasUsed = 0n
  }
  if (o.feeRecipient !== undefined) header.coinbase = data(o.feeRecipient)
  if (o.prevRandao !== undefined) header.mixHash = data(o.prevRandao)
  const out = createBlock(
    { header: header as never },
    { common, setHardfork: false, skipConsensusFormatValidation: true, freeze: false },
  )
  // Set after the header is made: its constructor insists that London's first block carries the
  // initial base fee, which a call without a price (base fee 0) at that block does not.
  if (o.baseFeePerGas !== undefined && block.header.baseFeePerGas !== undefined) {
    ;(out.header as { baseFeePerGas: bigint }).baseFeePerGas = o.baseFeePerGas
  }
  if (o.blobBaseFee !== undefined) withBlobBaseFee(out, o.blobBaseFee)
  return out
}

/** Makes BLOBBASEFEE (and blob fee checks) read `fee`: the header has no such field to set. */
export function withBlobBaseFee(block: Block, fee: bigint): void {
  setBlobGasPrice(block.header, fee)
}
