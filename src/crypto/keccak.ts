/**
 * keccak256 for everything the node hashes (trie nodes, blocks, transactions, the EVM's SHA3).
 * hash-wasm's WebAssembly keccak is ~6x faster than @noble/hashes here (1.8 µs against 11 µs
 * for 32 bytes), and state roots are mostly hashing. It needs an async start (`initKeccak`,
 * awaited by createNode); until then, and wherever WebAssembly is unavailable, noble serves.
 */
import { keccak_256 as nobleKeccak } from '@noble/hashes/sha3.js'
import { createKeccak, type IHasher } from 'hash-wasm'
import { NIBBLE, fromHex, toBigInt } from '../hex.js'

let wasm: IHasher | undefined
let starting: Promise<void> | undefined

/** Starts the WebAssembly hasher once per process; safe to await many times. */
export function initKeccak(): Promise<void> {
  if (process.env.FINALITY_KECCAK === 'noble') return Promise.resolve()
  starting ??= createKeccak(256).then(useHasher, () => {})
  return starting
}

/**
 * The functions of hash-wasm's keccak module itself, which the build exposes on the hasher it
 * makes (tsup.config.ts, START_UP_PATCHES): the hasher's `update` makes two views of each input
 * and its `digest` a new array, three objects per hash (~8 KB of garbage a send, whose block
 * hashes ~40 times) and ~0.1 µs. Called directly, a hash allocates only its answer (a kept hash
 * not even that), and an input is written into the module's memory with no view of it made.
 */
interface KeccakModule {
  memory: { buffer: ArrayBuffer }
  Hash_GetBuffer(): number
  Hash_Init(bits: number): void
  Hash_Update(length: number): void
  Hash_Final(padding: number): void
}

/** The module's input and output area (16 KB, hash-wasm's size), and its first 32 bytes: the digest. */
const IO_SIZE = 16 * 1024
let direct: { module: KeccakModule; io: Uint8Array; digest: Uint8Array; view: DataView } | undefined

/**
 * Hashes with `hasher` from now on: directly through its module's functions when it exposes
 * them (the build's hash-wasm), else through its own methods (hash-wasm as installed).
 */
export function useHasher(hasher: IHasher): void {
  wasm = hasher
  const module = (hasher as IHasher & { exports?: KeccakModule }).exports
  direct = module === undefined ? undefined : { module, io: new Uint8Array(0), digest: new Uint8Array(0), view: new DataView(new ArrayBuffer(0)) }
}

/** Runs keccak256 over `data` in the module; the digest is then in `direct.digest`. */
function hashDirect(d: NonNullable<typeof direct>, data: Uint8Array): void {
  viewsOf(d)
  d.module.Hash_Init(256)
  if (data.length <= IO_SIZE) {
    d.io.set(data)
    d.module.Hash_Update(data.length)
  } else {
    for (let read = 0; read < data.length; read += IO_SIZE) {
      const end = Math.min(read + IO_SIZE, data.length)
      d.io.set(data.subarray(read, end))
      d.module.Hash_Update(end - read)
    }
  }
  d.module.Hash_Final(0x01)
}

/** Makes the views of the module's input area (again, for a memory that grew: keccak's module never grows it). */
function viewsOf(d: NonNullable<typeof direct>): void {
  if (d.io.byteLength === 0) {
    d.io = new Uint8Array(d.module.memory.buffer, d.module.Hash_GetBuffer(), IO_SIZE)
    d.digest = d.io.subarray(0, 32)
    d.view = new DataView(d.module.memory.buffer, d.module.Hash_GetBuffer(), 32)
  }
}

/** Inputs up to this many bytes are copied into the module byte by byte, without a view of them. */
const COPIED = 128

/**
 * keccak256 of the `length` bytes of `bytes` at `offset`, as a bigint: the EVM's KECCAK256 over
 * its memory. Through the module's functions the input is copied in without a view of it made
 * (up to {@link COPIED} bytes: a mapping's slot hashes 64) and the digest is read where the
 * module leaves it, as four 64-bit limbs: no array for the input, the digest or a copy of it.
 */
export function keccak256Word(bytes: Uint8Array, offset: number, length: number): bigint {
  const d = direct
  if (d === undefined || length > COPIED) return toBigInt(keccak256(bytes.subarray(offset, offset + length)))
  viewsOf(d)
  d.module.Hash_Init(256)
  const io = d.io
  for (let i = 0; i < length; i++) io[i] = bytes[offset + i] as number
  d.module.Hash_Update(length)
  d.module.Hash_Final(0x01)
  const view = d.view
  return (((((view.getBigUint64(0) << 64n) | view.getBigUint64(8)) << 64n) | view.getBigUint64(16)) << 64n) | view.getBigUint64(24)
}

/**
 * Without the module's functions (hash-wasm as installed, which the tests from the sources
 * load), small inputs go to the hasher from a buffer outside the heap. hash-wasm views its input
 * through `.buffer`, and V8 keeps a typed array of up to 64 bytes on its heap until something
 * asks for its buffer: then it moves the bytes to an ArrayBuffer of their own (~0.3 µs, and
 * garbage for the GC). Most of what the node hashes is that small: keys, addresses, words, short
 * trie nodes. One view per length, made once, so a call allocates nothing for its input.
 */
const SMALL = 64
const smallInput = Buffer.allocUnsafeSlow(SMALL)
const smallViews = Array.from({ length: SMALL + 1 }, (_, n) => smallInput.subarray(0, n))

/** keccak256 of `data`. Synchronous: the shared hasher is reset for each call. */
export function keccak256(data: Uint8Array): Uint8Array {
  if (direct !== undefined) {
    hashDirect(direct, data)
    const out = new Uint8Array(32)
    out.set(direct.digest)
    return out
  }
  if (wasm === undefined) return nobleKeccak(data)
  wasm.init()
  if (data.length <= SMALL) {
    smallInput.set(data)
    wasm.update(smallViews[data.length] as Buffer)
  } else {
    wasm.update(data)
  }
  return wasm.digest('binary')
}

/**
 * Hashes that are kept for long (trie node hashes, hashed trie keys) live in shared slabs: a
 * 32-byte array of its own costs ~240 bytes of heap in V8 (the typed array, its ArrayBuffer and
 * the bytes), a view into a slab ~105, and every committed block keeps a few dozen of them. A
 * slab is small, so that a few hashes that outlive the rest hold little memory.
 */
const SLAB_SIZE = 8192
let slab = new Uint8Array(SLAB_SIZE)
let used = 0

/** keccak256 of `data`, for a hash that will be kept (see above). */
export function keccak256Kept(data: Uint8Array): Uint8Array {
  if (direct === undefined) return kept(keccak256(data))
  hashDirect(direct, data)
  return kept(direct.digest)
}

/**
 * keccak256 of the bytes an unprefixed hex string of even length spells (a state key: address or
 * slot), decoded straight into the hasher's input buffer instead of into an array of their own;
 * `keep` as {@link keccak256Kept}.
 */
export function keccak256OfHex(hex: string, keep: boolean): Uint8Array {
  const n = hex.length >> 1
  if (wasm === undefined || n > SMALL || !decodeHex(hex, n)) return keep ? keccak256Kept(fromHex(hex)) : keccak256(fromHex(hex))
  if (direct !== undefined) return keep ? keccak256Kept(smallViews[n] as Buffer) : keccak256(smallViews[n] as Buffer)
  wasm.init()
  wasm.update(smallViews[n] as Buffer)
  const hash = wasm.digest('binary')
  return keep ? kept(hash) : hash
}

/** Decodes `n` bytes of even-length hex into `smallInput`; false for anything that is not hex. */
function decodeHex(hex: string, n: number): boolean {
  if (hex.length !== 2 * n) return false
  for (let i = 0; i < n; i++) {
    const hi = hex.charCodeAt(2 * i)
    const lo = hex.charCodeAt(2 * i + 1)
    const h = hi < 128 ? (NIBBLE[hi] as number) : 255
    const l = lo < 128 ? (NIBBLE[lo] as number) : 255
    if ((h | l) === 255) return false
    smallInput[i] = (h << 4) | l
  }
  return true
}

function kept(hash: Uint8Array): Uint8Array {
  if (used + 32 > SLAB_SIZE) {
    slab = new Uint8Array(SLAB_SIZE)
    used = 0
  }
  const kept = slab.subarray(used, used + 32)
  kept.set(hash)
  used += 32
  return kept
}

/** Which implementation serves now. */
export function keccakBackend(): 'wasm' | 'noble' {
  return wasm === undefined ? 'noble' : 'wasm'
}

/**
 * Code and init code are hashed again and again with the same bytes: every deployment of the
 * same contract in a test's fixture (its code hash), every CREATE2 of the same init code (the
 * library hashes it twice per CREATE2), every run of an `eth_estimateGas` search. Inputs of at
 * least {@link MEMO_MIN} bytes are looked up by content first (a byte-for-byte comparison, ~20x
 * cheaper than the hash), up to {@link MEMO_BYTES} of inputs kept, oldest dropped first.
 */
const MEMO_MIN = 512
const MEMO_BYTES = 1024 * 1024
const memo = new Map<number, Array<{ input: Buffer; hash: Uint8Array }>>()
let memoBytes = 0

/** A cheap key for bytes: their length and a hash of up to 64 bytes spread over them (equal bytes, equal key). */
export function fingerprint(data: Uint8Array): number {
  const n = data.length
  let h = (0x811c9dc5 ^ n) >>> 0
  const step = n > 64 ? Math.floor(n / 64) : 1
  for (let i = 0; i < n; i += step) h = Math.imul(h ^ (data[i] as number), 0x01000193) >>> 0
  return h
}

/** keccak256 of code-sized input, remembered by content (see above); small input is hashed as usual. */
export function keccak256Code(data: Uint8Array): Uint8Array {
  if (data.length < MEMO_MIN) return keccak256(data)
  const key = fingerprint(data)
  const bucket = memo.get(key)
  const found = bucket?.find((e) => e.input.equals(data))
  if (found !== undefined) return found.hash.slice()
  const hash = keccak256(data)
  const entry = { input: Buffer.from(data), hash: hash.slice() }
  if (bucket === undefined) memo.set(key, [entry])
  else bucket.push(entry)
  memoBytes += data.length
  for (const [oldKey, oldBucket] of memo) {
    if (memoBytes <= MEMO_BYTES) break
    memoBytes -= oldBucket.shift()!.input.length
    if (oldBucket.length === 0) memo.delete(oldKey)
  }
  return hash
}
