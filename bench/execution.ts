/**
 * Execution benchmarks: eth_estimateGas per second on an ERC-20 transfer, eth_call per second
 * with the `rpc-evm-timeout` guard on (the default) and off, and block building with and without
 * an `onConsoleLog` listener. Run with `npx tsx bench/execution.ts` after `npm run build` (`BENCH_QUICK=1` for a smoke run;
 * `BENCH_HARDFORK=cancun` for another hardfork).
 */
import { decodeFunctionResult, encodeDeployData, encodeFunctionData, type Abi, type Hex } from 'viem'
import type { FinalityNode, NodeOptions } from '../src/index.js'
import { createNode } from './finality.js'
import { compileFixtures } from '../test/helpers/compile.js'
import { fail, median, now, round, rpc, scale } from './util.js'

const token = (await compileFixtures())['Token'] ?? fail('compileFixtures() returned no Token artifact')

interface Setup {
  node: FinalityNode
  address: Hex
  from: Hex
  to: Hex
}

/** `BENCH_HARDFORK=cancun` runs on another hardfork than the default. */
const hardfork = process.env.BENCH_HARDFORK as NodeOptions['hardfork']

async function setup(options: NodeOptions = {}): Promise<Setup> {
  const node = await createNode({ ...(hardfork === undefined ? {} : { hardfork }), ...options })
  const from = node.accounts[0]!.address
  const to = node.accounts[1]!.address
  const data = encodeDeployData({ abi: token.abi, bytecode: token.bytecode, args: ['Bench', 'B', 10n ** 24n] })
  const hash = await rpc<Hex>(node, 'eth_sendTransaction', [{ from, data }])
  const receipt = await rpc<{ contractAddress: Hex }>(node, 'eth_getTransactionReceipt', [hash])
  return { node, address: receipt.contractAddress, from, to }
}

function perSecond(n: number, ms: number): number {
  return round((n * 1000) / ms, 0)
}

/** eth_estimateGas of an ERC-20 transfer, `n` times. */
async function estimates({ node, address, from, to }: Setup, n: number): Promise<{ perSec: number; gas: bigint }> {
  const input = encodeFunctionData({ abi: token.abi as Abi, functionName: 'transfer', args: [to, 1n] })
  const expected = BigInt(await rpc<Hex>(node, 'eth_estimateGas', [{ from, to: address, input }]))
  const t0 = now()
  for (let i = 0; i < n; i++) {
    const gas = BigInt(await rpc<Hex>(node, 'eth_estimateGas', [{ from, to: address, input }]))
    if (gas !== expected) fail(`estimate #${i} = ${gas}, expected ${expected}`)
  }
  return { perSec: perSecond(n, now() - t0), gas: expected }
}

/** eth_call of balanceOf, `n` times. */
async function calls({ node, address, from }: Setup, n: number): Promise<number> {
  const input = encodeFunctionData({ abi: token.abi as Abi, functionName: 'balanceOf', args: [from] })
  const t0 = now()
  for (let i = 0; i < n; i++) {
    const out = await rpc<Hex>(node, 'eth_call', [{ to: address, input }])
    if (decodeFunctionResult({ abi: token.abi as Abi, functionName: 'balanceOf', data: out }) !== 10n ** 24n) fail('balanceOf changed')
  }
  return perSecond(n, now() - t0)
}

/** ERC-20 transfers sent by the node (automine, one block each), `n` times. */
async function transfers({ node, address, from, to }: Setup, n: number): Promise<number> {
  const input = encodeFunctionData({ abi: token.abi as Abi, functionName: 'transfer', args: [to, 1n] })
  const t0 = now()
  for (let i = 0; i < n; i++) await rpc<Hex>(node, 'eth_sendTransaction', [{ from, to: address, input, gas: '0x186a0' }])
  return perSecond(n, now() - t0)
}

/** eth_getProof of the token's account and one balance slot at latest, `n` times. */
async function proofs({ node, address }: Setup, n: number): Promise<number> {
  const slot = `0x${'00'.repeat(31)}01`
  const t0 = now()
  for (let i = 0; i < n; i++) {
    const p = await rpc<{ accountProof: Hex[] }>(node, 'eth_getProof', [address, [slot], 'latest'])
    if (p.accountProof.length === 0) fail('eth_getProof returned no account proof')
  }
  return perSecond(n, now() - t0)
}

async function main(): Promise<void> {
  const rows: Array<[string, string]> = []
  const runs = 3
  const best = async (f: () => Promise<number>) => Math.max(...(await sequential(runs, f)))

  const guarded = await setup()
  const gas = (await estimates(guarded, scale(50))).gas
  const estimatePerSec = await best(async () => (await estimates(guarded, scale(300))).perSec)
  rows.push([`eth_estimateGas/s (ERC-20 transfer, gas ${gas})`, String(estimatePerSec)])
  rows.push(['eth_call/s, rpc-evm-timeout 10 s (guard on)', String(await best(() => calls(guarded, scale(2000))))])
  rows.push(['eth_getProof/s (account + 1 slot, latest)', String(await best(() => proofs(guarded, scale(2000))))])
  await guarded.node.close()

  const unguarded = await setup({ limits: { rpcEvmTimeoutMs: 0 } })
  rows.push(['eth_estimateGas/s, rpc-evm-timeout 0 (guard off)', String(await best(async () => (await estimates(unguarded, scale(300))).perSec))])
  rows.push(['eth_call/s, rpc-evm-timeout 0 (guard off)', String(await best(() => calls(unguarded, scale(2000))))])
  await unguarded.node.close()

  const quiet = await setup()
  const quietTx = median(await sequential(runs, () => transfers(quiet, scale(300))))
  await quiet.node.close()
  let printed = 0
  const logging = await setup({ onConsoleLog: () => printed++ })
  const loggingTx = median(await sequential(runs, () => transfers(logging, scale(300))))
  await logging.node.close()
  rows.push(['ERC-20 transfers/s (eth_sendTransaction), no onConsoleLog', String(quietTx)])
  rows.push(['ERC-20 transfers/s, onConsoleLog set (no console calls)', String(loggingTx)])
  if (printed !== 0) fail(`${printed} console messages from a token without console.log`)

  const width = Math.max(...rows.map(([k]) => k.length))
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`)
}

async function sequential(n: number, f: () => Promise<number>): Promise<number[]> {
  const out: number[] = []
  for (let i = 0; i < n; i++) out.push(await f())
  return out
}

await main()
