/**
 * The JSON and text examples of the docs held to what the node answers: each block, read from its
 * page at test time, is a template (test/docs/template.ts) matched against the answer of the
 * request the page describes, on a chain made so the examples' own values come out (the
 * addresses of the first deployments, block 3, the gas limits the examples show).
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { encodeFunctionData, getContractAddress, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'
import { loadArtifacts } from '../helpers/compile.js'
import { WsClient } from '../helpers/loopback.js'
import { ROOT, block } from './blocks.js'
import { matchTemplate, parseTemplate, type Template } from './template.js'

const art = loadArtifacts()
/** A contract whose code is PUSH1 0x2a PUSH1 0 SSTORE: the struct logger's example (SSTORE at pc 4). */
const STORE_42 = '0x64602a6000556000526005601bf3'

let node: FinalityNode
let from: Hex
const tx: Record<string, Hex> = {}
const at: Record<string, Hex> = {}

async function send(params: Record<string, unknown>): Promise<{ hash: Hex; receipt: { contractAddress: Hex | null; blockNumber: Hex; blockHash: Hex } }> {
  const hash = (await node.request({ method: 'eth_sendTransaction', params: [{ from, ...params }] } as never)) as Hex
  return { hash, receipt: (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] } as never)) as never }
}

async function call(method: string, params: unknown[] = []): Promise<unknown> {
  return node.request({ method, params } as never)
}

function data(name: string, functionName: string, args: unknown[] = []): Hex {
  return encodeFunctionData({ abi: art[name]!.abi, functionName, args } as never)
}

beforeAll(async () => {
  node = await createNode()
  from = node.accounts[0]!.address
  // Blocks 1 and 2: TraceMatrix at 0x5fbd…, TraceTarget at 0xe7f1…; block 3: nested(target, 7)
  // with 5 wei and 30M gas, whose DELEGATECALL of the non-payable get() reverts (docs/tracing.md).
  at.matrix = (await send({ data: art.TraceMatrix!.bytecode })).receipt.contractAddress!
  at.target = (await send({ data: art.TraceTarget!.bytecode })).receipt.contractAddress!
  tx.nested = (await send({ to: at.matrix, value: '0x5', gas: '0x1c9c380', data: data('TraceMatrix', 'nested', [at.target, 7n]) })).hash
  tx.set = (await send({ to: at.target, data: data('TraceTarget', 'set', [7n]) })).hash
  const callee = (await send({ data: art.Callee!.bytecode })).receipt.contractAddress!
  at.caller = (await send({ data: art.Caller!.bytecode })).receipt.contractAddress!
  tx.tryCallFail = (await send({ to: at.caller, gas: '0x30d40', data: data('Caller', 'tryCallFail', [callee]) })).hash
  at.store42 = (await send({ data: STORE_42 })).receipt.contractAddress!
  tx.store42 = (await send({ to: at.store42, gas: '0x186a0' })).hash
}, 60_000)

afterAll(async () => {
  await node?.close()
})

describe('docs/tracing.md', () => {
  it('the trace config is taken as written (a callTracer with its logs)', async () => {
    const config = JSON.parse(block('tracing.md', 1, 'json')) as unknown
    const trace = (await call('debug_traceTransaction', [tx.tryCallFail, config])) as { type: string; logs: unknown[] }
    expect(trace.type).toBe('CALL')
    expect(trace.logs).toHaveLength(1)
  })

  it("the struct logger's example is a call of PUSH1 0x2a PUSH1 0 SSTORE with 100 000 gas", async () => {
    const trace = (await call('debug_traceTransaction', [tx.store42])) as { gas: number; structLogs: Array<{ op: string; pc: number }> }
    expect(matchTemplate(block('tracing.md', 2, 'json'), trace)).toEqual([])
    // The bullets under it: `gas` is the receipt's gas used; past the end of the code, the implicit STOP.
    expect(trace.gas).toBe(Number(((await call('eth_getTransactionReceipt', [tx.store42])) as { gasUsed: Hex }).gasUsed))
    expect(trace.structLogs.at(-1)).toMatchObject({ op: 'STOP', pc: 5 })
  })

  it("the callTracer's example is Caller.tryCallFail with 200 000 gas", async () => {
    const trace = (await call('debug_traceTransaction', [tx.tryCallFail, { tracer: 'callTracer', tracerConfig: { withLog: true } }])) as { gasUsed: Hex }
    expect(matchTemplate(block('tracing.md', 3, 'json'), trace)).toEqual([])
    // The bullet under it: the top frame's gasUsed is the receipt's.
    expect(trace.gasUsed).toBe(((await call('eth_getTransactionReceipt', [tx.tryCallFail])) as { gasUsed: Hex }).gasUsed)
  })

  it('the JavaScript tracer runs as written: its setup reads the config, its result counts the steps', async () => {
    const tracer = block('tracing.md', 4, 'js')
    const steps = (await call('debug_traceTransaction', [tx.store42, { tracer: 'opcodeTracer' }])) as string[]
    expect(await call('debug_traceTransaction', [tx.store42, { tracer, tracerConfig: { any: 1 } }])).toBe(steps.length)
    // A config that is not JSON text fails its setup: the tracer does call it.
    await expect(call('debug_traceTransaction', [tx.store42, { tracer: tracer.replace('JSON.parse(cfg)', 'JSON.parse("{")') }])).rejects.toThrow()
  })

  it('the tracer object runs in the process: the SSTOREs it saw, the gas and a balance from db', async () => {
    const snippet = block('tracing.md', 5, 'ts')
    const slots: bigint[] = []
    const run = new Function('node', 'hash', 'slots', `return (async () => { ${snippet}; return result })()`) as (n: FinalityNode, h: Hex, s: bigint[]) => Promise<{ gasUsed: bigint; balance: bigint }>
    const result = await run(node, tx.store42!, slots)
    expect(slots).toEqual([0n])
    expect(result.gasUsed).toBe(43106n)
    // `result` runs after the transaction: the sender's balance is the one after it, the unused gas refunded.
    const receipt = (await call('eth_getTransactionReceipt', [tx.store42])) as { blockNumber: Hex }
    expect(result.balance).toBe(BigInt((await call('eth_getBalance', [from, receipt.blockNumber])) as Hex))
  })

  it("the flat trace's example is the DELEGATECALL of nested(target, 7) in block 3", async () => {
    const traces = (await call('trace_transaction', [tx.nested])) as Array<{ traceAddress: number[] }>
    expect(matchTemplate(block('tracing.md', 6, 'json'), traces[3])).toEqual([])
  })

  it("the stateDiff's example is TraceTarget.set(7)", async () => {
    const replay = (await call('trace_replayTransaction', [tx.set, ['stateDiff']])) as { stateDiff: unknown }
    expect(matchTemplate(block('tracing.md', 7, 'json'), replay.stateDiff)).toEqual([])
  })

  it("the vmTrace's example is nested(target, 7)'s", async () => {
    const replay = (await call('trace_replayTransaction', [tx.nested, ['vmTrace']])) as { vmTrace: unknown }
    expect(matchTemplate(block('tracing.md', 8, 'json'), replay.vmTrace)).toEqual([])
  })
})

describe('docs/controls.md', () => {
  it('a state dump has the fields the page shows', async () => {
    expect(matchTemplate(block('controls.md', 2, 'json'), node.dumpState())).toEqual([])
  })

  it('admin_nodeInfo has the fields and values the page shows', async () => {
    expect(matchTemplate(block('controls.md', 3, 'json'), await call('admin_nodeInfo'))).toEqual([])
  })
})

describe('docs/execution.md', () => {
  /** Code that returns one word: the value `op` pushes (an opcode byte, or several). */
  const returning = (op: string): Hex => `0x${op}60005260206000f3`
  const word = (n: bigint | string): Hex => `0x${BigInt(n).toString(16).padStart(64, '0')}`
  const SLOT0 = `0x${'00'.repeat(32)}`
  /** Each state override field the page names: the override, the code the call runs, what it returns. */
  const ACCOUNT: Record<string, [unknown, Hex, Hex]> = {
    balance: ['0x7', returning('3031'), word(7n)],
    // CREATE's address is the creator's and its nonce's.
    nonce: ['0x5', returning('600060006000f0'), word(getContractAddress({ from: '0x00000000000000000000000000000000000c0de0', nonce: 5n }))],
    code: [returning('602a'), returning('602a'), word(42n)],
    state: [{ [SLOT0]: word(42n) }, returning('600054'), word(42n)],
    stateDiff: [{ [SLOT0]: word(42n) }, returning('600054'), word(42n)],
    // sha256 (0x02) moved: a call to its new address hashes ("abc").
    movePrecompileToAddress: ['0x0000000000000000000000000000000000000bee', '0x616263', `0x${createHash('sha256').update('abc').digest('hex')}`],
  }
  /** Each block override field the page names: the value and the opcode that reads it. */
  const BLOCK: Record<string, [Hex, string]> = {
    number: ['0x64', '43'],
    time: ['0x7fffffff', '42'],
    gasLimit: ['0x1c9c380', '45'],
    feeRecipient: ['0x0000000000000000000000000000000000000b0b', '41'],
    prevRandao: [word(7n), '44'],
    baseFeePerGas: ['0x0', '48'],
    blobBaseFee: ['0x3', '4a'],
  }

  it('eth_call takes every state and block override field the page names, and each does what it says', async () => {
    const template = parseTemplate(block('execution.md', 1, 'json'))
    if (template.kind !== 'array') throw new Error('the page shows the params as an array')
    const [, , accounts, blockOverrides] = template.items
    const keysOf = (t: Template | undefined): string[] => (t?.kind === 'object' ? t.entries.flatMap((e) => e.keys) : [])
    const accountKeys = accounts?.kind === 'object' ? accounts.entries[0]?.values[0] : undefined
    expect(keysOf(accountKeys).sort()).toEqual(Object.keys(ACCOUNT).sort())
    expect(keysOf(blockOverrides).sort()).toEqual(Object.keys(BLOCK).sort())
    const target = '0x00000000000000000000000000000000000c0de0'
    for (const [key, [value, code, expected]] of Object.entries(ACCOUNT)) {
      // movePrecompileToAddress moves a precompile: the override is keyed by one (sha256, 0x02).
      const answer =
        key === 'movePrecompileToAddress'
          ? await call('eth_call', [{ from, to: value, data: code }, 'latest', { '0x0000000000000000000000000000000000000002': { [key]: value } }])
          : await call('eth_call', [{ from, to: target }, 'latest', { [target]: { code, [key]: value } }])
      expect(answer, key).toBe(expected)
    }
    for (const [key, [value, op]] of Object.entries(BLOCK)) {
      const answer = await call('eth_call', [{ from, to: target }, 'latest', { [target]: { code: returning(op) } }, { [key]: value }])
      expect(answer, key).toBe(word(value))
    }
  })

  it('testing_buildBlockV1 answers the shape the page shows', async () => {
    const head = (await call('eth_getBlockByNumber', ['latest', false])) as { hash: Hex; timestamp: Hex }
    const raw = (await call('eth_signTransaction', [{ from, to: from, value: '0x1', gas: '0x5208', nonce: (await call('eth_getTransactionCount', [from, 'latest'])) as Hex }])) as Hex
    const attributes = {
      timestamp: `0x${(BigInt(head.timestamp) + 5n).toString(16)}`,
      prevRandao: `0x${'11'.repeat(32)}`,
      suggestedFeeRecipient: `0x${'22'.repeat(20)}`,
      withdrawals: [],
      parentBeaconBlockRoot: `0x${'00'.repeat(32)}`,
    }
    expect(matchTemplate(block('execution.md', 2, 'json'), await call('testing_buildBlockV1', [head.hash, attributes, [raw]]))).toEqual([])
  })
})

describe('docs/debug.md', () => {
  it('debug_printBlock prints the lines the page shows (a transfer in block 1)', async () => {
    const fresh = await createNode()
    try {
      await fresh.request({ method: 'eth_sendTransaction', params: [{ from: fresh.accounts[0]!.address, to: fresh.accounts[1]!.address, value: '0x1' }] })
      const text = (await fresh.request({ method: 'debug_printBlock', params: [1] })) as string
      // `…` with its note (over one or more lines) stands for lines; `0x1c7a…6bdf` for a hash or address.
      const lines = block('debug.md', 1, '').replace(/\n +…[^\n]*(?:\n {20,}[^\n]*)*/g, '\n…').split('\n').filter((l) => l !== '')
      const source = lines
        .map((l) => (l === '…' ? '(?:[^\\n]*\\n)*?' : `${l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/0x[0-9a-f]+…[0-9a-f]+/g, '0x[0-9a-f]+')}\\n`))
        .join('')
      expect(text).toMatch(new RegExp(`^${source}$`))
    } finally {
      await fresh.close()
    }
  })

  it("debug_dumpBlock answers the page's shape", async () => {
    expect(matchTemplate(block('debug.md', 2, ''), await call('debug_dumpBlock', ['latest']))).toEqual([])
  })

  it('debug_subscribe("traceChain") notifies blocks as the page shows, over WebSocket', async () => {
    const served = await node.listen({ port: 0, api: ['eth', 'debug'] })
    const ws = await WsClient.connect(served.ws!)
    try {
      const sub = await ws.call('debug_subscribe', ['traceChain', '0x1', '0x2'])
      const note = () => ws.messages.find((m) => m.method === 'debug_subscription')
      while (note() === undefined) await ws.waitFor(ws.messages.length + 1)
      expect(matchTemplate(block('debug.md', 3, ''), note())).toEqual([])
      expect(note().params.subscription).toBe(sub.result)
    } finally {
      ws.close()
      await served.close()
    }
  })
})

describe('docs/validators.md', () => {
  it('finality_getValidators and node.validators have the fields the page lists, in the same order', async () => {
    const page = readFileSync(path.join(ROOT, 'docs', 'validators.md'), 'utf8').replace(/\s+/g, ' ')
    const names = (after: string) => [...(new RegExp(`${after}([^;]*);`).exec(page)?.[1] ?? '').matchAll(/`(\w+)`/g)].map((m) => m[1])
    const four = await createNode({ validators: 4 })
    try {
      const listed = (await four.request({ method: 'finality_getValidators' })) as Array<Record<string, unknown>>
      expect(Object.keys(listed[0]!).sort()).toEqual(names('`finality_getValidators` lists ').sort())
      expect(listed.map((v) => v.address)).toEqual([...listed.map((v) => v.address as string)].sort())
      const own = four.validators
      expect(Object.keys(own[0]!).sort()).toEqual(names('`node.validators` lists the same validators in the same order as objects with ').sort())
      expect(own.map((v) => v.address)).toEqual(listed.map((v) => v.address))
      expect(typeof own[0]!.power).toBe('bigint')
    } finally {
      await four.close()
    }
  })
})

describe('docs/in-process.md', () => {
  it("clientConfig(node) is the object the page says, under the viem block", async () => {
    const { clientConfig } = await import('../../src/adapters/viem.js')
    const page = readFileSync(path.join(ROOT, 'docs', 'in-process.md'), 'utf8')
    const said = /`clientConfig\(node\)` is `\{ ([^}]*) \}`/.exec(page)?.[1] as string
    const config = clientConfig(node) as unknown as Record<string, unknown>
    const entries = said.split(', ').map((e) => e.split(': '))
    expect(Object.keys(config).sort()).toEqual(entries.map(([k]) => k).sort())
    for (const [key, value] of entries) if (value !== undefined) expect(config[key as string], key).toBe(Number(value))
    expect((config.chain as { id: number }).id).toBe(31337)
  })
})
