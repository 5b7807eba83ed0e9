/**
 * The hardfork a fork reads each remote block under: a chain @ethereumjs/common knows by its
 * schedule (mainnet's genesis, read under Chainstart, hashes to mainnet's genesis hash), any other
 * by its header's fields.
 */
import { Block, createBlockHeaderFromRPC } from '@ethereumjs/block'
import { describe, expect, it } from 'vitest'
import { createChainCommon } from '../chain/common.js'
import { RemoteForks } from './remote-forks.js'

const q = (n: bigint | number): string => `0x${n.toString(16)}`
const ZERO32 = `0x${'00'.repeat(32)}`
/** A header's optional fields from London on, by the fork that added them. */
const LONDON = { baseFeePerGas: '0x7', difficulty: '0x1' }
const PARIS = { baseFeePerGas: '0x7', difficulty: '0x0' }
const SHANGHAI = { ...PARIS, withdrawalsRoot: ZERO32 }
const CANCUN = { ...SHANGHAI, blobGasUsed: '0x0', excessBlobGas: '0x0', parentBeaconBlockRoot: ZERO32 }
const PRAGUE = { ...CANCUN, requestsHash: ZERO32 }

/** Mainnet's genesis block as eth_getBlockByNumber answers it. */
const MAINNET_GENESIS = {
  number: '0x0',
  hash: '0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3',
  parentHash: ZERO32,
  sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347',
  miner: `0x${'00'.repeat(20)}`,
  stateRoot: '0xd7f8974fb5ac78d9ac099b9ad5018bedc2ce0a72dad1827a1709da30580f0544',
  transactionsRoot: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
  receiptsRoot: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
  logsBloom: `0x${'00'.repeat(256)}`,
  difficulty: '0x400000000',
  gasLimit: '0x1388',
  gasUsed: '0x0',
  timestamp: '0x0',
  extraData: '0x11bbe8db4e347b4e8c937c1c8370e4b5ed33adb3db69cbdb7a38e1e50b1b82fa',
  mixHash: ZERO32,
  nonce: '0x0000000000000042',
}

describe('RemoteForks', () => {
  it('mainnet: each block by its schedule (number, then time), its genesis hashing to its hash under Chainstart', () => {
    const forks = new RemoteForks(createChainCommon(1n, 'prague'), 1n)
    const genesis = forks.at(MAINNET_GENESIS)
    expect(genesis.hardfork()).toBe('chainstart')
    const header = createBlockHeaderFromRPC(MAINNET_GENESIS as never, { common: genesis, setHardfork: false, skipConsensusFormatValidation: true })
    expect(`0x${Buffer.from(new Block(header, [], [], undefined, { common: genesis }).hash()).toString('hex')}`).toBe(MAINNET_GENESIS.hash)
    expect(forks.at({ number: q(1_150_000), timestamp: q(1_457_981_393) }).hardfork()).toBe('homestead')
    expect(forks.at({ number: q(12_964_999), timestamp: q(1_628_166_812) }).hardfork()).toBe('berlin')
    expect(forks.at({ number: q(12_965_000), timestamp: q(1_628_166_822), ...LONDON }).hardfork()).toBe('london')
    expect(forks.at({ number: q(15_537_394), timestamp: q(1_663_224_179), ...PARIS }).hardfork()).toBe('paris')
    expect(forks.at({ number: q(17_034_870), timestamp: q(1_681_338_455), ...SHANGHAI }).hardfork()).toBe('shanghai')
    expect(forks.at({ number: q(19_426_587), timestamp: q(1_710_338_135), ...CANCUN }).hardfork()).toBe('cancun')
    // Prague is the node's own: its Common.
    const prague = forks.at({ number: q(22_431_084), timestamp: q(1_746_612_311), ...PRAGUE })
    expect(prague).toBe(forks.head)
  })

  it('a chain under a known chain id whose header is not of its scheduled form (a dev chain with chain id 1) is read by its fields', () => {
    const forks = new RemoteForks(createChainCommon(1n, 'prague'), 1n)
    expect(forks.at({ number: q(5), timestamp: q(1_700_000_000), ...PRAGUE })).toBe(forks.head)
    expect(forks.at({ number: q(5), timestamp: q(1_700_000_000), ...SHANGHAI }).hardfork()).toBe('shanghai')
  })

  it('another chain: by its header\'s fields; a node past Prague reads a Prague-form header under its own fork', () => {
    const forks = new RemoteForks(createChainCommon(31337n, 'osaka'), 31337n)
    expect(forks.at({ number: q(3) }).hardfork()).toBe('berlin')
    expect(forks.at({ number: q(3), ...LONDON }).hardfork()).toBe('london')
    expect(forks.at({ number: q(3), ...PARIS }).hardfork()).toBe('paris')
    expect(forks.at({ number: q(3), ...SHANGHAI }).hardfork()).toBe('shanghai')
    expect(forks.at({ number: q(3), ...CANCUN }).hardfork()).toBe('cancun')
    expect(forks.at({ number: q(3), ...PRAGUE })).toBe(forks.head)
    expect(forks.at({ number: q(3), ...CANCUN }).chainId()).toBe(31337n)
  })
})
