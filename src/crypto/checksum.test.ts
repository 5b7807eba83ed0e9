/**
 * EIP-55 checksums (src/crypto/checksum.ts): the same as @ethereumjs/util's toChecksumAddress for
 * EIP-55's own examples and many addresses, whatever the case in; what is not an address refused.
 */
import { toChecksumAddress } from '@ethereumjs/util'
import { describe, expect, test } from 'vitest'
import { checksumAddress } from './checksum.js'
import { initKeccak } from './keccak.js'

describe('checksumAddress', () => {
  test("behavior: EIP-55's examples come out as the EIP writes them", async () => {
    await initKeccak()
    for (const address of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      expect(checksumAddress(address.toLowerCase())).toBe(address)
      expect(checksumAddress(address.toUpperCase().replace('0X', '0x'))).toBe(address)
    }
  })

  test('behavior: agrees with @ethereumjs/util on 2,000 addresses', async () => {
    await initKeccak()
    for (let i = 0; i < 2000; i++) {
      const address = `0x${Buffer.from(Array.from({ length: 20 }, (_, j) => (i * 131 + j * 17 + ((i * j) >> 3)) & 0xff)).toString('hex')}`
      expect(checksumAddress(address)).toBe(toChecksumAddress(address))
    }
  })

  test('behavior: refuses what is not a 0x-prefixed 20-byte hex address', () => {
    for (const bad of ['', '0x', '5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaedd', '0xgaaeb6053f3e94c9b9a09f33669435e7ef1beaed']) {
      expect(() => checksumAddress(bad)).toThrow(`not an address: ${bad}`)
    }
  })
})
