/**
 * Foundry's `cast` (1.7.1, the @foundry-rs/cast npm package, installed once into the git-ignored
 * `.cache/foundry-cast` by this file) against `finality --anvil` on loopback: `cast trace <tx>`
 * (trace_transaction), `cast trace --raw` (trace_rawTransaction) and `cast run <tx>` (a local
 * replay from the node's blocks and state) work as against `anvil`.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { encodeFunctionData, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadArtifacts } from '../helpers/compile.js'
import { EPHEMERAL, startCli, type RunningCli } from '../helpers/cli.js'
import { rpc } from '../helpers/loopback.js'

const run = promisify(execFile)
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const DIR = path.join(ROOT, '.cache', 'foundry-cast')
const CAST = path.join(DIR, 'node_modules', '@foundry-rs', 'cast-linux-amd64', 'bin', 'cast')
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const A = loadArtifacts()

/** The cast binary, installed from npm the first time (the binary ships inside the platform package). */
async function installCast(): Promise<void> {
  if (existsSync(CAST)) return
  mkdirSync(DIR, { recursive: true })
  writeFileSync(path.join(DIR, 'package.json'), '{ "name": "foundry-cast", "private": true }\n')
  await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '@foundry-rs/cast@1.7.1', '@foundry-rs/cast-linux-amd64@1.7.1'], { cwd: DIR })
}

async function cast(args: string[]): Promise<string> {
  const { stdout } = await run(CAST, [...args, '--rpc-url', cli.http], { env: { ...process.env, FOUNDRY_DISABLE_NIGHTLY_WARNING: '1', NO_COLOR: '1' }, timeout: 60_000 })
  return stdout
}

let cli: RunningCli
let from: Hex
let nested: Hex
let target: Hex

async function mined(hash: Hex): Promise<{ contractAddress: Hex; status: Hex }> {
  return (await rpc(cli.http, 'eth_getTransactionReceipt', [hash])).result
}

beforeAll(async () => {
  const [installed, started] = await Promise.all([installCast(), startCli(['--anvil', '--quiet', ...EPHEMERAL])])
  void installed
  cli = started
  from = ((await rpc(cli.http, 'eth_accounts')).result as Hex[])[0] as Hex
  const send = async (tx: Record<string, unknown>) => mined((await rpc(cli.http, 'eth_sendTransaction', [{ from, gas: '0x300000', ...tx }])).result)
  const matrix = (await send({ data: A.TraceMatrix!.bytecode })).contractAddress
  target = (await send({ data: A.TraceTarget!.bytecode })).contractAddress
  nested = (await rpc(cli.http, 'eth_sendTransaction', [{ from, gas: '0x300000', to: matrix, data: encodeFunctionData({ abi: A.TraceMatrix!.abi, functionName: 'nested', args: [target, 5n] }) }])).result
}, 180_000)

afterAll(async () => {
  await cli?.stop()
})

describe('cast against finality --anvil', () => {
  it('cast trace <tx>: the flat traces of trace_transaction', async () => {
    const out = JSON.parse(await cast(['trace', nested])) as Array<{ traceAddress: number[]; action: { callType: string } }>
    expect(out).toEqual((await rpc(cli.http, 'trace_transaction', [nested])).result)
    expect(out.map((t) => t.action.callType)).toEqual(['call', 'call', 'staticcall', 'delegatecall'])
  })

  it('cast trace --raw --trace --state-diff: a signed transaction traced, not sent', async () => {
    const nonce = Number(BigInt((await rpc(cli.http, 'eth_getTransactionCount', [from, 'latest'])).result))
    const raw = await privateKeyToAccount(KEY).signTransaction({
      chainId: 31337, nonce, to: target, gas: 100_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n,
      data: encodeFunctionData({ abi: A.TraceTarget!.abi, functionName: 'set', args: [9n] }),
    })
    const out = JSON.parse(await cast(['trace', '--raw', raw, '--trace', '--state-diff'])) as { trace: unknown[]; stateDiff: Record<string, { storage: Record<string, unknown> }> }
    expect(out.trace).toHaveLength(1)
    expect(Object.values(out.stateDiff[target.toLowerCase()]?.storage ?? {})).toEqual([{ '*': { from: `0x${'0'.repeat(63)}5`, to: `0x${'0'.repeat(63)}9` } }])
  })

  it('cast run <tx>: the transaction replayed from the node, its call tree printed', async () => {
    const out = await cast(['run', nested])
    expect(out).toContain('Transaction successfully executed')
    expect(out).toMatch(/Gas used: \d+/)
  })
})
