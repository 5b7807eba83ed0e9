/**
 * debug_traceBlockFromFile: an RLP block read from a file of the profiling directory and traced as
 * debug_traceBlock traces it; over node.request, HTTP and WebSocket. Paths outside the directory,
 * symbolic links, missing and oversized files, and a node without profiling are refused.
 */
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hexToBytes, type Hex } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../../src/index.js'
import { trackNodes } from '../../helpers/nodes.js'
import { servedOverHttpAndWs, rpc } from '../../helpers/loopback.js'
import { calldata, deploy, rpcError, sender } from '../../helpers/execution.js'

const newNode = trackNodes()
let node: FinalityNode
let dir: string
let rlp: Hex
let blockNumber: Hex

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'finality-fromfile-'))
  node = await newNode({ enableProfiling: true, profilingDir: dir, limits: { httpBodyBytes: 64 * 1024 } })
  const counter = await deploy(node, 'Counter')
  const hash = (await node.request({ method: 'eth_sendTransaction', params: [{ from: sender(node), to: counter, data: calldata('Counter', 'increment') }] })) as Hex
  blockNumber = ((await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { blockNumber: Hex }).blockNumber
  rlp = (await node.request({ method: 'debug_getRawBlock', params: [blockNumber] })) as Hex
  writeFileSync(join(dir, 'block.rlp'), hexToBytes(rlp))
})

describe('debug_traceBlockFromFile', () => {
  const served = servedOverHttpAndWs(() => node, ['eth', 'debug'])

  it('traces the file\'s block as debug_traceBlock and debug_traceBlockByNumber do, over every transport', async () => {
    const config = { tracer: 'callTracer' }
    const expected = await node.request({ method: 'debug_traceBlockByNumber', params: [blockNumber, config] })
    expect(await node.request({ method: 'debug_traceBlock', params: [rlp, config] })).toEqual(expected)
    expect(await node.request({ method: 'debug_traceBlockFromFile', params: ['block.rlp', config] })).toEqual(expected)
    expect(await node.request({ method: 'debug_traceBlockFromFile', params: [join(dir, 'block.rlp'), config] })).toEqual(expected)
    expect((await rpc(served.http, 'debug_traceBlockFromFile', ['block.rlp', config])).result).toEqual(expected)
    expect((await served.ws.call('debug_traceBlockFromFile', ['block.rlp', config])).result).toEqual(expected)
  })

  it('refuses paths outside the profiling directory and symbolic links; a missing file is geth\'s could not read file', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'finality-outside-'))
    writeFileSync(join(outside, 'block.rlp'), hexToBytes(rlp))
    symlinkSync(join(outside, 'block.rlp'), join(dir, 'link.rlp'))
    for (const file of ['../block.rlp', join(outside, 'block.rlp')]) {
      expect(await rpcError(node, 'debug_traceBlockFromFile', [file])).toMatchObject({ code: -32000, message: expect.stringMatching(/^refusing to read .*: outside the profiling directory/) })
    }
    expect(await rpcError(node, 'debug_traceBlockFromFile', ['link.rlp'])).toMatchObject({ code: -32000, message: 'refusing to read link.rlp: it is a symbolic link' })
    expect(await rpcError(node, 'debug_traceBlockFromFile', ['missing.rlp'])).toMatchObject({ code: -32000, message: expect.stringMatching(/^could not read file: ENOENT/) })
    expect((await rpc(served.http, 'debug_traceBlockFromFile', ['../block.rlp'])).error).toMatchObject({ code: -32000 })
  })

  it('bad input: garbage, a file past limits.httpBodyBytes, a non-string name; without profiling it is refused', async () => {
    writeFileSync(join(dir, 'garbage.rlp'), 'not rlp at all')
    expect(await rpcError(node, 'debug_traceBlockFromFile', ['garbage.rlp'])).toMatchObject({ code: -32000, message: expect.stringMatching(/^could not decode block: /) })
    writeFileSync(join(dir, 'big.rlp'), new Uint8Array(64 * 1024 + 1))
    expect(await rpcError(node, 'debug_traceBlockFromFile', ['big.rlp'])).toMatchObject({
      code: -32000,
      message: 'could not read file: big.rlp is 65537 bytes, more than limits.httpBodyBytes (65536)',
    })
    writeFileSync(join(dir, 'edge.rlp'), new Uint8Array(64 * 1024))
    expect(await rpcError(node, 'debug_traceBlockFromFile', ['edge.rlp'])).toMatchObject({ code: -32000, message: expect.stringMatching(/^could not decode block: /) })
    expect(await rpcError(node, 'debug_traceBlockFromFile', [7])).toMatchObject({ code: -32602, message: 'invalid argument 0: json: cannot unmarshal number into Go value of type string' })
    const off = await newNode()
    expect(await rpcError(off, 'debug_traceBlockFromFile', ['block.rlp'])).toMatchObject({ code: -32000, message: expect.stringMatching(/^profiling is disabled/) })
    // The node serves on.
    expect(await node.request({ method: 'eth_blockNumber', params: [] })).toMatch(/^0x/)
  })
})
