import { describe, expect, test, vi } from 'vitest'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { secp256k1 as noble } from '@noble/curves/secp256k1.js'

type CryptoModule = typeof import('../../src/crypto/secp256k1.js')

async function load(backend: 'native' | 'noble'): Promise<CryptoModule> {
  vi.resetModules()
  if (backend === 'noble') process.env.FINALITY_SECP256K1 = 'noble'
  else delete process.env.FINALITY_SECP256K1
  const mod = await import('../../src/crypto/secp256k1.js')
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

  test('behavior: a node on the noble path executes and recovers senders like the native one', async () => {
    const js = await load('noble')
    expect(js.secp256k1Backend).toBe('noble')
    const { createNode } = await import('../../src/index.js')
    const node = await createNode()
    const [alice, bob] = node.accounts
    const hash = await node.request({
      method: 'eth_sendTransaction',
      params: [{ from: alice!.address, to: bob!.address, value: '0x1' }],
    })
    const tx = (await node.request({ method: 'eth_getTransactionByHash', params: [hash] })) as { from: string }
    expect(tx.from).toBe(alice!.address.toLowerCase())
    await node.close()
  })
})

describe('cryptoBackends() (public API)', () => {
  test('behavior: names the native bindings and the WebAssembly keccak once a node has started, and the fallbacks when forced', async () => {
    vi.resetModules()
    const { createNode, cryptoBackends } = await import('../../src/index.js')
    const node = await createNode()
    try {
      expect(cryptoBackends()).toEqual({ secp256k1: 'native', ed25519: 'sodium', keccak: 'wasm' })
    } finally {
      await node.close()
    }
    vi.resetModules()
    process.env.FINALITY_SECP256K1 = 'noble'
    process.env.FINALITY_ED25519 = 'node'
    try {
      const forced = await import('../../src/crypto/backends.js')
      expect(forced.cryptoBackends()).toMatchObject({ secp256k1: 'noble', ed25519: 'node' })
    } finally {
      delete process.env.FINALITY_SECP256K1
      delete process.env.FINALITY_ED25519
    }
  })
})
