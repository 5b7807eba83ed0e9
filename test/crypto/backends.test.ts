/**
 * The crypto backends a node runs on: a node on the noble path sends and recovers senders as on
 * the native one, and cryptoBackends() names what loaded (the paths themselves:
 * src/crypto/secp256k1.test.ts).
 */
import { describe, expect, test, vi } from 'vitest'

describe('secp256k1 backends under a node', () => {
  test('behavior: a node on the noble path executes and recovers senders like the native one', async () => {
    vi.resetModules()
    process.env.FINALITY_SECP256K1 = 'noble'
    const js = await import('../../src/crypto/secp256k1.js')
    delete process.env.FINALITY_SECP256K1
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
