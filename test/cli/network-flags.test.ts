/**
 * The command line's flags for Hardhat's network settings and Anvil's flags with Anvil's meaning:
 * each at its value and a bad value (parseCli, then the process), TOML keys, short flags, and the
 * state files (`--state`, `--load-state`, `--dump-state`) moved to and from the real Anvil.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it, test } from 'vitest'
import { FLAGS, helpText, parseCli, SHORT_FLAGS } from '../../src/cli/config.js'
import { VERSION } from '../../src/version.js'
import { startAnvil } from '../helpers/anvil.js'
import { EPHEMERAL, startCli } from '../helpers/cli.js'
import { rpc } from '../helpers/loopback.js'
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const dir = mkdtempSync(path.join(tmpdir(), 'finality-cli-flags-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const FROM = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const TO = '0x3333333333333333333333333333333333333333'

/** Runs the CLI to completion: its exit code and output. */
function run(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'bin.ts'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout?.on('data', (d) => (out += d))
  child.stderr?.on('data', (d) => (out += d))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })))
}

describe('parseCli: each flag at its value', () => {
  test('Hardhat\'s network settings', () => {
    const c = parseCli([
      '--block-gas-limit', '12000000', '--gas', '500000', '--gas-price', '0x77359400', '--initial-base-fee-per-gas', '7',
      '--initial-date', '2020-01-01T00:00:00Z', '--coinbase', `0x${'11'.repeat(20)}`, '--min-gas-price', '5', '--json-rpc.http-keep-alive', '65s',
    ])
    expect(c).toMatchObject({
      blockGasLimit: 12_000_000n, sendTransactionGas: 500_000n, gasPrice: 2_000_000_000n, initialBaseFee: 7n,
      initialDate: '2020-01-01T00:00:00Z', coinbase: `0x${'11'.repeat(20)}`, minGasPrice: 5n, httpKeepAliveMs: 65_000,
    })
    expect(parseCli(['--gas', 'auto', '--gas-price', 'auto'])).toMatchObject({ sendTransactionGas: undefined, gasPrice: undefined })
  })

  test('Anvil\'s names and short flags', () => {
    const c = parseCli(['-p', '0', '-a', '3', '-m', 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about', '-q', '--gas-limit', '40000000', '--base-fee', '9', '--timestamp', '1577836800', '--no-mining', '--auto-impersonate', '--order', 'fifo', '--disable-console-log'])
    expect(c).toMatchObject({ address: '127.0.0.1:0', accounts: 3, quiet: true, blockGasLimit: 40_000_000n, initialBaseFee: 9n, genesisTimestamp: 1_577_836_800n, noMining: true, autoImpersonate: true, order: 'fifo', disableConsoleLog: true })
    expect(c.mnemonic).toMatch(/^abandon .* about$/)
    expect(parseCli(['--block-base-fee-per-gas', '11']).initialBaseFee).toBe(11n)
    expect(parseCli(['--no-mine']).noMining).toBe(true)
    expect(parseCli(['--no-console-log']).disableConsoleLog).toBe(true)
    expect(parseCli(['-b', '2']).blockTime).toBe(2)
    expect(parseCli(['-f', 'http://127.0.0.1:1']).forkUrl).toBe('http://127.0.0.1:1')
    expect(parseCli(['--rpc-url', 'http://127.0.0.1:2']).forkUrl).toBe('http://127.0.0.1:2')
    expect(parseCli(['--init', 'genesis.json']).genesis).toBe('genesis.json')
    expect(parseCli(['--auto-unlock']).autoImpersonate).toBe(true)
    expect(() => parseCli(['--init', 'a.json', '--genesis', 'b.json'])).toThrow('give either --genesis or --init, not both')
    expect(parseCli(['-V']).version).toBe(true)
    expect(parseCli(['-h']).help).toBe(true)
    expect(parseCli(['--state', 'a.json'])).toMatchObject({ state: 'a.json' })
    expect(parseCli(['--load-state', 'a.json', '--dump-state', 'b.json'])).toMatchObject({ loadState: 'a.json', dumpState: 'b.json' })
    expect(parseCli(['--state', 'a.json', '-s', '5'])).toMatchObject({ state: 'a.json', stateInterval: 5 })
  })

  test('TOML keys: the flags\' names at the top level, http-keep-alive in [json-rpc]', () => {
    const file = path.join(dir, 'network.toml')
    writeFileSync(file, [
      'block-gas-limit = 15000000', 'gas = 100000', 'gas-price = "3000000000"', 'initial-base-fee-per-gas = 0', 'initial-date = "2021-06-01T12:00:00Z"',
      `coinbase = "0x${'22'.repeat(20)}"`, 'min-gas-price = 1', 'no-mining = true', 'order = "fifo"', 'auto-impersonate = true', 'dump-state = "out.json"',
      '', '[json-rpc]', 'http-keep-alive = "90s"', '',
    ].join('\n'))
    expect(parseCli(['--config', file])).toMatchObject({
      blockGasLimit: 15_000_000n, sendTransactionGas: 100_000n, gasPrice: 3_000_000_000n, initialBaseFee: 0n, initialDate: '2021-06-01T12:00:00Z',
      coinbase: `0x${'22'.repeat(20)}`, minGasPrice: 1n, noMining: true, order: 'fifo', autoImpersonate: true, dumpState: 'out.json', httpKeepAliveMs: 90_000,
    })
    // A flag wins over the file.
    expect(parseCli(['--config', file, '--gas-price', '5']).gasPrice).toBe(5n)
  })
})

test('--help lists every flag, with its one-letter form', () => {
  const help = helpText()
  for (const name of Object.keys(FLAGS)) expect(help).toContain(`--${name}`)
  for (const [name, short] of Object.entries(SHORT_FLAGS)) expect(help).toContain(`-${short}, --${name}`)
})

describe('parseCli: a bad value fails at once, naming the flag', () => {
  const bad: Array<[string[], RegExp]> = [
    [['--block-gas-limit', '1e7'], /^flag block-gas-limit: want a whole number \(decimal or 0x-hex\), got 1e7$/],
    [['--gas-limit', '20999'], /^flag gas-limit: want at least 21000, got 20999$/],
    [['--gas=-5'], /flag gas: want a whole number/],
    // parseArgs takes a value that starts with a dash for a flag, and names the flag.
    [['--gas', '-5'], /Option '--gas' argument is ambiguous/],
    [['--gas-price', '1.5'], /flag gas-price: want a whole number/],
    [['--initial-base-fee-per-gas', 'x'], /flag initial-base-fee-per-gas: want a whole number/],
    [['--base-fee', '0x'], /flag base-fee: want a whole number/],
    [['--initial-date', 'yesterday'], /^flag initial-date: want a date such as 2020-01-01T00:00:00Z, got "yesterday"$/],
    [['--timestamp', 'now'], /flag timestamp: want a whole number/],
    [['--coinbase', '0x1234'], /^flag coinbase: want a 0x-prefixed 20-byte hex address, got 0x1234$/],
    [['--min-gas-price=-1'], /flag min-gas-price: want a whole number/],
    [['--order', 'random'], /^flag order: want fees or fifo, got random$/],
    [['--dump-state', 'a', '--state-interval', '0'], /^flag state-interval: want at least 1, got 0$/],
    [['--dump-state', 'a', '--state-interval', '9999999'], /want at most 2000000 seconds/],
    [['--state-interval', '5'], /^--state-interval needs --state or --dump-state/],
    [['--json-rpc.http-keep-alive', 'forever'], /flag json-rpc.http-keep-alive: want a duration/],
    [['--no-mining', '--block-time', '2'], /give either --no-mining or --block-time, not both/],
    [['--initial-date', '2020-01-01', '--timestamp', '5'], /give either --initial-date or --timestamp, not both/],
    [['--state', 'a', '--dump-state', 'b'], /give either --state or --dump-state, not both/],
    [['--gas-limit', '30000000', '--block-gas-limit', '30000000'], /give either --block-gas-limit or --gas-limit, not both/],
    [['-x'], /Unknown option '-x'/],
  ]
  for (const [args, message] of bad) test(`error: ${args.join(' ')}`, () => expect(() => parseCli(args)).toThrow(message))
})

describe('the process', () => {
  it('flags reach the node: block gas limit, base fee, date, coinbase, send gas and price, min gas price, no mining, auto-impersonate', async () => {
    const cli = await startCli([
      ...EPHEMERAL, '--quiet', '--block-gas-limit', '12000000', '--base-fee', '2000000000', '--initial-date', '2020-01-01T00:00:00Z',
      '--coinbase', `0x${'11'.repeat(20)}`, '--gas', '50000', '--gas-price', '3000000000', '--min-gas-price', '2500000000', '--no-mining', '--auto-impersonate',
    ])
    try {
      expect(cli.out()).toContain('Mining:   on request (--no-mining)')
      const genesis = (await rpc(cli.http, 'eth_getBlockByNumber', ['0x0', false])).result
      expect(genesis).toMatchObject({ gasLimit: '0xb71b00', baseFeePerGas: '0x77359400', timestamp: '0x5e0be100' })
      expect((await rpc(cli.http, 'eth_coinbase')).result).toBe(`0x${'11'.repeat(20)}`)
      const low = await rpc(cli.http, 'eth_sendTransaction', [{ from: FROM, to: TO, gasPrice: '0x77359400' }])
      expect(low.error).toMatchObject({ code: -32000, message: 'Transaction gas price is 2000000000, which is below the minimum of 2500000000' })
      // Auto-impersonation: a sender without a key; no mining: it waits in the pool.
      const stranger = `0x${'44'.repeat(20)}`
      expect((await rpc(cli.http, 'anvil_setBalance', [stranger, '0xde0b6b3a7640000'])).error).toBeUndefined()
      const hash = (await rpc(cli.http, 'eth_sendTransaction', [{ from: stranger, to: TO, value: '0x1' }])).result as string
      expect((await rpc(cli.http, 'eth_blockNumber')).result).toBe('0x0')
      await rpc(cli.http, 'evm_mine')
      const tx = (await rpc(cli.http, 'eth_getTransactionByHash', [hash])).result
      expect(tx).toMatchObject({ type: '0x0', gasPrice: '0xb2d05e00', gas: '0xc350', from: stranger, blockNumber: '0x1' })
      const block = (await rpc(cli.http, 'eth_getBlockByNumber', ['0x1', false])).result
      expect(block.miner).toBe(`0x${'11'.repeat(20)}`)
      expect(BigInt(block.timestamp) - 1_577_836_800n).toBeLessThan(120n)
    } finally {
      expect(await cli.stop()).toBe(0)
    }
  }, 60_000)

  it('--version prints the version and exits 0; a --load-state file that is not there stops the start, naming it', async () => {
    expect(await run(['--version'])).toEqual({ code: 0, out: `finality ${VERSION}\n` })
    const missing = await run([...EPHEMERAL, '--load-state', path.join(dir, 'none.json')])
    expect(missing.code).toBe(1)
    expect(missing.out).toContain(`cannot read the state file ${path.join(dir, 'none.json')} (--load-state)`)
  }, 60_000)
})

describe('state files', () => {
  it('--state: absent at the first start, written at exit; the second start goes on from it (a directory means <dir>/state.json); --state-interval writes it while running', async () => {
    const stateDir = path.join(dir, 'state-dir')
    mkdirSync(stateDir)
    const first = await startCli([...EPHEMERAL, '--quiet', '--state', stateDir])
    expect(first.out()).toContain(`State:    written to ${path.join(stateDir, 'state.json')} at exit`)
    await rpc(first.http, 'eth_sendTransaction', [{ from: FROM, to: TO, value: '0x1234' }])
    expect(await first.stop()).toBe(0)
    expect(existsSync(path.join(stateDir, 'state.json'))).toBe(true)
    const second = await startCli([...EPHEMERAL, '--quiet', '--state', stateDir, '--state-interval', '1'])
    try {
      expect(second.out()).toContain(`State:    loaded from ${path.join(stateDir, 'state.json')}`)
      expect((await rpc(second.http, 'eth_getBalance', [TO, 'latest'])).result).toBe('0x1234')
      expect((await rpc(second.http, 'eth_getTransactionCount', [FROM, 'latest'])).result).toBe('0x1')
      // --state-interval 1: the file follows the chain while it runs.
      await rpc(second.http, 'eth_sendTransaction', [{ from: FROM, to: TO, value: '0x1' }])
      const written = () => (JSON.parse(readFileSync(path.join(stateDir, 'state.json'), 'utf8')) as { accounts: Record<string, { balance: string }> }).accounts[TO]?.balance
      for (let i = 0; i < 50 && written() !== '0x1235'; i++) await new Promise((r) => setTimeout(r, 100))
      expect(written()).toBe('0x1235')
    } finally {
      expect(await second.stop()).toBe(0)
    }
  }, 60_000)

  it('Anvil\'s --dump-state file starts the CLI (--load-state); the CLI\'s --dump-state file starts Anvil (--load-state)', async () => {
    const fromAnvil = path.join(dir, 'anvil.json')
    const anvil = await startAnvil(['--accounts', '1', '--dump-state', fromAnvil])
    const call = async (method: string, params: unknown[]) => (await rpc(anvil.http, method, params)).result
    // The receipt is in before Anvil stops (its state file is written at exit).
    const sent = await call('eth_sendTransaction', [{ from: FROM, to: TO, value: '0x77' }])
    for (let i = 0; i < 100 && (await call('eth_getTransactionReceipt', [sent])) === null; i++) await new Promise((r) => setTimeout(r, 20))
    await call('anvil_setCode', [TO, '0x60005460005260206000f3'])
    await call('anvil_setStorageAt', [TO, '0x0', `0x${'00'.repeat(31)}2a`])
    await anvil.stop()

    const fromCli = path.join(dir, 'cli.json')
    const cli = await startCli([...EPHEMERAL, '--quiet', '--load-state', fromAnvil, '--dump-state', fromCli])
    expect((await rpc(cli.http, 'eth_getBalance', [TO, 'latest'])).result).toBe('0x77')
    expect((await rpc(cli.http, 'eth_call', [{ to: TO }, 'latest'])).result).toBe(`0x${'00'.repeat(31)}2a`)
    await rpc(cli.http, 'eth_sendTransaction', [{ from: FROM, to: TO, value: '0x1' }])
    expect(await cli.stop()).toBe(0)
    expect(JSON.parse(readFileSync(fromCli, 'utf8'))).toMatchObject({ format: 'finality-state', block: null, blocks: [] })

    const back = await startAnvil(['--accounts', '1', '--load-state', fromCli])
    try {
      expect((await rpc(back.http, 'eth_getBalance', [TO, 'latest'])).result).toBe('0x78')
      expect((await rpc(back.http, 'eth_getTransactionCount', [FROM, 'latest'])).result).toBe('0x2')
      expect((await rpc(back.http, 'eth_call', [{ to: TO }, 'latest'])).result).toBe(`0x${'00'.repeat(31)}2a`)
    } finally {
      await back.stop()
    }
  }, 60_000)
})
