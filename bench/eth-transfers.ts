/**
 * The ETH transfer benchmark alone (same workload as #2 of `bench/index.ts`), for profiling.
 *
 * It measures the build in dist/ (`npm run build` first); BENCH_SOURCE=src runs the sources.
 * Whole process (includes module loading and the untimed viem signing):
 *   BENCH_SOURCE=src node --import tsx --cpu-prof --cpu-prof-dir=/tmp/prof bench/eth-transfers.ts
 * Only the timed send + receipt loop (V8 inspector, main thread only):
 *   BENCH_SOURCE=src BENCH_PROFILE=/tmp/prof/eth.cpuprofile npx tsx bench/eth-transfers.ts
 * Then:
 *   npx tsx bench/cpuprofile-top.ts /tmp/prof/eth.cpuprofile 15
 *
 * BENCH_N overrides the transfer count (default 2000, or 200 with BENCH_QUICK=1).
 */
import { MEASURED, createNode, cryptoBackends } from './finality.js'
import { benchEthTransfers } from './cases.js'
import { profileHooks, scale } from './util.js'

const n = process.env.BENCH_N !== undefined ? Number(process.env.BENCH_N) : scale(2000)
if (!Number.isInteger(n) || n < 1) throw new Error(`bad BENCH_N ${process.env.BENCH_N}`)

const hooks = profileHooks()

const node = await createNode()
try {
  const r = await benchEthTransfers(node, n, hooks)
  console.log(`ETH transfers: ${r.txPerSec.toFixed(1)} tx/s (N=${r.n}, ${(r.elapsedMs / 1000).toFixed(2)} s, p50 ${r.p50Ms.toFixed(3)} ms, p99 ${r.p99Ms.toFixed(3)} ms, cpu ${r.cpuUsPerTx.toFixed(0)} µs/tx, main thread ${r.mainCpuUsPerTx.toFixed(0)} µs/tx, secp256k1 ${cryptoBackends().secp256k1}, ed25519 ${cryptoBackends().ed25519}, ${MEASURED})`)
} finally {
  await node.close()
}
