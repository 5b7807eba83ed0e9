/**
 * The headers of the blocks this node builds, made without @ethereumjs/block's `BlockHeader`
 * constructor. Every field of a built header is already of its final type and known to be
 * valid, and the constructor converts each one again (`toType`), wraps the coinbase in a new
 * `Address`, fills defaults and runs its format and consensus checks: ~20 µs of every block in
 * the first thousand transactions of a process (automine: one block per transaction).
 *
 * The object made here is a `BlockHeader` (its prototype, its fields in the constructor's order,
 * the same `common` and hash function), so `hash()`, `raw()`, `toJSON()`, `calcNextBaseFee()`
 * and every other method answer exactly as for one the constructor made. Where one of the
 * constructor's checks could refuse the header (mainnet's DAO extra-data blocks, London's first
 * block on a chain whose London starts later, extra data over 32 bytes, a consensus other than
 * proof of stake or ethash, forks with fields this module does not set), the constructor itself
 * makes it, so it refuses as before. So does every header where @ethereumjs/block's version is
 * not a verified one (gate.ts).
 */
import { type Block, BlockHeader, type HeaderData, createBlockHeader, paramsBlock } from '@ethereumjs/block'
import { type Common, ConsensusAlgorithm, Hardfork } from '@ethereumjs/common'
import type { TypedTransaction } from '@ethereumjs/tx'
import { type Address, KECCAK256_RLP, KECCAK256_RLP_ARRAY, SHA256_NULL } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { fastPaths } from './gate.js'

/** The fields of a built header; the ones left out take the constructor's defaults. */
export interface BuiltHeaderFields {
  parentHash: Uint8Array
  coinbase: Address
  stateRoot?: Uint8Array
  transactionsTrie?: Uint8Array
  receiptTrie?: Uint8Array
  logsBloom?: Uint8Array
  number: bigint
  gasLimit: bigint
  /** Zero when left out; a genesis may carry another (a proof-of-stake chain's genesis may, later blocks may not). */
  difficulty?: bigint
  gasUsed?: bigint
  timestamp: bigint
  extraData?: Uint8Array
  mixHash: Uint8Array
  /** Eight zero bytes when left out; as `difficulty`, another only at genesis (a geth genesis file's). */
  nonce?: Uint8Array
  baseFeePerGas?: bigint
  blobGasUsed?: bigint
  excessBlobGas?: bigint
  parentBeaconBlockRoot?: Uint8Array
  requestsHash?: Uint8Array
}

/** What a Common decides about its headers, looked up once per Common. */
interface Rules {
  /** False when the constructor must make every header (see the module comment, and the gate). */
  direct: boolean
  london: bigint | undefined
  dao: bigint | undefined
  eip1559: boolean
  eip4895: boolean
  eip4844: boolean
  eip4788: boolean
  eip7685: boolean
  keccak: (data: Uint8Array) => Uint8Array
}

const rulesOf = new WeakMap<Common, Rules>()

/** The nonce of every post-merge header, shared (never written; an array of its own per header was kept with it). */
const ZERO_NONCE = new Uint8Array(8)

/**
 * Made with `new` on a function whose prototype is BlockHeader's: every header then shares one
 * hidden class with its fields in the object, as the constructor's headers do (an object literal
 * with `__proto__`, or Object.create, gave each header a map of its own and slowed every read).
 */
const Made = function (this: Record<string, unknown>, fields: BuiltHeaderFields, common: Common, r: Rules) {
  this.cache = { hash: undefined }
  this.common = common
  this.keccakFunction = r.keccak
  this.parentHash = fields.parentHash
  this.uncleHash = KECCAK256_RLP_ARRAY
  this.coinbase = fields.coinbase
  this.stateRoot = fields.stateRoot ?? new Uint8Array(32)
  this.transactionsTrie = fields.transactionsTrie ?? KECCAK256_RLP
  this.receiptTrie = fields.receiptTrie ?? KECCAK256_RLP
  this.logsBloom = fields.logsBloom ?? new Uint8Array(256)
  this.difficulty = fields.difficulty ?? 0n
  this.number = fields.number
  this.gasLimit = fields.gasLimit
  this.gasUsed = fields.gasUsed ?? 0n
  this.timestamp = fields.timestamp
  this.extraData = fields.extraData ?? new Uint8Array(0)
  this.mixHash = fields.mixHash
  this.nonce = fields.nonce ?? ZERO_NONCE
  this.baseFeePerGas = fields.baseFeePerGas
  this.withdrawalsRoot = r.eip4895 ? KECCAK256_RLP : undefined
  this.blobGasUsed = r.eip4844 ? (fields.blobGasUsed ?? 0n) : undefined
  this.excessBlobGas = r.eip4844 ? (fields.excessBlobGas ?? 0n) : undefined
  this.parentBeaconBlockRoot = r.eip4788 ? (fields.parentBeaconBlockRoot ?? new Uint8Array(32)) : undefined
  this.requestsHash = r.eip7685 ? (fields.requestsHash ?? SHA256_NULL) : undefined
  this.blockAccessListHash = undefined
  this.slotNumber = undefined
} as unknown as new (fields: BuiltHeaderFields, common: Common, r: Rules) => BlockHeader
Made.prototype = BlockHeader.prototype

function rules(common: Common): Rules {
  let r = rulesOf.get(common)
  if (r !== undefined) return r
  const algorithm = common.consensusAlgorithm()
  const block = (hardfork: string): bigint | undefined => {
    const at = common.hardforkBlock(hardfork)
    return typeof at === 'bigint' ? at : undefined
  }
  r = {
    direct:
      fastPaths('@ethereumjs/block') &&
      (algorithm === ConsensusAlgorithm.Casper || algorithm === ConsensusAlgorithm.Ethash) &&
      !common.isActivatedEIP(7928) &&
      !common.isActivatedEIP(7843),
    london: block(Hardfork.London),
    dao: block(Hardfork.Dao),
    eip1559: common.isActivatedEIP(1559),
    eip4895: common.isActivatedEIP(4895),
    eip4844: common.isActivatedEIP(4844),
    eip4788: common.isActivatedEIP(4788),
    eip7685: common.isActivatedEIP(7685),
    keccak: common.customCrypto.keccak256 ?? keccak_256,
  }
  rulesOf.set(common, r)
  return r
}

/** True when the constructor's checks could refuse this header: it must make it then. */
function needsConstructor(r: Rules, f: BuiltHeaderFields): boolean {
  if (!r.direct) return true
  // Fields the constructor checks (sizes, fields of forks not active): the builder's are right.
  if (f.parentHash.length !== 32 || f.mixHash.length !== 32 || (f.extraData !== undefined && f.extraData.length > 32)) return true
  if (f.stateRoot !== undefined && f.stateRoot.length !== 32) return true
  if (f.gasUsed !== undefined && f.gasUsed > f.gasLimit) return true
  // Only a genesis may have a difficulty or a nonce (proof of stake's rule; the builder sets neither).
  if (f.nonce !== undefined && (f.nonce.length !== 8 || (f.number !== 0n && f.nonce.some((b) => b !== 0)))) return true
  if (f.difficulty !== undefined && f.difficulty !== 0n && f.number !== 0n) return true
  if (r.eip1559 !== (f.baseFeePerGas !== undefined)) return true
  if (!r.eip4844 && (f.blobGasUsed !== undefined || f.excessBlobGas !== undefined)) return true
  if (!r.eip4788 && f.parentBeaconBlockRoot !== undefined) return true
  if (!r.eip7685 && f.requestsHash !== undefined) return true
  // The first London block of a chain whose London starts later must carry the initial base fee.
  if (r.london !== undefined && r.london !== 0n && f.number === r.london) return true
  // Mainnet's ten blocks after the DAO fork must carry its extra data.
  if (r.dao !== undefined && f.number >= r.dao && f.number <= r.dao + 9n) return true
  return false
}

/**
 * A header of a block this node builds, unfrozen (the builder writes the execution's outcome into
 * it, then freezes it). The same object `createBlockHeader(fields, { common, setHardfork: false,
 * freeze: false })` makes, without its conversions and checks.
 */
export function builtHeader(fields: BuiltHeaderFields, common: Common): BlockHeader {
  const r = rules(common)
  if (needsConstructor(r, fields)) return createBlockHeader(fields as HeaderData, { common, setHardfork: false, freeze: false })
  const own = common.copy()
  // The constructor merges the block parameters into its Common (a node's shared Common once).
  own.updateParams(paramsBlock)
  return new Made(fields, own, r)
}

/**
 * Gives a frozen header the hash of its RLP, which the caller computed anyway (for the block's
 * RLP): `hash()` would encode the header again. Where @ethereumjs/block's version is not a
 * verified one, `hash()` computes it at its first call instead (the same value).
 */
export function setHeaderHash(header: BlockHeader, hash: Uint8Array): void {
  if (fastPaths('@ethereumjs/block')) (header as unknown as { cache: { hash?: Uint8Array } }).cache.hash = hash
}

/** The own fields of a `BlockHeader` of the verified versions, in its constructor's order (see `Made`). */
const HEADER_FIELDS = [
  'cache', 'common', 'keccakFunction', 'parentHash', 'uncleHash', 'coinbase', 'stateRoot', 'transactionsTrie', 'receiptTrie',
  'logsBloom', 'difficulty', 'number', 'gasLimit', 'gasUsed', 'timestamp', 'extraData', 'mixHash', 'nonce', 'baseFeePerGas',
  'withdrawalsRoot', 'blobGasUsed', 'excessBlobGas', 'parentBeaconBlockRoot', 'requestsHash', 'blockAccessListHash', 'slotNumber',
] as const

const Copied = function (this: Record<string, unknown>, from: Record<string, unknown>, baseFee: bigint | undefined) {
  for (const field of HEADER_FIELDS) this[field] = from[field]
  this.cache = { hash: undefined }
  this.baseFeePerGas = baseFee
} as unknown as new (from: BlockHeader, baseFee: bigint | undefined) => BlockHeader
Copied.prototype = BlockHeader.prototype

/**
 * A copy of `header` with another base fee, unfrozen, made without the constructor: the context
 * of a call without a price (base fee 0) on a block not yet called on. Going through
 * `toJSON()` and `createBlock` turned every field into hex and back and ran the checks again
 * (~60 µs of such a call). Undefined where @ethereumjs/block's version is not a verified one, or
 * the header carries fields this copy does not know: the caller takes the library's way then.
 */
export function withBaseFee(header: BlockHeader, baseFee: bigint | undefined): BlockHeader | undefined {
  if (!fastPaths('@ethereumjs/block')) return undefined
  const own = Object.keys(header)
  if (own.length !== HEADER_FIELDS.length || !HEADER_FIELDS.every((f, i) => own[i] === f)) return undefined
  return new Copied(header, baseFee)
}

/** Makes BLOBBASEFEE (and blob fee checks) of an unfrozen header read `fee`: the header has no such field to set. */
export function setBlobGasPrice(header: BlockHeader, fee: bigint): void {
  ;(header as unknown as { getBlobGasPrice: () => bigint }).getBlobGasPrice = () => fee
}

/**
 * Gives an unfrozen block these transactions themselves (`createBlock` makes copies, which lose
 * what the caller's know: their sender and unsigned hash).
 */
export function setBlockTransactions(block: Block, transactions: TypedTransaction[]): void {
  ;(block as unknown as { transactions: TypedTransaction[] }).transactions = transactions
}

/**
 * Makes a built block (not yet frozen) answer `serialize()` with `rlp`, the block's RLP the builder
 * wrote with its header's (`encodeBuiltBlock`): typed transactions as byte strings, legacy ones as
 * lists, as `Block.serialize` makes it. Where @ethereumjs/block's version is not a verified one,
 * the library encodes it.
 */
export function keepBlockRlp(block: Block, rlp: Uint8Array): void {
  if (!fastPaths('@ethereumjs/block')) return
  Object.defineProperty(block, 'serialize', { value: () => rlp })
}
