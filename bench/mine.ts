/**
 * `hardhat_mine` of many empty blocks (governance and BLOCKHASH suites mine thousands per test):
 * the time of the call, then of the first `eth_getBlockByNumber('latest')` after it (nothing is
 * left to do later: every block is built, hashed and committed by the time the call answers).
 * Each count runs on a fresh node, after 16 blocks of warm-up, median of `runs` repetitions.
 *
 *   BENCH_SOURCE=src npx tsx bench/mine.ts     this file alone (also part of `npm run bench`)
 */
import { createNode } from './finality.js'
import { fail, mainThreadCpuNs, median, now, rpc } from './util.js'

export interface MineResult {
  blocks: number
  runs: number
  /** Median milliseconds of the hardhat_mine call. */
  medianMs: number
  /** Median process CPU milliseconds of it (GC and compiler threads included). */
  medianCpuMs: number
  /** Median on-CPU milliseconds of the main thread alone (Linux; NaN elsewhere): the figure to compare versions by on a shared machine. */
  medianMainCpuMs: number
  /** Median milliseconds of the first eth_getBlockByNumber('latest') after it. */
  latestMs: number
}

interface Sample {
  ms: number
  cpuMs: number
  mainCpuMs: number
  latestMs: number
}

async function once(blocks: number): Promise<Sample> {
  const node = await createNode()
  try {
    await rpc(node, 'hardhat_mine', ['0x10'])
    const cpu = process.cpuUsage()
    const main = mainThreadCpuNs()
    const t = now()
    await rpc(node, 'hardhat_mine', [`0x${blocks.toString(16)}`])
    const ms = now() - t
    const mainCpuMs = (mainThreadCpuNs() - main) / 1e6
    const used = process.cpuUsage(cpu)
    const t2 = now()
    const latest = await rpc<{ number: string }>(node, 'eth_getBlockByNumber', ['latest', false])
    const latestMs = now() - t2
    if (BigInt(latest.number) !== BigInt(blocks + 16)) fail(`hardhat_mine mined ${BigInt(latest.number) - 16n} blocks, not ${blocks}`)
    return { ms, cpuMs: (used.user + used.system) / 1000, mainCpuMs, latestMs }
  } finally {
    await node.close()
  }
}

/** Each count `runs` times, interleaved (8,197, 10,000, 8,197, …), medians per count. */
export async function benchMine(counts: readonly number[], runs: number): Promise<MineResult[]> {
  const samples = counts.map(() => [] as Sample[])
  for (let r = 0; r < runs; r++) for (const [i, count] of counts.entries()) samples[i]!.push(await once(count))
  return counts.map((blocks, i) => {
    const s = samples[i]!
    return {
      blocks,
      runs,
      medianMs: median(s.map((x) => x.ms)),
      medianCpuMs: median(s.map((x) => x.cpuMs)),
      medianMainCpuMs: median(s.map((x) => x.mainCpuMs)),
      latestMs: median(s.map((x) => x.latestMs)),
    }
  })
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await benchMine([8197, 10_000], Number(process.env.BENCH_RUNS ?? 5))) {
    console.log(
      `hardhat_mine ${r.blocks} empty blocks: ${r.medianMs.toFixed(0)} ms (${((r.medianMs * 1000) / r.blocks).toFixed(1)} µs/block; cpu ${r.medianCpuMs.toFixed(0)} ms, main thread ${r.medianMainCpuMs.toFixed(0)} ms), then latest block ${r.latestMs.toFixed(2)} ms; median of ${r.runs}`,
    )
  }
}
