/**
 * The debug runtime on Node.js: the enableProfiling setting, the statistics and profile methods,
 * file paths kept inside the profiling directory, and the methods with no Node.js analogue; over
 * node.request, HTTP and WebSocket.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, existsSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'
import { PROFILING_OFF } from '../../src/profiling/profiling.js'
import { trackNodes } from '../helpers/nodes.js'
import { servedOverHttpAndWs, rpc } from '../helpers/loopback.js'
import { calldata, deploy } from '../helpers/execution.js'

const newNode = trackNodes()

const SPEC_MEM_FIELDS = ['Alloc', 'TotalAlloc', 'Sys', 'Lookups', 'Mallocs', 'Frees', 'HeapAlloc', 'HeapSys', 'HeapIdle', 'HeapInuse', 'HeapReleased', 'HeapObjects', 'StackInuse', 'StackSys', 'MSpanInuse', 'MSpanSys', 'MCacheInuse', 'MCacheSys', 'BuckHashSys', 'GCSys', 'OtherSys', 'NextGC', 'LastGC', 'PauseTotalNs', 'NumGC', 'NumForcedGC', 'GCCPUFraction', 'EnableGC', 'DebugGC']

const GATED: Array<[string, unknown[]]> = [
  ['debug_memStats', []],
  ['debug_gcStats', []],
  ['debug_freeOSMemory', []],
  ['debug_stacks', []],
  ['debug_cpuProfile', ['x.cpuprofile', 0]],
  ['debug_startCPUProfile', ['x.cpuprofile']],
  ['debug_stopCPUProfile', []],
  ['debug_writeMemProfile', ['x.heapsnapshot']],
  ['debug_goTrace', ['x.json', 0]],
  ['debug_startGoTrace', ['x.json']],
  ['debug_stopGoTrace', []],
  ['debug_verbosity', [3]],
  ['debug_vmodule', ['']],
]

const NO_ANALOGUE: Array<[string, unknown[]]> = [
  ['debug_setGCPercent', [100]],
  ['debug_setBlockProfileRate', [1]],
  ['debug_blockProfile', ['b.prof', 1]],
  ['debug_writeBlockProfile', ['b.prof']],
  ['debug_setMutexProfileFraction', [1]],
  ['debug_mutexProfile', ['m.prof', 1]],
  ['debug_writeMutexProfile', ['m.prof']],
]

async function error(node: FinalityNode, method: string, params: unknown[]): Promise<{ code: number; message: string }> {
  try {
    await node.request({ method, params })
  } catch (e) {
    return e as { code: number; message: string }
  }
  throw new Error(`${method} succeeded`)
}

describe('profiling off (the default)', () => {
  let node: FinalityNode
  beforeAll(async () => {
    node = await newNode()
  })

  it.each(GATED)('error: %s names the setting that turns it on', async (method, params) => {
    const e = await error(node, method, params)
    expect(e.code).toBe(-32000)
    expect(e.message).toBe(PROFILING_OFF)
    expect(e.message).toContain('enableProfiling')
  })

  it('behavior: nothing is written while off', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'finality-prof-off-'))
    const off = await newNode({ profilingDir: dir })
    await error(off, 'debug_writeMemProfile', ['x.heapsnapshot'])
    expect(readdirSync(dir)).toEqual([])
  })

  it.each(NO_ANALOGUE)('error: %s has no Node.js analogue', async (method, params) => {
    const e = await error(node, method, params)
    expect(e.code).toBe(-32000)
    expect(e.message).toContain('no Node.js analogue')
  })
})

describe('options', () => {
  it('error: enableProfiling must be a boolean, profilingDir an existing directory', async () => {
    await expect(createNode({ enableProfiling: 'yes' as unknown as boolean })).rejects.toThrow(/enableProfiling/)
    await expect(createNode({ profilingDir: join(tmpdir(), 'finality-no-such-dir-x') })).rejects.toThrow(/profilingDir.*not an existing directory/)
    const file = join(mkdtempSync(join(tmpdir(), 'finality-prof-')), 'f')
    writeFileSync(file, '')
    await expect(createNode({ profilingDir: file })).rejects.toThrow(/not an existing directory/)
    await expect(createNode({ profilingDir: 5 as unknown as string })).rejects.toThrow(/profilingDir/)
  })
})

describe('profiling on', () => {
  let node: FinalityNode
  let dir: string
  let outside: string
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'finality-prof-'))
    outside = mkdtempSync(join(tmpdir(), 'finality-outside-'))
    node = await newNode({ enableProfiling: true, profilingDir: dir, limits: { profileSeconds: 2 } })
  })

  it('debug_memStats: every field the spec names, from the process', async () => {
    const stats = (await node.request({ method: 'debug_memStats', params: [] })) as Record<string, unknown>
    for (const field of SPEC_MEM_FIELDS) expect(stats, field).toHaveProperty(field)
    expect(stats.Sys).toBeGreaterThan(0)
    expect(stats.HeapAlloc).toBeGreaterThan(0)
    expect(stats.HeapInuse as number).toBeLessThanOrEqual(stats.HeapSys as number)
    expect(stats.EnableGC).toBe(true)
    expect(stats.PauseNs).toHaveLength(256)
  })

  it('debug_freeOSMemory: a full collection the GC statistics then count', async () => {
    const before = (await node.request({ method: 'debug_gcStats', params: [] })) as { NumGC: number }
    expect(await node.request({ method: 'debug_freeOSMemory', params: [] })).toBe(null)
    // GC entries reach the observer asynchronously, soon after the collection.
    let after = before
    while (after.NumGC <= before.NumGC) {
      await new Promise((r) => setTimeout(r, 20))
      after = (await node.request({ method: 'debug_gcStats', params: [] })) as { NumGC: number }
    }
    const gc = after as { NumGC: number; PauseTotal: number; Pause: number[]; PauseEnd: number[]; LastGC: number; PauseQuantiles: null }
    expect(gc.Pause.length).toBe(Math.min(gc.NumGC, 256))
    expect(gc.PauseEnd.length).toBe(gc.Pause.length)
    expect(gc.LastGC).toBe(gc.PauseEnd[0])
    expect(gc.PauseQuantiles).toBe(null)
    const mem = (await node.request({ method: 'debug_memStats', params: [] })) as { NumGC: number; NumForcedGC: number; PauseTotalNs: number }
    expect(mem.NumForcedGC).toBeGreaterThanOrEqual(1)
    expect(mem.NumGC).toBeGreaterThanOrEqual(gc.NumGC)
  })

  it('debug_stacks: the main thread and the pending resources; a filter keeps matching sections', async () => {
    const text = (await node.request({ method: 'debug_stacks', params: [] })) as string
    expect(text).toMatch(/^thread 1 \(main\) \[running\]:\n\t/)
    expect(await node.request({ method: 'debug_stacks', params: ['no such frame anywhere'] })).toBe('')
    expect(await node.request({ method: 'debug_stacks', params: ['thread 1'] })).toMatch(/^thread 1/)
  })

  it('debug_cpuProfile: a .cpuprofile DevTools opens', async () => {
    expect(await node.request({ method: 'debug_cpuProfile', params: ['a.cpuprofile', 0] })).toBe(null)
    const profile = JSON.parse(readFileSync(join(dir, 'a.cpuprofile'), 'utf8'))
    expect(Array.isArray(profile.nodes)).toBe(true)
    expect(profile.nodes[0].callFrame.functionName).toBe('(root)')
    expect(typeof profile.startTime).toBe('number')
    expect(profile.endTime).toBeGreaterThanOrEqual(profile.startTime)
  })

  it('debug_startCPUProfile / debug_stopCPUProfile, with geth errors for a second start and a stop without one', async () => {
    expect(await node.request({ method: 'debug_startCPUProfile', params: ['b.cpuprofile'] })).toBe(null)
    expect((await error(node, 'debug_startCPUProfile', ['c.cpuprofile'])).message).toBe('CPU profiling already in progress')
    await node.request({ method: 'eth_blockNumber', params: [] })
    expect(await node.request({ method: 'debug_stopCPUProfile', params: [] })).toBe(null)
    expect(JSON.parse(readFileSync(join(dir, 'b.cpuprofile'), 'utf8')).nodes.length).toBeGreaterThan(0)
    expect(existsSync(join(dir, 'c.cpuprofile'))).toBe(false)
    expect((await error(node, 'debug_stopCPUProfile', [])).message).toBe('CPU profiling not in progress')
  })

  it('debug_writeMemProfile: a V8 heap snapshot', async () => {
    mkdirSync(join(dir, 'sub'))
    expect(await node.request({ method: 'debug_writeMemProfile', params: ['sub/h.heapsnapshot'] })).toBe(null)
    const snapshot = JSON.parse(readFileSync(join(dir, 'sub', 'h.heapsnapshot'), 'utf8'))
    expect(snapshot.snapshot.meta.node_fields).toContain('name')
  })

  it('debug_goTrace / startGoTrace / stopGoTrace: a trace-event file', async () => {
    expect(await node.request({ method: 'debug_goTrace', params: ['t1.json', 0] })).toBe(null)
    const trace = JSON.parse(readFileSync(join(dir, 't1.json'), 'utf8'))
    expect(Array.isArray(trace.traceEvents)).toBe(true)
    expect(await node.request({ method: 'debug_startGoTrace', params: ['t2.json'] })).toBe(null)
    expect((await error(node, 'debug_startGoTrace', ['t3.json'])).message).toBe('trace already in progress')
    await node.mine()
    expect(await node.request({ method: 'debug_stopGoTrace', params: [] })).toBe(null)
    const events = JSON.parse(readFileSync(join(dir, 't2.json'), 'utf8')).traceEvents as Array<{ ph: string; name: string }>
    expect(events.length).toBeGreaterThan(0)
    expect(events.every((e) => typeof e.ph === 'string' && typeof e.name === 'string')).toBe(true)
    expect((await error(node, 'debug_stopGoTrace', [])).message).toBe('trace not in progress')
  })

  it.each([
    ['../escape.heapsnapshot', 'outside the profiling directory'],
    ['sub/../../escape.heapsnapshot', 'outside the profiling directory'],
    ['no-such-dir/x.heapsnapshot', 'its directory does not exist'],
    ['', 'file name is empty'],
    ['a\u0000b', 'NUL byte'],
  ])('error: debug_writeMemProfile(%j) is refused', async (file, message) => {
    const e = await error(node, 'debug_writeMemProfile', [file])
    expect(e.code).toBe(-32000)
    expect(e.message).toContain(message)
  })

  it('error: an absolute path elsewhere, a symlinked directory out and a symlinked file are refused; nothing is written', async () => {
    const elsewhere = join(outside, 'abs.heapsnapshot')
    expect((await error(node, 'debug_writeMemProfile', [elsewhere])).message).toContain('outside the profiling directory')
    symlinkSync(outside, join(dir, 'out'))
    expect((await error(node, 'debug_writeMemProfile', ['out/x.heapsnapshot'])).message).toContain('outside the profiling directory')
    symlinkSync(join(outside, 'target'), join(dir, 'link.cpuprofile'))
    expect((await error(node, 'debug_startCPUProfile', ['link.cpuprofile'])).message).toContain('symbolic link')
    expect((await error(node, 'debug_cpuProfile', ['out/p.cpuprofile', 0])).message).toContain('outside the profiling directory')
    expect((await error(node, 'debug_goTrace', ['../t.json', 0])).message).toContain('outside the profiling directory')
    expect(readdirSync(outside)).toEqual([])
    // The refused start left no profile running.
    expect((await error(node, 'debug_stopCPUProfile', [])).message).toBe('CPU profiling not in progress')
  })

  it('error: a profiling directory removed after start answers -32000, not an internal error', async () => {
    const gone = mkdtempSync(join(tmpdir(), 'finality-prof-gone-'))
    const n = await newNode({ enableProfiling: true, profilingDir: gone })
    rmSync(gone, { recursive: true })
    expect(await error(n, 'debug_writeMemProfile', ['x.heapsnapshot'])).toMatchObject({ code: -32000, message: expect.stringContaining('is not available') })
  })

  it('error: an absolute path inside the directory is accepted', async () => {
    expect(await node.request({ method: 'debug_cpuProfile', params: [join(dir, 'abs.cpuprofile'), 0] })).toBe(null)
    expect(existsSync(join(dir, 'abs.cpuprofile'))).toBe(true)
  })

  it('error: bad param types answer -32602 with Go wording; seconds past limits.profileSeconds are refused', async () => {
    expect(await error(node, 'debug_writeMemProfile', [5])).toMatchObject({ code: -32602, message: 'invalid argument 0: json: cannot unmarshal number into Go value of type string' })
    expect(await error(node, 'debug_cpuProfile', ['x.cpuprofile', '1'])).toMatchObject({ code: -32602, message: 'invalid argument 1: json: cannot unmarshal string into Go value of type uint' })
    expect(await error(node, 'debug_cpuProfile', ['x.cpuprofile', -1])).toMatchObject({ code: -32602 })
    expect(await error(node, 'debug_verbosity', ['3'])).toMatchObject({ code: -32602, message: 'invalid argument 0: json: cannot unmarshal string into Go value of type int' })
    expect(await error(node, 'debug_cpuProfile', ['x.cpuprofile', 3])).toMatchObject({ code: -32000, message: 'profile of 3 seconds exceeds the limit of 2 (limits.profileSeconds)' })
    expect(await error(node, 'debug_goTrace', ['x.json', 3])).toMatchObject({ code: -32000 })
    expect(existsSync(join(dir, 'x.cpuprofile'))).toBe(false)
  })

  it('debug_cpuProfile at limits.profileSeconds is accepted', async () => {
    const limited = await newNode({ enableProfiling: true, profilingDir: dir, limits: { profileSeconds: 1 } })
    expect(await limited.request({ method: 'debug_cpuProfile', params: ['one.cpuprofile', 1] })).toBe(null)
    expect(existsSync(join(dir, 'one.cpuprofile'))).toBe(true)
  })

  it('debug_verbosity / debug_vmodule: the request log of node.listen follows the level', async () => {
    const logged: string[][] = []
    const served = await node.listen({ address: '127.0.0.1:0', wsAddress: '127.0.0.1:0', api: ['eth', 'debug'], onRequest: ({ methods }) => logged.push(methods) })
    try {
      await rpc(served.http!, 'eth_chainId')
      expect(logged).toEqual([['eth_chainId']])
      expect(await node.request({ method: 'debug_verbosity', params: [2] })).toBe(null)
      await rpc(served.http!, 'eth_chainId')
      expect(logged).toHaveLength(1)
      expect(await node.request({ method: 'debug_vmodule', params: ['rpc=3'] })).toBe(null)
      await rpc(served.http!, 'eth_chainId')
      expect(logged).toHaveLength(2)
      expect(await node.request({ method: 'debug_vmodule', params: [''] })).toBe(null)
      await rpc(served.http!, 'eth_chainId')
      expect(logged).toHaveLength(2)
      expect((await error(node, 'debug_vmodule', ['eth/*=5'])).message).toContain("unknown log source eth/*: this node's sources are rpc, console")
      expect((await error(node, 'debug_vmodule', ['rpc'])).message).toBe('expect comma-separated list of filename=N, got rpc')
    } finally {
      await node.request({ method: 'debug_verbosity', params: [3] })
      await served.close()
    }
  })

  it('debug_verbosity / debug_vmodule: Solidity console.log lines follow the console source\'s level', async () => {
    const lines: string[] = []
    const logging = await newNode({ enableProfiling: true, profilingDir: dir, onConsoleLog: (m) => lines.push(m) })
    const logger = await deploy(logging, 'Logger')
    const hello = () => logging.request({ method: 'eth_call', params: [{ to: logger, input: calldata('Logger', 'hello', [5n]) }, 'latest'] })
    await hello()
    const once = lines.length
    expect(once).toBeGreaterThan(0)
    await logging.request({ method: 'debug_vmodule', params: ['console=2'] })
    await hello()
    expect(lines).toHaveLength(once)
    await logging.request({ method: 'debug_vmodule', params: ['console=3,rpc=0'] })
    await logging.request({ method: 'debug_verbosity', params: [0] })
    await hello()
    expect(lines).toHaveLength(2 * once)
  })

  describe('over HTTP and WebSocket', () => {
    const served = servedOverHttpAndWs(() => node, ['eth', 'debug'])

    it('debug_memStats, debug_writeMemProfile and a refused path', async () => {
      expect((await rpc(served.http, 'debug_memStats')).result.Sys).toBeGreaterThan(0)
      expect((await served.ws.call('debug_memStats')).result.Sys).toBeGreaterThan(0)
      expect((await rpc(served.http, 'debug_cpuProfile', ['http.cpuprofile', 0])).result).toBe(null)
      expect((await served.ws.call('debug_cpuProfile', ['ws.cpuprofile', 0])).result).toBe(null)
      expect(existsSync(join(dir, 'http.cpuprofile')) && existsSync(join(dir, 'ws.cpuprofile'))).toBe(true)
      expect((await rpc(served.http, 'debug_writeMemProfile', ['../x'])).error.message).toContain('outside the profiling directory')
      expect((await served.ws.call('debug_writeMemProfile', ['/etc/x'])).error.message).toContain('outside the profiling directory')
      expect((await served.ws.call('debug_setGCPercent', [50])).error.message).toContain('no Node.js analogue')
    })
  })
})
