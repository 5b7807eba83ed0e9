/**
 * eth_estimateGas with the gas watch (src/execution/gas-watch.ts): a first run that proves a lower
 * limit runs the same way saves the search's runs, and no answer changes. Cases where gas decides
 * something (GAS, an SSTORE near the 2,300 sentry, a call passed all but a 64th or a capped amount,
 * a callee that runs out of gas, CREATE, refunds): Hardhat mode's answers equal Hardhat Network's
 * own (Hardhat 2.29.1's provider), and geth mode's are exact (a call with the estimate succeeds,
 * with one gas less fails).
 */
import { describe, expect, it, vi } from 'vitest'
import solc from 'solc'
import { encodeDeployData, encodeFunctionData, type Abi, type Hex } from 'viem'
import { createNode } from '../../src/index.js'
import { hardhatSide, finalitySide, type Side } from '../differential/sides.js'
import { CallExecutor } from '../../src/execution/call.js'

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Small { uint256 public x = 1; }
contract Big { uint256[] xs; constructor() { for (uint256 i = 0; i < 60; i++) xs.push(i); } }
contract Cases {
  uint256 a;
  uint256 b;
  uint256[] list;
  function store(uint256 v) external { a = v; }
  function clearThenSet() external { a = 0; b = b + 1; }
  function readGas() external { b = gasleft(); }
  function nested(address other) external { Cases(other).store(7); }
  function capped(address other) external { Cases(other).store{gas: 30000}(8); }
  function starved(address other) external { (bool ok,) = other.call{gas: 22200}(abi.encodeWithSignature("store(uint256)", 9)); a = ok ? 1 : 2; }
  function lastNoop() external { uint256 v = a; a = v; }
  function make() external { new Small(); }
  function makeBig() external { new Big(); }
  function loop(uint256 n) external { for (uint256 i = 0; i < n; i++) list.push(i); }
  function nestedLoop(address other) external { Cases(other).loop(30); }
  function deepLoop(address other) external { Cases(other).loop(200); }
  function gated() external { require(gasleft() > 40000); a = 3; }
  function gatedHigh() external { require(gasleft() > 100000); a = 4; }
}`

function compile(): { abi: Abi; bytecode: Hex } {
  const input = { language: 'Solidity', sources: { 'Cases.sol': { content: SOURCE } }, settings: { outputSelection: { '*': { '*': ['abi', 'evm.bytecode'] } } } }
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as { contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>> }
  const c = out.contracts['Cases.sol']!.Cases!
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` }
}

const { abi, bytecode } = compile()
const CALLS: Array<[string, unknown[]]> = [
  ['store', [5n]],
  ['clearThenSet', []],
  ['readGas', []],
  ['nested', ['OTHER']],
  ['capped', ['OTHER']],
  ['starved', ['OTHER']],
  ['lastNoop', []],
  ['make', []],
  ['makeBig', []],
  ['loop', [20n]],
  ['nestedLoop', ['OTHER']],
  ['deepLoop', ['OTHER']],
  ['gated', []],
]

async function ok<T>(side: Side, method: string, params: unknown[]): Promise<T> {
  const answer = await side.request(method, params)
  if ('error' in answer) throw new Error(`${side.name} ${method}: ${answer.error.message}`)
  return answer.result as T
}

async function deployTwo(side: Side, from: Hex): Promise<[Hex, Hex]> {
  const out: Hex[] = []
  for (let i = 0; i < 2; i++) {
    const hash = await ok<Hex>(side, 'eth_sendTransaction', [{ from, data: encodeDeployData({ abi, bytecode }) }])
    const receipt = await ok<{ contractAddress: Hex }>(side, 'eth_getTransactionReceipt', [hash])
    out.push(receipt.contractAddress)
  }
  // A first write to each slot, so that later estimates see warm and set storage.
  for (const at of out) await ok(side, 'eth_sendTransaction', [{ from, to: at, data: encodeFunctionData({ abi, functionName: 'store', args: [1n] }) }])
  return out as [Hex, Hex]
}

function data(name: string, args: unknown[], other: Hex): Hex {
  return encodeFunctionData({ abi, functionName: name, args: args.map((a) => (a === 'OTHER' ? other : a)) } as never)
}

describe('eth_estimateGas with the gas watch', () => {
  it("Hardhat mode: every estimate equals Hardhat Network's own", { timeout: 60_000 }, async () => {
    const config = { mode: 'provider' as const, initialDate: new Date('2026-01-01T00:00:00Z'), allowUnlimitedContractSize: false }
    const hardhat = await hardhatSide(config)
    const finality = await finalitySide(config)
    try {
      const [from] = await ok<Hex[]>(finality, 'eth_accounts', [])
      const [ha, hb] = await deployTwo(hardhat, from!)
      const [fa, fb] = await deployTwo(finality, from!)
      expect([fa, fb]).toEqual([ha, hb])
      for (const [name, args] of CALLS) {
        const req = { from, to: fa, data: data(name, args, fb) }
        const theirs = await ok<Hex>(hardhat, 'eth_estimateGas', [req])
        const ours = await ok<Hex>(finality, 'eth_estimateGas', [req])
        expect(BigInt(ours), name).toBe(BigInt(theirs))
      }
      // EIP-7825: a search step above the cap, and a limit the request names above it, are
      // refused as Hardhat refuses them (its search goes up to the block's 60M gas limit).
      const refusals: Array<[string, Record<string, unknown>]> = [
        ['a step above the cap', { from, to: fa, data: data('gatedHigh', [], fb) }],
        ['a named limit above the cap', { from, to: fa, data: data('store', [5n], fb), gas: '0x1312d00' }],
      ]
      for (const [what, req] of refusals) {
        const theirs = await hardhat.request('eth_estimateGas', [req])
        const ours = await finality.request('eth_estimateGas', [req])
        expect('error' in theirs && theirs.error.message, what).toMatch(/^transaction gas limit \(\d+\) is greater than the cap \(16777216\)$/)
        expect('error' in ours && { code: ours.error.code, message: ours.error.message }, what).toEqual('error' in theirs && { code: theirs.error.code, message: theirs.error.message })
      }
    } finally {
      await hardhat.close()
      await finality.close()
    }
  })

  it('geth mode: every estimate is the least limit a call succeeds with', { timeout: 60_000 }, async () => {
    const node = await createNode()
    try {
      const side: Side = {
        name: 'finality',
        request: async (method, params) => {
          try {
            return { result: await node.request({ method, params } as never) }
          } catch (error) {
            return { error: { message: (error as Error).message } }
          }
        },
        close: () => node.close(),
      }
      const [from] = await ok<Hex[]>(side, 'eth_accounts', [])
      const [a, b] = await deployTwo(side, from!)
      for (const [name, args] of CALLS) {
        const req = { from, to: a, data: data(name, args, b) }
        const estimate = BigInt(await ok<Hex>(side, 'eth_estimateGas', [req]))
        const at = async (gas: bigint) => !('error' in (await side.request('eth_call', [{ ...req, gas: `0x${gas.toString(16)}` }, 'latest'])))
        expect(await at(estimate), `${name} at ${estimate}`).toBe(true)
        // `starved` succeeds with less gas (its callee then fails, and it stores 2): not a threshold.
        if (name !== 'starved') expect(await at(estimate - 1n), `${name} at ${estimate - 1n}`).toBe(false)
      }
    } finally {
      await node.close()
    }
  })

  it('the runs an estimate saves: a store once, a gasleft() reader searched as before', { timeout: 30_000 }, async () => {
    const node = await createNode({ hardhatCompat: true })
    // The search's runs after the first go through CallExecutor's `succeeds`.
    const runs = vi.spyOn(CallExecutor.prototype as unknown as { succeeds(): Promise<boolean> }, 'succeeds')
    try {
      const [from] = (await node.request({ method: 'eth_accounts' })) as Hex[]
      const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from: from!, data: encodeDeployData({ abi, bytecode }) }] })
      const { contractAddress } = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Hex }
      runs.mockClear()
      await node.request({ method: 'eth_estimateGas', params: [{ from: from!, to: contractAddress, data: data('store', [5n], contractAddress) }] })
      expect(runs).toHaveBeenCalledTimes(0)
      await node.request({ method: 'eth_estimateGas', params: [{ from: from!, to: contractAddress, data: data('readGas', [], contractAddress) }] })
      expect(runs.mock.calls.length).toBeGreaterThan(0)
    } finally {
      runs.mockRestore()
      await node.close()
    }
  })
})
