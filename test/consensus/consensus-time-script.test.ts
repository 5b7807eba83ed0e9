/**
 * Plain scripts (child processes: `node --import tsx x.mts`, no server, no handle of their own)
 * against nodes of four validators with faults. On consensus time (the default) a faulty round
 * sets no timer, so the script gets its answers and exits 0 with no round waited for; on the
 * node's clock (`consensus.time: 'clock'`) the time-outs a request waits on keep the process alive,
 * those of an interval block included when a request waits behind it, and a node nobody waits on
 * lets the script exit. docs/validators.md's first example runs as such a script, and what its
 * `// result` lines say is what it prints.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const ENTRY = path.join(ROOT, 'src', 'index.ts')
const dir = mkdtempSync(path.join(tmpdir(), 'finality-consensus-time-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Runs `lines` as an ES module script under tsx; resolves to its exit code and output. */
function script(name: string, lines: string[]): Promise<{ code: number | null; out: string }> {
  const file = path.join(dir, name)
  writeFileSync(file, lines.join('\n').replaceAll("from 'finality-evm'", `from ${JSON.stringify(ENTRY)}`))
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, timeout: 60_000 }, (_error, stdout, stderr) =>
      resolve({ code: child.exitCode, out: `${stdout}${stderr}` }),
    )
  })
}

const SEND = "const send = () => node.request({ method: 'eth_sendTransaction', params: [{ from: node.accounts[0].address, to: node.accounts[1].address, value: '0x1' }] })"
/** Short time-outs on the wall clock: round 0's propose 200 ms, prevote and precommit 50 ms. */
const WALL = "consensus: { time: 'clock', timeouts: { propose: 200, proposeDelta: 50, prevote: 50, prevoteDelta: 50, precommit: 50, precommitDelta: 50 } }"

describe.concurrent('scripts against faulty validators exit 0', () => {
  it("default: a silent proposer and a halt after the round limit, at CometBFT's default time-outs: the answers come, no round is waited for, exit 0", async () => {
    const run = await script('simulated.mts', [
      "import { createNode } from 'finality-evm'",
      'const node = await createNode({ validators: 4, onConsoleLog: false, consensus: { maxRounds: 2 } })',
      SEND,
      'const [v0, v1] = node.validators.map((v) => v.address)',
      'node.setValidatorFault(v0, { silent: true })',
      'const first = await send()',
      "const receipt = await node.request({ method: 'eth_getTransactionReceipt', params: [first] })",
      "console.log('status', receipt.status, 'round', (await node.commitCertificate(1n)).round)",
      // Height 2: v1 proposes round 0, v2 round 1; both silent with a limit of 2 rounds: halted.
      'node.setValidatorFault(v1, { silent: true })',
      'node.healValidators(v0)',
      "node.setValidatorFault(node.validators[2].address, { silent: true })",
      'const second = await send()',
      "console.log('halted', await node.request({ method: 'eth_getTransactionReceipt', params: [second] }), (await node.request({ method: 'evm_mine' }).catch((e) => e)).message)",
      'node.healValidators()',
      // The heal mines what is pending (automine); a mine queued after it waits for that.
      'await node.mine()',
      "console.log('healed', (await node.request({ method: 'eth_getTransactionReceipt', params: [second] })).status)",
    ])
    expect(run.out).toBe(
      'status 0x1 round 0x1\n' +
        'halted null the chain is halted: no round of height 2 gathered precommits of more than 2/3 of the voting power\n' +
        'healed 0x1\n',
    )
    expect(run.code).toBe(0)
  }, 60_000)

  it("consensus.time 'clock': a send waits out a silent proposer's round on the wall clock (its timers keep the process alive) and exits 0 with its receipt", async () => {
    const run = await script('clock.mts', [
      "import { createNode } from 'finality-evm'",
      `const node = await createNode({ validators: 4, onConsoleLog: false, ${WALL} })`,
      SEND,
      'node.setValidatorFault(node.validators[0].address, { silent: true })',
      'const hash = await send()',
      "const receipt = await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })",
      "const state = await node.request({ method: 'finality_getConsensusState' })",
      "console.log('status', receipt.status, 'round', (await node.commitCertificate(1n)).round, state.time)",
    ])
    expect(run.out).toBe('status 0x1 round 0x1 clock\n')
    expect(run.code).toBe(0)
  }, 60_000)

  it("consensus.time 'clock': a mine queued behind an interval block's faulty round waits for both and exits 0", async () => {
    const run = await script('interval.mts', [
      "import { createNode } from 'finality-evm'",
      `const node = await createNode({ validators: 4, onConsoleLog: false, mining: { mode: 'interval', blockTime: 30 }, ${WALL} })`,
      'node.setValidatorFault(node.validators[0].address, { silent: true })',
      // The first interval block starts at 30 ms; its round 0 (silent proposer) lasts beyond 200 ms.
      'await new Promise((resolve) => setTimeout(resolve, 80))',
      'const block = await node.mine()',
      "console.log('mined', block.number, 'block 1 round', (await node.commitCertificate(1n)).round)",
    ])
    expect(run.out).toBe('mined 2n block 1 round 0x1\n')
    expect(run.code).toBe(0)
  }, 60_000)

  it('behavior: a node on the wall clock nobody waits on (faults set, interval mining) lets the script exit 0 at once', async () => {
    // (keep-alive.test.ts runs the same on consensus time, the default.)
    for (const time of ['clock']) {
      const run = await script(`idle-${time}.mts`, [
        "import { createNode } from 'finality-evm'",
        `const node = await createNode({ validators: 4, onConsoleLog: false, mining: { mode: 'interval', blockTime: 60_000 }, consensus: { time: '${time}' } })`,
        'node.setValidatorFault(node.validators[0].address, { silent: true })',
        "console.log('done')",
      ])
      expect(run.out).toBe('done\n')
      expect(run.code).toBe(0)
    }
  }, 60_000)

  it("docs: docs/validators.md's first example runs as a script, prints what its comments say, and exits 0", async () => {
    const doc = readFileSync(path.join(ROOT, 'docs', 'validators.md'), 'utf8')
    const block = /```ts\n([\s\S]*?)```/.exec(doc)?.[1] as string
    const probes = ['first?.round', 'await node.mine()']
    const lines = block.split('\n').map((line) => {
      const expr = probes.find((p) => line.startsWith(p))
      return expr === undefined ? line : `console.log('PROBE', JSON.stringify(${expr}) ?? 'undefined')`
    })
    const said = probes.map((p) => (block.split('\n').find((l) => l.startsWith(p)) as string).replace(/^.*\/\/\s*/, '').split(/:\s/)[0])
    // The heal mines the pending transfer on its own (automine), after the block's last line returns.
    const wait = [
      'let receipt = null',
      "while (receipt === null) receipt = await new Promise((resolve) => setTimeout(resolve, 5)).then(() => node.request({ method: 'eth_getTransactionReceipt', params: [hash] }))",
      "console.log('receipt', receipt.status)",
    ]
    const run = await script('validators-doc.mts', [...lines, ...wait])
    expect(said).toEqual(['"0x1"', 'undefined'])
    expect(run.out).toBe(`PROBE ${said[0]}\nPROBE ${said[1]}\nreceipt 0x1\n`)
    expect(run.code).toBe(0)
  }, 60_000)
})
