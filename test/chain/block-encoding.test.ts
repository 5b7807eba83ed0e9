/**
 * The builder writes a block's RLP and hash itself (from the header's RLP and the transactions'
 * kept encodings). @ethereumjs/block must read those bytes back as the same block: same hash,
 * same bytes when it serializes them again, and transaction / receipt roots it agrees with.
 */
import { createBlockFromRLP, createBlockHeader } from '@ethereumjs/block'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SUPPORTED_HARDFORKS, createChainCommon } from '../../src/chain/common.js'
import { encodeHeader } from '../../src/execution/block-rlp.js'
import { createNode, type FinalityNode } from '../../src/index.js'

let node: FinalityNode
const to = '0x00000000000000000000000000000000000000aa'

async function send(tx: Record<string, unknown>): Promise<Hex> {
  return (await node.request({ method: 'eth_sendTransaction', params: [{ from: node.accounts[0]!.address, to, value: '0x1', ...tx }] })) as Hex
}

beforeAll(async () => {
  node = await createNode({ mining: { mode: 'manual' } })
  // One block with a legacy, an EIP-2930 and an EIP-1559 transaction, one with a single
  // transaction, and one empty.
  await send({ gasPrice: '0x77359400' })
  await send({ type: '0x1', gasPrice: '0x77359400', accessList: [{ address: to, storageKeys: [`0x${'00'.repeat(32)}`] }] })
  await send({ maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x1' })
  await node.mine()
  await send({})
  await node.mine()
  await node.mine()
})
afterAll(() => node.close())

describe('built blocks', () => {
  it.each([1, 2, 3])('block %i reads back as the same block through @ethereumjs/block', async (n) => {
    const number: Hex = `0x${n.toString(16)}`
    const raw = (await node.request({ method: 'debug_getRawBlock', params: [number] })) as Hex
    const json = (await node.request({ method: 'eth_getBlockByNumber', params: [number, false] })) as { hash: Hex; transactions: Hex[]; stateRoot: Hex }
    const decoded = createBlockFromRLP(hexToBytes(raw), { common: createChainCommon(31337n, 'prague') })
    expect(bytesToHex(decoded.serialize())).toBe(raw)
    expect(bytesToHex(decoded.hash())).toBe(json.hash)
    expect(bytesToHex(decoded.header.stateRoot)).toBe(json.stateRoot)
    expect(decoded.transactions.map((tx) => bytesToHex(tx.hash()))).toEqual(json.transactions)
    expect(await decoded.transactionsTrieIsValid()).toBe(true)
  })

  it('the first block holds one transaction of each type', async () => {
    const block = (await node.request({ method: 'eth_getBlockByNumber', params: ['0x1', true] })) as { transactions: Array<{ type: Hex }> }
    expect(block.transactions.map((tx) => tx.type)).toEqual(['0x0', '0x1', '0x2'])
  })
})

describe('encodeConsensusReceipt', () => {
  it('equals @ethereumjs/vm encodeReceipt for every type, status, gas and log shape', async () => {
    const { encodeReceipt } = await import('@ethereumjs/vm')
    const { encodeConsensusReceipt } = await import('../../src/chain/receipts.js')
    const bloom = Uint8Array.from({ length: 256 }, (_, i) => i & 0xff)
    const address = hexToBytes('0x00000000000000000000000000000000000000aa')
    const topic = (n: number) => new Uint8Array(32).fill(n)
    const logSets = [
      [],
      [[address, [], new Uint8Array(0)]],
      [[address, [topic(1), topic(2), topic(3), topic(4)], new Uint8Array(300).fill(7)], [address, [topic(9)], Uint8Array.of(1)]],
    ] as Array<Array<[Uint8Array, Uint8Array[], Uint8Array]>>
    for (const type of [0, 1, 2, 3, 4]) {
      for (const status of [0, 1] as const) {
        for (const cumulativeBlockGasUsed of [0n, 21_000n, 2n ** 40n]) {
          for (const logs of logSets) {
            const receipt = { status, cumulativeBlockGasUsed, bitvector: bloom, logs }
            expect(bytesToHex(encodeConsensusReceipt(receipt, type))).toBe(bytesToHex(encodeReceipt(receipt as never, type as never)))
          }
        }
      }
    }
  })
})

describe('encodeHeader', () => {
  it.each(SUPPORTED_HARDFORKS)('behavior: a %s header of distinct field values encodes as @ethereumjs/block serialize() does', (hardfork) => {
    const common = createChainCommon(31337n, hardfork)
    const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill)
    const fields: Record<string, unknown> = {
      parentHash: bytes(32, 1),
      coinbase: bytes(20, 2),
      stateRoot: bytes(32, 3),
      transactionsTrie: bytes(32, 4),
      receiptTrie: bytes(32, 5),
      logsBloom: bytes(256, 6),
      number: 0x7fn,
      gasLimit: 30_000_000n,
      gasUsed: 0x80n,
      timestamp: 1_700_000_000n,
      extraData: bytes(7, 7),
      mixHash: bytes(32, 8),
    }
    if (common.isActivatedEIP(1559)) fields.baseFeePerGas = 7n
    if (common.isActivatedEIP(4895)) fields.withdrawalsRoot = bytes(32, 9)
    if (common.isActivatedEIP(4844)) Object.assign(fields, { blobGasUsed: 0n, excessBlobGas: 131_072n })
    if (common.isActivatedEIP(4788)) fields.parentBeaconBlockRoot = bytes(32, 10)
    if (common.isActivatedEIP(7685)) fields.requestsHash = bytes(32, 11)
    const header = createBlockHeader(fields as never, { common, skipConsensusFormatValidation: true } as never)
    expect(bytesToHex(encodeHeader(header))).toBe(bytesToHex(header.serialize()))
  })


  it.each(SUPPORTED_HARDFORKS)('behavior: a %s block header encodes as @ethereumjs/block serialize() does, and its hash checks out', async (hardfork) => {
    const forked = await createNode({ hardfork })
    try {
      await forked.request({ method: 'eth_sendTransaction', params: [{ from: forked.accounts[0]!.address, to, value: '0x1' }] })
      const raw = (await forked.request({ method: 'debug_getRawBlock', params: ['latest'] })) as Hex
      const json = (await forked.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { hash: Hex }
      const header = createBlockFromRLP(hexToBytes(raw), { common: createChainCommon(31337n, hardfork) }).header
      expect(bytesToHex(encodeHeader(header))).toBe(bytesToHex(header.serialize()))
      expect(bytesToHex(header.hash())).toBe(json.hash)
    } finally {
      await forked.close()
    }
  })
})

describe('receipts roots of automined blocks', () => {
  it('behavior: each one-receipt block has the root of its own receipt (same gas of another type, a failure, a creation)', async () => {
    const { createMPT } = await import('@ethereumjs/mpt')
    const { RLP } = await import('@ethereumjs/rlp')
    const auto = await createNode()
    try {
      const from = auto.accounts[0]!.address
      const sends: Array<Record<string, unknown>> = [
        { to, value: '0x1' },
        { to, value: '0x2' },
        { to, value: '0x3', gasPrice: '0x77359400' },
        { to, value: '0x4', gasPrice: '0x77359400' },
        // Init code that reverts at once (PUSH1 0 PUSH1 0 REVERT): a failed receipt without logs.
        { data: '0x60006000fd', gas: '0x186a0' },
        { to, value: '0x5' },
        // Init code that returns nothing: a creation that succeeds.
        { data: '0x00', gas: '0x186a0' },
      ]
      const statuses: Hex[] = []
      for (const tx of sends) {
        const hash = (await auto.request({ method: 'eth_sendTransaction', params: [{ from, ...tx }] })) as Hex
        const receipt = (await auto.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: Hex; blockNumber: Hex }
        statuses.push(receipt.status)
        const raws = (await auto.request({ method: 'debug_getRawReceipts', params: [receipt.blockNumber] })) as Hex[]
        const trie = await createMPT()
        for (const [i, raw] of raws.entries()) await trie.put(RLP.encode(i), hexToBytes(raw))
        const block = (await auto.request({ method: 'eth_getBlockByNumber', params: [receipt.blockNumber, false] })) as { receiptsRoot: Hex }
        expect(raws).toHaveLength(1)
        expect(block.receiptsRoot).toBe(bytesToHex(trie.root()))
      }
      expect(statuses).toEqual(['0x1', '0x1', '0x1', '0x1', '0x0', '0x1', '0x1'])
    } finally {
      await auto.close()
    }
  })
})
