/**
 * The warm-up of the first transactions of a process, measured on the build in `dist/`
 * (`npx tsup` first): fresh processes that do what the contest's token group does (deploy the
 * Token fixture, 9 seeding transfers, then ERC20 transfers sent as raw signed transactions with
 * `eth_sendRawTransaction` and `eth_getTransactionReceipt`), timing the 500 measured transfers
 * in batches of 50 (wall and main-thread CPU, Linux schedstat).
 *
 *   npx tsx bench/warmup.ts                 fresh vs after 2,000 transfers, alternated
 *   BENCH_FLAGS='--max-lazy;--no-maglev'    also runs each of these V8 flag sets (';'-separated)
 *   BENCH_REPS=7                            processes per variant (default 7)
 *   BENCH_CURVE=1                           one curve: 2,500 transfers in a fresh process, per 50
 *   BENCH_CACHE_FLAGS=1                     whether V8 takes the compile cache written without flags in a
 *                                           process run with each of BENCH_FLAGS (cachedDataRejected)
 *   BENCH_TRACE=1                           one fresh process under --trace-opt --trace-deopt:
 *                                           optimisations and deopts during the first 500, by function
 *
 * The transactions are signed once here with viem, as the contest signs them (EIP-1559, chain id
 * 31337, the default mnemonic's accounts, ten senders).
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { encodeDeployData, encodeFunctionData, getContractAddress, toHex, type Hex } from 'viem'
import { mnemonicToAccount, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { compileFixtures } from '../test/helpers/compile.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const ENTRY = pathToFileURL(path.join(ROOT, 'dist', 'index.js')).href
const REPS = Number(process.env.BENCH_REPS ?? 7)
const PREWARM = 2000
const MEASURED = 500
const BATCH = 50
const SENDERS = 10
const SUPPLY = 10n ** 27n

async function plan(): Promise<{ deploy: Hex; seed: Hex[]; transfers: Hex[] }> {
  const token = (await compileFixtures()).Token
  if (token === undefined) throw new Error('no Token artifact')
  const signers: PrivateKeyAccount[] = []
  for (let i = 0; i < 20; i++) {
    const key = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: i }).getHdKey().privateKey
    if (key === null) throw new Error('no key')
    signers.push(privateKeyToAccount(toHex(key)))
  }
  const nonces = new Map<number, number>()
  const take = (i: number): number => { const n = nonces.get(i) ?? 0; nonces.set(i, n + 1); return n }
  const sign = (from: number, tx: { to?: Hex; data: Hex; gas: bigint }): Promise<Hex> =>
    signers[from]!.signTransaction({ chainId: 31337, type: 'eip1559', nonce: take(from), to: tx.to, value: 0n, data: tx.data, gas: tx.gas, maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n })
  const deploy = await sign(0, { data: encodeDeployData({ abi: token.abi, bytecode: token.bytecode, args: ['Bench Token', 'BNCH', SUPPLY] }), gas: 3_000_000n })
  const to = getContractAddress({ from: signers[0]!.address, nonce: 0n })
  const transfer = (r: Hex, amount: bigint): Hex => encodeFunctionData({ abi: token.abi, functionName: 'transfer', args: [r, amount] })
  const seed: Hex[] = []
  for (let i = 1; i < SENDERS; i++) seed.push(await sign(0, { to, gas: 100_000n, data: transfer(signers[i]!.address, SUPPLY / 100n) }))
  const transfers: Hex[] = []
  for (let i = 0; i < PREWARM + MEASURED; i++) transfers.push(await sign(i % SENDERS, { to, gas: 100_000n, data: transfer(signers[SENDERS + (i % 10)]!.address, 1n) }))
  return { deploy, seed, transfers }
}

// The child: plain JavaScript, no TypeScript loader in the measured process. argv: plan file, prewarm (0/1).
const CHILD = `
import { readFileSync } from 'node:fs'
const cpu = () => Number(readFileSync('/proc/self/task/' + process.pid + '/schedstat', 'utf8').split(' ')[0]) / 1e6
const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const prewarm = process.argv[3] === '1'
const mark = (s) => { if (process.env.WARMUP_MARK) process.stdout.write('@@' + s + '\\n') }
const c0 = cpu(), t0 = performance.now()
const { createNode } = await import(${JSON.stringify(ENTRY)})
const node = await createNode()
await node.request({ method: 'eth_chainId' })
const startCpu = cpu() - c0, startMs = performance.now() - t0
const send = async (raw) => {
  const hash = await node.request({ method: 'eth_sendRawTransaction', params: [raw] })
  const r = await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })
  if (r === null || r.status !== '0x1') throw new Error('receipt ' + JSON.stringify(r))
}
let c = cpu(), t = performance.now()
mark('deploy')
await send(plan.deploy)
const deployCpu = cpu() - c, deployMs = performance.now() - t
for (const raw of plan.seed) await send(raw)
const pre = prewarm ? plan.transfers.slice(0, ${PREWARM}) : []
for (const raw of pre) await send(raw)
const measured = plan.transfers.slice(pre.length, pre.length + Number(process.argv[4] ?? ${MEASURED}))
const batches = []
mark('first500')
const m0 = cpu(), w0 = performance.now(), p0 = process.cpuUsage()
for (let b = 0; b < measured.length; b += ${BATCH}) {
  c = cpu(); t = performance.now()
  for (const raw of measured.slice(b, b + ${BATCH})) await send(raw)
  batches.push({ ms: performance.now() - t, cpu: cpu() - c })
}
const allCpu = cpu() - m0, allMs = performance.now() - w0, pu = process.cpuUsage(p0), procCpu = (pu.user + pu.system) / 1000
mark('end')
await node.close()
console.log('RESULT ' + JSON.stringify({ startCpu, startMs, deployCpu, deployMs, allCpu, allMs, procCpu, batches }))
`

type Result = { startCpu: number; startMs: number; deployCpu: number; deployMs: number; allCpu: number; allMs: number; procCpu: number; batches: { ms: number; cpu: number }[] }

function run(dir: string, flags: string[], prewarm: boolean, env: Record<string, string> = {}, count = MEASURED): { result?: Result; stdout: string } {
  const p = spawnSync(process.execPath, [...flags, path.join(dir, 'child.mjs'), path.join(dir, 'plan.json'), prewarm ? '1' : '0', String(count)], {
    encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, ...env },
  })
  if (p.status !== 0) throw new Error(`child failed (${flags.join(' ')}): ${p.stderr}`)
  const line = p.stdout.split('\n').find((l) => l.startsWith('RESULT '))
  return { result: line === undefined ? undefined : (JSON.parse(line.slice(7)) as Result), stdout: p.stdout }
}

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2 }
const f1 = (x: number): string => x.toFixed(1)

/**
 * Counts --trace-opt / --trace-deopt lines between the markers: completed optimisations, deopts
 * (`[bailout`: eager, soft, lazy) and optimised code thrown away for a broken dependency
 * (`[marking dependent code`), by function, over several processes.
 */
function trace(outputs: string[]): void {
  const totals = new Map<string, { opt: number; deopt: number; dependent: number }>()
  const byFn = new Map<string, { deopt: number; reasons: Map<string, number> }>()
  for (const stdout of outputs) {
    let phase = 'start'
    for (const line of stdout.split('\n')) {
      if (line.startsWith('@@')) { phase = line.slice(2); continue }
      const tot = totals.get(phase) ?? { opt: 0, deopt: 0, dependent: 0 }
      totals.set(phase, tot)
      let fn: string | undefined
      let reason = '?'
      if (line.startsWith('[completed optimizing')) tot.opt++
      else if (line.startsWith('[bailout')) {
        tot.deopt++
        fn = /<JSFunction ([^ >]+)/.exec(line)?.[1]
        reason = `${/kind: ([^,]+)/.exec(line)?.[1] ?? '?'}: ${/reason: ([^)]*)\)/.exec(line)?.[1] ?? '?'}`
      } else if (line.startsWith('[marking dependent code')) {
        tot.dependent++
        fn = /<SharedFunctionInfo ([^ >]+)>/.exec(line)?.[1]
        reason = 'dependent code: ' + (/reason: (.*)\]/.exec(line)?.[1] ?? '?')
      }
      if (fn !== undefined && phase === 'first500') {
        const e = byFn.get(fn) ?? { deopt: 0, reasons: new Map<string, number>() }
        e.deopt++
        e.reasons.set(reason, (e.reasons.get(reason) ?? 0) + 1)
        byFn.set(fn, e)
      }
    }
  }
  console.log(`${outputs.length} processes; per phase, totals over them:`)
  for (const [k, v] of totals) console.log(`  ${k}: ${v.opt} optimisations completed, ${v.deopt} deopts, ${v.dependent} optimised functions dropped for a broken dependency`)
  console.log('deopts and drops during the measured 500, by function (all processes):')
  for (const [fn, v] of [...byFn].sort((a, b) => b[1].deopt - a[1].deopt).slice(0, 30)) console.log(`  ${v.deopt}  ${fn}  ${[...v.reasons].map(([r, n]) => `${r} ×${n}`).join('; ')}`)
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'finality-warmup-'))
  writeFileSync(path.join(dir, 'plan.json'), JSON.stringify(await plan()))
  writeFileSync(path.join(dir, 'child.mjs'), CHILD)
  if (process.env.BENCH_TRACE === '1') {
    const flags = ['--trace-opt', '--trace-deopt']
    run(dir, flags, false) // writes this flag set's compile cache
    const outputs: string[] = []
    for (let r = 0; r < REPS; r++) outputs.push(run(dir, flags, false, { WARMUP_MARK: '1' }).stdout)
    trace(outputs)
    return
  }
  if (process.env.BENCH_CACHE_FLAGS === '1') {
    run(dir, [], false) // the cache without flags
    const id = /BUILD_ID = '([^']*)'/.exec(readFileSync(path.join(ROOT, 'dist', 'index.cjs'), 'utf8'))?.[1]
    // The file name's flag key, as scripts/entry-loader.cjs makes it, for a process without flags.
    const text = `\0${process.env.NODE_OPTIONS ?? ''}`
    let h = 0x811c9dc5
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
    const file = path.join(tmpdir(), `finality-compile-cache-${process.getuid?.() ?? ''}`, `${id}-${process.versions.v8}-${process.arch}-${h.toString(16)}.bin`)
    const check = `const vm = require('node:vm'), fs = require('node:fs'), Module = require('node:module');
const s = new vm.Script(Module.wrap(fs.readFileSync(${JSON.stringify(path.join(ROOT, 'dist', 'finality.cjs'))}, 'utf8')), { filename: ${JSON.stringify(path.join(ROOT, 'dist', 'finality.cjs'))}, cachedData: fs.readFileSync(${JSON.stringify(file)}).subarray(4) });
console.log(s.cachedDataRejected)`
    for (const flags of ['', ...(process.env.BENCH_FLAGS ?? '').split(';')]) {
      const p = spawnSync(process.execPath, [...flags.split(/\s+/).filter((f) => f !== ''), '-e', check], { encoding: 'utf8' })
      console.log(`${flags === '' ? '(none)' : flags}: ${p.status === 0 ? `cache rejected: ${p.stdout.trim()}` : `node refused: ${p.stderr.trim().split('\n')[0]}`}`)
    }
    return
  }
  if (process.env.BENCH_CURVE === '1') {
    const count = PREWARM + MEASURED
    const rs: Result[] = []
    for (let r = 0; r < REPS; r++) rs.push(run(dir, [], false, {}, count).result!)
    console.log(`fresh process, ${count} transfers, medians of ${REPS}: main-thread CPU ms per ${BATCH}`)
    console.log(rs[0]!.batches.map((_, i) => f1(median(rs.map((x) => x.batches[i]!.cpu)))).join(' '))
    return
  }
  const variants: { name: string; flags: string[]; prewarm: boolean }[] = [
    { name: 'fresh', flags: [], prewarm: false },
    { name: `after ${PREWARM}`, flags: [], prewarm: true },
    ...(process.env.BENCH_FLAGS ?? '').split(';').filter((s) => s.trim() !== '').map((s) => ({ name: s.trim(), flags: s.trim().split(/\s+/), prewarm: false })),
  ]
  for (const v of variants) run(dir, v.flags, false) // each flag set writes its own compile cache first
  const results = new Map<string, Result[]>(variants.map((v) => [v.name, []]))
  for (let r = 0; r < REPS; r++) for (const v of variants) results.get(v.name)!.push(run(dir, v.flags, v.prewarm).result!)
  console.log(`medians of ${REPS} processes per variant (main-thread CPU ms; wall ms in brackets; all threads = the process's CPU over the 500)`)
  for (const v of variants) {
    const rs = results.get(v.name)!
    const batches = rs[0]!.batches.map((_, i) => f1(median(rs.map((x) => x.batches[i]!.cpu))))
    console.log(`${v.name}: start ${f1(median(rs.map((x) => x.startCpu)))} (${f1(median(rs.map((x) => x.startMs)))}), deploy ${f1(median(rs.map((x) => x.deployCpu)))} (${f1(median(rs.map((x) => x.deployMs)))}), 500: ${f1(median(rs.map((x) => x.allCpu)))} (${f1(median(rs.map((x) => x.allMs)))}) = ${Math.round(MEASURED / (median(rs.map((x) => x.allMs)) / 1000))} tx/s wall, ${Math.round(MEASURED / (median(rs.map((x) => x.allCpu)) / 1000))} tx/s CPU; all threads ${f1(median(rs.map((x) => x.procCpu)))} ms`)
    console.log(`  per ${BATCH}: ${batches.join(' ')}`)
  }
}

await main()
