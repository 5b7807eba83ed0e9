/**
 * eth_simulateV1's finer geth rules: the gas a call gets (remaining block gas and the request-wide
 * rpc-gas-cap budget, above EIP-7825 under Osaka), nonce 2^64-1, block-wide log indexes that count
 * dropped logs, blob transactions, the precompile warm set under overrides, legacy calls with an
 * access list, and blocks under an older hardfork.
 */
import type { Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import type { FinalityNode, RpcTransactionRequest } from '../../src/index.js'
import type { RpcSimulateRequest, RpcStateOverrides } from '../../src/rpc-types.js'
import { trackNodes } from '../helpers/nodes.js'
import { rpcError, sender } from '../helpers/execution.js'

const newNode = trackNodes()

const stranger = '0x00000000000000000000000000000000000000aa'
const probe = '0x00000000000000000000000000000000000000c0'
const rich = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
/** LOG0 of nothing, then REVERT. */
const LOG_THEN_REVERT = '0x60006000a060006000fd'
/** LOG0 of nothing, then STOP. */
const LOG_THEN_STOP = '0x60006000a000'
/** Returns BLOBHASH(0). */
const RETURN_BLOBHASH = '0x60004960005260206000f3'
/** Returns the COINBASE's balance. */
const RETURN_COINBASE_BALANCE = '0x413160005260206000f3'

type Log = { logIndex: Hex; address: Hex }
type Call = { returnData: Hex; logs: Log[]; gasUsed: Hex; status: Hex; error?: { code: number } }
type Tx = { gas: Hex; nonce: Hex; type: Hex; accessList?: unknown; blobVersionedHashes?: Hex[]; maxFeePerBlobGas?: Hex }
type SimBlock = { number: Hex; difficulty: Hex; baseFeePerGas?: Hex; blobGasUsed?: Hex; gasLimit: Hex; transactions: Tx[]; calls: Call[] }

const BLOB_SCHEDULE = {
  cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 },
  prague: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
  osaka: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
}
const BLOCK_FORKS = {
  homesteadBlock: 0, eip150Block: 0, eip155Block: 0, eip158Block: 0, byzantiumBlock: 0, constantinopleBlock: 0,
  petersburgBlock: 0, istanbulBlock: 0, berlinBlock: 0,
}

/** A chain that starts in Prague and is in Osaka from its first block on, with a 60M gas limit. */
function osakaGenesis(): Record<string, unknown> {
  return {
    config: {
      chainId: 1337, ...BLOCK_FORKS, londonBlock: 0, mergeNetsplitBlock: 0, terminalTotalDifficulty: 0,
      shanghaiTime: 0, cancunTime: 0, pragueTime: 0, osakaTime: 1, blobSchedule: BLOB_SCHEDULE,
    },
    nonce: '0x0', timestamp: '0x0', gasLimit: '0x3938700', difficulty: '0x0', extraData: '0x',
    alloc: { [rich]: { balance: '0x8ac7230489e80000' } },
  }
}

/** A proof-of-work chain in Berlin, with London scheduled at block 5. */
function berlinGenesis(): Record<string, unknown> {
  return {
    config: { chainId: 1337, ...BLOCK_FORKS, londonBlock: 5 },
    nonce: '0x0', timestamp: '0x0', gasLimit: '0x1c9c380', difficulty: '0x20000', extraData: '0x',
    coinbase: '0x00000000000000000000000000000000000000cb',
    alloc: { [rich]: { balance: '0x8ac7230489e80000' } },
  }
}

async function simulate(node: FinalityNode, opts: RpcSimulateRequest): Promise<SimBlock[]> {
  return (await node.request({ method: 'eth_simulateV1', params: [opts, 'latest'] })) as SimBlock[]
}

function transfer(from: Hex, extra: RpcTransactionRequest = {}): RpcTransactionRequest {
  return { from, to: stranger, value: '0x1', ...extra }
}

describe('eth_simulateV1: the gas of a call', () => {
  it('default: a call without gas gets the remaining block gas, within the rpc-gas-cap budget, above EIP-7825 under Osaka', async () => {
    const node = await newNode({ genesis: osakaGenesis(), limits: { rpcGasCap: 50_000_000n } })
    const [block] = await simulate(node, { returnFullTransactions: true, blockStateCalls: [{ calls: [transfer(rich), transfer(rich)] }] })
    // 50M, then 50M less the first call's 21000: the budget is spent by the gas used.
    expect(block!.transactions.map((t) => t.gas)).toEqual(['0x2faf080', '0x2fa9e78'])
    expect(block!.calls.map((c) => c.status)).toEqual(['0x1', '0x1'])
  })

  it('args: rpc-gas-cap 0 (none): the remaining block gas, 60M and 60M - 21000', async () => {
    const node = await newNode({ genesis: osakaGenesis() })
    const [block] = await simulate(node, { returnFullTransactions: true, blockStateCalls: [{ calls: [transfer(rich), transfer(rich)] }] })
    expect(block!.transactions.map((t) => t.gas)).toEqual(['0x3938700', '0x39334f8'])
  })

  it('behavior: real transactions stay under EIP-7825 after a simulation above it', async () => {
    const node = await newNode({ genesis: osakaGenesis() })
    await simulate(node, { blockStateCalls: [{ calls: [transfer(rich)] }] })
    const error = await rpcError(node, 'eth_sendTransaction', [{ from: rich, to: stranger, gas: '0x1000001' }])
    expect(error.message).toMatch(/16777216/)
    const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from: rich, to: stranger, gas: '0x1000000' }] })
    const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: Hex }
    expect(receipt.status).toBe('0x1')
  })

  it('limit: the budget is shared by all blocks; a call gets what is left, and nothing left is -38013', async () => {
    const node = await newNode({ limits: { rpcGasCap: 63_000n } })
    const from = sender(node)
    const blocks = await simulate(node, {
      returnFullTransactions: true,
      blockStateCalls: [{ calls: [transfer(from)] }, { calls: [transfer(from), transfer(from, { gas: '0x100000' })] }],
    })
    // 63000, 42000 and 21000 left: an explicit gas above the budget is capped to it too.
    expect(blocks.flatMap((b) => b.transactions.map((t) => t.gas))).toEqual(['0xf618', '0xa410', '0x5208'])
    const past = await rpcError(node, 'eth_simulateV1', [{ blockStateCalls: [{ calls: [transfer(from), transfer(from), transfer(from), transfer(from)] }] }, 'latest'])
    expect(past.code).toBe(-38013)
  })
})

describe('eth_simulateV1: nonce 2^64-1', () => {
  const overrides: RpcStateOverrides = { [stranger]: { nonce: '0xffffffffffffffff', balance: '0x10' } }

  it('behavior: without validation the sender sends at 2^64-1, and its nonce wraps to 0 as geth’s uint64 does', async () => {
    const node = await newNode()
    const [block] = await simulate(node, {
      returnFullTransactions: true,
      blockStateCalls: [{ stateOverrides: overrides, calls: [transfer(stranger, { to: probe }), transfer(stranger, { to: probe })] }],
    })
    expect(block!.transactions.map((t) => t.nonce)).toEqual(['0xffffffffffffffff', '0x0'])
    expect(block!.calls.map((c) => c.status)).toEqual(['0x1', '0x1'])
  })

  it('error: with validation it is -32603, nonce has max value', async () => {
    const node = await newNode()
    const error = await rpcError(node, 'eth_simulateV1', [{ validation: true, blockStateCalls: [{ stateOverrides: overrides, calls: [transfer(stranger, { to: probe })] }] }, 'latest'])
    expect(error.code).toBe(-32603)
    expect(error.message).toMatch(/^err: nonce has max value: address 0x00000000000000000000000000000000000000AA, nonce: 18446744073709551615 \(supplied gas \d+\)$/i)
  })
})

describe('eth_simulateV1: log indexes', () => {
  const codes: RpcStateOverrides = {
    '0x00000000000000000000000000000000000000d1': { code: LOG_THEN_REVERT },
    '0x00000000000000000000000000000000000000d2': { code: LOG_THEN_STOP },
  }

  it('behavior: the logs of a failed call are dropped but keep their numbers (geth’s tracer counts them)', async () => {
    const node = await newNode()
    const from = sender(node)
    const [block] = await simulate(node, {
      blockStateCalls: [{ stateOverrides: codes, calls: [{ from, to: '0x00000000000000000000000000000000000000d1' }, { from, to: '0x00000000000000000000000000000000000000d2' }] }],
    })
    expect(block!.calls[0]!.status).toBe('0x0')
    expect(block!.calls[0]!.logs).toEqual([])
    expect(block!.calls[1]!.logs.map((l) => l.logIndex)).toEqual(['0x1'])
  })

  it('args: traceTransfers: a failed call’s transfer and log are counted, the next call’s transfer is 0x2', async () => {
    const node = await newNode()
    const from = sender(node)
    const [block] = await simulate(node, {
      traceTransfers: true,
      blockStateCalls: [{ stateOverrides: codes, calls: [{ from, to: '0x00000000000000000000000000000000000000d1', value: '0x1' }, transfer(from)] }],
    })
    expect(block!.calls[0]!.logs).toEqual([])
    expect(block!.calls[1]!.logs.map((l) => [l.logIndex, l.address])).toEqual([['0x2', '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee']])
  })
})

describe('eth_simulateV1: transaction types', () => {
  it('args: blobVersionedHashes make a blob transaction: type 0x3, BLOBHASH sees the hash, the block counts its blob gas', async () => {
    const node = await newNode()
    const hash: Hex = `0x01${'ab'.repeat(31)}`
    const [block] = await simulate(node, {
      returnFullTransactions: true,
      blockStateCalls: [{ stateOverrides: { [probe]: { code: RETURN_BLOBHASH } }, calls: [{ from: sender(node), to: probe, blobVersionedHashes: [hash], maxFeePerBlobGas: '0xa' }] }],
    })
    const tx = block!.transactions[0]!
    expect([tx.type, tx.blobVersionedHashes, tx.maxFeePerBlobGas]).toEqual(['0x3', [hash], '0xa'])
    expect(block!.calls[0]!.returnData).toBe(hash)
    expect(block!.blobGasUsed).toBe('0x20000')
  })

  it('args: a gas price with an access list is a legacy transaction that still pays for its list (geth)', async () => {
    const node = await newNode()
    const [block] = await simulate(node, {
      returnFullTransactions: true,
      blockStateCalls: [{ calls: [{ from: sender(node), to: stranger, gasPrice: '0x0', accessList: [{ address: probe, storageKeys: [] }] }] }],
    })
    expect(block!.transactions[0]!.type).toBe('0x0')
    expect(block!.transactions[0]!.accessList).toBeUndefined()
    // 21000 + 2400 for the listed address.
    expect(block!.calls[0]!.gasUsed).toBe('0x5b68')
  })
})

describe('eth_simulateV1: precompiles under overrides', () => {
  /** PUSH20 address, BALANCE, POP, STOP: 21105 gas when the address is warm, 23605 when cold. */
  const balanceOf = (address: string): Hex => `0x73${address.slice(2)}315000`
  const moved: Hex = '0x0000000000000000000000000000000000123456'

  it('behavior: an overridden precompile’s address stays warm and a moved one’s new address starts cold, as geth warms the fork’s set', async () => {
    const node = await newNode()
    const from = sender(node)
    const [overridden, relocated] = await simulate(node, {
      blockStateCalls: [
        { stateOverrides: { '0x0000000000000000000000000000000000000001': { code: '0x00' }, [probe]: { code: balanceOf('0x0000000000000000000000000000000000000001') } }, calls: [{ from, to: probe }] },
        { stateOverrides: { '0x0000000000000000000000000000000000000002': { movePrecompileToAddress: moved }, [probe]: { code: balanceOf(moved) } }, calls: [{ from, to: probe }] },
      ],
    })
    expect(overridden!.calls[0]!.gasUsed).toBe('0x5271')
    expect(relocated!.calls[0]!.gasUsed).toBe('0x5c35')
  })
})

describe('eth_simulateV1: an older hardfork', () => {
  it('behavior: blocks before London have no base fee, carry the parent’s difficulty, run Berlin’s rules and pay the miner 2 ether', async () => {
    const node = await newNode({ genesis: berlinGenesis(), mining: { mode: 'manual' } })
    const blocks = await simulate(node, {
      blockStateCalls: [{ stateOverrides: { [probe]: { code: RETURN_COINBASE_BALANCE } }, calls: [{ from: rich, to: probe }] }, { calls: [{ from: rich, to: probe }] }],
    })
    const [first, second] = blocks as [SimBlock, SimBlock]
    expect(first.baseFeePerGas).toBeUndefined()
    expect(first.difficulty).toBe('0x20000')
    // The coinbase is cold before Shanghai (EIP-3651): 21000 + 2617.
    expect(first.calls[0]!.gasUsed).toBe('0x5c41')
    expect(BigInt(first.calls[0]!.returnData)).toBe(0n)
    expect(BigInt(second.calls[0]!.returnData)).toBe(2n * 10n ** 18n)
  })
})
