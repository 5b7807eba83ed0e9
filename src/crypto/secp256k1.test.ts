/**
 * The two secp256k1 paths (secp256k1.ts): the native binding and noble sign alike (RFC 6979) and
 * recover the same keys, EIP-155 v values included. A node on either: test/crypto/backends.test.ts.
 */
import { describe, expect, test, vi } from 'vitest'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { secp256k1 as noble } from '@noble/curves/secp256k1.js'

type CryptoModule = typeof import('./secp256k1.js')

async function load(backend: 'native' | 'noble'): Promise<CryptoModule> {
  vi.resetModules()
  if (backend === 'noble') process.env.FINALITY_SECP256K1 = 'noble'
  else delete process.env.FINALITY_SECP256K1
  const mod = await import('./secp256k1.js')
  delete process.env.FINALITY_SECP256K1
  return mod
}

const keys = Array.from({ length: 8 }, (_, i) => keccak_256(new TextEncoder().encode(`key ${i}`)))
const hashes = Array.from({ length: 8 }, (_, i) => keccak_256(new TextEncoder().encode(`message ${i}`)))

describe('secp256k1 backends', () => {
  test('default: the native binding loads on this platform', async () => {
    const native = await load('native')
    expect(native.secp256k1Backend).toBe('native')
  })

  test('behavior: FINALITY_SECP256K1=noble forces the pure-JS path', async () => {
    const js = await load('noble')
    expect(js.secp256k1Backend).toBe('noble')
  })

  test('behavior: both paths sign identically (RFC 6979) and recover the same key', async () => {
    const native = await load('native')
    const js = await load('noble')
    for (const [i, key] of keys.entries()) {
      const hash = hashes[i] as Uint8Array
      const a = native.ecsign(hash, key)
      const b = js.ecsign(hash, key)
      expect(Buffer.from(a).toString('hex')).toBe(Buffer.from(b).toString('hex'))
      const expected = noble.getPublicKey(key, false).subarray(1)
      const v = BigInt(a[0] as number) + 27n
      for (const mod of [native, js]) {
        const recovered = mod.ecrecover(hash, v, a.subarray(1, 33), a.subarray(33, 65))
        expect(Buffer.from(recovered).toString('hex')).toBe(Buffer.from(expected).toString('hex'))
        expect(Buffer.from(mod.publicKeyOf(key)).toString('hex')).toBe(Buffer.from(expected).toString('hex'))
      }
    }
  })

  test('behavior: EIP-155 v values recover with the chain id', async () => {
    const native = await load('native')
    const js = await load('noble')
    const hash = hashes[0] as Uint8Array
    const sig = native.ecsign(hash, keys[0] as Uint8Array)
    const v = 31337n * 2n + 35n + BigInt(sig[0] as number)
    const a = native.ecrecover(hash, v, sig.subarray(1, 33), sig.subarray(33), 31337n)
    const b = js.ecrecover(hash, v, sig.subarray(1, 33), sig.subarray(33), 31337n)
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true)
  })

  test('error: an invalid recovery id is refused by both paths', async () => {
    const native = await load('native')
    const js = await load('noble')
    const hash = hashes[0] as Uint8Array
    const sig = native.ecsign(hash, keys[0] as Uint8Array)
    for (const mod of [native, js]) {
      expect(() => mod.ecrecover(hash, 29n, sig.subarray(1, 33), sig.subarray(33))).toThrow()
    }
  })
})
