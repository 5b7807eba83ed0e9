/**
 * The runs of one eth_estimateGas share what does not change between them (src/execution/call.ts,
 * `SharedRuns`): one state view and one transaction, whose gas limit each run sets. The answers
 * stay the least limit that succeeds (geth mode), whether estimates run one after another or
 * interleaved. What they share has one hidden class from its making on, so the run's stores into
 * it never meet a second one (a `wrong map` deopt of the run, seen in Seaport's replay).
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import solc from 'solc'
import { encodeDeployData, encodeFunctionData, type Abi, type Hex } from 'viem'
import { createNode } from '../../src/index.js'
import { CallExecutor, type RunOptions } from '../../src/execution/call.js'
import { sameHiddenClass } from '../helpers/hidden-class.js'

const seen = vi.hoisted(() => ({ runs: [] as Array<{ tx: object; gasLimit: bigint }> }))

// The engine's run of each transaction, recorded as it is given (the transaction object and the
// gas limit it carries at that moment), then run as it is.
vi.mock('../../src/execution/engine/run-tx.js', async (original) => {
  const mod = await original<typeof import('../../src/execution/engine/run-tx.js')>()
  return {
    ...mod,
    runTransaction: (vm: never, opts: { tx: { gasLimit: bigint } }) => {
      seen.runs.push({ tx: opts.tx, gasLimit: opts.tx.gasLimit })
      return mod.runTransaction(vm, opts as never)
    },
  }
})

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Store { uint256 a; function store(uint256 v) external { a = v; } }
contract Caller {
  uint256 b;
  function nested(address other) external { Store(other).store(7); }
  function twice(address other) external { Store(other).store(8); b = b + 1; Store(other).store(9); }
}
contract Maker { Store public s; constructor() { s = new Store(); s.store(3); } }`

function compile(): Record<string, { abi: Abi; bytecode: Hex }> {
  const input = { language: 'Solidity', sources: { 'C.sol': { content: SOURCE } }, settings: { outputSelection: { '*': { '*': ['abi', 'evm.bytecode'] } } } }
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as { contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>> }
  return Object.fromEntries(Object.entries(out.contracts['C.sol']!).map(([name, c]) => [name, { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` as Hex }]))
}

const C = compile()

type Node = Awaited<ReturnType<typeof createNode>>

async function setUp(node: Node): Promise<{ from: Hex; store: Hex; caller: Hex }> {
  const [from] = (await node.request({ method: 'eth_accounts' })) as Hex[]
  const deploy = async (bytecode: Hex): Promise<Hex> => {
    const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from, data: bytecode }] })
    return ((await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Hex }).contractAddress
  }
  const store = await deploy(encodeDeployData({ abi: C.Store!.abi, bytecode: C.Store!.bytecode }))
  const caller = await deploy(encodeDeployData({ abi: C.Caller!.abi, bytecode: C.Caller!.bytecode }))
  return { from: from!, store, caller }
}

const hex = (n: bigint): Hex => `0x${n.toString(16)}`

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the runs of one eth_estimateGas', () => {
  it('read one state view and run one transaction, its gas limit set for each run', { timeout: 60_000 }, async () => {
    const node = await createNode()
    try {
      const { from, store, caller } = await setUp(node)
      const views = vi.spyOn(CallExecutor.prototype, 'readState')
      // [name, request, the least number of runs its search makes]
      const cases: Array<[string, Record<string, unknown>, number]> = [
        // The 63/64 rule keeps the gas used below the answer: the search runs more than once.
        ['a nested call', { from, to: caller, data: encodeFunctionData({ abi: C.Caller!.abi, functionName: 'nested', args: [store] }) }, 2],
        ['two nested calls', { from, to: caller, data: encodeFunctionData({ abi: C.Caller!.abi, functionName: 'twice', args: [store] }) }, 2],
        // Its code deposit after the calls keeps more than a 64th back: the first run settles it.
        ['a deployment that creates and calls', { from, data: C.Maker!.bytecode }, 1],
        // A price: the sender's balance bounds the search, read from the same view as the runs.
        ['a priced nested call', { from, to: caller, data: encodeFunctionData({ abi: C.Caller!.abi, functionName: 'nested', args: [store] }), gasPrice: '0x3b9aca00' }, 2],
      ]
      for (const [name, req, least] of cases) {
        seen.runs.length = 0
        views.mockClear()
        const estimate = BigInt((await node.request({ method: 'eth_estimateGas', params: [req] })) as Hex)
        const runs = [...seen.runs]
        expect(runs.length, name).toBeGreaterThanOrEqual(least)
        expect(new Set(runs.map((r) => r.tx)).size, name).toBe(1)
        expect(new Set(runs.map((r) => r.gasLimit)).size, name).toBe(runs.length)
        expect(runs.slice(1).every((r) => r.gasLimit < runs[0]!.gasLimit), name).toBe(true)
        expect(views, name).toHaveBeenCalledTimes(1)
        // Still the least limit that succeeds.
        const at = async (gas: bigint) => {
          try {
            await node.request({ method: 'eth_call', params: [{ ...req, gas: hex(gas) }, 'latest'] })
            return true
          } catch {
            return false
          }
        }
        expect(await at(estimate), `${name} at ${estimate}`).toBe(true)
        expect(await at(estimate - 1n), `${name} at ${estimate - 1n}`).toBe(false)
      }
    } finally {
      await node.close()
    }
  })

  it('interleaved estimates keep their own view and transaction: the answers of one at a time', { timeout: 60_000 }, async () => {
    for (const hardhatCompat of [false, true]) {
      const node = await createNode({ hardhatCompat })
      try {
        const { from, store, caller } = await setUp(node)
        const requests = [
          { from, to: caller, data: encodeFunctionData({ abi: C.Caller!.abi, functionName: 'nested', args: [store] }) },
          { from, data: C.Maker!.bytecode },
          { from, to: caller, data: encodeFunctionData({ abi: C.Caller!.abi, functionName: 'twice', args: [store] }) },
          { from, to: store, data: encodeFunctionData({ abi: C.Store!.abi, functionName: 'store', args: [5n] }) },
        ]
        const one = async (req: object) => node.request({ method: 'eth_estimateGas', params: [req] })
        const alone: unknown[] = []
        for (const req of requests) alone.push(await one(req))
        const together = await Promise.all([...requests, ...requests].map(one))
        expect(together, `hardhatCompat ${hardhatCompat}`).toEqual([...alone, ...alone])
      } finally {
        await node.close()
      }
    }
  })

  it('behavior: what the runs share keeps one hidden class, filled in any order, in both modes', { timeout: 60_000 }, async () => {
    // Every field, in the order of SharedRuns: the class a literal of them has.
    const literal = { view: undefined, tx: undefined, madeWith: undefined }
    for (const hardhatCompat of [false, true]) {
      const node = await createNode({ hardhatCompat })
      try {
        const { from, store, caller } = await setUp(node)
        const runs = vi.spyOn(CallExecutor.prototype, 'run')
        const nested = encodeFunctionData({ abi: C.Caller!.abi, functionName: 'nested', args: [store] })
        // Unpriced (the first run reads the view), priced (geth mode reads it before the runs for
        // the balance), a deployment, several runs.
        for (const req of [{ from, to: caller, data: nested }, { from, to: caller, data: nested, gasPrice: '0x3b9aca00' as Hex }, { from, data: C.Maker!.bytecode }]) {
          runs.mockClear()
          await node.request({ method: 'eth_estimateGas', params: [req] })
          const shared = runs.mock.calls.map((call) => (call[3] as RunOptions).shared)
          expect(shared.length).toBeGreaterThan(0)
          for (const s of shared) expect(sameHiddenClass(s!, literal), `hardhatCompat ${hardhatCompat}, ${JSON.stringify(Object.keys(req))}`).toBe(true)
        }
        runs.mockRestore()
      } finally {
        await node.close()
      }
    }
  })
})
