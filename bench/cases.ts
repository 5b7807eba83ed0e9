/** The individual benchmarks; `index.ts` runs them in order and prints the table. */
import { decodeFunctionResult, encodeDeployData, encodeFunctionData, type Abi, type Hex } from 'viem'
import type { FinalityNode } from '../src/index.js'
import { createNode } from './finality.js'
import {
  Signer,
  blockNumber,
  checkStatuses,
  fail,
  forceGc,
  median,
  now,
  percentile,
  rpc,
  sendAndFetch,
  transferSpecs,
  type SendResult,
} from './util.js'

/** Sender accounts the transfer workloads spread over (nonces sequential per sender). */
export const SENDERS = 10

// ---------------------------------------------------------------------------
// 1. createNode() start-up

export interface StartupResult {
  runs: number
  medianMs: number
  minMs: number
  maxMs: number
  firstMs: number
}

/** createNode() + close(), `runs` times; the first (cold) run is included in the median. */
export async function benchStartup(runs: number): Promise<StartupResult> {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = now()
    const node = await createNode()
    await node.close()
    times.push(now() - t0)
  }
  return { runs, medianMs: median(times), minMs: Math.min(...times), maxMs: Math.max(...times), firstMs: times[0]! }
}

// ---------------------------------------------------------------------------
// 2. ETH transfers

export interface ThroughputResult {
  n: number
  elapsedMs: number
  txPerSec: number
  p50Ms: number
  p99Ms: number
  signMs: number
  /** Process CPU time per transaction, µs (all threads). */
  cpuUsPerTx: number
  /** Main-thread on-CPU time per transaction, µs (Linux; NaN elsewhere): compare versions by this on a busy machine. */
  mainCpuUsPerTx: number
}

function summarize(n: number, signMs: number, r: SendResult): ThroughputResult {
  return {
    n,
    elapsedMs: r.elapsedMs,
    txPerSec: (n / r.elapsedMs) * 1000,
    p50Ms: percentile(r.latencies, 50),
    p99Ms: percentile(r.latencies, 99),
    signMs,
    cpuUsPerTx: r.cpuUs / n,
    mainCpuUsPerTx: r.mainCpuUs / n,
  }
}

/** Pre-signs `n` 1-wei transfers (untimed). */
export async function signEthTransfers(node: FinalityNode, signer: Signer, n: number): Promise<Hex[]> {
  const specs = transferSpecs(node, n, SENDERS, (_i, from, to) => ({ from, to, value: 1n, gas: 21_000n }))
  return signer.signAll(specs)
}

/** Hooks around the timed section only (used by `eth-transfers.ts` to profile just that). */
export interface TimedHooks {
  before?: () => Promise<void>
  after?: () => Promise<void>
}

export async function benchEthTransfers(node: FinalityNode, n: number, hooks: TimedHooks = {}): Promise<ThroughputResult> {
  const signer = new Signer(node)
  const s0 = now()
  const raws = await signEthTransfers(node, signer, n)
  const signMs = now() - s0

  const before = await blockNumber(node)
  await hooks.before?.()
  const result = await sendAndFetch(node, raws)
  await hooks.after?.()
  const after = await blockNumber(node)

  checkStatuses('ETH transfers', result.receipts)
  if (after - before !== BigInt(n)) fail(`ETH transfers: eth_blockNumber advanced by ${after - before}, expected ${n}`)
  return summarize(n, signMs, result)
}

// ---------------------------------------------------------------------------
// 3. ERC20 transfers

export interface Erc20Result extends ThroughputResult {
  deployGasUsed: bigint
}

export interface DeployedToken {
  address: Hex
  abi: Abi
  deployGasUsed: bigint
}

const INITIAL_SUPPLY = 10n ** 27n

/** Deploys Token from account #0 with a signed raw tx (gas 3,000,000). */
export async function deployToken(node: FinalityNode, signer: Signer, artifact: { abi: Abi; bytecode: Hex }): Promise<DeployedToken> {
  const data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args: ['Bench Token', 'BNCH', INITIAL_SUPPLY] })
  const raw = await signer.sign({ from: 0, data, gas: 3_000_000n })
  const { receipts } = await sendAndFetch(node, [raw], false)
  const receipt = receipts[0]!
  checkStatuses('Token deployment', receipts)
  if (receipt.contractAddress == null) fail(`Token deployment receipt has no contractAddress: ${JSON.stringify(receipt)}`)
  return { address: receipt.contractAddress, abi: artifact.abi, deployGasUsed: BigInt(receipt.gasUsed) }
}

export async function benchErc20Transfers(node: FinalityNode, token: DeployedToken, n: number, hooks: TimedHooks = {}): Promise<Erc20Result> {
  const signer = new Signer(node)
  // Untimed setup: give every sender a token balance so the workload spreads over SENDERS accounts.
  const seed = transferSpecs(node, SENDERS - 1, SENDERS, (i) => ({
    from: 0,
    to: token.address,
    gas: 100_000n,
    data: encodeFunctionData({ abi: token.abi, functionName: 'transfer', args: [node.accounts[i + 1]!.address, INITIAL_SUPPLY / 100n] }),
  }))
  checkStatuses('ERC20 seeding', (await sendAndFetch(node, await signer.signAll(seed), false)).receipts)

  const s0 = now()
  const specs = transferSpecs(node, n, SENDERS, (_i, from, to) => ({
    from,
    to: token.address,
    gas: 100_000n,
    data: encodeFunctionData({ abi: token.abi, functionName: 'transfer', args: [to, 1n] }),
  }))
  const raws = await signer.signAll(specs)
  const signMs = now() - s0

  const before = await blockNumber(node)
  await hooks.before?.()
  const result = await sendAndFetch(node, raws)
  await hooks.after?.()
  const after = await blockNumber(node)

  checkStatuses('ERC20 transfers', result.receipts)
  if (after - before !== BigInt(n)) fail(`ERC20 transfers: eth_blockNumber advanced by ${after - before}, expected ${n}`)
  return { ...summarize(n, signMs, result), deployGasUsed: token.deployGasUsed }
}

// ---------------------------------------------------------------------------
// 4. eth_call

export interface CallResult {
  n: number
  elapsedMs: number
  callsPerSec: number
  p50Ms: number
  p99Ms: number
}

export async function benchEthCall(node: FinalityNode, token: DeployedToken, n: number): Promise<CallResult> {
  const holder = node.accounts[0]!.address as Hex
  const data = encodeFunctionData({ abi: token.abi, functionName: 'balanceOf', args: [holder] })
  const expected = (await rpc<Hex>(node, 'eth_call', [{ to: token.address, data }, 'latest']))
  const expectedBalance = decodeFunctionResult({ abi: token.abi, functionName: 'balanceOf', data: expected })
  if (typeof expectedBalance !== 'bigint' || expectedBalance <= 0n) fail(`balanceOf decoded to ${String(expectedBalance)}, expected a positive bigint`)

  const latencies: number[] = new Array(n)
  const results: Hex[] = new Array(n)
  const start = now()
  for (let i = 0; i < n; i++) {
    const t0 = now()
    results[i] = await rpc<Hex>(node, 'eth_call', [{ to: token.address, data }, 'latest'])
    latencies[i] = now() - t0
  }
  const elapsedMs = now() - start

  for (let i = 0; i < n; i++) {
    const value = decodeFunctionResult({ abi: token.abi, functionName: 'balanceOf', data: results[i]! })
    if (value !== expectedBalance) fail(`eth_call #${i} balanceOf decoded to ${String(value)}, expected ${expectedBalance}`)
  }
  return { n, elapsedMs, callsPerSec: (n / elapsedMs) * 1000, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) }
}

// ---------------------------------------------------------------------------
// 5. Memory

export interface MemoryResult {
  n: number
  gc: ReturnType<typeof forceGc>
  baselineHeapUsedMb: number
  baselineRssMb: number
  heapUsedMb: number
  rssMb: number
  elapsedMs: number
  /** Send + receipt throughput of each batch, in order (shows slow-down as the chain grows). */
  batchTxPerSec: number[]
  batchSize: number
}

/**
 * A fresh node, `n` ETH transfers (same method as #2; signed in batches so the signed payloads
 * do not stay reachable), then a forced GC and process.memoryUsage(). The baseline is taken the
 * same way just before createNode(). Not a throughput figure, but each batch's send + receipt
 * rate is recorded because it shows how the per-block cost changes as the chain grows.
 */
export async function benchMemory(n: number, batch = 1000, onBatch?: (done: number, txPerSec: number) => void): Promise<MemoryResult> {
  const toMb = (b: number): number => Math.round((b / 1024 / 1024) * 10) / 10
  forceGc()
  const base = process.memoryUsage()
  const node = await createNode()
  try {
    const signer = new Signer(node)
    const before = await blockNumber(node)
    const start = now()
    const batchTxPerSec: number[] = []
    for (let done = 0; done < n; done += batch) {
      const size = Math.min(batch, n - done)
      const specs = transferSpecs(node, size, SENDERS, (_i, from, to) => ({ from, to, value: 1n, gas: 21_000n }))
      const raws = await signer.signAll(specs)
      const { receipts, elapsedMs } = await sendAndFetch(node, raws, false)
      checkStatuses('memory workload transfers', receipts)
      batchTxPerSec.push((size / elapsedMs) * 1000)
      onBatch?.(done + size, (size / elapsedMs) * 1000)
    }
    const elapsedMs = now() - start
    const after = await blockNumber(node)
    if (after - before !== BigInt(n)) fail(`memory workload: eth_blockNumber advanced by ${after - before}, expected ${n}`)
    const gc = forceGc()
    const mem = process.memoryUsage()
    return {
      n,
      gc,
      baselineHeapUsedMb: toMb(base.heapUsed),
      baselineRssMb: toMb(base.rss),
      heapUsedMb: toMb(mem.heapUsed),
      rssMb: toMb(mem.rss),
      elapsedMs,
      batchTxPerSec,
      batchSize: batch,
    }
  } finally {
    await node.close()
  }
}
