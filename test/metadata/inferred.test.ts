/**
 * Hardhat's inferred errors: reverts that carry no data, explained from the compilation. Each case
 * of test/fixtures/inferred/Inferred.sol (compiled with the npm `solc` as Hardhat compiles: no
 * optimizer) is sent to Hardhat 2.29.1's provider given the same compilation and to finality in
 * Hardhat mode with it, and the whole answers of eth_call, eth_estimateGas and eth_sendTransaction
 * are compared. Without metadata the node keeps `Transaction reverted without a reason string`.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { encodeFunctionData, toFunctionSelector, type Abi, type Hex } from 'viem'
import { answer, hardhatNetwork } from '../helpers/hardhat-network.js'
import { trackNodes } from '../helpers/nodes.js'

const require = createRequire(import.meta.url)
const newNode = trackNodes()
const SOURCE = 'contracts/Inferred.sol'
const FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'inferred', 'Inferred.sol')
const A = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const EOA = '0x00000000000000000000000000000000000000e0'

type Compiled = { abi: Abi; evm: { bytecode: { object: string } } }
const solc = require('solc') as { version(): string; compile(input: string): string }
const input = {
  language: 'Solidity',
  sources: { [SOURCE]: { content: readFileSync(FILE, 'utf8') } },
  settings: { optimizer: { enabled: false, runs: 200 }, evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode', 'evm.deployedBytecode', 'evm.methodIdentifiers'], '': ['ast'] } } },
}
const output = JSON.parse(solc.compile(JSON.stringify(input))) as { contracts: Record<string, Record<string, Compiled>> }
const solcVersion = solc.version().split('+')[0]!
const C = output.contracts[SOURCE]!

type Provider = { request(args: { method: string; params?: unknown }): Promise<unknown> }

async function deploy(p: Provider, name: string): Promise<Hex> {
  const hash = await p.request({ method: 'eth_sendTransaction', params: [{ from: A, data: `0x${C[name]!.evm.bytecode.object}` }] })
  return ((await p.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Hex }).contractAddress
}

const call = (name: string, fn: string, args: unknown[] = []) => encodeFunctionData({ abi: C[name]!.abi, functionName: fn, args } as never)

/** The cases: a name, Hardhat's message, and the transaction (addresses filled per provider). */
function cases(at: { plain: Hex; receive: Hex; fallback: Hex; inferred: Hex; lib: Hex }): [string, string, Record<string, string>][] {
  return [
    ['a library called directly', 'library was called directly', { to: at.lib, data: `${toFunctionSelector('f(uint256)')}${'0'.repeat(63)}1` }],
    ['arguments that cannot be decoded', 'function was called with incorrect parameters', { to: at.inferred, data: call('Inferred', 'callNoCode', [EOA]).slice(0, 10) }],
    ['a non-payable function called with value', 'non-payable function was called with value 1', { to: at.plain, data: call('Plain', 'nonPayable'), value: '0x1' }],
    ['a non-payable function with value, the callee of nothing yet', 'non-payable function was called with value 5', { to: at.inferred, data: call('Inferred', 'bubble', [at.plain]), value: '0x5' }],
    ['an unknown selector, no fallback', "function selector was not recognized and there's no fallback function", { to: at.plain, data: '0xdeadbeef' }],
    ['an unknown selector, a receive but no fallback', "function selector was not recognized and there's no fallback function", { to: at.receive, data: '0xdeadbeef', value: '0x1' }],
    ['a fallback that is not payable, called with value', 'fallback function is not payable and was called with value 2', { to: at.fallback, data: '0xdeadbeef', value: '0x2' }],
    ['value without calldata, no receive, a fallback that is not payable', "there's no receive function, fallback function is not payable and was called with value 3", { to: at.fallback, value: '0x3' }],
    ['value without calldata, neither receive nor fallback', "function selector was not recognized and there's no fallback nor receive function", { to: at.plain, value: '0x1' }],
    ['a call to an address without code', 'function call to a non-contract account', { to: at.inferred, data: call('Inferred', 'callNoCode', [EOA]) }],
    ['a failed abi.decode of the returned data', 'function returned an unexpected amount of data', { to: at.inferred, data: call('Inferred', 'decodeShort', [at.plain]) }],
    ['a transfer over the balance (a call the EVM refuses before it runs)', 'function call failed to execute', { to: at.inferred, data: call('Inferred', 'payOut', [EOA]) }],
    ['an inner call out of gas', 'contract call run out of gas and made the transaction revert', { to: at.inferred, data: call('Inferred', 'nestedOutOfGas', [at.plain]) }],
  ]
}

/** Cases whose revert Hardhat does not explain: a bare revert() passed on, and require(false) after a failed low-level call. */
function unexplained(at: { plain: Hex; inferred: Hex }): [string, Record<string, string>][] {
  return [
    ['a bare revert() bubbling up from a callee', { to: at.inferred, data: call('Inferred', 'bubble', [at.plain]) }],
    ['require(ok) after a failed low-level call', { to: at.inferred, data: call('Inferred', 'lowLevel', [at.plain]) }],
  ]
}

async function contracts(p: Provider) {
  return { plain: await deploy(p, 'Plain'), receive: await deploy(p, 'WithReceive'), fallback: await deploy(p, 'WithFallback'), inferred: await deploy(p, 'Inferred'), lib: await deploy(p, 'Lib') }
}

type Answer = { error: { code: number; message: string; data: { txHash?: string } } }

describe('inferred errors in Hardhat mode', () => {
  it('each case: the same code, message and data as Hardhat 2.29.1 with the compilation', { timeout: 60_000 }, async () => {
    const hardhat = await hardhatNetwork()
    await hardhat.request({ method: 'hardhat_addCompilationResult', params: [solcVersion, input, output] })
    const node = await newNode({ hardhatCompat: true, artifacts: { input, output } as never })
    const at = [await contracts(hardhat), await contracts(node)]
    const [h, f] = [cases(at[0]!), cases(at[1]!)]
    const [hu, fu] = [unexplained(at[0]!), unexplained(at[1]!)]
    const all = [...h.map(([n, m, tx], i) => [n, `Error: Transaction reverted: ${m}`, tx, f[i]![2]] as const), ...hu.map(([n, tx], i) => [n, 'Error: Transaction reverted without a reason string', tx, fu[i]![1]] as const)]
    for (const [name, message, htx, ftx] of all) {
      for (const method of ['eth_call', 'eth_estimateGas', 'eth_sendTransaction']) {
        const ha = (await answer(hardhat, method, [{ from: A, gas: '0x200000', ...htx }])) as Answer
        const fa = (await answer(node, method, [{ from: A, gas: '0x200000', ...ftx }])) as Answer
        if (ha.error?.data?.txHash !== undefined) ha.error.data.txHash = fa.error?.data?.txHash
        expect(fa, `${name} ${method}`).toEqual(ha)
        expect(fa.error.message, `${name} ${method}`).toBe(message)
      }
    }
  })

  it('a contract too large to deploy: Hardhat\'s words, with or without metadata', async () => {
    // Init code returning 24577 zero bytes: one over the code size limit.
    const tx = { from: A, data: '0x6160015ff3', gas: '0x1000000' }
    const hardhat = await hardhatNetwork()
    const node = await newNode({ hardhatCompat: true })
    for (const method of ['eth_call', 'eth_sendTransaction']) {
      const ha = (await answer(hardhat, method, [tx])) as Answer
      const fa = (await answer(node, method, [tx])) as Answer
      if (ha.error?.data?.txHash !== undefined) ha.error.data.txHash = fa.error?.data?.txHash
      expect(fa, method).toEqual(ha)
      expect(fa.error.message).toBe('Error: Transaction reverted: trying to deploy a contract whose code is too large')
    }
  })

  it('without metadata the node infers nothing: `Transaction reverted without a reason string`', async () => {
    const node = await newNode({ hardhatCompat: true })
    const at = await contracts(node)
    for (const [name, , tx] of cases(at)) {
      const fa = (await answer(node, 'eth_call', [{ from: A, gas: '0x200000', ...tx }])) as Answer
      expect(fa.error.message, name).toBe('Error: Transaction reverted without a reason string')
    }
  })

  it('the inferred error over node.request carries the Solidity frame where the revert began', async () => {
    const node = await newNode({ hardhatCompat: true, artifacts: { input, output } as never })
    const at = await contracts(node)
    const error = (await node.request({ method: 'eth_call', params: [{ from: A, to: at.inferred, data: call('Inferred', 'callNoCode', [EOA]) }] } as never).catch((e: Error) => e)) as Error
    expect(error.message).toBe('Error: Transaction reverted: function call to a non-contract account')
    const line = readFileSync(FILE, 'utf8').split('\n').findIndex((l) => l.includes('Plain(to).nonPayable();')) + 1
    expect(error.stack).toContain(`at Inferred.callNoCode (${SOURCE}:${line})`)
  })
})
