/**
 * Built blocks' headers are made without @ethereumjs/block's constructor (src/execution/engine/header.ts).
 * They must be the object the constructor makes from the same fields (same fields in the same
 * order, same hash, RLP and JSON) under every hardfork the node runs, and where the constructor
 * refuses a header (mainnet's DAO extra-data blocks, the first London block of a chain whose
 * London starts later: a Common of mainnet's schedule, as a fork reads mainnet's blocks under)
 * the refusal must stay. The node's own chain has neither rule.
 */
import { BlockHeader, createBlockHeader } from '@ethereumjs/block'
import { Mainnet } from '@ethereumjs/common'
import { Address, bytesToHex } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { SUPPORTED_HARDFORKS, createChainCommon } from '../../chain/common.js'
import { builtHeader, type BuiltHeaderFields } from './header.js'

function fieldsFor(hardfork: string, extra: Partial<BuiltHeaderFields> = {}): BuiltHeaderFields {
  const common = createChainCommon(31337n, hardfork)
  return {
    parentHash: new Uint8Array(32).fill(1),
    coinbase: new Address(new Uint8Array(20).fill(2)),
    number: 5n,
    gasLimit: 30_000_000n,
    timestamp: 1_700_000_000n,
    mixHash: new Uint8Array(32).fill(3),
    extraData: Uint8Array.of(0xab, 0xcd),
    baseFeePerGas: 875_000_000n,
    excessBlobGas: common.isActivatedEIP(4844) ? 131072n : undefined,
    blobGasUsed: common.isActivatedEIP(4844) ? 0n : undefined,
    parentBeaconBlockRoot: common.isActivatedEIP(4788) ? new Uint8Array(32).fill(4) : undefined,
    ...extra,
  }
}

function snapshot(header: BlockHeader): unknown {
  return { keys: Object.keys(header), json: header.toJSON(), raw: header.raw().map((b) => bytesToHex(b)), hash: bytesToHex(header.hash()) }
}

describe('builtHeader', () => {
  it.each(SUPPORTED_HARDFORKS)('is the constructor\'s header under %s', (hardfork) => {
    const common = createChainCommon(31337n, hardfork)
    const executed = {
      stateRoot: new Uint8Array(32).fill(5),
      transactionsTrie: new Uint8Array(32).fill(6),
      receiptTrie: new Uint8Array(32).fill(7),
      logsBloom: new Uint8Array(256).fill(8),
      gasUsed: 21_000n,
      requestsHash: common.isActivatedEIP(7685) ? new Uint8Array(32).fill(9) : undefined,
    }
    for (const fields of [fieldsFor(hardfork), fieldsFor(hardfork, executed), fieldsFor(hardfork, { extraData: undefined })]) {
      const built = builtHeader(fields, common)
      const made = createBlockHeader(fields, { common, setHardfork: false, freeze: false })
      expect(built).toBeInstanceOf(BlockHeader)
      expect(Object.isFrozen(built)).toBe(false)
      expect(snapshot(built)).toEqual(snapshot(made))
      expect(built.common).toBe(made.common)
      expect(built.calcNextBaseFee()).toBe(made.calcNextBaseFee())
      Object.freeze(built)
      Object.freeze(made)
      expect(bytesToHex(built.hash())).toBe(bytesToHex(made.hash()))
    }
  })

  it('leaves the checks of mainnet\'s DAO blocks and London\'s first block to the constructor', () => {
    const common = createChainCommon(1n, 'prague', Mainnet)
    const dao = common.hardforkBlock('dao') as bigint
    const london = common.hardforkBlock('london') as bigint
    for (const number of [dao, dao + 9n, london]) {
      const fields = fieldsFor('prague', { number })
      const refusal = (() => {
        try {
          createBlockHeader(fields, { common, setHardfork: false, freeze: false })
          return undefined
        } catch (error) {
          return (error as Error).message
        }
      })()
      expect(refusal).toBeDefined()
      expect(() => builtHeader(fields, common)).toThrow(refusal as string)
    }
    // Past the DAO's ten blocks the header is made directly, as the constructor accepts it.
    const after = fieldsFor('prague', { number: dao + 10n })
    expect(snapshot(builtHeader(after, common))).toEqual(snapshot(createBlockHeader(after, { common, setHardfork: false, freeze: false })))
  })

  it('makes the node\'s own headers at mainnet\'s DAO and London heights as the constructor does (no rule there)', () => {
    const common = createChainCommon(31337n, 'prague')
    for (const number of [1_920_000n, 1_920_009n, 12_965_000n]) {
      const fields = fieldsFor('prague', { number })
      expect(snapshot(builtHeader(fields, common))).toEqual(snapshot(createBlockHeader(fields, { common, setHardfork: false, freeze: false })))
    }
  })
})
