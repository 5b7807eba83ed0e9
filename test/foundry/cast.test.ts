/**
 * The real `cast` (npm `@foundry-rs/cast` 1.7.1) against the `finality` CLI on an ephemeral
 * port and against Anvil 1.7.1, the same commands on both, compared: EIP-7702 (`send`, `call`,
 * `estimate`, `access-list` with `--auth`, a compiled Counter as the delegate), `cast rpc` of
 * Anvil's methods, and `cast run` (Foundry's fork backend reading the node).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadArtifacts } from '../helpers/compile.js'
import { startAnvil, type RunningAnvil } from '../helpers/anvil.js'
import { EPHEMERAL, startCli, type RunningCli } from '../helpers/cli.js'
import { foundryTool, runTool } from '../helpers/foundry-tools.js'

const Counter = loadArtifacts().Counter!
// The default accounts of both (the same mnemonic): 3 deploys, 4 delegates its own EOA.
const DEPLOYER_KEY = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6'
const EOA_KEY = '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a'
const EOA = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65'
const ZERO = '0x0000000000000000000000000000000000000000'

let cast: string
let anvil: RunningAnvil
let cli: RunningCli
let urls: { anvil: string; finality: string }
let counter: string

beforeAll(async () => {
  ;[cast, anvil, cli] = await Promise.all([foundryTool('cast'), startAnvil(['--hardfork', 'prague']), startCli([...EPHEMERAL, '--hardfork', 'prague'])])
  urls = { anvil: anvil.http, finality: cli.http }
  const deployed: string[] = []
  for (const url of Object.values(urls)) {
    const out = await runTool(cast, ['send', '--rpc-url', url, '--private-key', DEPLOYER_KEY, '--json', '--create', Counter.bytecode])
    expect(out.stderr).toBe('')
    deployed.push((JSON.parse(out.stdout) as { contractAddress: string }).contractAddress)
  }
  expect(deployed[0]).toBe(deployed[1])
  counter = deployed[0] as string
}, 180_000)

afterAll(async () => {
  await cli?.stop()
  await anvil?.stop()
})

/** `cast <args> --rpc-url <url>` on both; the outputs of Anvil and finality. */
async function both(args: readonly string[]) {
  const [a, f] = await Promise.all([runTool(cast, [...args, '--rpc-url', urls.anvil]), runTool(cast, [...args, '--rpc-url', urls.finality])])
  return { anvil: a, finality: f }
}

describe('cast with EIP-7702 authorizations (--auth)', () => {
  it('cast estimate --auth: the authorization\'s intrinsic gas and the delegate\'s run', async () => {
    const { anvil: a, finality: f } = await both(['estimate', EOA, 'increment()', '--auth', counter, '--private-key', EOA_KEY])
    expect(f).toEqual(a)
    expect(Number(f.stdout)).toBeGreaterThan(46_000)
  })

  it('cast access-list --auth: the authority\'s slot the delegate writes', async () => {
    const { anvil: a, finality: f } = await both(['access-list', EOA, 'increment()', '--auth', counter, '--private-key', EOA_KEY, '--json'])
    expect(f).toEqual(a)
    expect(JSON.parse(f.stdout).accessList).toEqual([{ address: EOA.toLowerCase(), storageKeys: [`0x${'0'.repeat(64)}`] }])
  })

  it('cast send --auth: a self-sponsored delegation, estimated and mined; cast code and call see it', async () => {
    const { anvil: a, finality: f } = await both(['send', EOA, 'increment()', '--auth', counter, '--private-key', EOA_KEY, '--json'])
    expect(f.code, f.stderr).toBe(0)
    const [ra, rf] = [JSON.parse(a.stdout), JSON.parse(f.stdout)] as Array<Record<string, string>>
    expect([rf!.status, rf!.type, rf!.gasUsed]).toEqual([ra!.status, ra!.type, ra!.gasUsed])
    expect(rf!.status).toBe('0x1')
    const code = await both(['code', EOA])
    expect(code.finality).toEqual(code.anvil)
    expect(code.finality.stdout).toBe(`0xef0100${counter.slice(2).toLowerCase()}`)
    const count = await both(['call', EOA, 'count()(uint256)'])
    expect(count.finality).toEqual(count.anvil)
    expect(count.finality.stdout).toBe('1')
  })

  it('cast call --auth: the call runs with the authorization applied (a revocation leaves no code to answer)', async () => {
    const { anvil: a, finality: f } = await both(['call', EOA, 'count()(uint256)', '--auth', ZERO, '--private-key', EOA_KEY])
    expect(f).toEqual(a)
    expect(f.code).not.toBe(0)
    expect(f.stderr).toMatch(/could not decode output/)
  })
})

describe('cast rpc of Anvil\'s methods', () => {
  it('eth_getAccountInfo, anvil_getIntervalMining, anvil_snapshot / anvil_revert answer as on Anvil', async () => {
    const info = await both(['rpc', 'eth_getAccountInfo', EOA, 'latest'])
    // The balance left after the fees paid differs: block 1's base fee is Anvil's genesis one,
    // finality's follows the rule from genesis (docs/foundry.md); nonce and code are compared.
    const [ia, fi] = [JSON.parse(info.anvil.stdout), JSON.parse(info.finality.stdout)] as Array<Record<string, string>>
    expect(Object.keys(fi!)).toEqual(['balance', 'nonce', 'code'])
    expect({ ...fi, balance: undefined }).toEqual({ ...ia, balance: undefined })
    expect(fi).toMatchObject({ nonce: '0x2', code: `0xef0100${counter.slice(2).toLowerCase()}` })
    const interval = await both(['rpc', 'anvil_getIntervalMining'])
    expect(interval.finality).toEqual(interval.anvil)
    const snapshot = await both(['rpc', 'anvil_snapshot'])
    expect(snapshot.finality.stdout).toMatch(/^"0x[0-9a-f]+"$/)
    const reverted = await Promise.all([
      runTool(cast, ['rpc', 'anvil_revert', JSON.parse(snapshot.anvil.stdout), '--rpc-url', urls.anvil]),
      runTool(cast, ['rpc', 'anvil_revert', JSON.parse(snapshot.finality.stdout), '--rpc-url', urls.finality]),
    ])
    expect(reverted[1]).toEqual(reverted[0])
    expect(reverted[1].stdout).toBe('true')
  })
})

describe('cast run: Foundry\'s fork backend on the node', () => {
  it('replays a mined transaction locally, reading the accounts the way that answered first', async () => {
    const hashes: string[] = []
    for (const url of Object.values(urls)) {
      const sent = await runTool(cast, ['send', '0x0000000000000000000000000000000000000abc', '--value', '1', '--private-key', DEPLOYER_KEY, '--json', '--rpc-url', url])
      hashes.push((JSON.parse(sent.stdout) as { transactionHash: string }).transactionHash)
    }
    const logged = cli.out().length
    const [a, f] = await Promise.all([runTool(cast, ['run', hashes[0]!, '--rpc-url', urls.anvil]), runTool(cast, ['run', hashes[1]!, '--rpc-url', urls.finality])])
    expect(f.code, f.stderr).toBe(0)
    const tail = (out: string) => out.split('\n').slice(-2).join('\n')
    expect(tail(f.stdout)).toBe(tail(a.stdout))
    expect(tail(f.stdout)).toBe('Transaction successfully executed.\nGas used: 21000')
    // The CLI's request log. For its first account the backend sends eth_getAccountInfo and the
    // three single reads at once and keeps to whichever answers first (foundry-fork-db), so
    // either way may win on a loaded machine; the accounts are read one way or the other.
    const log = cli.out().slice(logged)
    const single = ['eth_getBalance', 'eth_getTransactionCount', 'eth_getCode'].every((m) => new RegExp(`^${m} `, 'm').test(log))
    expect(/^eth_getAccountInfo /m.test(log) || single, log).toBe(true)
  })
})
