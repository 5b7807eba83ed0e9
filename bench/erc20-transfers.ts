/**
 * The ERC20 transfer benchmark alone (same workload as #3 of `bench/index.ts`), for profiling
 * and A/B runs; see `eth-transfers.ts` for the profiling recipe (BENCH_PROFILE, BENCH_N).
 */
import type { Abi, Hex } from 'viem'
import { MEASURED, createNode } from './finality.js'
import { compileFixtures } from '../test/helpers/compile.js'
import { benchErc20Transfers, deployToken } from './cases.js'
import { Signer, profileHooks, scale } from './util.js'

const n = process.env.BENCH_N !== undefined ? Number(process.env.BENCH_N) : scale(2000)
if (!Number.isInteger(n) || n < 1) throw new Error(`bad BENCH_N ${process.env.BENCH_N}`)

const artifact = (await compileFixtures()).Token
if (artifact === undefined) throw new Error('compileFixtures() returned no Token artifact')
const node = await createNode()
try {
  const token = await deployToken(node, new Signer(node), { abi: artifact.abi as Abi, bytecode: artifact.bytecode as Hex })
  const r = await benchErc20Transfers(node, token, n, profileHooks())
  console.log(`ERC20 transfers: ${r.txPerSec.toFixed(1)} tx/s (N=${r.n}, ${(r.elapsedMs / 1000).toFixed(2)} s, p50 ${r.p50Ms.toFixed(3)} ms, p99 ${r.p99Ms.toFixed(3)} ms, cpu ${r.cpuUsPerTx.toFixed(0)} µs/tx, main thread ${r.mainCpuUsPerTx.toFixed(0)} µs/tx, ${MEASURED})`)
} finally {
  await node.close()
}
