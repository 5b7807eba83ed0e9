import { describe, expect, test, vi } from 'vitest'

type Ed25519Module = typeof import('./ed25519.js')

async function load(backend: 'sodium' | 'node'): Promise<Ed25519Module> {
  vi.resetModules()
  if (backend === 'node') process.env.FINALITY_ED25519 = 'node'
  else delete process.env.FINALITY_ED25519
  const mod = await import('./ed25519.js')
  delete process.env.FINALITY_ED25519
  return mod
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')
const bytes = (h: string) => new Uint8Array(Buffer.from(h, 'hex'))

// RFC 8032, section 7.1, TEST 1 and TEST 2.
const VECTORS = [
  {
    seed: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    publicKey: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    message: '',
    signature:
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  },
  {
    seed: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
    publicKey: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
    message: '72',
    signature:
      '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
  },
]

describe('ed25519 backends', () => {
  test('default: libsodium (sodium-native) loads on this platform', async () => {
    expect((await load('sodium')).ed25519Backend()).toBe('sodium')
  })

  test('behavior: FINALITY_ED25519=node forces node:crypto', async () => {
    expect((await load('node')).ed25519Backend()).toBe('node')
  })

  for (const backend of ['sodium', 'node'] as const) {
    test(`behavior: ${backend} reproduces the RFC 8032 vectors`, async () => {
      const mod = await load(backend)
      for (const v of VECTORS) {
        const key = mod.ed25519Key(bytes(v.seed))
        expect(hex(key.publicKey)).toBe(v.publicKey)
        expect(hex(key.sign(bytes(v.message)))).toBe(v.signature)
        expect(mod.ed25519Verify(key.publicKey, bytes(v.message), bytes(v.signature))).toBe(true)
      }
    })
  }

  test('behavior: both paths sign identically and verify each other', async () => {
    const sodium = await load('sodium')
    const node = await load('node')
    for (let i = 0; i < 8; i++) {
      const seed = new Uint8Array(32).fill(i + 1)
      const message = new TextEncoder().encode(`vote ${i}`)
      const a = sodium.ed25519Key(seed)
      const b = node.ed25519Key(seed)
      expect(hex(a.publicKey)).toBe(hex(b.publicKey))
      const signature = a.sign(message)
      expect(hex(signature)).toBe(hex(b.sign(message)))
      expect(node.ed25519Verify(a.publicKey, message, signature)).toBe(true)
      expect(sodium.ed25519Verify(b.publicKey, message, signature)).toBe(true)
    }
  })

  test('error: a changed message, a changed signature or a bad length does not verify', async () => {
    for (const mod of [await load('sodium'), await load('node')]) {
      const key = mod.ed25519Key(new Uint8Array(32).fill(9))
      const message = new TextEncoder().encode('precommit')
      const signature = key.sign(message)
      expect(mod.ed25519Verify(key.publicKey, new TextEncoder().encode('prevote'), signature)).toBe(false)
      const flipped = signature.slice()
      flipped[0] = (flipped[0] as number) ^ 1
      expect(mod.ed25519Verify(key.publicKey, message, flipped)).toBe(false)
      expect(mod.ed25519Verify(key.publicKey, message, signature.subarray(0, 63))).toBe(false)
      expect(() => mod.ed25519Key(new Uint8Array(31))).toThrow('ed25519 seed must be 32 bytes')
    }
  })
})
