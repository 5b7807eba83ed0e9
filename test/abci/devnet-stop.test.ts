/**
 * Every stop of a devnet's child process is bounded: SIGTERM, then SIGKILL once `stopGraceMs` has
 * passed. A child that ignores SIGTERM (a node script; a real CometBFT stopped from outside the
 * devnet, which stands in for one hung in its own stop) is killed after the grace period; one that
 * exits on SIGTERM is not; the setting is checked at its limits. A devnet whose start fails
 * leaves no process behind.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkStopGraceMs, DEFAULT_STOP_GRACE_MS, endChild, STOP_GRACE_MS_RANGE } from '../../src/abci/app-process.js'
import { startDevnet, type Devnet } from '../../src/abci/devnet.js'
import { cometbft } from '../helpers/cometbft.js'
import { until } from '../helpers/until.js'

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'cli', 'bin.ts')
const found = cometbft()
const skip = 'skip' in found ? found.skip : undefined
if (skip !== undefined) console.warn(`test/abci/devnet-stop.test.ts: the CometBFT cases skipped: ${skip}`)

/** A node child that prints `ready` once its SIGTERM handler is in place; `ignore`: the handler does nothing. */
async function child(ignore: boolean): Promise<ChildProcess> {
  const script = `process.on('SIGTERM', () => { ${ignore ? '' : 'process.exit(0)'} }); setInterval(() => {}, 1000); console.log('ready')`
  const c = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise<void>((resolve, reject) => {
    c.stdout?.once('data', () => resolve())
    c.once('exit', (code) => reject(new Error(`exited (${code}) before ready`)))
  })
  return c
}
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('stopGraceMs', () => {
  it('default 5000; an integer from 0 to 600000 is taken, anything else fails naming it', () => {
    expect(DEFAULT_STOP_GRACE_MS).toBe(5000)
    expect(STOP_GRACE_MS_RANGE).toEqual({ min: 0, max: 600_000 })
    expect(checkStopGraceMs(0)).toBe(0)
    expect(checkStopGraceMs(600_000)).toBe(600_000)
    for (const bad of [-1, 600_001, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '5000', undefined]) {
      expect(() => checkStopGraceMs(bad)).toThrow(`stopGraceMs must be an integer from 0 to 600000 (milliseconds), not ${String(bad)}`)
    }
  })

  it('startDevnet checks it before it makes or starts anything', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'finality-devnet-grace-'))
    try {
      // A wrong binary and no validators: a grace period that is taken lets the later check speak.
      for (const ms of [0, 600_000]) await expect(startDevnet({ binary: '/nonexistent', dir, validators: 0, stopGraceMs: ms })).rejects.toThrow('validators must be an integer from 1 to 64, not 0')
      for (const ms of [-1, 600_001, 2.5]) await expect(startDevnet({ binary: '/nonexistent', dir, stopGraceMs: ms })).rejects.toThrow(`stopGraceMs must be an integer from 0 to 600000 (milliseconds), not ${ms}`)
      expect(readdirSync(dir)).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('endChild', () => {
  it('a child that ignores SIGTERM is killed (SIGKILL) once the grace period has passed', async () => {
    const c = await child(true)
    const t = performance.now()
    expect(await endChild(c, 'SIGTERM', false, 300)).toBe('killed')
    // Not before the grace period (a loaded machine only makes it later).
    expect(performance.now() - t).toBeGreaterThanOrEqual(295)
    expect(c.signalCode).toBe('SIGKILL')
    expect(alive(c.pid!)).toBe(false)
  })

  it('a child that exits on SIGTERM is not killed; SIGKILL ends one at once; a stop of a child already ending waits for the same exit', async () => {
    const polite = await child(false)
    expect(await endChild(polite, 'SIGTERM', false, 60_000)).toBe('exited')
    expect([polite.exitCode, polite.signalCode]).toEqual([0, null])
    // Gone already: nothing to do.
    expect(await endChild(polite, 'SIGTERM', false, 0)).toBe('exited')
    expect(await endChild(undefined, 'SIGKILL', false, 0)).toBe('exited')

    const stubborn = await child(true)
    expect(await endChild(stubborn, 'SIGKILL', false, 60_000)).toBe('exited')
    expect(stubborn.signalCode).toBe('SIGKILL')

    // A SIGTERM stop under way, then a SIGKILL stop: it is killed now, not after a minute, and both answer.
    const twice = await child(true)
    const first = endChild(twice, 'SIGTERM', false, 60_000)
    const second = endChild(twice, 'SIGKILL', false, 60_000)
    expect(await Promise.all([first, second])).toEqual(['exited', 'exited'])
    expect(twice.signalCode).toBe('SIGKILL')
  })

  it('a paused child (SIGSTOP) is let go on, takes SIGTERM and exits within the grace period', async () => {
    const c = await child(false)
    c.kill('SIGSTOP')
    expect(await endChild(c, 'SIGTERM', true, 60_000)).toBe('exited')
    expect(c.exitCode).toBe(0)
  })
})

describe.skipIf(skip !== undefined)('a 1-validator CometBFT devnet with stopGraceMs 1000', () => {
  let net: Devnet
  let dir: string
  const killed: string[] = []
  const exits: string[] = []
  const height = async () => Number(((await (await fetch(`${net.nodes[0]!.cometRpc}/status`)).json()) as { result: { sync_info: { latest_block_height: string } } }).result.sync_info.latest_block_height)
  const goesOn = async () => {
    const from = await until('CometBFT RPC', () => height())
    await until('2 more blocks', async () => (await height()) >= from + 2)
  }
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'finality-devnet-stop-'))
    net = await startDevnet({
      binary: (found as { binary: string }).binary,
      dir,
      validators: 1,
      timeoutCommit: '100ms',
      stopGraceMs: 1000,
      onKilled: (i, which, ms) => killed.push(`node${i} ${which} ${ms}`),
      onExit: (i, which, how) => exits.push(`node${i} ${which} ${how}`),
    })
    await goesOn()
  }, 60_000)
  afterAll(async () => {
    await net?.close()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it('a CometBFT that stops on SIGTERM is not killed, paused or not', async () => {
    await net.stop(0, 'SIGTERM')
    await net.start(0)
    await goesOn()
    await net.pause(0)
    await net.stop(0, 'SIGTERM')
    expect(net.nodes[0]!.paused).toBe(false)
    await net.start(0)
    await goesOn()
    expect(killed).toEqual([])
  })

  it('a CometBFT that outlives SIGTERM (stopped from outside the devnet) is killed after the grace period; started again, the chain goes on', async () => {
    const pid = net.nodes[0]!.pids.cometbft!
    // SIGSTOP behind the devnet's back: it does not let it go on, and the process takes no SIGTERM.
    process.kill(pid, 'SIGSTOP')
    const t = performance.now()
    await net.stop(0, 'SIGTERM')
    expect(performance.now() - t).toBeGreaterThanOrEqual(995)
    expect(killed).toEqual(['node0 cometbft 1000'])
    expect(alive(pid)).toBe(false)
    expect(net.nodes[0]!.running).toBe(false)
    // A stop by the devnet, however it ended, is no exit on its own.
    expect(exits).toEqual([])
    await net.start(0)
    await goesOn()
  })

  it('close is bounded the same way', async () => {
    const pid = net.nodes[0]!.pids.cometbft!
    process.kill(pid, 'SIGSTOP')
    killed.length = 0
    await net.close()
    expect(killed).toEqual(['node0 cometbft 1000'])
    expect(alive(pid)).toBe(false)
  })
})

describe.skipIf(skip !== undefined)('a devnet whose start fails', () => {
  it("waits for every node's start before its stops: no application process started meanwhile outlives it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'finality-devnet-failed-'))
    // The application of node 1 refuses at once; node 0's records its pid, then starts as `finality app` (seconds).
    const wrapper = path.join(dir, 'app.mjs')
    writeFileSync(
      wrapper,
      [
        "import { writeFileSync } from 'node:fs'",
        "import { dirname, join } from 'node:path'",
        "const genesis = process.argv[process.argv.indexOf('--genesis') + 1]",
        "if (genesis.includes('/node1/')) { console.error('node1 refuses'); process.exit(1) }",
        "writeFileSync(join(dirname(dirname(genesis)), 'app.pid'), String(process.pid))",
        `await import(${JSON.stringify(BIN)})`,
      ].join('\n'),
    )
    const pidFile = path.join(dir, 'nodes', 'node0', 'app.pid')
    try {
      await expect(startDevnet({ binary: (found as { binary: string }).binary, dir: path.join(dir, 'nodes'), validators: 2, appCommand: [process.execPath, '--import', 'tsx', wrapper] })).rejects.toThrow(/exited \(1\) before serving:\nnode1 refuses/)
      const pid = Number(await until('node 0 started', async () => existsSync(pidFile) && readFileSync(pidFile, 'utf8')))
      expect(alive(pid)).toBe(false)
    } finally {
      if (existsSync(pidFile)) {
        const pid = Number(readFileSync(pidFile, 'utf8'))
        if (alive(pid)) process.kill(pid, 'SIGKILL')
      }
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
