/**
 * eth_estimateGas with the gas watch (src/execution/gas-watch.ts): a first run that proves a lower
 * limit runs the same way saves the search's runs, and no answer changes. Cases where gas decides
 * something (GAS read, or passed on by the call after it; an SSTORE near the 2,300 sentry; a call
 * passed all but a 64th or a capped amount; value calls and their stipend; a callee that runs out
 * of gas, caught or not; nested calls; CREATE, a constructor that calls out; refunds): Hardhat
 * mode's answers equal Hardhat Network's own (Hardhat 2.29.1's provider), and geth mode's are
 * exact (a call with the estimate succeeds, with one gas less fails).
 */
import { describe, expect, it, vi } from 'vitest'
import solc from 'solc'
import { encodeDeployData, encodeFunctionData, type Abi, type Hex } from 'viem'
import { createNode } from '../../src/index.js'
import { hardhatSide, finalitySide, type Side } from '../differential/sides.js'
import { CallExecutor } from '../../src/execution/call.js'
import { leastPassing } from '../../src/execution/gas-watch.js'

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
  function nested(address other) external { Cases(payable(other)).store(7); }
  function capped(address other) external { Cases(payable(other)).store{gas: 30000}(8); }
  function starved(address other) external { (bool ok,) = other.call{gas: 22200}(abi.encodeWithSignature("store(uint256)", 9)); a = ok ? 1 : 2; }
  function lastNoop() external { uint256 v = a; a = v; }
  function make() external { new Small(); }
  function makeBig() external { new Big(); }
  function loop(uint256 n) external { for (uint256 i = 0; i < n; i++) list.push(i); }
  function nestedLoop(address other) external { Cases(payable(other)).loop(30); }
  function deepLoop(address other) external { Cases(payable(other)).loop(200); }
  function gated() external { require(gasleft() > 40000); a = 3; }
  function gatedHigh() external { require(gasleft() > 100000); a = 4; }
  uint256 c;
  receive() external payable { b = b + 1; }
  function take() external payable { a = msg.value; }
  function pay(address other) external payable { Cases(payable(other)).take{value: msg.value}(); }
  function payRaw(address other) external payable { (bool ok,) = other.call{value: msg.value}(""); require(ok); }
  function branchy() external { if (gasleft() > 60000) a = 11; else b = 12; }
  function callBranchy(address other) external { Cases(payable(other)).branchy(); }
  function guarded(address other) external { try Cases(payable(other)).loop(30) {} catch { c = 1; } }
  function chain(address other) external { Cases(payable(other)).nested(address(this)); }
  function gasMath(address other) external { Cases(payable(other)).store(gasleft() / 2); }
  function hash(bytes32 h) external { a = uint256(sha256(abi.encode(h))); }
  function tip(address to) external payable { payable(to).transfer(msg.value); }
  function nestedNoop(address other) external { Cases(payable(other)).lastNoop(); }
}
contract Deployer { Small public s; constructor(address t) { Cases(payable(t)).store(3); s = new Small(); } }
contract Token {
  mapping(address => uint256) public balanceOf;
  event Transfer(address indexed from, address indexed to, uint256 value);
  function mint(address to, uint256 v) external { balanceOf[to] += v; }
  function transfer(address to, uint256 v) external returns (bool) { balanceOf[msg.sender] -= v; balanceOf[to] += v; emit Transfer(msg.sender, to, v); return true; }
}
contract Proxy {
  address immutable impl;
  constructor(address i) { impl = i; }
  fallback() external payable {
    address i = impl;
    assembly {
      calldatacopy(0, 0, calldatasize())
      let ok := delegatecall(gas(), i, 0, calldatasize(), 0, 0)
      returndatacopy(0, 0, returndatasize())
      switch ok case 0 { revert(0, returndatasize()) } default { return(0, returndatasize()) }
    }
  }
}`

type Compiled = { abi: Abi; bytecode: Hex }

function compile(): Record<string, Compiled> {
  const input = { language: 'Solidity', sources: { 'Cases.sol': { content: SOURCE } }, settings: { outputSelection: { '*': { '*': ['abi', 'evm.bytecode'] } } } }
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as { contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>> }
  const all: Record<string, Compiled> = {}
  for (const [name, c] of Object.entries(out.contracts['Cases.sol']!)) all[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` }
  return all
}

const CONTRACTS = compile()
const { abi, bytecode } = CONTRACTS.Cases!

/** The contracts each side deploys, at the same addresses on both. */
interface Deployed {
  from: Hex
  a: Hex
  b: Hex
  token: Hex
  proxy: Hex
}

/** An estimate's request, given the deployed contracts. */
type Case = [string, (d: Deployed) => Record<string, unknown>]

function call(name: string, args: unknown[], value?: bigint): Case {
  return [name, (d) => ({ from: d.from, to: d.a, data: data(name, args, d.b), ...(value === undefined ? {} : { value: `0x${value.toString(16)}` }) })]
}

function tokenData(functionName: string, args: unknown[]): Hex {
  return encodeFunctionData({ abi: CONTRACTS.Token!.abi, functionName, args } as never)
}

const PEER = '0x00000000000000000000000000000000000000aa'

const CALLS: Case[] = [
  call('store', [5n]),
  call('clearThenSet', []),
  call('readGas', []),
  call('nested', ['OTHER']),
  call('capped', ['OTHER']),
  call('starved', ['OTHER']),
  call('lastNoop', []),
  call('make', []),
  call('makeBig', []),
  call('loop', [20n]),
  call('nestedLoop', ['OTHER']),
  call('deepLoop', ['OTHER']),
  call('gated', []),
  call('pay', ['OTHER'], 3n),
  call('payRaw', ['OTHER'], 3n),
  call('callBranchy', ['OTHER']),
  call('guarded', ['OTHER']),
  call('chain', ['OTHER']),
  call('gasMath', ['OTHER']),
  call('hash', [`0x${'11'.repeat(32)}`]),
  call('tip', [PEER], 1n),
  call('nestedNoop', ['OTHER']),
  ['a proxied transfer', (d) => ({ from: d.from, to: d.proxy, data: tokenData('transfer', [PEER, 5n]) })],
  ['a constructor that calls out', (d) => ({ from: d.from, data: encodeDeployData({ abi: CONTRACTS.Deployer!.abi, bytecode: CONTRACTS.Deployer!.bytecode, args: [d.b] }) })],
]

async function ok<T>(side: Side, method: string, params: unknown[]): Promise<T> {
  const answer = await side.request(method, params)
  if ('error' in answer) throw new Error(`${side.name} ${method}: ${answer.error.message}`)
  return answer.result as T
}

async function deploy(side: Side, from: Hex, deployData: Hex): Promise<Hex> {
  const hash = await ok<Hex>(side, 'eth_sendTransaction', [{ from, data: deployData }])
  return (await ok<{ contractAddress: Hex }>(side, 'eth_getTransactionReceipt', [hash])).contractAddress
}

async function deployAll(side: Side, from: Hex): Promise<Deployed> {
  const a = await deploy(side, from, encodeDeployData({ abi, bytecode }))
  const b = await deploy(side, from, encodeDeployData({ abi, bytecode }))
  // A first write to each slot, so that later estimates see warm and set storage.
  for (const at of [a, b]) await ok(side, 'eth_sendTransaction', [{ from, to: at, data: encodeFunctionData({ abi, functionName: 'store', args: [1n] }) }])
  const token = await deploy(side, from, CONTRACTS.Token!.bytecode)
  const proxy = await deploy(side, from, encodeDeployData({ abi: CONTRACTS.Proxy!.abi, bytecode: CONTRACTS.Proxy!.bytecode, args: [token] }))
  await ok(side, 'eth_sendTransaction', [{ from, to: proxy, data: tokenData('mint', [from, 1000n]) }])
  return { from, a, b, token, proxy }
}

function data(name: string, args: unknown[], other: Hex): Hex {
  return encodeFunctionData({ abi, functionName: name, args: args.map((a) => (a === 'OTHER' ? other : a)) } as never)
}

function localSide(node: { request(args: { method: string; params?: unknown[] }): Promise<unknown>; close(): Promise<void> }): Side {
  return {
    name: 'finality',
    request: async (method, params) => {
      try {
        return { result: await node.request({ method, params }) }
      } catch (error) {
        return { error: { message: (error as Error).message } }
      }
    },
    close: () => node.close(),
  }
}

/** Where geth mode's estimate is not the least limit of a threshold: success is not monotone there. */
const NOT_THRESHOLDS = new Set([
  // Its callee then fails, and it stores 2.
  'starved',
])

describe('eth_estimateGas with the gas watch', () => {
  it('leastPassing: the least gas left whose all but a 64th reaches an amount', () => {
    let y = 0n
    for (let t = -3n; t <= 20_000n; t++) {
      // The least y with y − ⌊y/64⌋ ≥ t, found by walking up.
      while (y - y / 64n < t) y++
      expect(leastPassing(t), `${t}`).toBe(y)
    }
  })

  it("Hardhat mode: every estimate equals Hardhat Network's own", { timeout: 120_000 }, async () => {
    const config = { mode: 'provider' as const, initialDate: new Date('2026-01-01T00:00:00Z'), allowUnlimitedContractSize: false }
    const hardhat = await hardhatSide(config)
    const finality = await finalitySide(config)
    try {
      const [from] = await ok<Hex[]>(finality, 'eth_accounts', [])
      const theirs = await deployAll(hardhat, from!)
      const ours = await deployAll(finality, from!)
      expect(ours).toEqual(theirs)
      for (const [name, request] of CALLS) {
        const req = request(ours)
        const expected = await ok<Hex>(hardhat, 'eth_estimateGas', [req])
        const answer = await ok<Hex>(finality, 'eth_estimateGas', [req])
        expect(BigInt(answer), name).toBe(BigInt(expected))
      }
      // EIP-7825: a search step above the cap, and a limit the request names above it, are
      // refused as Hardhat refuses them (its search goes up to the block's 60M gas limit).
      const refusals: Array<[string, Record<string, unknown>]> = [
        ['a step above the cap', { from, to: ours.a, data: data('gatedHigh', [], ours.b) }],
        ['a named limit above the cap', { from, to: ours.a, data: data('store', [5n], ours.b), gas: '0x1312d00' }],
      ]
      for (const [what, req] of refusals) {
        const theirs = await hardhat.request('eth_estimateGas', [req])
        const mine = await finality.request('eth_estimateGas', [req])
        expect('error' in theirs && theirs.error.message, what).toMatch(/^transaction gas limit \(\d+\) is greater than the cap \(16777216\)$/)
        expect('error' in mine && { code: mine.error.code, message: mine.error.message }, what).toEqual('error' in theirs && { code: theirs.error.code, message: theirs.error.message })
      }
    } finally {
      await hardhat.close()
      await finality.close()
    }
  })

  it('geth mode: every estimate is the least limit a call succeeds with', { timeout: 120_000 }, async () => {
    const side = localSide(await createNode())
    try {
      const [from] = await ok<Hex[]>(side, 'eth_accounts', [])
      const deployed = await deployAll(side, from!)
      for (const [name, request] of CALLS) {
        const req = request(deployed)
        const estimate = BigInt(await ok<Hex>(side, 'eth_estimateGas', [req]))
        const at = async (gas: bigint) => !('error' in (await side.request('eth_call', [{ ...req, gas: `0x${gas.toString(16)}` }, 'latest'])))
        expect(await at(estimate), `${name} at ${estimate}`).toBe(true)
        if (!NOT_THRESHOLDS.has(name)) expect(await at(estimate - 1n), `${name} at ${estimate - 1n}`).toBe(false)
      }
    } finally {
      await side.close()
    }
  })

  it('geth mode: a value call made with little gas left, whose callee gives back the stipend that did not pay for the call', { timeout: 60_000 }, async () => {
    const side = localSide(await createNode())
    try {
      const [from] = await ok<Hex[]>(side, 'eth_accounts', [])
      const deployed = await deployAll(side, from!)
      // `transfer` passes no gas but the stipend, and an account without code gives all 2,300 back.
      const req = { from, to: deployed.a, data: data('tip', [PEER], PEER), value: '0x1' }
      const estimate = BigInt(await ok<Hex>(side, 'eth_estimateGas', [req]))
      // A first run whose frame pays the CALL with 50 gas to spare, and ends with 2,300 more.
      const again = await ok<Hex>(side, 'eth_estimateGas', [{ ...req, gas: `0x${(estimate + 50n).toString(16)}` }])
      expect(BigInt(again)).toBe(estimate)
      const at = async (gas: bigint) => !('error' in (await side.request('eth_call', [{ ...req, gas: `0x${gas.toString(16)}` }, 'latest'])))
      expect(await at(estimate)).toBe(true)
      expect(await at(estimate - 1n)).toBe(false)
    } finally {
      await side.close()
    }
  })

  it('the runs an estimate saves: none where the first run proves the answer, only failing ones below a proven limit, a gasleft() reader searched as before', { timeout: 30_000 }, async () => {
    const node = await createNode({ hardhatCompat: true })
    // The search's runs after the first go through CallExecutor's `succeeds`.
    const runs = vi.spyOn(CallExecutor.prototype as unknown as { succeeds(): Promise<boolean> }, 'succeeds')
    try {
      const side = localSide(node)
      const [from] = (await node.request({ method: 'eth_accounts' })) as Hex[]
      const deployed = await deployAll(side, from!)
      const estimate = async (name: string): Promise<{ runs: number; succeeded: number }> => {
        const [, request] = CALLS.find(([n]) => n === name)!
        runs.mockClear()
        await ok(side, 'eth_estimateGas', [request(deployed)])
        const outcomes = await Promise.all(runs.mock.results.map((r) => r.value as Promise<boolean>))
        return { runs: outcomes.length, succeeded: outcomes.filter((o) => o).length }
      }
      expect(await estimate('store')).toEqual({ runs: 0, succeeded: 0 })
      // Its constructor calls out (GAS, CALL) and creates (CREATE): the first run settles it.
      expect(await estimate('a constructor that calls out')).toEqual({ runs: 0, succeeded: 0 })
      // The proxy passes gas() on (GAS, DELEGATECALL) and keeps a 64th back: the gas used fails.
      // The limit the first run proved is the least one: the one run just below it fails, and
      // every step of the search is answered from the two runs.
      for (const name of ['a proxied transfer', 'nested', 'chain', 'pay', 'guarded', 'nestedLoop', 'tip']) expect(await estimate(name), name).toEqual({ runs: 1, succeeded: 0 })
      // GAS read otherwise proves nothing: the search runs as before, successes included.
      for (const name of ['readGas', 'gasMath', 'callBranchy']) expect((await estimate(name)).succeeded, name).toBeGreaterThan(0)
    } finally {
      runs.mockRestore()
      await node.close()
    }
  })

  it("geth mode: one run below the proven limit settles the exact search's interval", { timeout: 30_000 }, async () => {
    const node = await createNode()
    const runs = vi.spyOn(CallExecutor.prototype as unknown as { succeeds(): Promise<boolean> }, 'succeeds')
    try {
      const side = localSide(node)
      const [from] = (await node.request({ method: 'eth_accounts' })) as Hex[]
      const deployed = await deployAll(side, from!)
      // Each searched ~log2 of the 63/64 rule's interval (5 to 11 runs) without it.
      for (const name of ['a proxied transfer', 'nested', 'deepLoop', 'makeBig', 'guarded', 'tip', 'payRaw']) {
        const [, request] = CALLS.find(([n]) => n === name)!
        runs.mockClear()
        await ok(side, 'eth_estimateGas', [request(deployed)])
        expect(runs.mock.calls.length, name).toBe(1)
      }
    } finally {
      runs.mockRestore()
      await node.close()
    }
  })
})
