/**
 * A send waiting on a consensus round keeps the process alive: a plain script (a child process,
 * no server, no open handle of its own) whose send waits out a silent proposer's time-out exits 0
 * with its receipt, not Node's 13 (a top-level await left unsettled when the timers let the event
 * loop end). A script with nothing waiting exits at once. docs/validators.md's example runs too.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const ENTRY = path.join(ROOT, 'src', 'index.ts')
const dir = mkdtempSync(path.join(tmpdir(), 'finality-keep-alive-'))

/** Runs `source` as an ES module script under tsx; resolves to its exit code, output and time. */
function script(name: string, source: string): Promise<{ code: number | null; out: string; ms: number }> {
  const file = path.join(dir, name)
  writeFileSync(file, source.replaceAll("from 'finality-evm'", `from ${JSON.stringify(ENTRY)}`))
  const started = performance.now()
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, timeout: 60_000 }, (_error, stdout, stderr) =>
      resolve({ code: child.exitCode, out: `${stdout}${stderr}`, ms: performance.now() - started }),
    )
  })
}

describe.concurrent('timers a request waits on keep the process alive', () => {
  it('default: validators: 4, the first proposer silent: the send waits out round 0 and the script exits 0 with its receipt', async () => {
    const run = await script(
      'silent.mts',
      [
        "import { createNode } from 'finality-evm'",
        'const node = await createNode({ validators: 4, onConsoleLog: false })',
        // Height 1's round-0 proposer is the first validator by address.
        'node.setValidatorFault(node.validators[0].address, { silent: true })',
        'const [a, b] = node.accounts',
        "const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from: a.address, to: b.address, value: '0x1' }] })",
        "const receipt = await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })",
        "const cert = await node.commitCertificate(1n)",
        "console.log('status', receipt.status, 'round', cert.round)",
      ].join('\n'),
    )
    expect(run.out).toContain('status 0x1 round 0x1')
    expect(run.code).toBe(0)
  }, 60_000)

  it('behavior: with nothing waiting (interval mining, a faulty set, no send) the script exits at once, code 0', async () => {
    const run = await script(
      'idle.mts',
      [
        "import { createNode } from 'finality-evm'",
        "const node = await createNode({ validators: 4, mining: { mode: 'interval', blockTime: 60_000 }, onConsoleLog: false })",
        'node.setValidatorFault(node.validators[0].address, { silent: true })',
        "console.log('done')",
      ].join('\n'),
    )
    expect(run.out).toContain('done')
    expect(run.code).toBe(0)
  }, 60_000)

  it("docs: docs/validators.md's example runs as a script and exits 0", async () => {
    const doc = readFileSync(path.join(ROOT, 'docs', 'validators.md'), 'utf8')
    const block = /```ts\n([\s\S]*?)```/.exec(doc)?.[1]
    expect(block).toContain('setValidatorOnline')
    const run = await script('validators-doc.mts', block as string)
    expect(run.out).toBe('')
    expect(run.code).toBe(0)
  }, 60_000)
})
