/**
 * debug_standardTraceBlockToFile / debug_standardTraceBadBlockToFile: EIP-3155 JSON lines, one file
 * per transaction, written into the profiling directory; over node.request, HTTP and WebSocket.
 */
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { RLP } from '@ethereumjs/rlp'
import { keccak256, type Hex } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../../src/index.js'
import { trackNodes } from '../../helpers/nodes.js'
import { servedOverHttpAndWs, rpc as httpRpc } from '../../helpers/loopback.js'
import { calldata, deploy, rpcError, sender } from '../../helpers/execution.js'

const newNode = trackNodes()
const fixtures = new URL('../../fixtures/execution-apis', import.meta.url).pathname
const call = <T>(node: FinalityNode, method: string, params: unknown[] = []) => node.request({ method, params }) as Promise<T>
const lines = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)

describe('debug_standardTraceBlockToFile', () => {
  let node: FinalityNode
  let dir: string
  let blockHash: Hex
  let txs: Hex[]
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'finality-stdtrace-'))
    node = await newNode({ enableProfiling: true, profilingDir: dir })
    const counter = await deploy(node, 'Counter')
    await node.request({ method: 'evm_setAutomine', params: [false] })
    txs = [
      await call<Hex>(node, 'eth_sendTransaction', [{ from: sender(node), to: counter, data: calldata('Counter', 'increment'), gas: '0x30000' }]),
      // Runs out of gas inside the loop: a failing transaction's last line carries the error.
      await call<Hex>(node, 'eth_sendTransaction', [{ from: sender(node), to: counter, data: calldata('Counter', 'burn', [50n]), gas: '0x10000' }]),
    ]
    await node.mine()
    blockHash = (await call<{ hash: Hex }>(node, 'eth_getBlockByNumber', ['latest', false])).hash
  })

  it('default: one EIP-3155 file per transaction, named as geth names them; the same opcodes as the struct logger', async () => {
    const files = await call<string[]>(node, 'debug_standardTraceBlockToFile', [blockHash])
    expect(files).toHaveLength(2)
    for (const [i, file] of files.entries()) {
      expect(file.startsWith(dir)).toBe(true)
      expect(basename(file)).toMatch(new RegExp(`^block_${blockHash.slice(0, 10)}-${i}-${txs[i]!.slice(0, 10)}-\\d+$`))
      const [first, ...rest] = lines(file)
      const summary = rest.pop()!
      const steps = [first!, ...rest]
      const struct = await call<{ structLogs: Array<{ pc: number; op: string; gas: number; gasCost: number; depth: number; stack: string[] }>; gas: number }>(node, 'debug_traceTransaction', [txs[i]])
      expect(steps).toHaveLength(struct.structLogs.length)
      expect(first).toEqual({ pc: 0, op: 0x60, gas: `0x${struct.structLogs[0]!.gas.toString(16)}`, gasCost: '0x3', memSize: 0, stack: [], depth: 1, refund: 0, opName: 'PUSH1' })
      steps.forEach((step, j) => {
        const s = struct.structLogs[j]!
        expect([step.pc, step.opName, step.depth, step.stack]).toEqual([s.pc, s.op, s.depth, s.stack])
      })
      // MSTORE of the free memory pointer grows memory to 96 bytes.
      expect(steps[2]).toMatchObject({ opName: 'MSTORE', memSize: 0 })
      expect(steps[3]!.memSize).toBe(96)
      const receipt = await call<{ gasUsed: Hex; status: Hex }>(node, 'eth_getTransactionReceipt', [txs[i]])
      expect(summary.gasUsed).toBe(receipt.gasUsed)
      if (i === 0) expect(summary).toEqual({ output: '', gasUsed: receipt.gasUsed })
      else expect(summary).toEqual({ output: '', gasUsed: receipt.gasUsed, error: 'out of gas' })
    }
  })

  it('default: txHash picks one transaction; disableStack and enableMemory shape the lines', async () => {
    const [file] = await call<string[]>(node, 'debug_standardTraceBlockToFile', [blockHash, { txHash: txs[1], disableStack: true, enableMemory: true }])
    expect(basename(file!)).toMatch(/-1-/)
    const steps = lines(file!).slice(0, -1)
    expect(steps.every((s) => !('stack' in s))).toBe(true)
    expect(steps[3]!.memory).toBe(`0x${'00'.repeat(64)}${'00'.repeat(31)}80`)
  })

  it('error: profiling off, unknown block, a hash not in the block, bad types; nothing written', async () => {
    const before = readdirSync(dir).length
    const off = await newNode()
    expect(await rpcError(off, 'debug_standardTraceBlockToFile', [blockHash])).toMatchObject({ code: -32000, message: expect.stringContaining('enableProfiling') })
    expect(await rpcError(node, 'debug_standardTraceBlockToFile', [`0x${'11'.repeat(32)}`])).toEqual({ code: -32000, message: `block 0x${'11'.repeat(32)} not found` })
    expect(await rpcError(node, 'debug_standardTraceBlockToFile', [blockHash, { txHash: `0x${'22'.repeat(32)}` }])).toEqual({ code: -32000, message: `transaction 0x${'22'.repeat(32)} not found in block` })
    expect((await rpcError(node, 'debug_standardTraceBlockToFile', [blockHash, { txHash: '0x12' }])).code).toBe(-32602)
    expect((await rpcError(node, 'debug_standardTraceBlockToFile', [blockHash, { disableStack: 'yes' }])).code).toBe(-32602)
    expect((await rpcError(node, 'debug_standardTraceBlockToFile', [blockHash, 5])).code).toBe(-32602)
    expect((await rpcError(node, 'debug_standardTraceBlockToFile', ['latest'])).code).toBe(-32602)
    expect(await rpcError(node, 'debug_standardTraceBadBlockToFile', [blockHash])).toEqual({ code: -32000, message: `bad block ${blockHash} not found` })
    expect(readdirSync(dir).length).toBe(before)
  })

  describe('over HTTP and WebSocket', () => {
    const served = servedOverHttpAndWs(() => node, ['eth', 'debug'])

    it('answers the file names', async () => {
      const overHttp = (await httpRpc(served.http, 'debug_standardTraceBlockToFile', [blockHash, { txHash: txs[0] }])).result as string[]
      const overWs = (await served.ws.call('debug_standardTraceBlockToFile', [blockHash, { txHash: txs[0] }])).result as string[]
      expect(overHttp).toHaveLength(1)
      expect(overWs).toHaveLength(1)
      expect(overHttp[0]).not.toBe(overWs[0])
      expect(readFileSync(overHttp[0]!, 'utf8')).toBe(readFileSync(overWs[0]!, 'utf8'))
    })
  })
})

describe('debug_standardTraceBadBlockToFile', () => {
  it('default: a refused imported block is traced into files', async () => {
    const genesis = JSON.parse(readFileSync(`${fixtures}/genesis.json`, 'utf8'))
    let rest: Uint8Array = new Uint8Array(readFileSync(`${fixtures}/chain.rlp`))
    const blocks: Uint8Array[] = []
    for (let i = 0; i < 3; i++) {
      const { data, remainder } = RLP.decode(rest, true) as unknown as { data: Uint8Array[][]; remainder: Uint8Array }
      blocks.push(RLP.encode(data as never))
      rest = remainder
    }
    const third = RLP.decode(blocks[2]!) as unknown as Uint8Array[][]
    ;(third[0] as Uint8Array[])[10] = Uint8Array.of(1, 2, 3)
    const bad = RLP.encode(third as never)
    const badHash = keccak256(RLP.encode(third[0] as never))
    const dir = mkdtempSync(join(tmpdir(), 'finality-stdtrace-bad-'))
    const node = await newNode({ genesis, mining: { mode: 'manual' }, enableProfiling: true, profilingDir: dir })
    await expect(node.importBlocks(Buffer.concat([blocks[0]!, blocks[1]!, bad]))).rejects.toThrow(/block 3 is invalid/)
    const files = await call<string[]>(node, 'debug_standardTraceBadBlockToFile', [badHash])
    const block = (await call<Array<{ block: { transactions: Hex[] } }>>(node, 'debug_getBadBlocks'))[0]!.block
    expect(files).toHaveLength(block.transactions.length)
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) {
      const all = lines(file)
      expect(all.at(-1)).toHaveProperty('gasUsed')
    }
  })
})
