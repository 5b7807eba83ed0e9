/**
 * The `finality` command line as a child process on ephemeral ports: the banner, the endpoints,
 * flags and the TOML config, the request log, the exposure refusal, and a clean SIGINT.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { isLoopback } from '../../src/adapters/auth.js'
import { defaultApi, parseCli, parseDuration } from '../../src/cli/config.js'
import { loadArtifacts, type Artifact } from '../helpers/compile.js'
import { WsClient, freePort, post, rpc, postWithHost } from '../helpers/loopback.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
// The CLI runs under `node --import tsx`, not tsx's wrapper: the wrapper relays a signal only if
// the child reports it within 30 ms, else signals it again or kills it and exits 130, which a
// loaded machine turned into failed clean stops.
const BIN = path.join(ROOT, 'src', 'cli', 'bin.ts')
const EPHEMERAL = ['--json-rpc.address', '127.0.0.1:0', '--json-rpc.ws-address', '127.0.0.1:0']

interface Running {
  child: ChildProcess
  out: () => string
  http: string
  ws: string
}

/** Spawns the CLI and waits for it to print its endpoints (bounded by the test time-out). */
async function start(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout?.on('data', (d) => (out += d))
  child.stderr?.on('data', (d) => (out += d))
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (/WebSocket listening on/.test(out)) resolve()
    }
    child.stdout?.on('data', check)
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)))
  })
  const http = /HTTP listening on (\S+)/.exec(out)?.[1] as string
  const ws = /WebSocket listening on (\S+)/.exec(out)?.[1] as string
  return { child, out: () => out, http, ws }
}

/** Runs the CLI to completion (for refusals and --help). */
function run(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout?.on('data', (d) => (out += d))
  child.stderr?.on('data', (d) => (out += d))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })))
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)))
}

async function stop(cli: Running): Promise<void> {
  const exited = exitOf(cli.child)
  cli.child.kill('SIGINT')
  expect(await exited).toBe(0)
}



const CONTROLS = ['anvil', 'eth', 'evm', 'finality', 'hardhat', 'net', 'rpc', 'txpool', 'web3']

describe('cli', () => {
  it('default: prints chain id, accounts with keys and endpoints; serves HTTP and WS; logs requests; SIGINT exits 0', async () => {
    const cli = await start([...EPHEMERAL, '--accounts', '3'])
    expect(cli.out()).toContain('Chain id: 31337 (0x7a69)')
    expect(cli.out()).toContain('(0) 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 (10000 ETH)')
    expect(cli.out()).toContain('(0) 0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
    expect(cli.out()).not.toContain('(3) 0x')
    expect(cli.http).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect((await rpc(cli.http, 'eth_chainId')).result).toBe('0x7a69')
    const c = await WsClient.connect(cli.ws)
    expect((await c.call('net_version')).result).toBe('31337')
    c.close()
    for (let i = 0; i < 100 && !/eth_chainId \d+\.\dms/.test(cli.out()); i++) await new Promise((r) => setTimeout(r, 10))
    expect(cli.out()).toMatch(/eth_chainId \d+\.\dms/)
    const exited = exitOf(cli.child)
    cli.child.kill('SIGINT')
    expect(await exited).toBe(0)
    expect(cli.out()).toContain('SIGINT: shutting down')
  })

  it('flags: --chain-id, --balance, --json-rpc.api, --quiet', async () => {
    const cli = await start([...EPHEMERAL, '--chain-id', '1337', '--balance', '5.5', '--json-rpc.api', 'eth,finality', '--quiet'])
    expect((await rpc(cli.http, 'eth_chainId')).result).toBe('0x539')
    const balance = (await rpc(cli.http, 'eth_getBalance', ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', 'latest'])).result
    expect(BigInt(balance)).toBe(55n * 10n ** 17n)
    expect((await rpc(cli.http, 'finality_getValidators')).result).toHaveLength(1)
    expect((await rpc(cli.http, 'web3_clientVersion')).error.code).toBe(-32601)
    expect(cli.out()).not.toMatch(/eth_chainId \d/)
    const exited = exitOf(cli.child)
    cli.child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })

  it('config: a TOML file with a [json-rpc] section; flags win over it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'finality-cli-'))
    const file = path.join(dir, 'node.toml')
    writeFileSync(file, ['chain-id = 777', '', '[json-rpc]', 'enable = true', 'address = "127.0.0.1:0"', 'ws-address = "127.0.0.1:0"', 'api = "eth,net"', 'max-open-connections = 0', 'rpc-gas-cap = 50000000', 'rpc-evm-timeout = "5s"', ''].join('\n'))
    const cli = await start(['--config', file, '--chain-id', '778'])
    expect((await rpc(cli.http, 'eth_chainId')).result).toBe('0x30a')
    expect((await rpc(cli.http, 'net_version')).result).toBe('778')
    expect((await rpc(cli.http, 'web3_clientVersion')).error.code).toBe(-32601)
    const exited = exitOf(cli.child)
    cli.child.kill('SIGINT')
    expect(await exited).toBe(0)
    const c = parseCli(['--config', file])
    expect(c).toMatchObject({ chainId: 777n, api: ['eth', 'net'], rpcGasCap: 50_000_000n, rpcEvmTimeoutMs: 5000, maxOpenConnections: 0 })
  })

  it('--allow-unlimited-contract-size: a mock over 24 KiB deploys; without it the deployment fails', async () => {
    const large = loadArtifacts().LargeMock as Artifact
    const from = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
    const deploy = async (args: string[]) => {
      const cli = await start([...EPHEMERAL, '--quiet', ...args])
      try {
        const hash = (await rpc(cli.http, 'eth_sendTransaction', [{ from, data: large.bytecode, gas: '0xe4e1c0' }])).result
        const receipt = (await rpc(cli.http, 'eth_getTransactionReceipt', [hash])).result
        const code = (await rpc(cli.http, 'eth_getCode', [receipt.contractAddress, 'latest'])).result as string
        return { status: receipt.status as string, code }
      } finally {
        const exited = exitOf(cli.child)
        cli.child.kill('SIGINT')
        expect(await exited).toBe(0)
      }
    }
    expect(await deploy([])).toEqual({ status: '0x0', code: '0x' })
    expect(await deploy(['--allow-unlimited-contract-size'])).toEqual({ status: '0x1', code: large.deployedBytecode })
  })

  it('--enable-profiling / --profiling-dir: the runtime methods answer and write into the directory; off without the flag', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'finality-cli-prof-'))
    const toml = path.join(dir, 'node.toml')
    writeFileSync(toml, ['enable-profiling = true', `profiling-dir = ${JSON.stringify(dir)}`, ''].join('\n'))
    expect(parseCli(['--config', toml])).toMatchObject({ enableProfiling: true, profilingDir: dir })
    expect(parseCli([])).toMatchObject({ enableProfiling: false, profilingDir: undefined })
    for (const [args, on] of [[['--enable-profiling', '--profiling-dir', dir], true], [[], false]] as const) {
      const cli = await start([...EPHEMERAL, '--quiet', '--json-rpc.api', 'eth,debug', ...args])
      try {
        const answer = await rpc(cli.http, 'debug_cpuProfile', ['cli.cpuprofile', 0])
        if (on) expect(answer.result).toBe(null)
        else expect(answer.error.message).toContain('--enable-profiling')
      } finally {
        const exited = exitOf(cli.child)
        cli.child.kill('SIGINT')
        expect(await exited).toBe(0)
      }
    }
    expect(JSON.parse(readFileSync(path.join(dir, 'cli.cpuprofile'), 'utf8')).nodes.length).toBeGreaterThan(0)
  })

  it('admin_stopWS / admin_startWS act on the CLI\'s own servers', async () => {
    const cli = await start([...EPHEMERAL, '--quiet', '--json-rpc.api', 'eth,admin'])
    try {
      const port = await new Promise<number>((resolve) => {
        const probe = createServer()
        probe.listen(0, '127.0.0.1', () => {
          const p = (probe.address() as AddressInfo).port
          probe.close(() => resolve(p))
        })
      })
      expect((await rpc(cli.http, 'admin_startWS')).error).toEqual({ code: -32000, message: 'JSON-RPC over WebSocket is already enabled' })
      expect((await rpc(cli.http, 'admin_stopWS')).result).toBe(true)
      await expect(WsClient.connect(cli.ws)).rejects.toThrow()
      expect((await rpc(cli.http, 'admin_startWS', ['127.0.0.1', port])).result).toBe(true)
      const ws = await WsClient.connect(`ws://127.0.0.1:${port}`)
      expect((await ws.call('eth_chainId')).result).toBe('0x7a69')
      ws.close()
    } finally {
      const exited = exitOf(cli.child)
      cli.child.kill('SIGINT')
      expect(await exited).toBe(0)
    }
  })

  it('code size settings: flags, Anvil\'s names and TOML keys; bad values refused', () => {
    expect(parseCli([])).toMatchObject({ allowUnlimitedContractSize: false, codeSizeLimit: undefined })
    expect(parseCli(['--allow-unlimited-contract-size']).allowUnlimitedContractSize).toBe(true)
    expect(parseCli(['--disable-code-size-limit']).allowUnlimitedContractSize).toBe(true)
    expect(parseCli(['--code-size-limit', '49152']).codeSizeLimit).toBe(49_152)
    expect(() => parseCli(['--code-size-limit', '0'])).toThrow('flag code-size-limit: want an integer >= 1, got 0')
    expect(() => parseCli(['--code-size-limit', 'big'])).toThrow('want an integer >= 1')
    const dir = mkdtempSync(path.join(tmpdir(), 'finality-cli-'))
    const file = path.join(dir, 'node.toml')
    writeFileSync(file, ['code-size-limit = 30000', 'allow-unlimited-contract-size = false', ''].join('\n'))
    expect(parseCli(['--config', file])).toMatchObject({ allowUnlimitedContractSize: false, codeSizeLimit: 30_000 })
    writeFileSync(file, 'disable-code-size-limit = true\n')
    expect(parseCli(['--config', file]).allowUnlimitedContractSize).toBe(true)
  })

  it('--db: admin_datadir answers the database directory (admin listed in the api)', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'finality-cli-')), 'chain')
    const cli = await start([...EPHEMERAL, '--db', dir, '--json-rpc.api', 'eth,admin', '--quiet'])
    expect((await rpc(cli.http, 'admin_datadir')).result).toBe(dir)
    const exited = exitOf(cli.child)
    cli.child.kill('SIGINT')
    expect(await exited).toBe(0)
  })

  it('--throw-on-transaction-failures, --throw-on-call-failures false: Hardhat\'s answers over HTTP', async () => {
    const cli = await start([...EPHEMERAL, '--throw-on-transaction-failures', '--throw-on-call-failures', 'false', '--quiet'])
    const from = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
    // Init code that reverts with the one byte 0xff.
    const reverting = '0x60ff60005360016000fd'
    const sent = await rpc(cli.http, 'eth_sendTransaction', [{ from, data: reverting, gas: '0x100000' }])
    expect(sent.error).toMatchObject({ code: -32603, message: 'Error: VM Exception while processing transaction: reverted with an unrecognized custom error (return data: 0xff)' })
    expect(sent.error.data.data).toBe('0xff')
    expect((await rpc(cli.http, 'eth_getTransactionReceipt', [sent.error.data.txHash])).result.status).toBe('0x0')
    expect((await rpc(cli.http, 'eth_call', [{ from, data: reverting }])).result).toBe('0xff')
    const exited = exitOf(cli.child)
    cli.child.kill('SIGINT')
    expect(await exited).toBe(0)
  })

  it('error: refuses a non-loopback address with private namespaces and no JWT secret', async () => {
    const { code, out } = await run(['--json-rpc.address', '0.0.0.0:0', '--json-rpc.ws-address', '127.0.0.1:0', '--json-rpc.api', 'eth,personal'])
    expect(code).toBe(1)
    expect(out).toContain('refusing to serve personal on 0.0.0.0')
  })

  it('--help lists every flag; unknown flags are refused', async () => {
    const help = await run(['--help'])
    expect(help.code).toBe(0)
    for (const flag of ['--json-rpc.enable', '--json-rpc.address', '--json-rpc.ws-address', '--json-rpc.api', '--json-rpc.cors', '--json-rpc.hosts', '--host', '--port', '--validators', '--config', '--chain-id', '--accounts', '--balance', '--mnemonic', '--block-time', '--hardfork', '--db', '--hardhat', '--throw-on-transaction-failures', '--throw-on-call-failures', '--allow-unlimited-contract-size', '--disable-code-size-limit', '--code-size-limit', '--enable-profiling', '--profiling-dir', '--quiet']) {
      expect(help.out).toContain(flag)
    }
    const bad = await run(['--nope'])
    expect(bad.code).toBe(1)
    expect(bad.out).toContain("Unknown option '--nope'")
  })

  it('parsing: durations, booleans, lists', () => {
    expect(parseDuration('10s', 'x')).toBe(10_000)
    expect(parseDuration('500ms', 'x')).toBe(500)
    expect(parseDuration('1m', 'x')).toBe(60_000)
    expect(() => parseDuration('ten', 'x')).toThrow('want a duration')
    expect(parseCli(['--json-rpc.enable']).enable).toBe(true)
    expect(parseCli(['--json-rpc.enable', 'false']).enable).toBe(false)
    expect(parseCli(['--json-rpc.api', 'eth, web3 ,net']).api).toEqual(['eth', 'web3', 'net'])
    expect(() => parseCli(['--hardfork', 'frontier'])).toThrow('unknown hardfork')
    expect(parseCli([])).toMatchObject({ throwOnTransactionFailures: undefined, throwOnCallFailures: undefined })
    expect(parseCli(['--throw-on-transaction-failures', '--quiet'])).toMatchObject({ throwOnTransactionFailures: true, quiet: true })
    expect(parseCli(['--throw-on-call-failures', 'false']).throwOnCallFailures).toBe(false)
    expect(() => parseCli(['--throw-on-call-failures=maybe'])).toThrow('flag throw-on-call-failures: want true or false, got maybe')
  })

  it('config: TOML keys throw-on-transaction-failures and throw-on-call-failures', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'finality-cli-'))
    const file = path.join(dir, 'node.toml')
    writeFileSync(file, ['throw-on-transaction-failures = true', 'throw-on-call-failures = false', ''].join('\n'))
    expect(parseCli(['--config', file])).toMatchObject({ throwOnTransactionFailures: true, throwOnCallFailures: false })
    expect(parseCli(['--config', file, '--throw-on-call-failures', 'true']).throwOnCallFailures).toBe(true)
  })

  it('loopback default: test controls on over HTTP and WebSocket; rpc_modules lists them; --json-rpc.api narrows, with a hint', async () => {
    const cli = await start([...EPHEMERAL, '--accounts', '2', '--quiet'])
    expect(Object.keys((await rpc(cli.http, 'rpc_modules')).result).sort()).toEqual(CONTROLS)
    expect((await rpc(cli.http, 'evm_mine')).result).toBe('0x0')
    expect((await rpc(cli.http, 'hardhat_setBalance', ['0x00000000000000000000000000000000000000aa', '0x10'])).error).toBeUndefined()
    expect((await rpc(cli.http, 'anvil_setBalance', ['0x00000000000000000000000000000000000000ab', '0x10'])).error).toBeUndefined()
    expect((await rpc(cli.http, 'eth_getBalance', ['0x00000000000000000000000000000000000000ab', 'latest'])).result).toBe('0x10')
    expect((await rpc(cli.http, 'txpool_status')).result).toEqual({ pending: '0x0', queued: '0x0' })
    expect((await rpc(cli.http, 'finality_getValidators')).result).toHaveLength(1)
    // Private namespaces beyond the test controls stay off.
    expect((await rpc(cli.http, 'debug_traceTransaction', ['0x' + '00'.repeat(32)])).error.code).toBe(-32601)
    const c = await WsClient.connect(cli.ws)
    expect(Object.keys((await c.call('rpc_modules')).result).sort()).toEqual(CONTROLS)
    const snap = (await c.call('evm_snapshot')).result
    expect((await c.call('evm_revert', [snap])).result).toBe(true)
    c.close()
    expect(cli.out()).toContain(`Namespaces: eth,web3,net,rpc,evm,hardhat,anvil,txpool,finality`)
    await stop(cli)

    const narrow = await start([...EPHEMERAL, '--json-rpc.api', 'eth,net', '--quiet'])
    expect(Object.keys((await rpc(narrow.http, 'rpc_modules')).result ?? {})).toEqual([])
    const off = (await rpc(narrow.http, 'evm_mine')).error
    expect(off.code).toBe(-32601)
    expect(off.message).toContain('the evm namespace is off here; enable it with the api option (CLI: --json-rpc.api)')
    await stop(narrow)
    // Beyond loopback the public set stays the default.
    expect(defaultApi('0.0.0.0:8545', isLoopback)).toEqual(['eth', 'web3', 'net', 'rpc'])
    expect(defaultApi('[::1]:8545', isLoopback)).toEqual(['eth', 'web3', 'net', 'rpc', 'evm', 'hardhat', 'anvil', 'txpool', 'finality'])
  })

  it('browsers: local pages get CORS and WebSocket; other sites, and other Host names (DNS rebinding), are refused', async () => {
    const cli = await start([...EPHEMERAL, '--quiet'])
    const call = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}'
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://[::1]:8080']) {
      const pre = await fetch(cli.http, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } })
      expect(pre.status).toBe(204)
      expect(pre.headers.get('access-control-allow-origin')).toBe(origin)
      const res = await post(cli.http, call, { origin })
      expect(res.headers.get('access-control-allow-origin')).toBe(origin)
      const ws = await WsClient.connect(cli.ws, { origin })
      expect((await ws.call('eth_chainId')).result).toBe('0x7a69')
      ws.close()
    }
    const evil = await post(cli.http, call, { origin: 'https://evil.example' })
    expect(evil.headers.get('access-control-allow-origin')).toBe(null)
    await expect(WsClient.connect(cli.ws, { origin: 'https://evil.example' })).rejects.toThrow('HTTP 403')
    expect(await postWithHost(cli.http, 'evil.example')).toBe(403)
    expect(await postWithHost(cli.http, 'localhost:8545')).toBe(200)
    expect(await postWithHost(cli.http, '127.0.0.1')).toBe(200)
    await expect(WsClient.connect(cli.ws, { headers: { host: 'rebound.example' } })).rejects.toThrow('HTTP 403')
    await stop(cli)
  })

  it('--json-rpc.cors and --json-rpc.hosts (flags and TOML) let other sites in; * allows any', async () => {
    const listed = await start([...EPHEMERAL, '--quiet', '--json-rpc.cors', 'https://app.example', '--json-rpc.hosts', 'node.test'])
    expect((await post(listed.http, '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', { origin: 'https://app.example' })).headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect((await post(listed.http, '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', { origin: 'http://localhost:5173' })).headers.get('access-control-allow-origin')).toBe(null)
    const ws = await WsClient.connect(listed.ws, { origin: 'https://app.example' })
    ws.close()
    expect(await postWithHost(listed.http, 'node.test:8545')).toBe(200)
    expect(await postWithHost(listed.http, 'localhost')).toBe(403)
    await stop(listed)
    const dir = mkdtempSync(path.join(tmpdir(), 'finality-cli-'))
    const file = path.join(dir, 'node.toml')
    writeFileSync(file, ['[json-rpc]', 'address = "127.0.0.1:0"', 'ws-address = "127.0.0.1:0"', 'cors = ["*"]', 'hosts = "*"', ''].join('\n'))
    const any = await start(['--config', file, '--quiet'])
    expect((await post(any.http, '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', { origin: 'https://anywhere.example' })).headers.get('access-control-allow-origin')).toBe('*')
    ;(await WsClient.connect(any.ws, { origin: 'https://anywhere.example' })).close()
    expect(await postWithHost(any.http, 'anything.example')).toBe(200)
    await stop(any)
    expect(() => parseCli(['--json-rpc.cors', 'not an origin'])).toThrow('flag json-rpc.cors: "not an origin" is not an origin')
  })

  it('--validators, --block-time under a second, --port / --host (Anvil\'s: one server for both); TOML keys too', async () => {
    const port = await freePort()
    const cli = await start(['--validators', '4', '--block-time', '0.5', '--port', String(port), '--host', '127.0.0.1', '--quiet'])
    expect(cli.http).toBe(`http://127.0.0.1:${port}`)
    expect(cli.ws).toBe(`ws://127.0.0.1:${port}`)
    expect(cli.out()).toContain('Mining:   every 0.5s')
    expect(cli.out()).toContain('Validators: 4')
    expect((await rpc(cli.http, 'finality_getValidators')).result).toHaveLength(4)
    // Interval mining at 0.5 s: blocks come without any request (no timing asserted).
    while (BigInt((await rpc(cli.http, 'eth_blockNumber')).result) < 2n) await new Promise((r) => setTimeout(r, 100))
    const c = await WsClient.connect(cli.ws)
    expect((await c.call('eth_chainId')).result).toBe('0x7a69')
    c.close()
    await stop(cli)
    const dir = mkdtempSync(path.join(tmpdir(), 'finality-cli-'))
    const file = path.join(dir, 'node.toml')
    writeFileSync(file, ['validators = 3', 'block-time = 0.25', 'host = "127.0.0.1"', 'port = 0', ''].join('\n'))
    expect(parseCli(['--config', file])).toMatchObject({ validators: 3, blockTime: 0.25, address: '127.0.0.1:0', wsAddress: '127.0.0.1:0' })
    expect(parseCli(['--host', '::1', '--port', '9000'])).toMatchObject({ address: '[::1]:9000', wsAddress: '[::1]:9000' })
    expect(parseCli(['--port', '9000', '--json-rpc.ws-address', '127.0.0.1:9001'])).toMatchObject({ address: '127.0.0.1:9000', wsAddress: '127.0.0.1:9001' })
    expect(() => parseCli(['--port', '9000', '--json-rpc.address', '127.0.0.1:1'])).toThrow('give either --host / --port or --json-rpc.address')
    expect(() => parseCli(['--block-time', '0.0001'])).toThrow('at least 0.001')
    expect(() => parseCli(['--block-time=-1'])).toThrow('want a number of seconds')
    expect(() => parseCli(['--validators', '0'])).toThrow('want an integer >= 1')
    expect(() => parseCli(['--port', '70000'])).toThrow('up to 65535')
  })

  it('--db on resume: real balances and a note for --balance; another --chain-id, a locked or a wrong path say why and what to do', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'finality-cli-')), 'chain')
    const first = await start([...EPHEMERAL, '--db', dir, '--accounts', '2', '--quiet'])
    const from = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
    expect((await rpc(first.http, 'eth_sendTransaction', [{ from, to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', value: '0xde0b6b3a7640000' }])).result).toMatch(/^0x/)
    // Locked: a second process on the same directory.
    const locked = await run([...EPHEMERAL, '--db', dir])
    expect(locked.code).toBe(1)
    expect(locked.out).toContain(`finality: cannot open the database at ${dir}: another process has it open (another finality on the same --db?); stop that process, or give --db another directory`)
    await stop(first)

    const other = await run([...EPHEMERAL, '--db', dir, '--chain-id', '5'])
    expect(other.code).toBe(1)
    expect(other.out).toContain('finality: the database holds a chain with chain id 31337, not 5: to resume it, leave chainId out or pass 31337 (CLI: --chain-id); for a new chain, use another database directory')
    expect(other.out).not.toContain('return ')

    const resumed = await start([...EPHEMERAL, '--db', dir, '--accounts', '2', '--balance', '5', '--quiet'])
    expect(resumed.out()).toContain(`Database: ${dir} (resumed at block 1)`)
    expect(resumed.out()).toContain('Note: --balance shape only a new chain and do not apply to the resumed one')
    expect(resumed.out()).toContain('(1) 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 (10001 ETH)')
    expect(resumed.out()).not.toContain('(5 ETH)')
    await stop(resumed)

    const file = path.join(mkdtempSync(path.join(tmpdir(), 'finality-cli-')), 'a-file')
    writeFileSync(file, 'x')
    const wrong = await run([...EPHEMERAL, '--db', file])
    expect(wrong.code).toBe(1)
    expect(wrong.out).toContain(`finality: cannot open the database at ${file}: the path is a file, not a directory; give --db a directory (it is created when missing)`)
  })
})
