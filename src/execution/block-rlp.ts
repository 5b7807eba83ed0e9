/**
 * A built block's RLP and its seal: the header's RLP written straight from its fields, the
 * block's with it, and `sealBlock`, which every block the builder makes and the genesis
 * (chain/genesis.ts) go through, so the chain's head has one hidden class whichever it is.
 */
import { Block, type BlockHeader } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import { keccak256 } from '../crypto/keccak.js'
import { mapped } from '../arrays.js'
import { encodeStrings, headerLength, stringLength, uintLength, writeHeader, writeString, writeUint } from '../rlp.js'
import { keepBlockRlp, setHeaderHash } from './engine/header.js'

/**
 * A built header's RLP, written into one buffer from the fields' sizes, as `BlockHeader#raw`
 * lists them for the forks this node runs (London to Osaka: base fee, withdrawals root, blob gas,
 * beacon root, requests hash) and `serialize` encodes them. `raw` turns each number into bytes
 * through a hex string and a regular expression, and a list of the fields' own arrays would be
 * made for one encoding. Forks that add other fields (EIP-7928, EIP-7843) go through `raw` itself.
 */
export function encodeHeader(header: BlockHeader): Uint8Array {
  const payload = headerPayload(header)
  if (payload < 0) return encodeStrings(header.raw())
  const out = new Uint8Array(headerLength(payload) + payload)
  writeHeaderRlp(out, 0, header, payload)
  return out
}

/** The length of a header's RLP list payload ({@link encodeHeader}), or -1 where `raw` must encode it. */
function headerPayload(header: BlockHeader): number {
  const common = header.common
  if (common.isActivatedEIP(7928) || common.isActivatedEIP(7843)) return -1
  let payload =
    stringLength(header.parentHash) +
    stringLength(header.uncleHash) +
    stringLength(header.coinbase.bytes) +
    stringLength(header.stateRoot) +
    stringLength(header.transactionsTrie) +
    stringLength(header.receiptTrie) +
    stringLength(header.logsBloom) +
    uintLength(header.difficulty) +
    uintLength(header.number) +
    uintLength(header.gasLimit) +
    uintLength(header.gasUsed) +
    uintLength(header.timestamp) +
    stringLength(header.extraData) +
    stringLength(header.mixHash) +
    stringLength(header.nonce)
  if (common.isActivatedEIP(1559)) payload += uintLength(header.baseFeePerGas as bigint)
  if (common.isActivatedEIP(4895)) payload += stringLength(header.withdrawalsRoot as Uint8Array)
  if (common.isActivatedEIP(4844)) payload += uintLength(header.blobGasUsed as bigint) + uintLength(header.excessBlobGas as bigint)
  if (common.isActivatedEIP(4788)) payload += stringLength(header.parentBeaconBlockRoot as Uint8Array)
  if (common.isActivatedEIP(7685)) payload += stringLength(header.requestsHash as Uint8Array)
  return payload
}

/** Writes a header's RLP (its payload length from {@link headerPayload}) at `pos`; returns the next position. */
function writeHeaderRlp(out: Uint8Array, pos: number, header: BlockHeader, payload: number): number {
  const common = header.common
  pos = writeHeader(out, pos, 0xc0, payload)
  pos = writeString(out, pos, header.parentHash)
  pos = writeString(out, pos, header.uncleHash)
  pos = writeString(out, pos, header.coinbase.bytes)
  pos = writeString(out, pos, header.stateRoot)
  pos = writeString(out, pos, header.transactionsTrie)
  pos = writeString(out, pos, header.receiptTrie)
  pos = writeString(out, pos, header.logsBloom)
  pos = writeUint(out, pos, header.difficulty)
  pos = writeUint(out, pos, header.number)
  pos = writeUint(out, pos, header.gasLimit)
  pos = writeUint(out, pos, header.gasUsed)
  pos = writeUint(out, pos, header.timestamp)
  pos = writeString(out, pos, header.extraData)
  pos = writeString(out, pos, header.mixHash)
  pos = writeString(out, pos, header.nonce)
  if (common.isActivatedEIP(1559)) pos = writeUint(out, pos, header.baseFeePerGas as bigint)
  if (common.isActivatedEIP(4895)) pos = writeString(out, pos, header.withdrawalsRoot as Uint8Array)
  if (common.isActivatedEIP(4844)) {
    pos = writeUint(out, pos, header.blobGasUsed as bigint)
    pos = writeUint(out, pos, header.excessBlobGas as bigint)
  }
  if (common.isActivatedEIP(4788)) pos = writeString(out, pos, header.parentBeaconBlockRoot as Uint8Array)
  if (common.isActivatedEIP(7685)) pos = writeString(out, pos, header.requestsHash as Uint8Array)
  return pos
}

/**
 * A built block's RLP as `Block#serialize` makes it (header, transactions: typed ones as byte
 * strings, legacy ones as lists, no uncles, and no withdrawals where EIP-4895 is active), with its
 * header's RLP, for the hash, a view into it: one buffer for both, where the header's used to be
 * a buffer of its own copied into the block's at commit.
 */
export function encodeBuiltBlock(header: BlockHeader, txs: readonly TypedTransaction[], withdrawals: boolean): { rlp: Uint8Array; headerRlp: Uint8Array } {
  const payload = headerPayload(header)
  const raw = payload < 0 ? encodeStrings(header.raw()) : undefined
  const headerSize = raw !== undefined ? raw.length : headerLength(payload) + payload
  const encodings = mapped(txs, (tx) => tx.serialize())
  let body = 0
  for (let i = 0; i < txs.length; i++) {
    const e = encodings[i] as Uint8Array
    body += (txs[i] as TypedTransaction).type === TransactionType.Legacy ? e.length : stringLength(e)
  }
  const all = headerSize + headerLength(body) + body + (withdrawals ? 2 : 1)
  const rlp = new Uint8Array(headerLength(all) + all)
  const start = writeHeader(rlp, 0, 0xc0, all)
  let pos = start
  if (raw !== undefined) {
    rlp.set(raw, pos)
    pos += raw.length
  } else pos = writeHeaderRlp(rlp, pos, header, payload)
  pos = writeHeader(rlp, pos, 0xc0, body)
  for (let i = 0; i < txs.length; i++) {
    const e = encodings[i] as Uint8Array
    if ((txs[i] as TypedTransaction).type === TransactionType.Legacy) {
      rlp.set(e, pos)
      pos += e.length
    } else pos = writeString(rlp, pos, e)
  }
  rlp[pos++] = 0xc0
  if (withdrawals) rlp[pos] = 0xc0
  return { rlp, headerRlp: rlp.subarray(start, start + headerSize) }
}

/**
 * The block of a built header (unfrozen; frozen here) and `transactions`, frozen: its RLP written
 * once with the header's inside it, the header's hash from that, and the block answering
 * `serialize()` with it. Every block the builder makes and the genesis (chain/genesis.ts) are made
 * here, so the chain's head has one hidden class whichever it is: the producer's and the builder's
 * reads of the head block and its header, compiled on the genesis, are not thrown away at the
 * first built block.
 */
export function sealBlock(header: BlockHeader, transactions: readonly TypedTransaction[], common: Common): Block {
  Object.freeze(header)
  const withdrawals = common.isActivatedEIP(4895)
  const { rlp, headerRlp } = encodeBuiltBlock(header, transactions, withdrawals)
  setHeaderHash(header, keccak256(headerRlp))
  const block = new Block(header, transactions as TypedTransaction[], [], withdrawals ? [] : undefined, { common, freeze: false })
  keepBlockRlp(block, rlp)
  Object.freeze(block)
  return block
}
