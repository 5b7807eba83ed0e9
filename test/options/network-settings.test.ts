/**
 * Hardhat's network settings as createNode options: `coinbase`, `minGasPrice`, `initialDate` (and
 * `genesisTimestamp`, the same start in seconds) and `sendTransactionGasPrice`. The values Hardhat
 * answers were read from Hardhat 2.29.1's own provider (docs/hardhat.md).
 */
import { describe, expect, test } from 'vitest'
import { InvalidOptionError, type NodeOptions } from '../../src/index.js'
import { manualClock } from '../helpers/manual-clock.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()

type Node = Awaited<ReturnType<typeof newNode>>
const rpc = (node: Node, method: string, ...params: unknown[]) => node.request({ method, params })
const block = async (node: Node, tag: string) => (await rpc(node, 'eth_getBlockByNumber', tag, false)) as { timestamp: string; miner: string }
const time = async (node: Node, tag = 'latest') => BigInt((await block(node, tag)).timestamp)

const refused = async (options: unknown, option: string, message: RegExp) => {
  const error = await newNode(options as NodeOptions).then(() => undefined, (e: unknown) => e)
  expect(error).toBeInstanceOf(InvalidOptionError)
  expect((error as InvalidOptionError).option).toBe(option)
  expect((error as Error).message).toMatch(message)
}

const COINBASE = '0x1111111111111111111111111111111111111111'
const other = '0x2222222222222222222222222222222222222222'

describe('coinbase', () => {
  test('default: the proposing validator\'s address answers eth_coinbase and is the blocks\' miner', async () => {
    const node = await newNode()
    const coinbase = (await rpc(node, 'eth_coinbase')) as string
    expect(coinbase).toBe(node.validators[0]!.feeRecipient)
    await rpc(node, 'evm_mine')
    expect((await block(node, 'latest')).miner).toBe(coinbase)
  })

  test('behavior: the blocks\' fee recipient and eth_coinbase; hardhat_reset comes back to it after hardhat_setCoinbase', async () => {
    const node = await newNode({ coinbase: `0x${'11'.repeat(20).toUpperCase()}` })
    expect(await rpc(node, 'eth_coinbase')).toBe(COINBASE)
    const from = node.accounts[0]!.address
    await rpc(node, 'eth_sendTransaction', { from, to: other, value: '0x1' })
    expect((await block(node, 'latest')).miner).toBe(COINBASE)
    expect(BigInt((await rpc(node, 'eth_getBalance', COINBASE, 'latest')) as string)).toBeGreaterThan(0n)
    await rpc(node, 'hardhat_setCoinbase', other)
    expect(await rpc(node, 'eth_coinbase')).toBe(other)
    await rpc(node, 'hardhat_reset')
    expect(await rpc(node, 'eth_coinbase')).toBe(COINBASE)
  })

  test('error: not a 20-byte hex address', async () => {
    await refused({ coinbase: '0x1234' }, 'coinbase', /^createNode: option coinbase must be 20 bytes of hex, got 2$/)
    await refused({ coinbase: 'miner' }, 'coinbase', /must be 0x-prefixed hex bytes, got the string "miner"/)
  })
})

describe('minGasPrice', () => {
  const GWEI = 10n ** 9n
  test('behavior: a gas price or fee cap below it is refused with Hardhat\'s message; at it, accepted', async () => {
    const node = await newNode({ minGasPrice: 2n * GWEI })
    const from = node.accounts[0]!.address
    await expect(rpc(node, 'eth_sendTransaction', { from, to: other, gasPrice: `0x${GWEI.toString(16)}` })).rejects.toMatchObject({
      code: -32000,
      message: 'Transaction gas price is 1000000000, which is below the minimum of 2000000000',
    })
    await expect(rpc(node, 'eth_sendTransaction', { from, to: other, maxFeePerGas: `0x${(2n * GWEI - 1n).toString(16)}`, maxPriorityFeePerGas: '0x1' })).rejects.toMatchObject({
      code: -32000,
      message: 'Transaction max fee per gas is 1999999999, which is below the minimum of 2000000000',
    })
    expect(await rpc(node, 'eth_getTransactionCount', from, 'latest')).toBe('0x0')
    await rpc(node, 'eth_sendTransaction', { from, to: other, gasPrice: `0x${(2n * GWEI).toString(16)}` })
    await rpc(node, 'eth_sendTransaction', { from, to: other, maxFeePerGas: `0x${(2n * GWEI).toString(16)}`, maxPriorityFeePerGas: '0x1' })
    // A send that names no fee pays twice the base fee plus the tip: above a floor of 2 gwei at a 1 gwei base fee.
    await rpc(node, 'eth_sendTransaction', { from, to: other })
    expect(await rpc(node, 'eth_getTransactionCount', from, 'latest')).toBe('0x3')
  })

  test('error: a bigint at least 0', async () => {
    await refused({ minGasPrice: 5 }, 'minGasPrice', /must be a bigint, got the number 5 \(write 5n\)/)
    await refused({ minGasPrice: -1n }, 'minGasPrice', /must be at least 0, got -1/)
  })
})

describe('initialDate and genesisTimestamp: when the chain\'s clock starts', () => {
  const DATE = '2020-01-01T00:00:00Z'
  const START = 1_577_836_800n

  for (const [name, options] of [
    ['initialDate as a string', { initialDate: DATE }],
    ['initialDate as a Date', { initialDate: new Date(DATE) }],
    ['genesisTimestamp', { genesisTimestamp: START }],
  ] as const) {
    test(`behavior: ${name}: the genesis has it; later blocks run on from it at the clock's pace; hardhat_reset starts it again`, async () => {
      const clock = manualClock()
      const node = await newNode({ ...options, clock })
      expect(await time(node, '0x0')).toBe(START)
      await clock.advance(10_000)
      await rpc(node, 'evm_mine')
      expect(await time(node)).toBe(START + 10n)
      await clock.advance(100_000)
      await rpc(node, 'hardhat_reset')
      await clock.advance(5_000)
      await rpc(node, 'evm_mine')
      expect(await time(node)).toBe(START + 5n)
    })
  }

  test('behavior: a start in the future: blocks follow it too', async () => {
    const clock = manualClock(1_700_000_000_000)
    const node = await newNode({ initialDate: '2100-01-01T00:00:00.900Z', clock })
    expect(await time(node, '0x0')).toBe(4_102_444_800n)
    await clock.advance(3_000)
    await rpc(node, 'evm_mine')
    expect(await time(node)).toBe(4_102_444_803n)
  })

  test('default: now, the clock not moved', async () => {
    const clock = manualClock(1_700_000_000_000)
    const node = await newNode({ clock })
    expect(await time(node, '0x0')).toBe(1_700_000_000n)
    await clock.advance(7_000)
    await rpc(node, 'evm_mine')
    expect(await time(node)).toBe(1_700_000_007n)
  })

  test('error: a bad date, a wrong type, both options at once', async () => {
    await refused({ initialDate: 'yesterday' }, 'initialDate', /^createNode: option initialDate is not a valid date: "yesterday"$/)
    await refused({ initialDate: new Date(Number.NaN) }, 'initialDate', /is not a valid date: Invalid Date/)
    await refused({ initialDate: 1577836800 }, 'initialDate', /must be a Date or a date string/)
    await refused({ initialDate: '1969-12-31T00:00:00Z' }, 'initialDate', /must not be before 1970-01-01/)
    await refused({ initialDate: DATE, genesisTimestamp: START }, 'initialDate', /cannot be set together with genesisTimestamp/)
  })
})

describe('sendTransactionGasPrice', () => {
  test('behavior: a send that names no fee goes as a legacy transaction at that price; one that names a fee keeps it', async () => {
    const node = await newNode({ sendTransactionGasPrice: 3_000_000_000n })
    const from = node.accounts[0]!.address
    const tx = async (hash: unknown) => (await rpc(node, 'eth_getTransactionByHash', hash)) as { type: string; gasPrice: string; maxFeePerGas?: string }
    const plain = await tx(await rpc(node, 'eth_sendTransaction', { from, to: other }))
    expect(plain).toMatchObject({ type: '0x0', gasPrice: '0xb2d05e00' })
    const fee = await tx(await rpc(node, 'eth_sendTransaction', { from, to: other, maxFeePerGas: '0x77359400' }))
    expect(fee).toMatchObject({ type: '0x2', maxFeePerGas: '0x77359400' })
    const priced = await tx(await rpc(node, 'eth_sendTransaction', { from, to: other, gasPrice: '0x77359400' }))
    expect(priced).toMatchObject({ type: '0x0', gasPrice: '0x77359400' })
  })

  test('default: fee-market fees; error: not a bigint', async () => {
    const node = await newNode()
    const hash = await rpc(node, 'eth_sendTransaction', { from: node.accounts[0]!.address, to: other })
    expect(await rpc(node, 'eth_getTransactionByHash', hash)).toMatchObject({ type: '0x2' })
    await refused({ sendTransactionGasPrice: '1' }, 'sendTransactionGasPrice', /must be a bigint, got the string "1"/)
  })
})
