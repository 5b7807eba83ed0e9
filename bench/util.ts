/**
 * Shared helpers of the benchmark suite: timing, statistics, pre-signing with viem, and the
 * send-then-fetch-receipt loop every throughput figure is measured with.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import type { FinalityNode } from '../src/index.js'

export const CHAIN_ID = 31337
export const MAX_FEE_PER_GAS = 10_000_000_000n
export const MAX_PRIORITY_FEE_PER_GAS = 1_000_000_000n

/** `BENCH_QUICK=1` scales every workload down 10x for a smoke run. */
export const QUICK = process.env.BENCH_QUICK === '1' || process.env.BENCH_QUICK === 'true'
export const scale = (n: number): number => (QUICK ? Math.max(1, Math.round(n / 10)) : n)

export const now = (): number => performance.now()

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[idx]!
}

export const round = (x: number, digits = 2): number => Number(x.toFixed(digits))
export const mb = (bytes: number): number => round(bytes / 1024 / 1024, 1)

/** Throws a loud, bench-specific error. */
export function fail(message: string): never {
  throw new Error(`BENCH VERIFICATION FAILED: ${message}`)
}

/** A JSON-RPC call that names the method in any error it throws (the node's RpcError has `code`/`data`). */
export async function rpc<T = unknown>(node: FinalityNode, method: string, params?: unknown): Promise<T> {
  try {
    return (await node.request({ method, params })) as T
  } catch (error) {
    const e = error as { message?: string; code?: unknown; data?: unknown }
    const detail = `code=${String(e.code)} message=${JSON.stringify(e.message)}${e.data === undefined ? '' : ` data=${JSON.stringify(e.data)}`}`
    const wrapped = new Error(`node.request ${method} failed: ${detail}`)
    ;(wrapped as Error & { cause?: unknown }).cause = error
    throw wrapped
  }
}

export async function blockNumber(node: FinalityNode): Promise<bigint> {
  return BigInt(await rpc<Hex>(node, 'eth_blockNumber'))
}

/**
 * Forces a full GC: `global.gc` when node runs with `--expose-gc`
 * (`NODE_OPTIONS=--expose-gc npm run bench`), else the v8-flag fallback. Returns how.
 */
export function forceGc(): 'global.gc' | 'v8-flag fallback' | 'unavailable' {
  const g = globalThis as { gc?: () => void }
  if (typeof g.gc === 'function') {
    g.gc()
    g.gc()
    return 'global.gc'
  }
  try {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as (() => void) | undefined
    if (typeof gc === 'function') {
      gc()
      gc()
      return 'v8-flag fallback'
    }
  } catch {
    // fall through
  }
  return 'unavailable'
}

/** One transaction to sign: everything but the sender's nonce bookkeeping. */
export interface TxSpec {
  from: number
  /** Omitted for a contract creation. */
  to?: Hex
  value?: bigint
  data?: Hex
  gas: bigint
}

/**
 * Signs EIP-1559 transactions with viem, assigning sequential nonces per sender starting at the
 * sender's current pending nonce on the node. Not timed by the callers.
 */
export class Signer {
  private readonly accounts = new Map<number, PrivateKeyAccount>()
  private readonly nonces = new Map<number, number>()

  constructor(private readonly node: FinalityNode) {}

  private account(index: number): PrivateKeyAccount {
    let a = this.accounts.get(index)
    if (a === undefined) {
      const pk = this.node.accounts[index]?.privateKey
      if (pk === undefined) throw new Error(`node has no account #${index}`)
      a = privateKeyToAccount(pk)
      this.accounts.set(index, a)
    }
    return a
  }

  private async nextNonce(index: number): Promise<number> {
    let n = this.nonces.get(index)
    if (n === undefined) {
      const address = this.node.accounts[index]!.address
      n = Number(BigInt(await rpc<Hex>(this.node, 'eth_getTransactionCount', [address, 'pending'])))
    }
    this.nonces.set(index, n + 1)
    return n
  }

  async sign(spec: TxSpec): Promise<Hex> {
    const nonce = await this.nextNonce(spec.from)
    return this.account(spec.from).signTransaction({
      chainId: CHAIN_ID,
      type: 'eip1559',
      nonce,
      to: spec.to,
      value: spec.value ?? 0n,
      data: spec.data,
      gas: spec.gas,
      maxFeePerGas: MAX_FEE_PER_GAS,
      maxPriorityFeePerGas: MAX_PRIORITY_FEE_PER_GAS,
    })
  }

  async signAll(specs: readonly TxSpec[]): Promise<Hex[]> {
    const out: Hex[] = []
    for (const s of specs) out.push(await this.sign(s))
    return out
  }
}

/**
 * Round-robin transfer specs over `senders` accounts (indices 0..senders-1), each paying a
 * recipient from the other half of the account list, so nonces stay sequential per sender.
 */
export function transferSpecs(node: FinalityNode, n: number, senders: number, make: (i: number, from: number, to: Hex) => TxSpec): TxSpec[] {
  const count = node.accounts.length
  if (senders < 1 || senders >= count) throw new Error(`bad sender count ${senders}`)
  const specs: TxSpec[] = []
  for (let i = 0; i < n; i++) {
    const from = i % senders
    const to = node.accounts[senders + (i % (count - senders))]!.address as Hex
    specs.push(make(i, from, to))
  }
  return specs
}

export interface Receipt {
  status: Hex
  blockNumber: Hex | null
  transactionHash: Hex
  contractAddress?: Hex | null
  gasUsed: Hex
}

export interface SendResult {
  /** Wall time of the whole send+receipt loop, ms. */
  elapsedMs: number
  /** Per-transaction send+receipt latency, ms. */
  latencies: number[]
  receipts: Receipt[]
  /** CPU time of the process (user + system, all threads) over the loop, µs: steadier than wall time on a shared machine. */
  cpuUs: number
  /**
   * On-CPU time of the main thread alone over the loop, µs (Linux: /proc/self/task/<pid>/schedstat),
   * NaN elsewhere. Leaves out the JIT compiler's and the GC's helper threads and the time the
   * thread waited for a core: the steadiest figure for comparing two versions on a busy machine.
   */
  mainCpuUs: number
}

/** The main thread's on-CPU nanoseconds so far (Linux), or NaN. */
export function mainThreadCpuNs(): number {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0])
  } catch {
    return NaN
  }
}

/**
 * Sends each raw transaction with eth_sendRawTransaction (awaited: automine resolves after the
 * block is committed) and fetches its receipt with eth_getTransactionReceipt, sequentially.
 */
export async function sendAndFetch(node: FinalityNode, raws: readonly Hex[], collectLatencies = true): Promise<SendResult> {
  const receipts: Receipt[] = new Array(raws.length)
  const latencies: number[] = collectLatencies ? new Array(raws.length) : []
  const cpu = process.cpuUsage()
  const mainCpu = mainThreadCpuNs()
  const start = now()
  for (let i = 0; i < raws.length; i++) {
    const t0 = collectLatencies ? now() : 0
    const hash = await rpc<Hex>(node, 'eth_sendRawTransaction', [raws[i]])
    const receipt = await rpc<Receipt | null>(node, 'eth_getTransactionReceipt', [hash])
    if (receipt === null) fail(`no receipt for tx #${i} ${hash} right after eth_sendRawTransaction resolved (automine)`)
    receipts[i] = receipt
    if (collectLatencies) latencies[i] = now() - t0
  }
  const elapsedMs = now() - start
  const used = process.cpuUsage(cpu)
  return { elapsedMs, latencies, receipts, cpuUs: used.user + used.system, mainCpuUs: (mainThreadCpuNs() - mainCpu) / 1000 }
}

export function checkStatuses(label: string, receipts: readonly Receipt[]): void {
  const bad = receipts.filter((r) => r.status !== '0x1')
  if (bad.length > 0) {
    fail(`${label}: ${bad.length}/${receipts.length} receipts not status 0x1 (first: ${JSON.stringify(bad[0])})`)
  }
}

/**
 * Hooks that profile only a benchmark's timed loop when `BENCH_PROFILE` names a file (V8
 * inspector, main thread, 1 ms sampling); no hooks otherwise.
 */
export function profileHooks(): { before?: () => Promise<void>; after?: () => Promise<void> } {
  const profileTo = process.env.BENCH_PROFILE
  if (profileTo === undefined || profileTo === '') return {}
  const session = new Session()
  session.connect()
  return {
    async before() {
      await session.post('Profiler.enable')
      await session.post('Profiler.setSamplingInterval', { interval: Number(process.env.BENCH_PROFILE_INTERVAL ?? 1000) })
      await session.post('Profiler.start')
    },
    async after() {
      const { profile } = await session.post('Profiler.stop')
      mkdirSync(path.dirname(profileTo), { recursive: true })
      writeFileSync(profileTo, JSON.stringify(profile))
      session.disconnect()
      console.log(`profile of the timed loop written to ${profileTo}`)
    },
  }
}
