/**
 * CometBFT's precommit sign bytes, written here by hand from CometBFT v0.38's
 * `proto/tendermint/types/canonical.proto` and `types/vote.go` (VoteSignBytes: the CanonicalVote,
 * protobuf-encoded, prefixed with its length as a varint), so the devnet tests check commit
 * signatures without the code under test. docs/devnet.md states the same bytes.
 */
import { createPublicKey, verify } from 'node:crypto'

function varint(n: bigint): number[] {
  const out: number[] = []
  while (n >= 0x80n) {
    out.push(Number(n & 0x7fn) | 0x80)
    n >>= 7n
  }
  out.push(Number(n))
  return out
}
const tag = (field: number, wire: number) => varint(BigInt((field << 3) | wire))
const bytesField = (field: number, b: Uint8Array | number[]) => (b.length === 0 ? [] : [...tag(field, 2), ...varint(BigInt(b.length)), ...b])
const varintField = (field: number, n: bigint) => (n === 0n ? [] : [...tag(field, 0), ...varint(n)])
function sfixed64Field(field: number, n: bigint): number[] {
  if (n === 0n) return []
  const b = Buffer.alloc(8)
  b.writeBigInt64LE(n)
  return [...tag(field, 1), ...b]
}

/** What a precommit for a block signs. */
export interface Precommit {
  chainId: string
  height: bigint
  round: bigint
  blockHash: Uint8Array
  partsTotal: bigint
  partsHash: Uint8Array
  seconds: bigint
  nanos: bigint
}

/** The bytes a validator's ed25519 key signs for `v`. */
export function precommitSignBytes(v: Precommit): Uint8Array {
  const partSetHeader = [...varintField(1, v.partsTotal), ...bytesField(2, v.partsHash)]
  const blockId = [...bytesField(1, v.blockHash), ...tag(2, 2), ...varint(BigInt(partSetHeader.length)), ...partSetHeader]
  const timestamp = [...varintField(1, v.seconds), ...varintField(2, v.nanos)]
  const vote = [
    ...varintField(1, 2n), // SIGNED_MSG_TYPE_PRECOMMIT
    ...sfixed64Field(2, v.height),
    ...sfixed64Field(3, v.round),
    ...tag(4, 2), ...varint(BigInt(blockId.length)), ...blockId,
    // Non-nullable in gogoproto: written even when empty.
    ...tag(5, 2), ...varint(BigInt(timestamp.length)), ...timestamp,
    ...bytesField(6, [...Buffer.from(v.chainId, 'utf8')]),
  ]
  return new Uint8Array([...varint(BigInt(vote.length)), ...vote])
}

/** Whether `signature` is `publicKey`'s (32-byte ed25519) over `message`. */
export function ed25519Verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  const key = createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]), format: 'der', type: 'spki' })
  return verify(null, message, key, signature)
}
