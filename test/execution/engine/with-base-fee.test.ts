/**
 * The context block of a call without a price (base fee 0) is a copy of the block's header made
 * without the constructor (src/execution/engine/header.ts `withBaseFee`). It must be the header
 * the library's way makes (toJSON, then createBlock, then the base fee set): the same fields, hash,
 * JSON and blob gas price, under every hardfork the node runs; and headers it does not know (an
 * own field more) are left to the library.
 */
import { createBlock } from '@ethereumjs/block'
import { bytesToHex } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { SUPPORTED_HARDFORKS, createChainCommon } from '../../../src/chain/common.js'
import { withBaseFee } from '../../../src/execution/engine/header.js'

function blockOf(hardfork: string) {
  const common = createChainCommon(31337n, hardfork)
  const london = common.isActivatedEIP(1559)
  const cancun = common.isActivatedEIP(4844)
  return createBlock(
    {
      header: {
        number: 12n,
        timestamp: 1_700_000_000n,
        gasLimit: 30_000_000n,
        gasUsed: 21_000n,
        extraData: Uint8Array.of(1, 2, 3),
        mixHash: new Uint8Array(32).fill(7),
        baseFeePerGas: london ? 875_000_000n : undefined,
        excessBlobGas: cancun ? 393_216n : undefined,
        blobGasUsed: cancun ? 131_072n : undefined,
        parentBeaconBlockRoot: common.isActivatedEIP(4788) ? new Uint8Array(32).fill(9) : undefined,
      },
    },
    { common, setHardfork: false },
  )
}

describe('withBaseFee', () => {
  for (const hardfork of SUPPORTED_HARDFORKS) {
    it(`copies a ${hardfork} header with base fee 0 as the library's way does`, () => {
      const block = blockOf(hardfork)
      const fee = block.header.baseFeePerGas === undefined ? undefined : 0n
      const copy = withBaseFee(block.header, fee)
      expect(copy).toBeDefined()
      const ref = createBlock({ header: block.header.toJSON() as never }, { common: block.common, setHardfork: false, skipConsensusFormatValidation: true, freeze: false })
      if (fee !== undefined) (ref.header as { baseFeePerGas: bigint }).baseFeePerGas = fee
      expect(Object.keys(copy!)).toEqual(Object.keys(ref.header))
      expect(copy!.toJSON()).toEqual(ref.header.toJSON())
      expect(bytesToHex(copy!.hash())).toBe(bytesToHex(ref.header.hash()))
      expect(bytesToHex(copy!.hash())).not.toBe(fee === undefined ? '' : bytesToHex(block.header.hash()))
      if (block.common.isActivatedEIP(4844)) expect(copy!.getBlobGasPrice()).toBe(ref.header.getBlobGasPrice())
      // The original is untouched (it is frozen; the copy is not).
      expect(block.header.baseFeePerGas).toBe(fee === undefined ? undefined : 875_000_000n)
      expect(Object.isFrozen(copy)).toBe(false)
    })
  }

  it('leaves a header with an own field more to the library', () => {
    const block = blockOf('prague')
    const header = Object.assign(Object.create(Object.getPrototypeOf(block.header)), block.header, { extra: 1 })
    expect(withBaseFee(header, 0n)).toBeUndefined()
  })
})
