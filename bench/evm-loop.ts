/**
 * The EVM's own run, per opcode: one `eth_call` without `to` whose initcode loops 4,000 times over
 * 29 opcodes (DUP, ISZERO, JUMPI, SUB, MSTORE, MLOAD, SLOAD of one warm slot, KECCAK256 of 32
 * bytes, AND, MUL, JUMP), so the interpreter and its handlers carry nearly all of the call's
 * time. Prints the CPU and wall time a call of the build in `<dist>` (default dist/), after 20
 * warm-up calls. For A/B runs pin it to one core and alternate fresh processes of two builds
 * (copies of dist/ inside the git-ignored `.scratch/`, see replay/ab.ts):
 *
 *   for i in 1 2 3 4 5; do for d in .scratch/distA .scratch/distB; do
 *     taskset -c 0 npx tsx bench/evm-loop.ts $d 40; done; done
 *
 * `BIG_WORDS=1` stores each iteration's 256-bit hash with MSTORE instead of dropping it.
 * `EVM_LOOP_ALLOC=1` then runs 20 more calls under V8's sampling heap profiler (freed objects
 * kept, a sample every 1 KB) and prints the bytes a call allocates and its top allocating
 * functions (self bytes a call; build positions, not mapped to the sources).
 */
import { Session } from 'node:inspector/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const [distArg = 'dist', callsArg = '40'] = process.argv.slice(2)
const calls = Number(callsArg)
if (!Number.isInteger(calls) || calls < 1) throw new Error(`bad call count ${callsArg}: a positive integer`)
const url = pathToFileURL(path.join(path.resolve(distArg), 'index.js')).href
const { createNode } = (await import(url)) as {
  createNode(o: unknown): Promise<{ request(r: { method: string; params: unknown[] }): Promise<unknown>; close(): Promise<void> }>
}
const node = await createNode({ hardhatCompat: true })

const ITERATIONS = 4000
const hex = (n: number, bytes: number): string => n.toString(16).padStart(bytes * 2, '0')
let body = `61${hex(ITERATIONS, 2)}5b` // PUSH2 iterations; pc 3: JUMPDEST
body += '801561XXXX57' // DUP1 ISZERO PUSH2 end JUMPI
body += '60019003' // PUSH1 1 SWAP1 SUB
body += '80600052' // DUP1 PUSH1 0 MSTORE
body += '60005150' // PUSH1 0 MLOAD POP
body += '60005450' // PUSH1 0 SLOAD POP
body += `6020600020${process.env.BIG_WORDS === '1' ? '602052' : '50'}` // PUSH1 32 PUSH1 0 KECCAK256, then PUSH1 32 MSTORE or POP
body += '8060011660020250' // DUP1 PUSH1 1 AND PUSH1 2 MUL POP
body += '600356' // PUSH1 3 JUMP
const code = `${body.replace('XXXX', hex(body.length / 2, 2))}5b00` // end: JUMPDEST STOP (the placeholder is two bytes long too)
const [from] = (await node.request({ method: 'eth_accounts', params: [] })) as string[]
const request = { method: 'eth_call', params: [{ from, data: `0x${code}`, gas: '0x1c9c380' }, 'latest'] }
for (let i = 0; i < 20; i++) await node.request(request)
const cpu = process.cpuUsage()
const start = performance.now()
for (let i = 0; i < calls; i++) await node.request(request)
const used = process.cpuUsage(cpu)
console.log(JSON.stringify({ cpuMsPerCall: (used.user + used.system) / 1000 / calls, wallMsPerCall: (performance.now() - start) / calls }))
if (process.env.EVM_LOOP_ALLOC === '1') {
  interface HeapNode { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: HeapNode[] }
  const sampled = 20
  const session = new Session()
  session.connect()
  await session.post('HeapProfiler.enable')
  await session.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never)
  for (let i = 0; i < sampled; i++) await node.request(request)
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: HeapNode } }
  const self = new Map<string, number>()
  let total = 0
  const walk = (h: HeapNode, parent: string): void => {
    const f = h.callFrame
    const here = `${f.functionName || '(anonymous)'} (${f.url === '' ? 'native' : `${path.basename(f.url)}:${f.lineNumber + 1}`})`
    const key = f.url === '' ? `${here} <- ${parent}` : here
    if (h.selfSize > 0) self.set(key, (self.get(key) ?? 0) + h.selfSize)
    total += h.selfSize
    for (const c of h.children) walk(c, f.url === '' ? parent : here)
  }
  walk(profile.head, '(root)')
  console.log(`${(total / sampled / 1e6).toFixed(2)} MB allocated a call`)
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${(v / sampled / 1e3).toFixed(0).padStart(6)} KB  ${k}`)
}
await node.close()
