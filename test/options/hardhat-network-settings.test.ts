/**
 * Hardhat's network settings against Hardhat itself: the same settings given to Hardhat 2's own
 * network (its provider, EDR inside, run in a child process from a throwaway project) and to
 * createNode, and the same answers read from both: eth_coinbase and the blocks' miner, the genesis
 * time of `initialDate`, the fee and gas a send gets from `gasPrice` and `gas`, the block gas
 * limit and base fee, the coinbase after hardhat_reset, and `minGasPrice`'s refusal.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, test } from 'vitest'
import { trackNodes } from '../helpers/nodes.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const newNode = trackNodes()
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const COINBASE = '0x1111111111111111111111111111111111111111'
const OTHER = '0x2222222222222222222222222222222222222222'
const FROM = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'

/** The probe both nodes answer: `request` is an EIP-1193 request function. */
async function probe(request: (method: string, params?: unknown[]) => Promise<unknown>): Promise<Record<string, unknown>> {
  const block = async (tag: string) => (await request('eth_getBlockByNumber', [tag, false])) as Record<string, string>
  const genesis = await block('0x0')
  const coinbase = await request('eth_coinbase')
  const hash = await request('eth_sendTransaction', [{ from: FROM, to: OTHER, value: '0x1' }])
  const tx = (await request('eth_getTransactionByHash', [hash])) as Record<string, string>
  const first = await block('latest')
  let low: unknown
  try {
    await request('eth_sendTransaction', [{ from: FROM, to: OTHER, gasPrice: '0x3b9aca00' }])
  } catch (error) {
    low = { code: (error as { code?: number }).code, message: (error as Error).message }
  }
  await request('hardhat_setCoinbase', [OTHER])
  await request('hardhat_reset')
  return {
    coinbase,
    genesisTime: genesis.timestamp,
    genesisGasLimit: genesis.gasLimit,
    genesisBaseFee: genesis.baseFeePerGas,
    send: { type: tx.type, gasPrice: tx.gasPrice, gas: tx.gas },
    miner: first.miner,
    low,
    coinbaseAfterReset: await request('eth_coinbase'),
  }
}

/** Runs {@link probe} inside a Hardhat project whose `networks.hardhat` is `settings`. */
async function hardhatAnswers(settings: Record<string, unknown>): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'finality-hh-settings-'))
  dirs.push(dir)
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'))
  writeFileSync(path.join(dir, 'hardhat.config.js'), `module.exports = { networks: { hardhat: ${JSON.stringify(settings)} } }\n`)
  writeFileSync(
    path.join(dir, 'probe.js'),
    `const { network } = require('hardhat')
const FROM = '${FROM}'
const OTHER = '${OTHER}'
const probe = ${probe.toString()}
probe((method, params = []) => network.provider.request({ method, params })).then((r) => process.stdout.write(JSON.stringify(r)))\n`,
  )
  const { stdout } = await promisify(execFile)(process.execPath, ['probe.js'], { cwd: dir, timeout: 90_000, env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' } })
  return JSON.parse(stdout) as Record<string, unknown>
}

describe('Hardhat\'s network settings, against Hardhat 2.29.1', () => {
  test('behavior: coinbase, initialDate, gasPrice, gas, blockGasLimit and initialBaseFeePerGas answer as on Hardhat', async () => {
    const settings = { coinbase: COINBASE, initialDate: '2020-01-01T00:00:00Z', gasPrice: 3_000_000_000, gas: 50_000, blockGasLimit: 12_000_000, initialBaseFeePerGas: 2_000_000_000, hardfork: 'prague' }
    const node = await newNode({ coinbase: COINBASE, initialDate: '2020-01-01T00:00:00Z', sendTransactionGasPrice: 3_000_000_000n, sendTransactionGas: 50_000n, blockGasLimit: 12_000_000n, initialBaseFee: 2_000_000_000n, hardfork: 'prague' })
    const ours = await probe((method, params = []) => node.request({ method, params }))
    const theirs = await hardhatAnswers(settings)
    // A gas price under the base fee is geth's refusal here (Hardhat: `Transaction gasPrice (X) is
    // too low for the next block, which has a baseFeePerGas of Y`); not one of these settings.
    expect({ ...ours, low: undefined }).toEqual({ ...theirs, low: undefined })
    expect(ours).toMatchObject({ coinbase: COINBASE, genesisTime: '0x5e0be100', send: { type: '0x0', gasPrice: '0xb2d05e00', gas: '0xc350' }, coinbaseAfterReset: COINBASE })
  }, 120_000)

  test('behavior: minGasPrice refuses a lower gas price with Hardhat\'s code and message (Hardhat takes the setting only before London)', async () => {
    const node = await newNode({ minGasPrice: 2_000_000_000n, sendTransactionGasPrice: 2_000_000_000n })
    const ours = await probe((method, params = []) => node.request({ method, params }))
    const theirs = await hardhatAnswers({ minGasPrice: 2_000_000_000, gasPrice: 2_000_000_000, hardfork: 'berlin' })
    expect(ours.low).toEqual(theirs.low)
    expect(ours.low).toEqual({ code: -32000, message: 'Transaction gas price is 1000000000, which is below the minimum of 2000000000' })
  }, 120_000)
})
