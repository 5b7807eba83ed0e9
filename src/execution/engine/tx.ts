/**
 * Transactions the node keeps answers on: @ethereumjs/tx's objects given per-instance methods
 * (their sender, encoding, signing hash and intrinsic gas, known or computed once) and an
 * EIP-1559 transaction copied with a signature added without its constructor. Per-instance
 * methods shadow the library's public ones; the copy is made from the class's prototype with the
 * constructor's own properties, which only a verified version of @ethereumjs/tx is known to have
 * (gate.ts): elsewhere the library builds and answers as it does by itself.
 */
import { Capability, TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import { Address, bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { keccak256 } from '../../crypto/keccak.js'
import { unpadded } from '../../hex.js'
import { encodeList, encodeString, headerLength, itemBounds, listItems, stringLength, uintLength, writeHeader, writeString, writeUint } from '../../rlp.js'
import { intrinsicGas } from './intrinsic-gas.js'
import { fastPaths } from './gate.js'

/** The order of secp256k1's group: `r` and `s` lie below it. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

const NO_BYTES = new Uint8Array(0)

/**
 * The message an EIP-1559 transaction's signature covers: its type byte, then the RLP list of its
 * unsigned fields as ethereumjs' `raw()` lists them and `getMessageToSign()` encodes them (chain
 * id, nonce, tip, fee cap, gas, recipient (empty for a creation), value, data, access list),
 * written into one buffer: the data is copied once, no array is made per field.
 */
export function feeMarketMessage(tx: TypedTransaction): Uint8Array {
  const t = tx as unknown as { chainId: bigint; maxPriorityFeePerGas: bigint; maxFeePerGas: bigint; accessList: [Uint8Array, Uint8Array[]][] }
  const to = tx.to?.bytes ?? NO_BYTES
  const accessList = t.accessList.length === 0 ? EMPTY_LIST : encodeList(t.accessList.map(([address, keys]) => encodeList([encodeString(address), encodeList(keys.map(encodeString))])))
  const payload =
    uintLength(t.chainId) +
    uintLength(tx.nonce) +
    uintLength(t.maxPriorityFeePerGas) +
    uintLength(t.maxFeePerGas) +
    uintLength(tx.gasLimit) +
    stringLength(to) +
    uintLength(tx.value) +
    stringLength(tx.data) +
    accessList.length
  const out = new Uint8Array(1 + headerLength(payload) + payload)
  out[0] = TransactionType.FeeMarketEIP1559
  let pos = writeHeader(out, 1, 0xc0, payload)
  pos = writeUint(out, pos, t.chainId)
  pos = writeUint(out, pos, tx.nonce)
  pos = writeUint(out, pos, t.maxPriorityFeePerGas)
  pos = writeUint(out, pos, t.maxFeePerGas)
  pos = writeUint(out, pos, tx.gasLimit)
  pos = writeString(out, pos, to)
  pos = writeUint(out, pos, tx.value)
  pos = writeString(out, pos, tx.data)
  out.set(accessList, pos)
  return out
}

/** The RLP of an empty list (an empty access list). */
const EMPTY_LIST = Uint8Array.of(0xc0)

/**
 * An unsigned EIP-1559 transaction with a signature added, and its signed encoding, without
 * building it again: `addSignature` passes every field through the constructor and its checks a
 * second time (the unsigned transaction passed them a moment ago) and the signed transaction is
 * then encoded field by field once more. The copy has the constructor's own properties in its
 * order, the signature's fields set, an empty cache and the options `addSignature` gives it; the
 * encoding is the unsigned one's fields (`message`, {@link feeMarketMessage}, when the caller
 * made it already) followed by `v`, `r`, `s`. Undefined for another type, or a signature the
 * constructor would refuse (its checks word the error): then the caller takes ethereumjs' path,
 * as it does wherever @ethereumjs/tx's version is not a verified one.
 */
export function withSignature(tx: TypedTransaction, v: bigint, r: bigint, s: bigint, message?: Uint8Array): { tx: TypedTransaction; bytes: Uint8Array } | undefined {
  if (!fastPaths('@ethereumjs/tx')) return undefined
  if (tx.type !== TransactionType.FeeMarketEIP1559 || (v !== 0n && v !== 1n) || r === 0n || s === 0n || s > HALF_N || r >= SECP256K1_N) return undefined
  const unsigned = message ?? feeMarketMessage(tx)
  const fields = itemBounds(unsigned, 1)
  const payload = fields.end - fields.payload + uintLength(v) + uintLength(r) + uintLength(s)
  const bytes = new Uint8Array(1 + headerLength(payload) + payload)
  bytes[0] = TransactionType.FeeMarketEIP1559
  let pos = writeHeader(bytes, 1, 0xc0, payload)
  bytes.set(unsigned.subarray(fields.payload, fields.end), pos)
  pos += fields.end - fields.payload
  pos = writeUint(bytes, pos, v)
  pos = writeUint(bytes, pos, r)
  writeUint(bytes, pos, s)
  const source = tx as unknown as Record<string, unknown> & { txOptions: object; activeCapabilities: number[] }
  const copy = Object.assign(Object.create(Object.getPrototypeOf(tx) as object) as Record<string, unknown>, source)
  copy.cache = {}
  copy.activeCapabilities = source.activeCapabilities.slice()
  copy.txOptions = { ...source.txOptions, common: tx.common }
  copy.v = v
  copy.r = r
  copy.s = s
  return { tx: copy as unknown as TypedTransaction, bytes }
}

/**
 * A transaction whose sender the node knows (it signed it with `from`'s key, or sends it for an
 * impersonated `from`): the sender is not recovered from the signature (~80 µs of a send).
 * `encoded`: its signed encoding, when the caller made it already.
 * Frozen afterwards, as ethereumjs freezes transactions, so the hash is cached. The sender is
 * answered by the instance's own `getSenderAddress` (a public method, which runTx and the pool
 * call): an impersonated send has no signature to recover it from. The other answers kept on
 * the instance are speed-ups, made where @ethereumjs/tx's version is a verified one.
 */
export function signedBy(tx: TypedTransaction, from: Uint8Array, encoded?: Uint8Array): TypedTransaction {
  const address = new Address(from)
  const sender = () => address
  // Plain assignments (the freeze below makes them read-only): Object.defineProperty takes V8's
  // slow path, ~1 µs each.
  const own = tx as unknown as Record<'serialize' | 'getMessageToVerifySignature' | 'getSenderPublicKey' | 'getSenderAddress' | 'getIntrinsicGas', unknown>
  if (!fastPaths('@ethereumjs/tx')) {
    own.getSenderAddress = sender
    Object.freeze(tx)
    return tx
  }
  // Encoded once: the hash, the transaction trie and the block's RLP each ask for it.
  const encode = tx.serialize
  let bytes: Uint8Array | undefined = encoded
  own.serialize = () => (bytes ??= encode.call(tx))
  // The class's own methods, set as own properties so that the object has the hidden class of a
  // decoded transaction ({@link withEncoding}: the same properties in the same order): the engine's
  // run, the pool and the builder read both kinds at the same sites.
  const prototype = Object.getPrototypeOf(tx) as TypedTransaction
  own.getMessageToVerifySignature = prototype.getMessageToVerifySignature
  own.getSenderPublicKey = prototype.getSenderPublicKey
  own.getSenderAddress = sender
  // Asked by the pool's admission and again by the block's runTx: the same Common, the same gas.
  let intrinsic: bigint | undefined
  own.getIntrinsicGas = () => (intrinsic ??= intrinsicGas(tx))
  Object.freeze(tx)
  return tx
}

/**
 * A decoded transaction that answers `serialize()` with the bytes it came from instead of
 * re-encoding them (the transaction trie, the block's RLP and the hash each asked again), then
 * frozen as ethereumjs freezes transactions, so its hash and sender are cached. Where
 * @ethereumjs/tx's version is not a verified one, only frozen.
 */
export function withEncoding(tx: TypedTransaction, raw: Uint8Array): TypedTransaction {
  if (!fastPaths('@ethereumjs/tx')) {
    Object.freeze(tx)
    return tx
  }
  const bytes = raw.slice()
  // Plain assignments (the freeze below makes them read-only): Object.defineProperty takes V8's
  // slow path, ~1 µs each. The same properties in the same order as {@link signedBy}'s: one
  // hidden class for a send received raw and one the node signed.
  const own = tx as unknown as Record<'serialize' | 'getMessageToVerifySignature' | 'getSenderPublicKey' | 'getSenderAddress' | 'getIntrinsicGas', unknown>
  own.serialize = () => bytes
  // The list's items, found once for the signing hash and the signature's r and s.
  let items: number[] | undefined
  const starts = () => (items ??= listItems(bytes, tx.type === TransactionType.Legacy ? 0 : 1).starts)
  // The hash a sender signed, cut from the bytes received instead of re-encoding the fields.
  let signed: Uint8Array | undefined
  own.getMessageToVerifySignature = () => (signed ??= signingHash(tx, bytes, starts()))
  // ethereumjs turns r and s back into bytes (through hex strings) for each recovery.
  let publicKey: Uint8Array | undefined
  own.getSenderPublicKey = () => (publicKey ??= recoverPublicKey(tx, bytes, starts))
  // ethereumjs hashes the public key again (with a JS keccak) each time the sender is asked.
  let sender: Address | undefined
  own.getSenderAddress = () => (sender ??= new Address(keccak256(tx.getSenderPublicKey()).slice(12)))
  // Asked by the pool's admission and again by the block's runTx: the same Common, the same gas.
  let intrinsic: bigint | undefined
  own.getIntrinsicGas = () => (intrinsic ??= intrinsicGas(tx))
  Object.freeze(tx)
  return tx
}

/** secp256k1n / 2: EIP-2's bound on a signature's `s`. */
const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n

/**
 * The sender's public key of a transaction decoded from `signed`, recovered as ethereumjs'
 * `getSenderPublicKey` does (same hash, same `ecrecover` hook, same arguments) but with `r` and
 * `s` taken from the bytes received, not made again from their bigints (through hex strings).
 * Anything unusual (no hook, no signature, a high `s`, a failed recovery) is left to ethereumjs,
 * which words the error.
 */
function recoverPublicKey(tx: TypedTransaction, signed: Uint8Array, items: () => number[]): Uint8Array {
  const recover = tx.common.customCrypto.ecrecover
  const { v, r, s } = tx
  // The class's own method: the instance's is this one.
  const library = () => (Object.getPrototypeOf(tx) as TypedTransaction).getSenderPublicKey.call(tx)
  if (recover === undefined || v === undefined || r === undefined || s === undefined || s > HALF_N) return library()
  try {
    const starts = items()
    const rBytes = unpaddedItem(signed, starts[starts.length - 2]) ?? unpadded(r)
    const sBytes = unpaddedItem(signed, starts[starts.length - 1]) ?? unpadded(s)
    return recover(tx.getMessageToVerifySignature(), v, rBytes, sBytes, tx.supports(Capability.EIP155ReplayProtection) ? tx.common.chainId() : undefined)
  } catch {
    return library()
  }
}

/**
 * The payload of the RLP string at `at` when it is an integer's minimal big-endian form of 1 to
 * 32 bytes (what `bigIntToUnpaddedBytes` makes of its value); otherwise undefined.
 */
function unpaddedItem(bytes: Uint8Array, at: number | undefined): Uint8Array | undefined {
  if (at === undefined || (bytes[at] as number) >= 0xc0) return undefined
  const { payload, end } = itemBounds(bytes, at)
  if (end - payload < 1 || end - payload > 32 || end > bytes.length || bytes[payload] === 0) return undefined
  return bytes.subarray(payload, end)
}

/**
 * The hash a transaction's signature covers, from its signed encoding: the same list without its
 * last three items (v, r, s), behind the type byte of a typed transaction; an EIP-155 legacy
 * transaction signs its chain id and two empty strings in their place.
 */
export function signingHash(tx: TypedTransaction, signed: Uint8Array, starts = listItems(signed, tx.type === TransactionType.Legacy ? 0 : 1).starts): Uint8Array {
  const cut = starts[starts.length - 3]
  const first = starts[0]
  if (cut === undefined || first === undefined) throw new Error('invalid transaction encoding')
  if (tx.type !== TransactionType.Legacy) {
    // The type byte, the list header and the fields, written into one buffer.
    const length = cut - first
    const out = new Uint8Array(1 + headerLength(length) + length)
    out[0] = signed[0] as number
    out.set(signed.subarray(first, cut), writeHeader(out, 1, 0xc0, length))
    return keccak256(out)
  }
  const items = [signed.subarray(first, cut)]
  if (tx.supports(Capability.EIP155ReplayProtection)) items.push(encodeString(bigIntToUnpaddedBytes(tx.common.chainId())), EMPTY_STRINGS)
  return keccak256(encodeList(items))
}

/** Two empty RLP strings: the `r` and `s` of an EIP-155 signing payload. */
const EMPTY_STRINGS = Uint8Array.of(0x80, 0x80)


/**
 * `tx` answering `getSenderAddress()` with `sender` (a replay of a committed transaction whose
 * receipt names a sender its signature does not recover: an impersonated one). The object
 * delegates everything else to `tx`.
 */
export function withSenderAddress(tx: TypedTransaction, sender: Address): TypedTransaction {
  return Object.create(tx, { getSenderAddress: { value: () => sender } }) as TypedTransaction
}

/**
 * Makes an unfrozen transaction answer `getSenderAddress()` with `sender` (a call's `from`, which
 * nothing signed). The library's runTx asks the transaction itself, so the instance's method wins.
 */
export function setSender(tx: TypedTransaction, sender: Address): void {
  ;(tx as unknown as { getSenderAddress: () => Address }).getSenderAddress = () => sender
}

/**
 * Makes an unfrozen transaction answer `getIntrinsicGas()` by intrinsic-gas.ts, computed once (a
 * call's transaction, which nothing signs). runTx asks it twice a run, and the library's
 * `getDataGas` adds a bigint per byte of the data: ~6 % of an estimate of a large deployment,
 * whose init code every run of the search walked again. Where @ethereumjs/tx's version is not a
 * verified one, the library answers.
 */
export function setIntrinsicGas(tx: TypedTransaction): void {
  if (!fastPaths('@ethereumjs/tx')) return
  let intrinsic: bigint | undefined
  ;(tx as unknown as { getIntrinsicGas: () => bigint }).getIntrinsicGas = () => (intrinsic ??= intrinsicGas(tx))
}

/** Makes an unfrozen transaction answer `hash()` with `hash` (eth_simulateV1's unsigned hash). */
export function setHash(tx: TypedTransaction, hash: Uint8Array): void {
  ;(tx as unknown as { hash: () => Uint8Array }).hash = () => hash
}

/** Sets an unfrozen transaction's gas limit and nonce after it was made (its fields are read-only in the types). */
export function setGasAndNonce(tx: TypedTransaction, gasLimit: bigint, nonce: bigint): void {
  const fields = tx as unknown as { gasLimit: bigint; nonce: bigint }
  fields.gasLimit = gasLimit
  fields.nonce = nonce
}
