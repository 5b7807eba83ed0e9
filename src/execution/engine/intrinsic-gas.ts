/**
 * A transaction's intrinsic gas and minimum gas limit, worked out as @ethereumjs/tx's
 * `getIntrinsicGas` and `getMinimumGasLimit` do, from the Common's parameters read once per
 * parameter set instead of looked up (and turned into bigints) byte by byte: the library's
 * `getDataGas` adds a bigint per calldata byte and asks Common for each cost and EIP on every
 * call, ~25 µs for a token transfer's 68 bytes in a fresh process.
 *
 * Covered: the base cost, the per-byte costs of zero and non-zero calldata, the creation cost and
 * EIP-3860's init-code words, EIP-2930's access-list costs, EIP-7702's per-authorisation cost
 * and EIP-7623's calldata floor. Under EIPs that change the formula further (2780, 7976, 7981,
 * 8037, none of them in a hardfork this node runs) the library answers.
 * `test/execution/engine/intrinsic-gas.test.ts` compares both on every supported hardfork and type.
 */
import type { Common } from '@ethereumjs/common'
import { Capability, type TypedTransaction } from '@ethereumjs/tx'
import { paramsKey } from './common.js'

/** The costs of one parameter set, as numbers (each fits easily; sums stay far below 2^53). */
interface Schedule {
  /** An EIP changes the formula beyond what is written here: the library's methods answer. */
  library: boolean
  txGas: number
  zeroByte: number
  nonZeroByte: number
  /** Added for a creation (Homestead on), else 0. */
  creation: number
  /** EIP-3860's cost per 32-byte word of init code, else 0. */
  initCodeWord: number
  accessListAddress: number
  accessListKey: number
  /** EIP-7702's cost per authorisation. */
  perAuthorization: number
  /** EIP-7623's cost per calldata token, undefined when it is not active. */
  floorPerToken: number | undefined
}

/** Keyed by Common's parameter cache, an object ethereumjs replaces whenever hardfork, EIPs or parameters change. */
const schedules = new WeakMap<object, Schedule>()

function scheduleOf(common: Common): Schedule {
  const key = paramsKey(common)
  if (key === undefined) return readSchedule(common)
  let schedule = schedules.get(key)
  if (schedule === undefined) {
    schedule = readSchedule(common)
    schedules.set(key, schedule)
  }
  return schedule
}

function readSchedule(common: Common): Schedule {
  const active = (eip: number) => common.isActivatedEIP(eip)
  const param = (name: string) => Number(common.param(name))
  const library = active(2780) || active(7976) || active(7981) || active(8037)
  const accessLists = active(2930)
  return {
    library,
    txGas: param('txGas'),
    zeroByte: param('txDataZeroGas'),
    nonZeroByte: param('txDataNonZeroGas'),
    creation: common.gteHardfork('homestead') ? param('txCreationGas') : 0,
    initCodeWord: active(3860) ? param('initCodeWordGas') : 0,
    accessListAddress: accessLists ? param('accessListAddressGas') : 0,
    accessListKey: accessLists ? param('accessListStorageKeyGas') : 0,
    perAuthorization: active(7702) ? param('perEmptyAccountCost') : 0,
    floorPerToken: active(7623) ? param('totalCostFloorPerToken') : undefined,
  }
}

/** Data up to this length is walked byte by byte; longer data is read four bytes at a time. */
const WALK_LIMIT = 256

/**
 * The number of zero bytes in `data`. Long data (init code, ABI-encoded arguments) is read as
 * 32-bit words, each word's zero bytes counted with a few bit operations: 46 µs for an 81 KB
 * init code against 185 µs for a walk over every byte and 568 µs for the typed array's native
 * `indexOf` from zero to zero (~27 ns a zero found, so worst on data dense with zeros: a 420-byte
 * call's arguments took 15 µs that way, 0.7 µs this way). A quarter of the iterations also keeps
 * a fresh process's first long count short while V8 still interprets the loop (the byte walk
 * took 0.26–2 ms for the 3 KB Token deployment there). Short data is walked: a view of a typed
 * array of 64 bytes or less would move its bytes off V8's heap.
 */
function zeros(data: Uint8Array): number {
  const length = data.length
  if (length <= WALK_LIMIT) return walk(data, 0, length)
  const offset = data.byteOffset
  // Up to the first 4-byte boundary of the buffer, the words, then the bytes after them.
  const start = (4 - (offset & 3)) & 3
  const count = (length - start) >> 2
  const end = start + (count << 2)
  const words = new Uint32Array(data.buffer, offset + start, count)
  let zero = walk(data, 0, start) + walk(data, end, length)
  for (let k = 0; k < count; k++) {
    const x = words[k] as number
    // The high bit of each byte of `t` is set exactly where that byte of `x` is zero; summing those
    // bits into the top byte counts them.
    const t = ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f)
    zero += (Math.imul((t >>> 7) & 0x01010101, 0x01010101) >>> 24)
  }
  return zero
}

/** The zero bytes of `data` from `start` to `end`, one by one. */
function walk(data: Uint8Array, start: number, end: number): number {
  let count = 0
  for (let i = start; i < end; i++) if (data[i] === 0) count++
  return count
}

/** The library's own method, from the transaction's class (instances may carry a cached one). */
function libraryIntrinsicGas(tx: TypedTransaction): bigint {
  return (Object.getPrototypeOf(tx) as TypedTransaction).getIntrinsicGas.call(tx)
}

/** Whether the library's `getIntrinsicGas` charges the creation cost (its `toCreationAddress`, which throws for types that cannot create). */
function creates(tx: TypedTransaction): boolean {
  try {
    return tx.toCreationAddress()
  } catch {
    return false
  }
}

/** The gas a transaction pays before any code runs: `tx.getIntrinsicGas()`, the same value. */
export function intrinsicGas(tx: TypedTransaction): bigint {
  const s = scheduleOf(tx.common)
  if (s.library) return libraryIntrinsicGas(tx)
  const data = tx.data
  const zero = zeros(data)
  let gas = s.txGas + zero * s.zeroByte + (data.length - zero) * s.nonZeroByte
  if (s.initCodeWord !== 0 && (tx.to === undefined || tx.to === null)) gas += s.initCodeWord * Math.ceil(data.length / 32)
  if (s.creation !== 0 && creates(tx)) gas += s.creation
  if (tx.supports(Capability.EIP2930AccessLists)) {
    const list = (tx as TypedTransaction & { accessList: [Uint8Array, Uint8Array[]][] }).accessList
    let keys = 0
    for (let i = 0; i < list.length; i++) keys += (list[i] as [Uint8Array, Uint8Array[]])[1].length
    gas += list.length * s.accessListAddress + keys * s.accessListKey
  }
  if (tx.supports(Capability.EIP7702EOACode)) {
    gas += (tx as TypedTransaction & { authorizationList: unknown[] }).authorizationList.length * s.perAuthorization
  }
  return BigInt(gas)
}

/**
 * The lowest gas limit the transaction may carry: `tx.getMinimumGasLimit()`, the same value,
 * with `intrinsic` its intrinsic gas (asked of the transaction, which may have it cached).
 */
export function minimumGasLimit(tx: TypedTransaction, intrinsic: bigint = tx.getIntrinsicGas()): bigint {
  const s = scheduleOf(tx.common)
  if (s.library) return (Object.getPrototypeOf(tx) as TypedTransaction).getMinimumGasLimit.call(tx)
  if (s.floorPerToken === undefined) return intrinsic
  const data = tx.data
  const zero = zeros(data)
  const floor = BigInt(s.txGas + s.floorPerToken * (zero + (data.length - zero) * 4))
  return floor > intrinsic ? floor : intrinsic
}
