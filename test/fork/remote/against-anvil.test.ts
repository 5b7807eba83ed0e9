/**
 * The fork's remote client against Anvil (from its npm package, a child process on a free
 * loopback port): a remote nobody here wrote, over HTTP and WebSocket; and a process that uses
 * the client and closes it exits by itself.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { ForkRemoteError } from '../../../src/fork/remote/index.js'
import { remoteClients } from '../../helpers/remote-clients.js'
import { startAnvil, type RunningAnvil } from '../../helpers/anvil.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
// Anvil's first default account (the test mnemonic's) and its default balance, 10 000 ether.
const FIRST = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const SLOT0 = `0x${'0'.repeat(64)}`
const BALANCE = `0x${(10_000n * 10n ** 18n).toString(16)}`

let anvil: RunningAnvil
const remote = remoteClients()

beforeAll(async () => {
  anvil = await startAnvil()
})

afterAll(async () => {
  await remote.closeAll()
  await anvil.stop()
})

async function direct(method: string, params: unknown[]): Promise<any> {
  const res = await fetch(anvil.http, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return res.json()
}

describe.each(['http', 'ws'] as const)('Anvil over %s', (transport) => {
  const url = () => (transport === 'http' ? anvil.http : anvil.ws)

  it('default: answers as Anvil does, concurrent requests in one batch', async () => {
    const c = remote({ url: url() })
    const [chainId, ...balances] = await Promise.all([
      c.request({ method: 'eth_chainId' }),
      ...Array.from({ length: 9 }, () => c.request({ method: 'eth_getBalance', params: [FIRST, 'latest'] })),
    ])
    expect(chainId).toBe('0x7a69')
    expect(balances).toEqual(Array.from({ length: 9 }, () => BALANCE))
    expect(c.stats()).toEqual({ requests: 10, httpRequests: 1, batches: 1, retries: 0, errors: 0 })
  })

  it('behavior: eth_getProof comes back whole', async () => {
    const c = remote({ url: url() })
    const proof = (await c.request({ method: 'eth_getProof', params: [FIRST, [SLOT0], 'latest'] })) as { balance: string; accountProof: string[]; storageProof: unknown[] }
    expect(proof).toEqual((await direct('eth_getProof', [FIRST, [SLOT0], 'latest'])).result)
    expect(proof.accountProof.length).toBeGreaterThan(0)
  })

  it('behavior: Anvil\'s own error answer passes through unchanged, not retried', async () => {
    const c = remote({ url: url() })
    const want = (await direct('eth_getBalance', ['0x12', 'latest'])).error
    const error = (await c.request({ method: 'eth_getBalance', params: ['0x12', 'latest'] }).catch((e: unknown) => e)) as ForkRemoteError
    expect(error).toBeInstanceOf(ForkRemoteError)
    expect(error.remoteCode).toBe(want.code)
    // Anvil words its parse errors differently over WebSocket; over HTTP the message is the same.
    if (transport === 'http') expect(error.message).toBe(want.message)
    else expect(error.message).not.toMatch(/^fork remote/)
    expect(error.answered).toBe(true)
    expect(c.stats()).toMatchObject({ retries: 0, errors: 1 })
  })
})

describe('Anvil going away', () => {
  it('error: requests after it stopped fail with a connection error, then the process using the client exits', async () => {
    const own = await startAnvil(['--chain-id', '99'])
    const http = remote({ url: own.http, retries: 1, retryBaseMs: 1 })
    const ws = remote({ url: own.ws, retries: 1, retryBaseMs: 1 })
    expect(await http.request({ method: 'eth_chainId' })).toBe('0x63')
    expect(await ws.request({ method: 'eth_chainId' })).toBe('0x63')
    await own.stop()
    await expect(http.request({ method: 'eth_chainId' })).rejects.toThrow(new RegExp(`^fork remote ${own.http}: eth_chainId failed: fetch failed: .*ECONNREFUSED.*, after 2 attempts$`))
    await expect(ws.request({ method: 'eth_chainId' })).rejects.toThrow(new RegExp(`^fork remote ${own.ws}: eth_chainId failed: WebSocket (error|closed).*, after 2 attempts$`))
  })

  it('behavior: a process that used clients over HTTP and WebSocket and closed them exits by itself', async () => {
    const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), [path.join(ROOT, 'test', 'helpers', 'remote-exit.ts'), anvil.http, anvil.ws], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    onTestFinished(() => void child.kill())
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(code, out).toBe(0)
    const lines = out.trim().split('\n')
    expect(lines[0]).toBe(`${anvil.http} ["0x7a69","0x0"] {"requests":3,"httpRequests":1,"batches":1,"retries":0,"errors":0}`)
    expect(lines[1]).toMatch(/^fork remote http:\/\/127\.0\.0\.1:\d+: the client is closed \(eth_chainId not answered\)$/)
    expect(lines[2]).toBe(`${anvil.ws} ["0x7a69","0x0"] {"requests":3,"httpRequests":1,"batches":1,"retries":0,"errors":0}`)
    expect(lines[3]).toMatch(/the client is closed/)
    expect(lines[4]).toBe('fork remote http://127.0.0.1:1: the client is closed (eth_chainId not answered)')
  })
})
