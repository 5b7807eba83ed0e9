/**
 * testing_buildBlockV1: a block built on the head from payload attributes and raw transactions
 * (or the pool's), answered in the engine API's payload shape, never committed.
 */
import type { Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../src/index.js'
import type { RpcMethodTypes, RpcWithdrawal } from '../../src/rpc-types.js'
import { trackNodes } from '../helpers/nodes.js'
import { rpcError, sender } from '../helpers/execution.js'

const newNode = trackNodes()

const stranger = '0x00000000000000000000000000000000000000aa'
const feeRecipient = '0x00000000000000000000000000000000000000fe'
const randao = `0x${'42'.repeat(32)}` as Hex
const ZERO_HASH = `0x${'00'.repeat(32)}` as Hex
const GWEI = 1_000_000_000n

type Payload = {
  parentHash: Hex
  feeRecipient: Hex
  stateRoot: Hex
  receiptsRoot: Hex
  logsBloom: Hex
  prevRandao: Hex
  blockNumber: Hex
  gasLimit: Hex
  gasUsed: Hex
  timestamp: Hex
  extraData: Hex
  baseFeePerGas: Hex
  blockHash: Hex
  transactions: Hex[]
  withdrawals: Array<{ index: Hex; validatorIndex: Hex; address: Hex; amount: Hex }>
  blobGasUsed: Hex
  excessBlobGas: Hex
}
type Built = { executionPayload: Payload; blockValue: Hex; blobsBundle: unknown; executionRequests: Hex[]; shouldOverrideBuilder: boolean }
type BuildParams = RpcMethodTypes['testing_buildBlockV1']['params']
type Attributes = BuildParams[1]
type Head = { hash: Hex; number: Hex; timestamp: Hex; stateRoot: Hex; baseFeePerGas: Hex; transactionsRoot: Hex; receiptsRoot: Hex; logsBloom: Hex; gasUsed: Hex }

async function head(node: FinalityNode): Promise<Head> {
  return (await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as Head
}

function attributes(parent: Head, extra: Partial<Attributes> = {}): Attributes {
  return {
    timestamp: `0x${(BigInt(parent.timestamp) + 5n).toString(16)}`,
    prevRandao: randao,
    suggestedFeeRecipient: feeRecipient,
    withdrawals: [],
    parentBeaconBlockRoot: ZERO_HASH,
    ...extra,
  }
}

async function build(node: FinalityNode, params: BuildParams): Promise<Built> {
  return (await node.request({ method: 'testing_buildBlockV1', params })) as Built
}

/** A transfer signed by the node's first key, as raw bytes. */
async function signedTransfer(node: FinalityNode, nonce = 0n, value = 1000n): Promise<Hex> {
  return (await node.request({
    method: 'eth_signTransaction',
    params: [{ from: sender(node), to: stranger, value: `0x${value.toString(16)}`, gas: '0x5208', nonce: `0x${nonce.toString(16)}`, maxFeePerGas: `0x${(100n * GWEI).toString(16)}`, maxPriorityFeePerGas: `0x${GWEI.toString(16)}` }],
  })) as Hex
}

describe('testing_buildBlockV1', () => {
  it('default: an empty list builds an empty block on the head with the attributes, and commits nothing', async () => {
    const node = await newNode({ mining: { mode: 'manual' } })
    const parent = await head(node)
    const built = await build(node, [parent.hash, attributes(parent), [], '0x1234'])
    const p = built.executionPayload
    expect(p.parentHash).toBe(parent.hash)
    expect(BigInt(p.blockNumber)).toBe(BigInt(parent.number) + 1n)
    expect([p.feeRecipient, p.prevRandao, p.extraData, p.timestamp]).toEqual([feeRecipient, randao, '0x1234', attributes(parent).timestamp])
    expect([p.gasUsed, p.transactions, p.withdrawals, p.blobGasUsed]).toEqual(['0x0', [], [], '0x0'])
    expect(built.blockValue).toBe('0x0')
    expect(built.blobsBundle).toEqual({ commitments: [], proofs: [], blobs: [] })
    expect(built.executionRequests).toEqual([])
    expect(built.shouldOverrideBuilder).toBe(false)
    expect(await head(node)).toEqual(parent)
  })

  it('behavior: the payload is the block the node mines from the same transaction, fee recipient, randao and time', async () => {
    const node = await newNode({ mining: { mode: 'manual' } })
    const parent = await head(node)
    const raw = await signedTransfer(node)
    const attrs = attributes(parent)
    const built = await build(node, [parent.hash, attrs, [raw], '0x'])
    const p = built.executionPayload
    expect(p.transactions).toEqual([raw])
    expect(p.gasUsed).toBe('0x5208')
    // The fee recipient earns the tip: 21000 gas at 1 gwei.
    expect(BigInt(built.blockValue)).toBe(21_000n * GWEI)
    // Nothing was committed or pooled: the recipient has nothing yet.
    expect(await node.request({ method: 'eth_getBalance', params: [stranger, 'latest'] })).toBe('0x0')
    expect((await head(node)).hash).toBe(parent.hash)

    await node.request({ method: 'hardhat_setCoinbase', params: [feeRecipient] })
    await node.request({ method: 'hardhat_setPrevRandao', params: [randao] })
    await node.request({ method: 'evm_setNextBlockTimestamp', params: [attrs.timestamp] })
    await node.request({ method: 'eth_sendRawTransaction', params: [raw] })
    await node.request({ method: 'evm_mine', params: [] })
    const mined = await head(node)
    expect([p.stateRoot, p.receiptsRoot, p.logsBloom, p.baseFeePerGas]).toEqual([mined.stateRoot, mined.receiptsRoot, mined.logsBloom, mined.baseFeePerGas])
    expect(p.blockHash).toBe(mined.hash)
  })

  it('args: null takes the pool’s pending transactions, which stay pending', async () => {
    const node = await newNode({ mining: { mode: 'manual' } })
    const parent = await head(node)
    const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from: sender(node), to: stranger, value: '0x1' }] })
    const built = await build(node, [parent.hash, attributes(parent), null])
    expect(built.executionPayload.transactions).toHaveLength(1)
    expect(built.executionPayload.extraData).toBe('0x')
    const pending = (await node.request({ method: 'eth_getTransactionByHash', params: [hash] })) as { blockHash: Hex | null }
    expect(pending.blockHash).toBeNull()
    expect((await head(node)).hash).toBe(parent.hash)
  })

  it('args: withdrawals are paid (a zero amount touches nothing, as geth) and echoed', async () => {
    const node = await newNode({ mining: { mode: 'manual' } })
    const parent = await head(node)
    const none = await build(node, [parent.hash, attributes(parent), []])
    const w = (amount: Hex): RpcWithdrawal[] => [{ index: '0x0', validatorIndex: '0x7', address: stranger, amount }]
    const zero = await build(node, [parent.hash, attributes(parent, { withdrawals: w('0x0') }), []])
    const paid = await build(node, [parent.hash, attributes(parent, { withdrawals: w('0x1') }), []])
    expect(paid.executionPayload.withdrawals).toEqual(w('0x1'))
    expect(zero.executionPayload.stateRoot).toBe(none.executionPayload.stateRoot)
    expect(paid.executionPayload.stateRoot).not.toBe(none.executionPayload.stateRoot)
    expect(paid.executionPayload.blockHash).not.toBe(zero.executionPayload.blockHash)
  })

  it('behavior: the gas limit moves toward the node’s by at most parent/1024 - 1 (geth’s CalcGasLimit)', async () => {
    const node = await newNode({ mining: { mode: 'manual' } })
    const parent = await head(node)
    expect((await build(node, [parent.hash, attributes(parent), []])).executionPayload.gasLimit).toBe('0x1c9c380')
    await node.request({ method: 'evm_setBlockGasLimit', params: ['0x3938700'] })
    // 30M + 30M / 1024 - 1.
    expect((await build(node, [parent.hash, attributes(parent), []])).executionPayload.gasLimit).toBe(`0x${30_029_295n.toString(16)}`)
  })

  it('error: a transaction that cannot be applied is -32000 with geth’s message, and the chain is unchanged', async () => {
    const node = await newNode({ mining: { mode: 'manual' } })
    const parent = await head(node)
    const raw = await signedTransfer(node, 5n)
    const error = await rpcError(node, 'testing_buildBlockV1', [parent.hash, attributes(parent), [raw]])
    expect(error.code).toBe(-32000)
    expect(error.message).toBe(`nonce too high: address ${node.accounts[0]!.address.toLowerCase()}, tx: 5 state: 0`)
    const broke = await rpcError(node, 'testing_buildBlockV1', [parent.hash, attributes(parent), [await signedTransfer(node, 0n, 10n ** 30n)]])
    expect(broke.message).toMatch(/^insufficient funds for gas \* price \+ value/)
    expect(await head(node)).toEqual(parent)
  })

  it('error: the parent must be the head, the time must follow it, and the attributes are required', async () => {
    const node = await newNode({ mining: { mode: 'manual' } })
    const parent = await head(node)
    expect(await rpcError(node, 'testing_buildBlockV1', [ZERO_HASH, attributes(parent), []])).toMatchObject({ code: -32000, message: 'parentHash is not current head' })
    const late = attributes(parent, { timestamp: parent.timestamp })
    expect(await rpcError(node, 'testing_buildBlockV1', [parent.hash, late, []])).toMatchObject({ code: -32000, message: `invalid timestamp, parent ${BigInt(parent.timestamp)} given ${BigInt(parent.timestamp)}` })
    const { timestamp: _, ...untimed } = attributes(parent)
    expect(await rpcError(node, 'testing_buildBlockV1', [parent.hash, untimed, []])).toMatchObject({ code: -32602, message: "invalid argument 1: missing required field 'timestamp' for PayloadAttributes" })
  })

  it('behavior: the namespace is private: off over HTTP unless listed', async () => {
    const node = await newNode({ mining: { mode: 'manual' } })
    const parent = await head(node)
    const call = async (url: string) =>
      (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'testing_buildBlockV1', params: [parent.hash, attributes(parent), []] }) })).json()) as { error?: { code: number }; result?: unknown }
    const closed = await node.listen({ address: '127.0.0.1:0', wsAddress: false })
    const open = await node.listen({ address: '127.0.0.1:0', wsAddress: false, api: ['eth', 'testing'] })
    try {
      expect((await call(closed.http!)).error?.code).toBe(-32601)
      expect((await call(open.http!)).result).toBeDefined()
    } finally {
      await closed.close()
      await open.close()
    }
  })
})
