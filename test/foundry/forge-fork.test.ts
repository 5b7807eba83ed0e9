/**
 * `forge test` forking the `finality` CLI and Anvil 1.7.1, both given the same chain: a counter
 * compiled from `forge-fork/Counter.sol` and set to different values in different blocks, an
 * account's balance raised between them. The Solidity tests (`forge-fork/Fork.t.sol`) fork with
 * the cheatcodes (`createSelectFork` at the head, at a block and at a transaction, `rollFork`
 * forward and back, two forks switched with `selectFork`, `transact`, an `[rpc_endpoints]` alias, a
 * WebSocket URL) and with `--fork-url` / `--fork-block-number`; every run must pass on both nodes,
 * with the same tests passed, and the failures of blocks beyond the head must read the same. The
 * project is compiled once by the npm `solc` package; each run reuses forge's build cache.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type RunningAnvil } from '../helpers/anvil.js'
import { EPHEMERAL, startCli, type RunningCli } from '../helpers/cli.js'
import { createFoundryProject, type FoundryProject } from '../helpers/foundry-project.js'
import { faultProxy, type FaultProxy } from '../helpers/fault-proxy.js'
import { foundryTool, runTool } from '../helpers/foundry-tools.js'

const HERE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'forge-fork')
const DOCS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'foundry.md')
const HOLDER = '0x000000000000000000000000000000000000c0de'
const SET = '0x60fe47b1' // set(uint256)
const INCREMENT = '0xd09de08a' // increment()

/** A node under test: its URLs and what the Solidity tests read from the environment. */
interface Target {
  name: 'anvil' | 'finality'
  http: string
  env: Record<string, string>
}

let forge: string
let anvil: RunningAnvil
let cli: RunningCli
/** finality forking Anvil's chain at its head: forge's forks of older blocks read the remote's history through it. */
let forked: RunningCli
let project: FoundryProject
/** In front of finality's HTTP server: every request forge sends it, kept for the replay. */
let recorder: FaultProxy
const targets: Target[] = []

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const body = (await res.json()) as { result?: unknown; error?: { message: string } }
  if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`)
  return body.result
}

/** The same transactions, one block each, and empty blocks between: the same chain on both nodes. */
async function giveChain(url: string, bytecode: string): Promise<Record<string, string>> {
  const [from] = (await rpc(url, 'eth_accounts')) as string[]
  const send = async (tx: Record<string, string>) => {
    const hash = (await rpc(url, 'eth_sendTransaction', [{ from, ...tx }])) as string
    // Anvil answers the hash before its automined block is in: the receipt is waited for.
    type Receipt = { status: string; contractAddress: string | null }
    let receipt: Receipt | null = null
    for (let i = 0; i < 200 && receipt === null; i++) {
      receipt = (await rpc(url, 'eth_getTransactionReceipt', [hash])) as Receipt | null
      if (receipt === null) await new Promise((r) => setTimeout(r, 10))
    }
    if (receipt === null) throw new Error(`no receipt for ${hash} from ${url}`)
    expect(receipt.status).toBe('0x1')
    return { hash, receipt }
  }
  const height = async () => BigInt((await rpc(url, 'eth_blockNumber')) as string).toString()
  const set = (n: number) => `${SET}${n.toString(16).padStart(64, '0')}`
  await rpc(url, 'evm_mine')
  await rpc(url, 'evm_mine')
  const beforeDeploy = await height()
  const counter = (await send({ data: bytecode })).receipt.contractAddress as string
  await send({ to: counter, data: set(7) })
  await send({ to: HOLDER, value: '0xde0b6b3a7640000' })
  await rpc(url, 'evm_mine')
  const blockA = await height()
  const setTo42 = (await send({ to: counter, data: set(42) })).hash
  await send({ to: HOLDER, value: '0x1bc16d674ec80000' })
  await rpc(url, 'evm_mine')
  await rpc(url, 'evm_mine')
  const blockB = await height()
  await send({ to: counter, data: INCREMENT })
  await rpc(url, 'evm_mine')
  const a = (await rpc(url, 'eth_getBlockByNumber', [`0x${BigInt(blockA).toString(16)}`, false])) as Record<string, string>
  return {
    FORK_URL: url,
    COUNTER: counter,
    HOLDER,
    BLOCK_BEFORE_DEPLOY: beforeDeploy,
    BLOCK_A: blockA,
    BLOCK_B: blockB,
    BLOCK_HEAD: await height(),
    TX_SET_42: setTo42,
    A_TIMESTAMP: BigInt(a.timestamp as string).toString(),
    A_BASE_FEE: BigInt(a.baseFeePerGas as string).toString(),
    A_PREVRANDAO: BigInt(a.mixHash as string).toString(),
    A_GAS_LIMIT: BigInt(a.gasLimit as string).toString(),
    A_COINBASE: a.miner as string,
    A_PARENT_HASH: a.parentHash as string,
  }
}

/** The Solidity test of docs/foundry.md's *Fork tests*, run as it is printed. */
function docsForkTest(): string {
  const docs = readFileSync(DOCS, 'utf8')
  const section = docs.slice(docs.indexOf('### Fork tests'))
  const block = /```solidity\n([\s\S]*?)```/.exec(section)
  if (block === null) throw new Error('docs/foundry.md: no solidity block under "### Fork tests"')
  return block[1] as string
}

beforeAll(async () => {
  project = createFoundryProject(
    'finality-forge-fork-',
    {
      'src/Counter.sol': readFileSync(path.join(HERE, 'Counter.sol'), 'utf8'),
      'test/Fork.t.sol': readFileSync(path.join(HERE, 'Fork.t.sol'), 'utf8'),
      'test/Docs.t.sol': docsForkTest(),
    },
    // The alias test forks "node": the URL comes from the environment, as users keep theirs.
    '[rpc_endpoints]\nnode = "${FORK_URL}"\n',
  )
  ;[forge, anvil, cli] = await Promise.all([foundryTool('forge'), startAnvil(['--hardfork', 'prague']), startCli([...EPHEMERAL, '--hardfork', 'prague', '--quiet'])])
  const built = await runTool(forge, ['build', '--root', project.root])
  expect(built.code, built.stderr).toBe(0)
  const bytecode = (JSON.parse(readFileSync(path.join(project.root, 'out', 'Counter.sol', 'Counter.json'), 'utf8')) as { bytecode: { object: string } }).bytecode.object
  recorder = await faultProxy(cli.http)
  for (const [name, node, url] of [['anvil', anvil, anvil.http], ['finality', cli, recorder.url]] as const) {
    const env = await giveChain(node.http, bytecode)
    targets.push({ name, http: url, env: { ...env, FORK_URL: url, FORK_WS: node.ws } })
  }
  // The same transactions from the same accounts: the same addresses and block numbers.
  expect(targets[1]!.env.COUNTER).toBe(targets[0]!.env.COUNTER)
  expect(targets[1]!.env.BLOCK_HEAD).toBe(targets[0]!.env.BLOCK_HEAD)
  forked = await startCli([...EPHEMERAL, '--hardfork', 'prague', '--quiet', '--fork-url', anvil.http])
}, 240_000)

afterAll(async () => {
  await recorder?.close()
  await forked?.stop()
  await cli?.stop()
  await anvil?.stop()
  project?.remove()
})

/** `forge test` in the project against one node: exit code, and each test's line (`[PASS] name()` or `[FAIL: why] name()`). */
async function forgeTest(target: Target, args: readonly string[], env: Record<string, string> = {}) {
  const run = await runTool(forge, ['test', '--root', project.root, ...args], { ...target.env, ...env })
  // Failures are listed twice (in the suite and in the summary): each test once.
  const results = [...new Set([...run.stdout.matchAll(/^\[(PASS|FAIL[^\]]*)\] (\w+)\(\)/gm)].map((m) => `${m[1]} ${m[2]}`))].sort()
  return { ...run, results }
}

/** Runs the same `forge test` against both nodes; both must pass with the same tests. */
async function passesOnBoth(args: (t: Target) => readonly string[], env: (t: Target) => Record<string, string>, count: number): Promise<void> {
  const runs = []
  for (const target of targets) runs.push(await forgeTest(target, args(target), env(target)))
  for (const [i, run] of runs.entries()) {
    expect(run.code, `${targets[i]!.name}:\n${run.stdout}\n${run.stderr}`).toBe(0)
    expect(run.results).toHaveLength(count)
    expect(run.results.every((r) => r.startsWith('PASS '))).toBe(true)
  }
  expect(runs[1]!.results).toEqual(runs[0]!.results)
}

describe('forge test forking finality, as forking Anvil', () => {
  it('the cheatcodes: createSelectFork (head, block, transaction, alias, WebSocket), rollFork, selectFork, transact', async () => {
    await passesOnBoth(() => ['--match-contract', 'CheatcodeForkTest'], () => ({}), 9)
  }, 120_000)

  it('finality forking Anvil, forked by forge: blocks below its fork block are the remote\'s history, read through it', async () => {
    // Anvil's chain, names and blocks, served by the fork (whose head is Anvil's head).
    const target: Target = { name: 'finality', http: forked.http, env: { ...targets[0]!.env, FORK_URL: forked.http, FORK_WS: forked.ws } }
    const run = await forgeTest(target, ['--match-contract', 'CheatcodeForkTest'])
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0)
    expect(run.results).toHaveLength(9)
  }, 120_000)

  it('forge test --fork-url: forked at the head, rollFork, a local transaction', async () => {
    await passesOnBoth((t) => ['--match-contract', 'ForkUrlTest', '--fork-url', t.http], (t) => ({ FORKED_AT: t.env.BLOCK_HEAD! }), 3)
  }, 120_000)

  it('forge test --fork-url --fork-block-number: forked at an older block', async () => {
    for (const target of targets) {
      const run = await forgeTest(target, ['--match-contract', 'ForkUrlTest', '--fork-url', target.http, '--fork-block-number', target.env.BLOCK_A!], { FORKED_AT: target.env.BLOCK_A! })
      expect(run.code, `${target.name}:\n${run.stdout}\n${run.stderr}`).toBe(0)
      expect(run.results).toEqual(['PASS test_rollFork', 'PASS test_startsForked', 'PASS test_transactionInFork_staysLocal'])
    }
  }, 120_000)

  it('a block beyond the head: the same failures from both', async () => {
    const runs = []
    for (const target of targets) runs.push(await forgeTest(target, ['--match-contract', 'BeyondHeadTest']))
    const head = Number(targets[0]!.env.BLOCK_HEAD)
    const because = `failed to get block number: ${head + 5}; latest block number: ${head}`
    expect(runs[0]!.results).toEqual([`FAIL: vm.createSelectFork: ${because} test_createSelectFork_beyondHead`, `FAIL: vm.rollFork: ${because} test_rollFork_beyondHead`])
    expect(runs[1]!.results).toEqual(runs[0]!.results)
  }, 120_000)

  it('the fork test of docs/foundry.md', async () => {
    await passesOnBoth(() => ['--match-contract', 'FinalityForkTest'], () => ({}), 1)
  }, 120_000)

  it('what the forks did stayed in forge: neither node has a new block or a changed state', async () => {
    // Asked directly, not through the recorder: these requests are the test's, not forge's.
    for (const [target, url] of [[targets[0]!, anvil.http], [targets[1]!, cli.http]] as const) {
      expect(BigInt((await rpc(url, 'eth_blockNumber')) as string).toString()).toBe(target.env.BLOCK_HEAD)
      expect(BigInt((await rpc(url, 'eth_call', [{ to: target.env.COUNTER, data: '0x06661abd' }, 'latest'])) as string)).toBe(43n)
      expect(await rpc(url, 'eth_getBalance', [HOLDER, 'latest'])).toBe('0x29a2241af62c0000')
    }
  })
})

/** The fields of a block, and of its transactions, that the same transactions make equal on both chains. */
function comparableBlock(block: Record<string, unknown> | null) {
  if (block === null) return null
  const txs = block.transactions as Array<string | Record<string, unknown>>
  const tx = (t: Record<string, unknown>) => ({ from: t.from, to: t.to, input: t.input, nonce: t.nonce, value: t.value, type: t.type, gas: t.gas, transactionIndex: t.transactionIndex })
  return {
    keys: Object.keys(block).filter((k) => k !== 'totalDifficulty').sort(),
    number: block.number,
    gasLimit: block.gasLimit,
    gasUsed: block.gasUsed,
    transactions: txs.map((t) => (typeof t === 'string' ? 'hash' : tx(t))),
  }
}

describe('the requests forge sent finality, replayed to both nodes', () => {
  it('answer as Anvil answers them, but for what fees and block producers make differ', async () => {
    const requests = new Map<string, { method: string; params: unknown[] }>()
    for (const arrival of recorder.arrivals) {
      arrival.methods.forEach((method, i) => {
        const params = (arrival.params[i] ?? []) as unknown[]
        requests.set(JSON.stringify([method, params]), { method, params })
      })
    }
    const [anvilTarget, finalityTarget] = targets as [Target, Target]
    const head = `0x${BigInt(anvilTarget.env.BLOCK_HEAD!).toString(16)}`
    // Accounts whose balances are fees: the sender of the set-up (the block-1 base fee differs)
    // and the blocks' fee recipients (the proposing validator here, the zero address on Anvil).
    const [sender] = (await rpc(anvil.http, 'eth_accounts')) as string[]
    const fees = new Set([sender, ...(await Promise.all([anvil.http, cli.http].map(async (url) => ((await rpc(url, 'eth_getBlockByNumber', [head, false])) as { miner: string }).miner)))].map((a) => a!.toLowerCase()))
    const tx = (hash: unknown) => (hash === finalityTarget.env.TX_SET_42 ? anvilTarget.env.TX_SET_42 : hash)
    const compared = new Set<string>()
    for (const { method, params } of requests.values()) {
      const answers = async (p: unknown[] = params) => [await rpc(anvil.http, method, p), await rpc(cli.http, method, params)] as const
      const what = `${method}(${JSON.stringify(params)})`
      compared.add(method)
      switch (method) {
        case 'eth_chainId':
        case 'eth_blockNumber':
        case 'eth_getStorageAt':
        case 'eth_getCode':
        case 'eth_getTransactionCount': {
          const [a, f] = await answers()
          expect(f, what).toEqual(a)
          break
        }
        case 'eth_getBalance':
        case 'eth_getAccountInfo': {
          const [a, f] = await answers()
          if (fees.has(String(params[0]).toLowerCase())) {
            if (method === 'eth_getAccountInfo') expect({ ...(f as object), balance: 0 }, what).toEqual({ ...(a as object), balance: 0 })
          } else expect(f, what).toEqual(a)
          break
        }
        case 'eth_getBlockByNumber': {
          const [a, f] = await answers()
          expect(comparableBlock(f as Record<string, unknown> | null), what).toEqual(comparableBlock(a as Record<string, unknown> | null))
          break
        }
        case 'eth_getTransactionByHash': {
          const [a, f] = (await answers([tx(params[0])])) as [Record<string, unknown>, Record<string, unknown>]
          const fields = (t: Record<string, unknown>) => ({ from: t.from, to: t.to, input: t.input, nonce: t.nonce, value: t.value, type: t.type, blockNumber: t.blockNumber, transactionIndex: t.transactionIndex })
          expect(fields(f), what).toEqual(fields(a))
          break
        }
        case 'eth_gasPrice': {
          // The base fee under it differs (docs/foundry.md); both are quantities.
          const [a, f] = await answers()
          expect([a, f].every((v) => typeof v === 'string' && /^0x[1-9a-f][0-9a-f]*$/.test(v)), what).toBe(true)
          break
        }
        case 'anvil_nodeInfo': {
          // The block's hash, time and fees are this chain's; the rest is Anvil's.
          const [a, f] = (await answers()) as [Record<string, any>, Record<string, any>]
          const same = (i: Record<string, any>) => ({ keys: Object.keys(i).sort(), number: i.currentBlockNumber, hardFork: i.hardFork, order: i.transactionOrder, chainId: i.environment.chainId, gasLimit: i.environment.gasLimit, forkConfig: i.forkConfig })
          expect(same(f), what).toEqual(same(a))
          break
        }
        default:
          throw new Error(`forge sent ${what}, which this test does not compare yet`)
      }
    }
    // What a fork test asks of a node, every one of them seen here.
    for (const method of ['eth_chainId', 'eth_getBlockByNumber', 'eth_getStorageAt', 'eth_getTransactionByHash', 'eth_getAccountInfo']) expect(compared, method).toContain(method)
  }, 60_000)
})
