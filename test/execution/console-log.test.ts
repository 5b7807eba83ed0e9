/**
 * Solidity console.log: calls to the console address decoded (console.sol's ABI) and delivered to
 * `onConsoleLog`, for eth_call and mined transactions, without changing results or gas.
 */
import { getAddress, zeroAddress, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeConsoleLog } from '../../src/execution/console-log.js'
import type { FinalityNode } from '../../src/index.js'
import { calldata, deploy, rpcError, sender, testNode } from '../helpers/execution.js'

let node: FinalityNode
let quietNode: FinalityNode
let logger: Hex
let quietLogger: Hex
const messages: string[] = []

beforeAll(async () => {
  node = await testNode({ onConsoleLog: (m) => messages.push(m) })
  quietNode = await testNode()
  logger = await deploy(node, 'Logger')
  quietLogger = await deploy(quietNode, 'Logger')
})
afterAll(async () => {
  await node.close()
  await quietNode.close()
})

describe('console.log', () => {
  it('eth_call: every common signature, formatted as Hardhat does', async () => {
    messages.length = 0
    const out = await node.request({ method: 'eth_call', params: [{ to: logger, input: calldata('Logger', 'hello', [5n]) }] })
    expect(BigInt(out as string)).toBe(6n)
    expect(messages).toEqual([
      'hello 5',
      zeroAddress,
      'true',
      'sender someone sent x',
      'pair 5 true',
      `1 2 3 ${zeroAddress}`,
      '-5',
      `0x${'abcd'.padStart(64, '0')}`,
      '0xc0ffee',
      '7',
      '',
    ])
  })

  it('addresses are checksummed', async () => {
    messages.length = 0
    await node.request({ method: 'eth_call', params: [{ from: sender(node), to: logger, input: calldata('Logger', 'hello', [1n]) }] })
    expect(messages[1]).toBe(getAddress(sender(node)))
  })

  it('mined transactions log too', async () => {
    messages.length = 0
    await node.request({ method: 'eth_sendTransaction', params: [{ from: sender(node), to: logger, input: calldata('Logger', 'bump'), gas: '0x30000' }] })
    expect(messages).toEqual(['count is 1'])
  })

  it('eth_sendTransaction without gas: the mined transaction\'s messages, once (not the estimate\'s)', async () => {
    messages.length = 0
    await node.request({ method: 'eth_sendTransaction', params: [{ from: sender(node), to: logger, input: calldata('Logger', 'bump') }] })
    expect(messages).toHaveLength(1)
    expect(messages[0]).toMatch(/^count is \d+$/)
  })

  it('eth_estimateGas that succeeds delivers nothing; one that fails delivers the failing run\'s, once', async () => {
    messages.length = 0
    await node.request({ method: 'eth_estimateGas', params: [{ from: sender(node), to: logger, input: calldata('Logger', 'bump') }] })
    expect(messages).toEqual([])
    const e = await rpcError(node, 'eth_estimateGas', [{ from: sender(node), to: logger, input: calldata('Logger', 'failAfterLog') }])
    expect(e).toMatchObject({ code: 3, message: 'execution reverted: failed after log' })
    expect(messages).toEqual(['about to fail'])
  })

  it('a send whose estimate fails (never mined) delivers the failing run\'s messages, once', async () => {
    messages.length = 0
    const e = await rpcError(node, 'eth_sendTransaction', [{ from: sender(node), to: logger, input: calldata('Logger', 'failAfterLog') }])
    expect(e.code).toBe(3)
    expect(messages).toEqual(['about to fail'])
  })

  it('eth_createAccessList delivers its call\'s messages once', async () => {
    messages.length = 0
    await node.request({ method: 'eth_createAccessList', params: [{ from: sender(node), to: logger, input: calldata('Logger', 'bump') }] })
    expect(messages).toHaveLength(1)
  })

  it('manual mining: nothing for the pool or the pending block; once when the block is mined', async () => {
    const manual = await testNode({ onConsoleLog: (m) => messages.push(m) })
    try {
      const at = await deploy(manual, 'Logger')
      manual.setMining({ mode: 'manual' })
      messages.length = 0
      await manual.request({ method: 'eth_sendTransaction', params: [{ from: sender(manual), to: at, input: calldata('Logger', 'bump') }] })
      await manual.request({ method: 'eth_getBlockByNumber', params: ['pending', false] })
      await manual.request({ method: 'eth_getBalance', params: [sender(manual), 'pending'] })
      expect(messages).toEqual([])
      await manual.mine()
      expect(messages).toEqual(['count is 1'])
    } finally {
      await manual.close()
    }
  })

  it('throwOnTransactionFailures, a failing send without gas: the mined transaction\'s messages, once', async () => {
    const hardhat = await testNode({ onConsoleLog: (m) => messages.push(m), throwOnTransactionFailures: true })
    try {
      const at = await deploy(hardhat, 'Logger')
      messages.length = 0
      const e = await rpcError(hardhat, 'eth_sendTransaction', [{ from: sender(hardhat), to: at, input: calldata('Logger', 'failAfterLog') }])
      expect(e.message).toBe("Error: VM Exception while processing transaction: reverted with reason string 'failed after log'")
      expect(messages).toEqual(['about to fail'])
    } finally {
      await hardhat.close()
    }
  })

  it('a reverting call logs what it printed before the revert', async () => {
    messages.length = 0
    const e = await rpcError(node, 'eth_call', [{ to: logger, input: calldata('Logger', 'failAfterLog') }])
    expect(e).toMatchObject({ code: 3, message: 'execution reverted: failed after log' })
    expect(messages).toEqual(['about to fail'])
  })

  it('results and gas are the same with and without a listener', async () => {
    const input = calldata('Logger', 'hello', [9n])
    const a = await node.request({ method: 'eth_call', params: [{ to: logger, input }] })
    const b = await quietNode.request({ method: 'eth_call', params: [{ to: quietLogger, input }] })
    expect(a).toBe(b)
    const ga = await node.request({ method: 'eth_estimateGas', params: [{ from: sender(node), to: logger, input }] })
    const gb = await quietNode.request({ method: 'eth_estimateGas', params: [{ from: sender(quietNode), to: quietLogger, input }] })
    expect(ga).toBe(gb)
  })

  it('a throwing listener changes nothing', async () => {
    const throwing = await testNode({ onConsoleLog: () => { throw new Error('listener failed') } })
    const at = await deploy(throwing, 'Logger')
    const out = await throwing.request({ method: 'eth_call', params: [{ to: at, input: calldata('Logger', 'hello', [1n]) }] })
    expect(BigInt(out as string)).toBe(2n)
    await throwing.close()
  })

  it('decodeConsoleLog: unknown selectors and short data are not messages', () => {
    expect(decodeConsoleLog(new Uint8Array([1, 2, 3, 4]))).toBeUndefined()
    expect(decodeConsoleLog(new Uint8Array([1, 2]))).toBeUndefined()
    // log(string) with an offset pointing past the data
    expect(decodeConsoleLog(Uint8Array.from(Buffer.from(`41304fac${'ff'.repeat(32)}`, 'hex')))).toBeUndefined()
  })
})
