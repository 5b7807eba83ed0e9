/**
 * Anvil's controls beyond the ones Hardhat shares (src/rpc/test/controls.ts): its names for
 * snapshots, its readers of the genesis time and the mining interval, the ERC-20 balance and
 * allowance setters, its blob readers and its signature impersonation. Params and answers are
 * Anvil 1.7.1's (test/foundry/anvil-methods.test.ts and anvil-blobs.test.ts send the same
 * requests to Anvil and compare).
 */
import { findErc20Slot, allowanceCall, balanceOfCall } from '../../controls/erc20-slots.js'
import { InvalidParamsError, RpcError } from '../../errors.js'
import { data, fromHex, quantity, word } from '../../hex.js'
import { address, bytes, CodecError, hash, optional, parseQuantity, type Codec } from '../codecs.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'
import { jsonNumber, numberOrQuantity } from './params.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'calls' | 'chain' | 'controls' | 'producer' | 'transactions'>
const method = methodsOf<keyof Here>()

/** An amount as Anvil takes it: a JSON number, a decimal string or a QTY, of up to 256 bits. */
const amount: Codec<bigint> = {
  name: 'number|QTY',
  optional: false,
  decode(v) {
    if (typeof v === 'number') return jsonNumber(v)
    if (typeof v === 'string' && /^[0-9]{1,78}$/.test(v)) {
      const n = BigInt(v)
      if (n >= 1n << 256n) throw new CodecError('number > 256 bits')
      return n
    }
    return parseQuantity(v)
  },
}

/**
 * anvil_impersonateSignature's params. Anvil 1.7.1 takes them as one array in the first param,
 * `[[signature, address]]` (and refuses `[signature, address]`); both forms are taken here.
 */
const signaturePair: Codec<{ signature: Uint8Array; address?: Uint8Array }> = {
  name: '[signature, address]|signature',
  optional: false,
  decode(v, index) {
    if (!Array.isArray(v)) return { signature: bytes.decode(v, index) }
    if (v.length !== 2) throw new CodecError(`want [signature, address], got ${v.length} element(s)`)
    return { signature: bytes.decode(v[0], index), address: address.decode(v[1], index) }
  },
}

/** Writes `value` into the slot of `token` that `call` reads, found by {@link findErc20Slot}. */
async function setErc20Slot(s: Here, token: Uint8Array, call: Uint8Array, value: bigint, what: string): Promise<null> {
  const slot = await findErc20Slot(s.calls, s.chain.head, token, call, value)
  // Anvil's words and code (its BlockchainError::Message is -32603).
  if (slot === undefined) throw new RpcError(-32603, `Unable to set ERC20 ${what}, no slot found`)
  await s.controls.setStorageAt(token, slot, word(value))
  return null
}

/** True when transaction `tx` is in a block of the chain: Anvil answers only mined ones' blobs. */
async function mined(s: Here, tx: Uint8Array): Promise<boolean> {
  return (await s.chain.transaction(tx)) !== undefined
}

export const anvilExtras: MethodTable = {
  /**
   * From now on ecrecover answers `address` for this 65-byte signature (`r ‖ s ‖ v`), in blocks,
   * calls and traces, as Anvil's cheat does: a contract checking a signature by ecrecover accepts
   * one nobody signed.
   */
  anvil_impersonateSignature: method({
    params: [signaturePair, optional(address, undefined)],
    run: (s, [pair, flat]) => {
      let who: Uint8Array
      if (pair.address !== undefined) {
        if (flat !== undefined) throw new InvalidParamsError('too many arguments, want at most 1')
        who = pair.address
      } else if (flat !== undefined) who = flat
      else throw new InvalidParamsError('missing value for required argument 1')
      s.calls.ecrecover?.add(pair.signature, who)
      return null
    },
  }),
  /** The blob whose versioned hash is given, from a mined transaction sent with its sidecar; else null. */
  anvil_getBlobByHash: method({
    params: [hash],
    run: async (s, [h]) => {
      const kept = s.transactions.blobs.byVersionedHash(h)
      return kept !== undefined && (await mined(s, fromHex(kept.tx))) ? data(kept.blob) : null
    },
  }),
  /** The blobs of a mined blob transaction, in its order; else null. */
  anvil_getBlobsByTransactionHash: method({
    params: [hash],
    run: async (s, [tx]) => {
      const blobs = s.transactions.blobs.ofTransaction(tx)
      return blobs !== undefined && (await mined(s, tx)) ? blobs.map(data) : null
    },
  }),
  // Anvil's names of evm_snapshot and evm_revert: the same snapshots, the same ids.
  anvil_snapshot: method({ params: [], run: (s) => quantity(s.controls.snapshot()) }),
  anvil_revert: method({ params: [numberOrQuantity], run: (s, [id]) => s.controls.revert(id) }),
  /** The genesis block's timestamp, a JSON number (Anvil's beacon genesis time). */
  anvil_getGenesisTime: method({
    params: [],
    run: async (s) => Number((await s.chain.blockByNumber(s.chain.firstNumber))?.header.timestamp ?? 0n),
  }),
  /** Interval mining's period in whole seconds, or null in any other mode. */
  anvil_getIntervalMining: method({
    params: [],
    run: (s) => {
      const mode = s.producer.mode
      return mode.mode === 'interval' ? Math.floor(mode.blockTime / 1000) : null
    },
  }),
  anvil_dealERC20: method({
    params: [address, address, amount],
    run: (s, [holder, token, value]) => setErc20Slot(s, token, balanceOfCall(holder), value, 'balance'),
  }),
  // Anvil's alias of anvil_dealERC20.
  anvil_setERC20Balance: method({
    params: [address, address, amount],
    run: (s, [holder, token, value]) => setErc20Slot(s, token, balanceOfCall(holder), value, 'balance'),
  }),
  anvil_setERC20Allowance: method({
    params: [address, address, address, amount],
    run: (s, [owner, spender, token, value]) => setErc20Slot(s, token, allowanceCall(owner, spender), value, 'allowance'),
  }),
}
