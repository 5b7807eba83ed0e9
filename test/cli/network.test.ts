/**
 * `finality devnet` and `finality app` as processes: the devnet prints each node's JSON-RPC URL,
 * its nodes make blocks and it stops cleanly on SIGINT; `finality app` serves a CometBFT node
 * started by hand; wrong flags fail at once, naming them.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { decodeFunctionResult, encodeFunctionData, parseAbi, type Hex } from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import { cometbft } from '../helpers/cometbft.js'
import { block, commandLines, shellWords } from '../docs/blocks.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
// The CLI runs under `node --import tsx`, not tsx's wrapper: the wrapper relays a signal only if
// the child reports it within 30 ms, else signals it again or kills it and exits 130, which a
// loaded machine turned into failed clean stops.
const BIN = path.join(ROOT, 'src', 'cli', 'bin.ts')
const found = cometbft()
const skip = 'skip' in found ? found.skip : undefined
if (skip !== undefined) console.warn(`test/cli/network.test.ts: the CometBFT cases skipped: ${skip}`)

const children: ChildProcess[] = []
const dirs: string[] = []
afterEach(() => {
  // The whole process group: tsx's wrapper, the CLI under it and the cometbft processes it started
  // (killing the wrapper alone would leave those running after a failed test).
  for (const c of children.splice(0)) {
    if (c.exitCode !== null || c.pid === undefined) continue
    try {
      process.kill(-c.pid, 'SIGKILL')
    } catch {
      c.kill('SIGKILL')
    }
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

function run(args: string[], env?: NodeJS.ProcessEnv): { child: ChildProcess; out: () => string; exited: Promise<number | null>; waitFor: (re: RegExp, from?: number) => Promise<RegExpExecArray> } {
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: env === undefined ? process.env : { ...process.env, ...env }, detached: true })
  children.push(child)
  let out = ''
  child.stdout?.on('data', (d) => (out += d))
  child.stderr?.on('data', (d) => (out += d))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  // `from`: only output after that many characters counts (a line printed again later).
  const waitFor = (re: RegExp, from = 0) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const m = re.exec(out.slice(from))
        if (m === null) return
        child.stdout?.off('data', check)
        resolve(m)
      }
      child.stdout?.on('data', check)
      check()
      void exited.then((code) => reject(new Error(`exited (${code}) before ${re}:\n${out}`)))
    })
  return { child, out: () => out, exited, waitFor }
}

const blockNumber = async (url: string): Promise<number> => {
  const r = (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}' })).json()) as { result: string }
  return Number(r.result)
}
const BECH32_ABI = parseAbi(['function hexToBech32(address addr, string prefix) returns (string)'])
const DELEGATE_ABI = parseAbi(['function delegate(address delegatorAddress, string validatorAddress, uint256 amount) returns (bool)'])
async function until2<T>(f: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = await f().catch(() => undefined)
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 100))
  }
}
async function until(f: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await f().catch(() => false))) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 100))
  }
}

describe('finality devnet / app: flags', () => {
  it('an unknown flag or a bad value fails at once, naming it', async () => {
    const [bad, zero, app] = [run(['devnet', '--validator', '4']), run(['devnet', '--validators', '0']), run(['app'])]
    expect(await Promise.all([bad.exited, zero.exited, app.exited])).toEqual([1, 1, 1])
    expect(bad.out()).toMatch(/finality devnet: unknown argument --validator/)
    expect(zero.out()).toMatch(/--validators must be an integer from 1 to 64, not 0/)
    expect(app.out()).toMatch(/--abci .* is required/)
  })

  it('finality app --db naming a file fails at once, saying so', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'finality-cli-db-'))
    dirs.push(dir)
    writeFileSync(path.join(dir, 'genesis.json'), JSON.stringify({ genesis_time: '2026-01-01T00:00:00Z' }))
    writeFileSync(path.join(dir, 'file'), 'x')
    const app = run(['app', '--abci', 'tcp://127.0.0.1:0', '--genesis', path.join(dir, 'genesis.json'), '--db', path.join(dir, 'file'), '--comet-rpc', 'http://127.0.0.1:1'])
    expect(await app.exited).toBe(1)
    expect(app.out()).toContain(`cannot open the database at ${path.join(dir, 'file')}`)
  })

  it('--abci-max-message-bytes (1024 to 2147483647) and --persist are checked at once', async () => {
    const runs = [run(['devnet', '--abci-max-message-bytes', '1023']), run(['app', '--abci', 'tcp://127.0.0.1:0', '--genesis', 'x', '--abci-max-message-bytes', '2147483648']), run(['devnet', '--abci-max-message-bytes', '64MiB'])]
    expect(await Promise.all(runs.map((r) => r.exited))).toEqual([1, 1, 1])
    for (const [r, value] of [[runs[0], '1023'], [runs[1], '2147483648'], [runs[2], '64MiB']] as const) {
      expect(r!.out()).toContain(`--abci-max-message-bytes must be an integer from 1024 to 2147483647, not ${value}`)
    }
    const persist = run(['devnet', '--validators', '2', '--persist', '0,2'])
    expect(await persist.exited).toBe(1)
    expect(persist.out()).toContain('--persist must be all or node numbers from 0 to 1 joined by commas, not 0,2')
    const [profile, both, appBoth] = [
      run(['devnet', '--profile', 'cosmos']),
      run(['devnet', '--profile', 'cosmos-evm', '--persist', 'all']),
      run(['app', '--abci', 'tcp://127.0.0.1:0', '--genesis', 'x', '--profile', 'cosmos-evm', '--db', 'y']),
    ]
    expect(await Promise.all([profile.exited, both.exited, appBoth.exited])).toEqual([1, 1, 1])
    expect(profile.out()).toContain('finality devnet: --profile takes cosmos-evm, not cosmos')
    expect(both.out()).toContain('finality devnet: --profile cosmos-evm and --persist cannot be given together')
    expect(appBoth.out()).toContain('finality app: --profile cosmos-evm and --db cannot be given together')
  })

  it('--stop-grace (0s to 600s) is checked at once, naming it', async () => {
    // Taken at its limits: the next check (--validators 0) is the one that fails.
    const taken = [run(['devnet', '--stop-grace', '0s', '--validators', '0']), run(['devnet', '--stop-grace', '600s', '--validators', '0']), run(['devnet', '--stop-grace', '10m', '--validators', '0'])]
    const wrong = ['600001ms', '601s', '-1s', '5 seconds'].map((v) => [v, run(['devnet', '--stop-grace', v, '--validators', '0'])] as const)
    expect(await Promise.all([...taken, ...wrong.map(([, r]) => r)].map((r) => r.exited))).toEqual(Array(7).fill(1))
    for (const r of taken) expect(r.out()).toContain('--validators must be an integer from 1 to 64, not 0')
    for (const [value, r] of wrong) expect(r.out()).toContain(`--stop-grace must be a duration from 0s to 600s such as 5s or 500ms, not ${value}`)
  })
})

describe.skipIf(skip !== undefined)('finality devnet / app with CometBFT', () => {
  // docs/devnet.md, ### A local devnet in one command: its command line, in a folder of the test's.
  it("docs/devnet.md's devnet command prints each JSON-RPC URL, makes blocks and stops on SIGINT", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'finality-cli-devnet-'))
    dirs.push(dir)
    const [line] = commandLines(block('devnet.md', 1, 'sh')) as [string]
    const [command, ...args] = shellWords(line)
    expect(command).toBe('finality')
    const cli = run([...args, '--dir', dir, '--cometbft', (found as { binary: string }).binary])
    await cli.waitFor(/node3: JSON-RPC (\S+)/)
    const urls = [...cli.out().matchAll(/node\d: JSON-RPC (\S+)/g)].map((m) => m[1] as string)
    expect(urls).toHaveLength(4)
    await until(async () => (await Promise.all(urls.map(blockNumber))).every((n) => n >= 2))
    cli.child.kill('SIGINT')
    expect(await cli.exited).toBe(0)
    // The CometBFT nodes are gone with it: their homes' RPC no longer answers.
    const cometRpc = /CometBFT RPC (\S+)/.exec(cli.out())?.[1] as string
    await expect(fetch(`${cometRpc}/status`)).rejects.toThrow()
  }, 60_000)

  it('without --dir the homes are a temporary folder, removed on exit; faults typed on the standard input take a node and its application process; a CometBFT that outlives SIGTERM is killed after --stop-grace', async () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'finality-cli-tmp-'))
    dirs.push(tmp)
    const cli = run(['devnet', '--validators', '1', '--timeout-commit', '100ms', '--abci-max-message-bytes', '1048576', '--persist', 'all', '--stop-grace', '2s', '--cometbft', (found as { binary: string }).binary], { TMPDIR: tmp })
    const homes = (await cli.waitFor(/homes in (\S+), removed on exit\)/))[1] as string
    const url = (await cli.waitFor(/node0: JSON-RPC (\S+)/))[1] as string
    expect(path.dirname(homes)).toBe(tmp)
    expect(existsSync(path.join(homes, 'node0', 'config', 'genesis.json'))).toBe(true)
    await until(async () => (await blockNumber(url)) >= 1)
    // Faults on the standard input. The node paused: its application, a process of its own, is
    // stopped with its CometBFT (a request waits); resumed, the chain goes on.
    const before = await blockNumber(url)
    cli.child.stdin?.write('pause 0\n')
    await cli.waitFor(/node0: pause done/)
    await expect(fetch(url, { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}', headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(1000) })).rejects.toThrow(/aborted|timeout/i)
    cli.child.stdin?.write('resume 0\nfreeze 0\npause 7\npartition 0 1\n')
    await cli.waitFor(/node0: resume done/)
    await cli.waitFor(/error: no node7/)
    await cli.waitFor(/error: a partition puts every node \(0 to 0\) in exactly one group, not \[\[0\],\[1\]\]/)
    expect(cli.out()).toContain('error: unknown fault "freeze 0": kill N, stop N, start N, restart N, pause N, resume N, partition 0,1,2 3 (groups of nodes), heal, status')
    await until(async () => (await blockNumber(url)) > before + 1)
    // Killed: the application's process goes with its CometBFT; started again, it is rebuilt and goes on.
    const killedAt = await blockNumber(url)
    cli.child.stdin?.write('kill 0\n')
    await cli.waitFor(/node0: kill done/)
    await expect(blockNumber(url)).rejects.toThrow()
    cli.child.stdin?.write('start 0\n')
    await cli.waitFor(/node0: start done/)
    // Over its database (--persist): the chain is there at once, before CometBFT replays anything.
    expect(await blockNumber(url)).toBeGreaterThanOrEqual(killedAt)
    await until(async () => (await blockNumber(url)) > killedAt + 2)

    // An application process that dies on its own, killed from outside the devnet: said at once,
    // the node's CometBFT stopped too, `status` shows it down; `start` brings both back. (A
    // CometBFT process killed from outside: test/abci/devnet.test.ts.)
    const mark = cli.out().length
    cli.child.stdin?.write('status\n')
    const running = await cli.waitFor(/node0: running \(cometbft pid (\d+), application pid (\d+)\)/, mark)
    process.kill(Number(running[2]), 'SIGKILL')
    await cli.waitFor(/node0: its application process exited on its own \(SIGKILL\); the node is down until `start 0`/, mark)
    // The other process is stopped too: CometBFT's RPC no longer answers.
    const cometRpc = (await cli.waitFor(/node0: JSON-RPC \S+\s+CometBFT RPC (\S+)/))[1] as string
    // (On a time-out, what the devnet printed goes with the error: CometBFT's own lines show where its stop hung.)
    await until(async () => !(await fetch(`${cometRpc}/status`).then(() => true, () => false))).catch((e: Error) => {
      throw new Error(`${e.message}: CometBFT's RPC still answers after its application died; the devnet printed:\n${cli.out().slice(-4000)}`)
    })
    const asked = cli.out().length
    cli.child.stdin?.write('status\n')
    await cli.waitFor(/node0: down: the application process exited \(SIGKILL\)/, asked)
    const downAt = cli.out().length
    cli.child.stdin?.write('start 0\n')
    await cli.waitFor(/node0: start done/, downAt)
    const at = await blockNumber(url)
    await until(async () => (await blockNumber(url)) > at + 1)

    // The same with a CometBFT that does not exit on SIGTERM (stopped from outside the devnet: it
    // stands in for one hung in its own stop after its application died): killed 2 s later.
    const mark2 = cli.out().length
    cli.child.stdin?.write('status\n')
    const again = await cli.waitFor(/node0: running \(cometbft pid (\d+), application pid (\d+)\)/, mark2)
    process.kill(Number(again[1]), 'SIGSTOP')
    process.kill(Number(again[2]), 'SIGKILL')
    await cli.waitFor(/node0: its application process exited on its own \(SIGKILL\)/, mark2)
    await cli.waitFor(/node0: its CometBFT process had not exited 2000 ms after SIGTERM; killed \(SIGKILL\)/, mark2)
    await expect(fetch(`${cometRpc}/status`)).rejects.toThrow()
    const downAt2 = cli.out().length
    cli.child.stdin?.write('start 0\n')
    await cli.waitFor(/node0: start done/, downAt2)
    const at2 = await blockNumber(url)
    await until(async () => (await blockNumber(url)) > at2 + 1)
    cli.child.kill('SIGINT')
    expect(await cli.exited).toBe(0)
    expect(existsSync(homes)).toBe(false)
  }, 120_000)

  it('a second Ctrl-C quits at once (130) and leaves no process of the devnet running and no temporary home', async () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'finality-cli-tmp-'))
    dirs.push(tmp)
    const cli = run(['devnet', '--validators', '1', '--timeout-commit', '100ms', '--stop-grace', '600s', '--cometbft', (found as { binary: string }).binary], { TMPDIR: tmp })
    const homes = (await cli.waitFor(/homes in (\S+), removed on exit\)/))[1] as string
    const url = (await cli.waitFor(/node0: JSON-RPC (\S+)/))[1] as string
    await until(async () => (await blockNumber(url)) >= 1)
    cli.child.stdin?.write('status\n')
    const [, comet, app] = (await cli.waitFor(/node0: running \(cometbft pid (\d+), application pid (\d+)\)/)).map(Number) as [number, number, number]
    // CometBFT stopped from outside: the first Ctrl-C's stop waits on it for the whole grace period.
    process.kill(comet, 'SIGSTOP')
    cli.child.kill('SIGINT')
    await cli.waitFor(/SIGINT: shutting down/)
    cli.child.kill('SIGINT')
    expect(await cli.exited).toBe(130)
    // Both children were SIGKILLed on the way out (dead, or a zombie awaiting its new parent), and the homes are gone.
    const alive = (pid: number) => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
      } catch {
        return false
      }
    }
    await until(async () => !alive(comet) && !alive(app))
    expect(existsSync(homes)).toBe(false)
  }, 60_000)

  it('--profile cosmos-evm: each application process bonds the genesis validators, and a delegation changes CometBFT\'s set at H + 2', async () => {
    const cli = run(['devnet', '--validators', '1', '--timeout-commit', '100ms', '--profile', 'cosmos-evm', '--cometbft', (found as { binary: string }).binary])
    const url = (await cli.waitFor(/node0: JSON-RPC (\S+)/))[1] as string
    const cometRpc = (await cli.waitFor(/node0: JSON-RPC \S+\s+CometBFT RPC (\S+)/))[1] as string
    const call = async (method: string, params: unknown[]) => {
      const body = (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json()) as { result?: any; error?: { message: string } }
      if (body.error !== undefined) throw new Error(body.error.message)
      return body.result
    }
    await until(async () => (await blockNumber(url)) >= 1)
    expect(await call('eth_chainId', [])).toBe('0x40000')
    const validators = async (height: number) => ((await (await fetch(`${cometRpc}/validators?height=${height}`)).json()) as { result: { validators: Array<{ address: string; voting_power: string }> } }).result.validators
    const [validator] = await validators(1)
    expect(validator!.voting_power).toBe('10')
    const [from] = (await call('eth_accounts', [])) as [Hex]
    const operator = decodeFunctionResult({ abi: BECH32_ABI, functionName: 'hexToBech32', data: await call('eth_call', [{ to: '0x0000000000000000000000000000000000000400', data: encodeFunctionData({ abi: BECH32_ABI, functionName: 'hexToBech32', args: [`0x${validator!.address.toLowerCase()}`, 'cosmosvaloper'] }) }, 'latest']) })
    const hash = await call('eth_sendTransaction', [{ from, to: '0x0000000000000000000000000000000000000800', data: encodeFunctionData({ abi: DELEGATE_ABI, functionName: 'delegate', args: [from, operator, 5n * 10n ** 18n] }) }])
    const receipt = await until2(async () => (await call('eth_getTransactionReceipt', [hash])) ?? undefined)
    expect(receipt.status).toBe('0x1')
    const h = Number(receipt.blockNumber)
    await until(async () => (await blockNumber(url)) >= h + 2)
    expect((await validators(h + 1))[0]!.voting_power).toBe('10')
    expect((await validators(h + 2))[0]!.voting_power).toBe('15')
    cli.child.kill('SIGINT')
    expect(await cli.exited).toBe(0)
  }, 60_000)

  // docs/devnet.md, ### Over several machines: one machine's two commands, on ports of the test's.
  it("docs/devnet.md's finality app serves a CometBFT node started by hand", async () => {
    const binary = (found as { binary: string }).binary
    const home = mkdtempSync(path.join(tmpdir(), 'finality-cli-app-'))
    dirs.push(home)
    execFileSync(binary, ['init', '--home', home], { stdio: 'ignore' })
    const [appLine, cometLine] = commandLines(block('devnet.md', 2, 'sh')) as [string, string]
    expect(shellWords(cometLine)).toEqual(['cometbft', 'start', '--home', '~/.cometbft'])
    const words = shellWords(appLine.replaceAll('~/.cometbft', home))
    expect(words.slice(0, 2)).toEqual(['finality', 'app'])
    const at = (flag: string) => words.indexOf(flag) + 1
    words[at('--abci')] = 'tcp://127.0.0.1:0'
    words[at('--port')] = '0'
    words[at('--host')] = '127.0.0.1'
    // No CometBFT RPC is asked for here (nothing is sent); its default port may be taken on this machine.
    const app = run([...words.slice(1), '--comet-rpc', 'http://127.0.0.1:1'])
    const abci = (await app.waitFor(/ABCI on (\S+),/))[1] as string
    const url = (await app.waitFor(/HTTP listening on (\S+)/))[1] as string
    const config = path.join(home, 'config', 'config.toml')
    const toml = readFileSync(config, 'utf8')
      .replace(/^proxy_app = .*$/m, `proxy_app = "${abci}"`)
      .replace(/^laddr = "tcp:\/\/127\.0\.0\.1:26657"$/m, 'laddr = "tcp://127.0.0.1:0"')
      .replace(/^laddr = "tcp:\/\/0\.0\.0\.0:26656"$/m, 'laddr = "tcp://127.0.0.1:0"')
      .replace(/^timeout_commit = .*$/m, 'timeout_commit = "100ms"')
    writeFileSync(config, toml)
    const comet = spawn(binary, ['start', '--home', home], { stdio: 'ignore' })
    children.push(comet)
    await until(async () => (await blockNumber(url)) >= 2)
    const height = await blockNumber(url)
    app.child.kill('SIGTERM')
    expect(await app.exited).toBe(0)
    comet.kill('SIGKILL')
    // Started again over its --db: the chain is there before any CometBFT connects.
    expect(existsSync(path.join(home, 'app-db'))).toBe(true)
    const again = run([...words.slice(1), '--comet-rpc', 'http://127.0.0.1:1'])
    const url2 = (await again.waitFor(/HTTP listening on (\S+)/))[1] as string
    expect(await blockNumber(url2)).toBeGreaterThanOrEqual(height)
    again.child.kill('SIGTERM')
    expect(await again.exited).toBe(0)
  }, 60_000)
})
