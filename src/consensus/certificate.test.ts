/**
 * The stored form of commit certificates: the project's own RLP writes the bytes the generic
 * encoder (@ethereumjs/rlp) wrote for the same list, so stores written before read the same.
 */
import { RLP } from '@ethereumjs/rlp'
import { describe, expect, it } from 'vitest'
import { decodeCertificate, encodeCertificate } from './certificate.js'
import type { CommitCertificate } from './votes.js'
import { fromHex } from '../hex.js'

const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill)

const cases: CommitCertificate[] = [
  { height: 0n, round: 0, blockHash: bytes(32, 0xab), proposer: `0x${'11'.repeat(20)}`, precommits: [] },
  { height: 1n, round: 0, blockHash: bytes(32, 0x01), proposer: `0x${'22'.repeat(20)}`, precommits: [{ validator: `0x${'22'.repeat(20)}`, signature: bytes(64, 0x7f) }] },
  {
    height: 0x7fn,
    round: 0x80,
    blockHash: bytes(32, 0xee),
    proposer: `0x${'33'.repeat(20)}`,
    precommits: [1, 2, 3, 4, 5].map((i) => ({ validator: `0x${String(i).padStart(2, '0').repeat(20)}` as const, signature: bytes(64, i) })),
  },
  { height: 20_000_001n, round: 65_535, blockHash: bytes(32, 0), proposer: `0x${'44'.repeat(20)}`, precommits: [{ validator: `0x${'44'.repeat(20)}`, signature: bytes(64, 0) }] },
]

describe('commit certificate storage', () => {
  it('writes the bytes @ethereumjs/rlp wrote, and reads them back', () => {
    for (const c of cases) {
      const legacy = RLP.encode([c.height, c.round, c.blockHash, fromHex(c.proposer), c.precommits.map((p) => [fromHex(p.validator), p.signature])])
      const encoded = encodeCertificate(c)
      expect(Buffer.from(encoded).toString('hex')).toBe(Buffer.from(legacy).toString('hex'))
      expect(decodeCertificate(legacy)).toEqual(c)
    }
  })

  it('refuses bytes of another shape', () => {
    expect(() => decodeCertificate(RLP.encode([1n, 2n]))).toThrow(/not a commit certificate/)
    expect(() => decodeCertificate(RLP.encode([1n, 0, bytes(32, 1), bytes(20, 2), [[bytes(20, 2)]]]))).toThrow(/precommit is \[validator, signature\]/)
    expect(() => decodeCertificate(encodeCertificate(cases[1]!).subarray(0, 40))).toThrow(/truncated/)
  })
})
