/**
 * State dumps between finality and the real Anvil (1.7.1, from npm), both ways and in both forms:
 * the RPC form (anvil_dumpState's `0x` + gzipped JSON into anvil_loadState) and the file form
 * (Anvil's `--dump-state` file into `createNode({ state })`; `node.dumpState()` written to a file
 * into `anvil --load-state`). After each load every account of the dump has the same balance,
 * nonce, code and storage on the other node.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { parseDump } from '../../src/controls/state-dump.js'
import { startAnvil, type RunningAnvil } from '../helpers/anvil.js'
import { trackNodes } from '../helpers/nodes.js'
import { requestRaw } from '../helpers/raw-request.js'

const newNode = trackNodes()
const dir = mkdtempSync(path.join(tmpdir(), 'finality-anvil-dump-'))
const anvils: RunningAnvil[] = []
afterAll(async () => {
  for (const a of anvils) await a.stop()
  rmSync(dir, { recursive: true, force: true })
})

type Call = (method: string, params?: unknown[]) => Promise<unknown>

function remote(url: string): Call {
  let id = 0
  return async (method, params = []) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
    const body = (await res.json()) as { result?: unknown; error?: { message: string } }
    if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`)
    return body.result
  }
}

async function anvil(args: string[] = []): Promise<{ call: Call; stop: () => Promise<void> }> {
  const running = await startAnvil(args)
  anvils.push(running)
  return { call: remote(running.http), stop: () => running.stop() }
}

const CONTRACT = '0x2222222222222222222222222222222222222222'
const RICH = '0x3333333333333333333333333333333333333333'
const SENDER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
// SLOAD(0) returned: the code reads storage the dump carried.
const CODE = '0x60005460005260206000f3'
const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}`

/** Writes the same state on either node: a transfer (nonce, balances), code, storage, a balance, a nonce. */
async function shape(call: Call): Promise<void> {
  await call('eth_sendTransaction', [{ from: SENDER, to: RICH, value: '0x1234' }])
  await call('anvil_setCode', [CONTRACT, CODE])
  await call('anvil_setStorageAt', [CONTRACT, '0x0', word(42)])
  await call('anvil_setStorageAt', [CONTRACT, word(7), word(0xbeef)])
  await call('anvil_setNonce', [CONTRACT, '0x5'])
  await call('anvil_setBalance', [RICH, '0xde0b6b3a7640000'])
}

/** Every account of `dump` reads the same on `target`: balance, nonce, code and each slot. */
async function expectHolds(target: Call, dump: unknown): Promise<number> {
  const parsed = parseDump(dump)
  let checked = 0
  for (const [address, a] of Object.entries(parsed.accounts)) {
    expect(BigInt((await target('eth_getBalance', [address, 'latest'])) as string), `balance of ${address}`).toBe(BigInt(a.balance))
    expect(BigInt((await target('eth_getTransactionCount', [address, 'latest'])) as string), `nonce of ${address}`).toBe(BigInt(a.nonce))
    expect(await target('eth_getCode', [address, 'latest']), `code of ${address}`).toBe(a.code)
    for (const [slot, value] of Object.entries(a.storage)) {
      expect(await target('eth_getStorageAt', [address, slot, 'latest']), `slot ${slot} of ${address}`).toBe(value)
    }
    checked++
  }
  expect(parsed.accounts[CONTRACT]).toMatchObject({ nonce: 5, code: CODE, storage: { [word(0)]: word(42), [word(7)]: word(0xbeef) } })
  expect(parsed.accounts[RICH]?.balance).toBe('0xde0b6b3a7640000')
  return checked
}

describe('Anvil → finality', () => {
  test('behavior: anvil_dumpState\'s hex loads with anvil_loadState and createNode({ state }); Anvil\'s --dump-state file too', async () => {
    const file = path.join(dir, 'from-anvil.json')
    const source = await anvil(['--accounts', '2', '--dump-state', file])
    await shape(source.call)
    const hex = (await source.call('anvil_dumpState')) as string
    expect(hex).toMatch(/^0x1f8b/)

    const loaded = await newNode({ mining: { mode: 'manual' } })
    const call: Call = (method, params) => loaded.request({ method, params })
    expect(await call('anvil_loadState', [hex])).toBe(true)
    expect(await expectHolds(call, hex)).toBeGreaterThan(4)

    const started = await newNode({ state: hex })
    await expectHolds((method, params) => started.request({ method, params }), hex)

    await source.stop()
    const written = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
    expect(Object.keys(written)).toEqual(expect.arrayContaining(['block', 'accounts', 'best_block_number', 'blocks', 'transactions']))
    const fromFile = await newNode({ state: written })
    await expectHolds((method, params) => fromFile.request({ method, params }), written)
    const viaApi = await newNode()
    await viaApi.loadState(written)
    await expectHolds((method, params) => viaApi.request({ method, params }), written)
  }, 60_000)
})

describe('finality → Anvil', () => {
  test('behavior: anvil_dumpState\'s hex loads into Anvil\'s anvil_loadState; node.dumpState() in a file loads with anvil --load-state', async () => {
    const node = await newNode()
    const call: Call = (method, params) => node.request({ method, params })
    await shape(call)
    const hex = (await call('anvil_dumpState')) as string
    expect(hex).toMatch(/^0x1f8b/)

    const target = await anvil(['--accounts', '1'])
    expect(await target.call('anvil_loadState', [hex])).toBe(true)
    expect(await expectHolds(target.call, hex)).toBeGreaterThan(4)

    const file = path.join(dir, 'from-finality.json')
    writeFileSync(file, JSON.stringify(node.dumpState()))
    const started = await anvil(['--accounts', '1', '--load-state', file])
    await expectHolds(started.call, node.dumpState())
    // Anvil goes on from the loaded state: the sender's next transaction takes the next nonce.
    const hash = await started.call('eth_sendTransaction', [{ from: SENDER, to: RICH, value: '0x1' }])
    let receipt: unknown = null
    for (let i = 0; i < 100 && receipt === null; i++) {
      receipt = await started.call('eth_getTransactionReceipt', [hash])
      if (receipt === null) await new Promise((r) => setTimeout(r, 20))
    }
    expect(receipt).toMatchObject({ status: '0x1' })
    expect(await started.call('eth_getTransactionCount', [SENDER, 'latest'])).toBe('0x2')
  }, 60_000)

  test('error: a dump that is neither ours nor Anvil\'s, or an account Anvil\'s reader would refuse, is refused with -32602', async () => {
    const node = await newNode()
    const bad = [
      { format: 'other', accounts: {} },
      { accounts: { [RICH]: { nonce: -1, balance: '0x0' } } },
      { accounts: { [RICH]: { nonce: 1, balance: 'lots' } } },
      { accounts: { [RICH]: { nonce: 1, balance: '0x0', storage: { '0x1': '0x' + '00'.repeat(33) } } } },
      { accounts: [] },
    ]
    for (const dump of bad) await expect(requestRaw(node, 'anvil_loadState', [dump])).rejects.toMatchObject({ code: -32602 })
    const text = Buffer.from('{"accounts":').toString('hex')
    await expect(node.request({ method: 'anvil_loadState', params: [`0x${text}`] })).rejects.toMatchObject({ code: -32602, message: 'invalid state dump: neither gzipped JSON nor JSON' })
  })
})
