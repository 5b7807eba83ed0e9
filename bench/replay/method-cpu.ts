/**
 * The calls of one method inside a recorded suite's whole replay, timed (and profiled) where they
 * fall: for what `bench/replay/cpu.ts` cannot repeat, such as `evm_revert` (a snapshot is used up)
 * or a call whose cost depends on the requests before it. Replays the suite on a build in this
 * process, translating snapshot ids and transaction hashes with EDR's answers as the replay does,
 * and prints the process CPU a call of `method` (no profiler), then, with `BENCH_PROFILE_DIR`
 * set, runs again with V8's profiler started and stopped around each call (25 µs sampling), one
 * `.cpuprofile` a call in that folder: `npx tsx bench/cpuprofile-top.ts <dir> 40` adds them up.
 *
 *   BENCH_AB_KEEP=/tmp/keep npx tsx bench/replay/ab.ts rocketpool dist dist 1   (EDR's ids, once)
 *   taskset -c 0 npx tsx bench/replay/method-cpu.ts <scenario.jsonl.gz> /tmp/keep/edr-ids.json evm_revert
 *
 * `BENCH_DIST=<dir>` loads another build (inside the repository: `.scratch/`).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import path from 'node:path'
import { scenarioNode } from './scenario-node.js'

const [file, idsFile, method] = process.argv.slice(2)
if (file === undefined || idsFile === undefined || method === undefined) throw new Error('usage: method-cpu.ts <scenario.jsonl.gz> <edr-ids.json> <method>')
const edrIds = JSON.parse(readFileSync(idsFile, 'utf8')) as Record<string, string>
const profileDir = process.env.BENCH_PROFILE_DIR

async function replay(session: Session | undefined): Promise<{ calls: number; cpuUs: number }> {
  const { node, requests } = await scenarioNode(file as string)
  const ours = new Map<string, string>()
  let calls = 0
  let cpuUs = 0
  for (let i = 0; i < requests.length; i++) {
    const r = requests[i] as (typeof requests)[number]
    let params = r.params
    const first = params?.[0]
    if (params !== undefined && typeof first === 'string' && ours.has(first)) params = [ours.get(first), ...params.slice(1)]
    const timed = r.method === method
    if (timed && session !== undefined) await session.post('Profiler.start')
    const before = process.cpuUsage()
    const answer = await node.request({ method: r.method, params }).catch(() => undefined)
    const used = process.cpuUsage(before)
    if (timed) {
      cpuUs += used.user + used.system
      if (session !== undefined) {
        const { profile } = await session.post('Profiler.stop')
        writeFileSync(path.join(profileDir as string, `${calls}.cpuprofile`), JSON.stringify(profile))
      }
      calls++
    }
    const theirs = edrIds[i]
    if (typeof answer === 'string' && theirs !== undefined && theirs !== answer) ours.set(theirs, answer)
  }
  await node.close()
  return { calls, cpuUs }
}

const plain = await replay(undefined)
if (plain.calls === 0) throw new Error(`the scenario has no ${method} request`)
console.log(`${method}: ${plain.calls} calls, ${(plain.cpuUs / plain.calls).toFixed(1)} µs of process CPU a call`)
if (profileDir !== undefined) {
  mkdirSync(profileDir, { recursive: true })
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 25 })
  const profiled = await replay(session)
  console.log(`profiled: ${profiled.calls} profiles in ${profileDir} (${(profiled.cpuUs / profiled.calls).toFixed(1)} µs a call with the profiler on)`)
}
