import { createBlock } from '@ethereumjs/block'
import { describe, expect, test } from 'vitest'
import { createChainCommon, SUPPORTED_HARDFORKS } from '../../src/chain/common.js'
import { genesisBlock } from '../../src/chain/genesis.js'
import { gethGenesisBlock, parseGethGenesis } from '../../src/chain/geth-genesis.js'
import { fromHex } from '../../src/hex.js'
import { createNode } from '../../src/index.js'

const hex = (b: Uint8Array): string => `0x${Buffer.from(b).toString('hex')}`

/** The genesis @ethereumjs/block's constructor makes of the same fields: the hash the chain had before the built header. */
function libraryGenesis(header: Parameters<typeof genesisBlock>[0], stateRoot: Uint8Array, common: Parameters<typeof genesisBlock>[2]) {
  return createBlock({ header: { ...header, number: 0n, stateRoot }, withdrawals: common.isActivatedEIP(4895) ? [] : undefined }, { common, setHardfork: false })
}

describe('genesis block as the builder makes blocks', () => {
  for (const hardfork of SUPPORTED_HARDFORKS) {
    for (const hardhatCompat of [false, true]) {
      test(`behavior: ${hardfork}${hardhatCompat ? ', hardhatCompat' : ''}: the node's genesis has the library's hash, fields and RLP`, async () => {
        const node = await createNode({ hardfork, hardhatCompat, chainId: 31337 })
        const json = (await node.request({ method: 'eth_getBlockByNumber', params: ['0x0', false] })) as unknown as Record<string, string | undefined>
        const common = createChainCommon(31337n, hardfork)
        const header = {
          gasLimit: BigInt(json.gasLimit as string),
          timestamp: BigInt(json.timestamp as string),
          baseFeePerGas: json.baseFeePerGas === undefined ? undefined : BigInt(json.baseFeePerGas),
        }
        const stateRoot = fromHex(json.stateRoot as string)
        const ours = genesisBlock(header, stateRoot, common)
        const theirs = libraryGenesis(header, stateRoot, common)
        expect(json.hash).toBe(hex(theirs.hash()))
        expect(hex(ours.hash())).toBe(hex(theirs.hash()))
        expect(hex(ours.serialize())).toBe(hex(theirs.serialize()))
        expect(ours.header.toJSON()).toEqual(theirs.header.toJSON())
        expect(ours.header.calcNextBaseFee()).toBe(theirs.header.calcNextBaseFee())
        // Made the builder's way: its RLP kept on the block, as a built block's.
        expect(Object.hasOwn(ours, 'serialize')).toBe(true)
        expect(Object.isFrozen(ours) && Object.isFrozen(ours.header)).toBe(true)
        await node.close()
      })
    }
  }

  test('behavior: a geth genesis with a difficulty, a nonce, extra data, a mix hash and a coinbase: the library\'s hash, made the builder\'s way', async () => {
    const file = {
      config: {
        chainId: 1337, homesteadBlock: 0, eip150Block: 0, eip155Block: 0, eip158Block: 0, byzantiumBlock: 0,
        constantinopleBlock: 0, petersburgBlock: 0, istanbulBlock: 0, berlinBlock: 0, londonBlock: 0,
        mergeNetsplitBlock: 0, terminalTotalDifficulty: 0, shanghaiTime: 0, cancunTime: 0,
        blobSchedule: { cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 } },
      },
      nonce: '0x42', timestamp: '0x5', gasLimit: '0x1c9c380', difficulty: '0x20000', extraData: '0x1234',
      mixHash: `0x${'ab'.repeat(32)}`, coinbase: `0x${'cd'.repeat(20)}`, baseFeePerGas: '0x3b9aca00',
      alloc: { '0x1000000000000000000000000000000000000001': { balance: '0xde0b6b3a7640000' } },
    }
    const block = await gethGenesisBlock(file)
    const spec = parseGethGenesis(file)
    const theirs = libraryGenesis(spec.header, block.header.stateRoot, spec.common)
    expect(hex(block.hash())).toBe(hex(theirs.hash()))
    expect(block.header.toJSON()).toEqual(theirs.header.toJSON())
    expect(hex(block.header.nonce)).toBe('0x0000000000000042')
    expect(block.header.difficulty).toBe(0x20000n)
    expect(Object.hasOwn(block, 'serialize')).toBe(true)
  })

  test('behavior: a header field of a type a built header does not hold (a hex string) is made by the library, with its hash', () => {
    const common = createChainCommon(31337n, 'cancun')
    const stateRoot = new Uint8Array(32).fill(7)
    const header = { gasLimit: 30_000_000n, timestamp: 10n, baseFeePerGas: 1_000_000_000n, extraData: '0x12' as const }
    const ours = genesisBlock(header, stateRoot, common)
    expect(hex(ours.hash())).toBe(hex(libraryGenesis(header, stateRoot, common).hash()))
    expect(Object.hasOwn(ours, 'serialize')).toBe(false)
  })
})
