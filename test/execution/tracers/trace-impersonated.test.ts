/**
 * Tracing a mined transaction sent by an impersonated address that has code: the block was built
 * with EIP-3607 skipped for it, so the replay skips it too, whatever the tracer reads first.
 */
import { MemoryLevel } from 'memory-level'
import { describe, expect, test } from 'vitest'
import { trackNodes } from '../../helpers/nodes.js'

const newNode = trackNodes()
type Node = Awaited<ReturnType<typeof newNode>>
const contract = '0x00000000000000000000000000000000000000cc'
const code = '0x6001600055'

const rpc = (node: Node, method: string, ...params: unknown[]) => node.request({ method, params })

async function sendFromContract(node: Node): Promise<string> {
  await rpc(node, 'hardhat_setCode', contract, code)
  await rpc(node, 'hardhat_setBalance', contract, '0xde0b6b3a7640000')
  await rpc(node, 'hardhat_impersonateAccount', contract)
  return (await rpc(node, 'eth_sendTransaction', { from: contract, to: node.accounts[0]!.address, value: '0x1' })) as string
}

describe('an impersonated sender with code', () => {
  test('behavior: debug_traceTransaction replays it with the struct logger, callTracer and prestateTracer', async () => {
    const node = await newNode()
    const hash = await sendFromContract(node)
    expect(await rpc(node, 'debug_traceTransaction', hash)).toMatchObject({ gas: 21000, failed: false })
    expect(await rpc(node, 'debug_traceTransaction', hash, { tracer: 'callTracer' })).toMatchObject({ from: contract, gasUsed: '0x5208', value: '0x1' })
    // The prestate shows the sender as it is, code included.
    const prestate = (await rpc(node, 'debug_traceTransaction', hash, { tracer: 'prestateTracer' })) as Record<string, { code?: string }>
    expect(prestate[contract]?.code).toBe(code)
    const block = (await rpc(node, 'debug_traceBlockByNumber', 'latest', { tracer: 'callTracer' })) as Array<{ txHash: string }>
    expect(block.map((t) => t.txHash)).toEqual([hash])
  })

  test('behavior: debug_traceCall from an address with code runs, as eth_call does', async () => {
    const node = await newNode()
    await rpc(node, 'hardhat_setCode', contract, code)
    expect(await rpc(node, 'debug_traceCall', { from: contract, to: node.accounts[0]!.address }, 'latest', { tracer: 'callTracer' })).toMatchObject({ from: contract, type: 'CALL' })
  })

  test('behavior: a chain resumed from its database replays it too (the block decoded from its bytes)', async () => {
    const db = new MemoryLevel({ keyEncoding: 'utf8', valueEncoding: 'view' })
    const first = await newNode({ db })
    const hash = await sendFromContract(first)
    await first.close()
    const second = await newNode({ db })
    expect(await rpc(second, 'debug_traceTransaction', hash, { tracer: 'callTracer' })).toMatchObject({ from: contract, gasUsed: '0x5208' })
  })
})
