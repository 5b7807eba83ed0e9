/**
 * finality benchmark suite. Prints an aligned table and one `BENCH_JSON {...}` line.
 *
 *   npm run bench                                  full size (~1-2 min on 2 cores)
 *   BENCH_QUICK=1 npm run bench                    every workload 10x smaller (smoke run)
 *   NODE_OPTIONS=--expose-gc npm run bench         memory figures after `global.gc()`
 *                                                  (without it a v8-flag fallback forces GC)
 *   FINALITY_SECP256K1=noble npm run bench         force the pure-JS secp256k1 backend
 *   BENCH_CONTESTANTS=0 npm run bench              this suite only, without the comparison
 *
 * After this suite, the comparison with EDR and Anvil (`contest.ts`, also alone as
 * `npm run bench:contest`) prints its own table, then the replay of EDR's recorded real-suite
 * request streams (`replay.ts`, also alone as `npm run bench:replay`; skipped, with one line
 * saying where the files go, when they are absent). `BENCH_KINDS=replay` selects it alone.
 * The replay runs under the running Node and Node 24, the active LTS (`BENCH_REPLAY_NODES`,
 * default `current,24`; Node 24 installed into bench/nodes/24 from the npm registry the first
 * time): under Node 20 or 22 that is the replay twice; `BENCH_REPLAY_NODES=current` once.
 *
 * No timing assertions: the run fails only if a workload does not do what it claims
 * (a receipt not 0x1, the block number not advancing by N, an eth_call not decoding).
 */
import os from 'node:os'
import type { Abi, Hex } from 'viem'
import { MEASURED, createNode, cryptoBackends } from './finality.js'
import { compileFixtures } from '../test/helpers/compile.js'
import {
  SENDERS,
  benchErc20Transfers,
  benchEthCall,
  benchEthTransfers,
  benchMemory,
  benchStartup,
  deployToken,
} from './cases.js'
import { QUICK, Signer, now, round, scale } from './util.js'
import { benchControls } from './controls.js'
import { benchMine } from './mine.js'

const N_STARTUP = QUICK ? 5 : 20
const N_ETH = scale(2000)
const N_ERC20 = scale(2000)
const N_CALL = scale(5000)
const N_MEMORY = scale(10_000)

const log = (msg: string): void => {
  process.stderr.write(`[bench] ${msg}\n`)
}

const suiteStart = now()
log(`measuring ${MEASURED === 'dist' ? 'the build in dist/' : 'the sources (BENCH_SOURCE=src)'}; secp256k1 backend: ${cryptoBackends().secp256k1}, ed25519 backend: ${cryptoBackends().ed25519}${QUICK ? ' (BENCH_QUICK: 10x smaller workloads)' : ''}`)

log(`1/5 createNode() start-up x${N_STARTUP}`)
const startup = await benchStartup(N_STARTUP)

const artifacts = await compileFixtures()
const tokenArtifact = artifacts.Token
if (tokenArtifact === undefined) throw new Error('compileFixtures() returned no Token artifact')
const TOKEN = { abi: tokenArtifact.abi as Abi, bytecode: tokenArtifact.bytecode as Hex }

// Each node lives inside a function so that, once closed, nothing keeps it reachable and the
// memory benchmark's baseline is not inflated by earlier workloads.
async function runEth(): Promise<Awaited<ReturnType<typeof benchEthTransfers>>> {
  const node = await createNode()
  try {
    return await benchEthTransfers(node, N_ETH)
  } finally {
    await node.close()
  }
}

async function runToken(): Promise<{ erc20: Awaited<ReturnType<typeof benchErc20Transfers>>; call: Awaited<ReturnType<typeof benchEthCall>> }> {
  const node = await createNode()
  try {
    const token = await deployToken(node, new Signer(node), TOKEN)
    const erc20 = await benchErc20Transfers(node, token, N_ERC20)
    log(`4/5 eth_call balanceOf x${N_CALL}`)
    const call = await benchEthCall(node, token, N_CALL)
    return { erc20, call }
  } finally {
    await node.close()
  }
}

log(`2/5 ETH transfers x${N_ETH}`)
const eth = await runEth()
log(`3/5 ERC20 transfers x${N_ERC20}`)
const { erc20, call } = await runToken()

log(`5/5 memory after ${N_MEMORY} ETH transfers (fresh node)`)
const memory = await benchMemory(N_MEMORY, scale(1000), (done, rate) => {
  if (done % scale(2000) === 0 || done === N_MEMORY) log(`    ${done}/${N_MEMORY} transfers, last batch ${rate.toFixed(1)} tx/s`)
})
log(`6/6 controls: snapshot/revert x${scale(2000)}, empty blocks x${scale(2000)}`)
const controls = await benchControls(scale(2000), scale(2000))
const mineCounts = QUICK ? [820, 1000] : [8197, 10_000]
log(`7/7 hardhat_mine of ${mineCounts.join(' and ')} empty blocks, ${QUICK ? 1 : 3} runs each, interleaved`)
const mined = await benchMine(mineCounts, QUICK ? 1 : 3)
const firstBatch = memory.batchTxPerSec[0] ?? NaN
const lastBatch = memory.batchTxPerSec[memory.batchTxPerSec.length - 1] ?? NaN
const totalSec = (now() - suiteStart) / 1000

// ---------------------------------------------------------------------------
// Report

const f = (x: number, d = 1): string => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d })
const backends = cryptoBackends()
const rows: Array<[string, string, string]> = [
  ['createNode() start-up (create+close)', `${f(startup.medianMs, 2)} ms`, `median of ${startup.runs}; min ${f(startup.minMs, 2)}, max ${f(startup.maxMs, 2)}, first ${f(startup.firstMs, 2)} ms`],
  ['ETH transfers (send + receipt)', `${f(eth.txPerSec)} tx/s`, `N=${eth.n} over ${SENDERS} senders in ${f(eth.elapsedMs / 1000, 2)} s; p50 ${f(eth.p50Ms, 3)} ms, p99 ${f(eth.p99Ms, 3)} ms; cpu ${f(eth.cpuUsPerTx, 0)} µs/tx (main thread ${f(eth.mainCpuUsPerTx, 0)})`],
  ['ERC20 transfers (send + receipt)', `${f(erc20.txPerSec)} tx/s`, `N=${erc20.n} over ${SENDERS} senders in ${f(erc20.elapsedMs / 1000, 2)} s; p50 ${f(erc20.p50Ms, 3)} ms, p99 ${f(erc20.p99Ms, 3)} ms; cpu ${f(erc20.cpuUsPerTx, 0)} µs/tx (main thread ${f(erc20.mainCpuUsPerTx, 0)})`],
  ['eth_call balanceOf', `${f(call.callsPerSec)} calls/s`, `N=${call.n} in ${f(call.elapsedMs / 1000, 2)} s; p50 ${f(call.p50Ms, 3)} ms, p99 ${f(call.p99Ms, 3)} ms`],
  [`Memory after ${memory.n} ETH transfers: heapUsed`, `${f(memory.heapUsedMb)} MB`, `baseline before createNode ${f(memory.baselineHeapUsedMb)} MB; GC: ${memory.gc}`],
  [`Memory after ${memory.n} ETH transfers: rss`, `${f(memory.rssMb)} MB`, `baseline ${f(memory.baselineRssMb)} MB`],
  [`  (send + receipt rate during that run)`, `${f(lastBatch)} tx/s`, `last ${memory.batchSize} txs; first ${memory.batchSize}: ${f(firstBatch)} tx/s; whole run ${f((memory.n / memory.elapsedMs) * 1000)} tx/s (signing included)`],
  ['evm_snapshot + evm_revert', `${f(controls.snapshotPerSec)} cycles/s`, `N=${controls.snapshotCycles}, nothing in between`],
  ['snapshot + transfer + revert', `${f(controls.wrappedPerSec)} cycles/s`, `N=${controls.wrappedCycles}: what wrapping a one-transaction test costs`],
  ['hardhat_mine empty blocks', `${f(controls.emptyBlocksPerSec)} blocks/s`, `N=${controls.emptyBlocks} in one call`],
  ...mined.map((m): [string, string, string] => [
    `hardhat_mine ${m.blocks.toLocaleString('en-US')} empty blocks`,
    `${f(m.medianMs, 0)} ms`,
    `median of ${m.runs}, fresh node each; ${f((m.medianMs * 1000) / m.blocks)} µs/block; cpu ${f(m.medianCpuMs, 0)} ms (main thread ${f(m.medianMainCpuMs, 0)}); the latest block after it ${f(m.latestMs, 2)} ms`,
  ]),
  ['secp256k1 backend', backends.secp256k1, 'FINALITY_SECP256K1=noble forces pure JS'],
  ['ed25519 backend', backends.ed25519, 'FINALITY_ED25519=node forces node:crypto'],
  ['keccak backend', backends.keccak, 'FINALITY_KECCAK=noble forces pure JS'],
  ['package measured', MEASURED, MEASURED === 'dist' ? 'the build users import; BENCH_SOURCE=src runs the sources through tsx' : 'the sources through tsx (keepNames costs a few per cent)'],
]

const header: [string, string, string] = ['Benchmark', 'Result', 'Details']
const w0 = Math.max(header[0].length, ...rows.map((r) => r[0].length))
const w1 = Math.max(header[1].length, ...rows.map((r) => r[1].length))
const line = (r: [string, string, string]): string => `${r[0].padEnd(w0)}  ${r[1].padStart(w1)}  ${r[2]}`
const rule = `${'-'.repeat(w0)}  ${'-'.repeat(w1)}  ${'-'.repeat(Math.max(header[2].length, ...rows.map((r) => r[2].length)))}`

console.log()
console.log(`finality benchmarks${QUICK ? ' (BENCH_QUICK=1: 10x smaller workloads)' : ''}`)
console.log(`node ${process.version}, ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.platform()}/${os.arch()}`)
console.log()
console.log(line(header))
console.log(rule)
for (const r of rows) console.log(line(r))
console.log(rule)
console.log(`total suite time ${f(totalSec, 1)} s (signing untimed: ETH ${f(eth.signMs / 1000, 2)} s, ERC20 ${f(erc20.signMs / 1000, 2)} s)`)
console.log()

const json = {
  quick: QUICK,
  node: process.version,
  cpus: os.cpus().length,
  measured: MEASURED,
  secp256k1Backend: backends.secp256k1,
  ed25519Backend: backends.ed25519,
  keccakBackend: backends.keccak,
  startup: { runs: startup.runs, medianMs: round(startup.medianMs, 3), minMs: round(startup.minMs, 3), maxMs: round(startup.maxMs, 3), firstMs: round(startup.firstMs, 3) },
  ethTransfers: { n: eth.n, senders: SENDERS, elapsedMs: round(eth.elapsedMs), txPerSec: round(eth.txPerSec), p50Ms: round(eth.p50Ms, 3), p99Ms: round(eth.p99Ms, 3), cpuUsPerTx: round(eth.cpuUsPerTx, 0), mainCpuUsPerTx: round(eth.mainCpuUsPerTx, 0) },
  erc20Transfers: { n: erc20.n, senders: SENDERS, elapsedMs: round(erc20.elapsedMs), txPerSec: round(erc20.txPerSec), p50Ms: round(erc20.p50Ms, 3), p99Ms: round(erc20.p99Ms, 3), cpuUsPerTx: round(erc20.cpuUsPerTx, 0), mainCpuUsPerTx: round(erc20.mainCpuUsPerTx, 0), deployGasUsed: Number(erc20.deployGasUsed) },
  ethCall: { n: call.n, elapsedMs: round(call.elapsedMs), callsPerSec: round(call.callsPerSec), p50Ms: round(call.p50Ms, 3), p99Ms: round(call.p99Ms, 3) },
  memory: {
    transfers: memory.n, gc: memory.gc, heapUsedMb: memory.heapUsedMb, rssMb: memory.rssMb,
    baselineHeapUsedMb: memory.baselineHeapUsedMb, baselineRssMb: memory.baselineRssMb,
    batchSize: memory.batchSize, batchTxPerSec: memory.batchTxPerSec.map((x) => round(x, 1)),
  },
  controls: {
    snapshotPerSec: round(controls.snapshotPerSec), wrappedPerSec: round(controls.wrappedPerSec),
    emptyBlocks: controls.emptyBlocks, emptyBlocksPerSec: round(controls.emptyBlocksPerSec),
  },
  hardhatMine: mined.map((m) => ({ blocks: m.blocks, runs: m.runs, medianMs: round(m.medianMs), medianCpuMs: round(m.medianCpuMs), medianMainCpuMs: round(m.medianMainCpuMs), latestMs: round(m.latestMs, 3) })),
  totalSec: round(totalSec, 1),
}
console.log(`BENCH_JSON ${JSON.stringify(json)}`)

if (process.env.BENCH_CONTESTANTS !== '0') {
  const { runContest } = await import('./contest.js')
  await runContest()
  // The real-suite replay (EDR's recorded streams), a group of its own in BENCH_KINDS.
  const groups = (process.env.BENCH_KINDS ?? '').split(',').map((k) => k.trim()).filter((k) => k !== '')
  if (groups.length === 0 || groups.includes('replay')) {
    const { runReplay } = await import('./replay.js')
    await runReplay()
  }
}
