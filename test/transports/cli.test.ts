/**
 * The `finality` command line as a child process on ephemeral ports: the banner, the endpoints,
 * flags and the TOML config, the request log, the exposure refusal, and a clean SIGINT.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parseCli, parseDuration } from '../../src/cli/config.js'
import { loadArtifacts, type Artifact } from '../fixtures/compile.js'
import { WsClient, rpc } from './helpers.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx')
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
  const child = spawn(TSX, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
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
  const child = spawn(TSX, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout?.on('data', (d) => (out += d))
  child.stderr?.on('data', (d) => (out += d))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })))
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)))
}

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
    for (const flag of ['--json-rpc.enable', '--json-rpc.address', '--json-rpc.ws-address', '--json-rpc.api', '--config', '--chain-id', '--accounts', '--balance', '--mnemonic', '--block-time', '--hardfork', '--db', '--throw-on-transaction-failures', '--throw-on-call-failures', '--allow-unlimited-contract-size', '--disable-code-size-limit', '--code-size-limit', '--quiet']) {
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
})
