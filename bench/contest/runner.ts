/**
 * One child process of the contest: `node runner.mjs <kind> <contestant> <plan.json>` (bundled by
 * `contest.ts`; the paths come in `CONTEST_PATHS`). Runs the kind's workloads against the
 * contestant and prints one line `CONTEST_RESULT {...}` with its figures. Fails loudly when a
 * workload does not do what it claims (a receipt not 0x1, a block count, a log count, a call's result).
 */
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { setImmediate as yieldTurn, setTimeout as sleep } from 'node:timers/promises'
import { open, type Chain, type ChainSetup, type Paths } from './chains.js'
import { CONTESTANTS, KINDS, type Contestant, type Figures, type Kind, type Plan } from './plan.js'

const now = (): number => performance.now()
const hex = (n: number | bigint): string => `0x${n.toString(16)}`
const perSecond = (n: number, ms: number): number => (n * 1000) / ms

function fail(message: string): never {
  throw new Error(`CONTEST VERIFICATION FAILED: ${message}`)
}

interface Receipt {
  status: string
  contractAddress?: string | null
}

/** Receipts polled for: Anvil may answer eth_sendRawTransaction before its miner has sealed the block. */
let receiptRetries = 0
const RECEIPT_WAIT_MS = 10_000

/** Transactions a chain dropped (neither pending nor mined) and that were sent again. */
let dropped = 0

/**
 * Polls for the receipt. With `resend`, a transaction the chain no longer knows (no receipt and
 * eth_getTransactionByHash null) is sent again: Anvil 1.7.1 now and then drops the transaction
 * sent right after an evm_revert and mines an empty block instead.
 */
async function receiptOf(chain: Chain, hash: unknown, resend?: () => Promise<unknown>): Promise<Receipt> {
  const deadline = now() + RECEIPT_WAIT_MS
  let polls = 0
  for (;;) {
    const receipt = (await chain.request('eth_getTransactionReceipt', [hash])) as Receipt | null
    if (receipt !== null) return receipt
    if (now() > deadline) fail(`no receipt for ${String(hash)} ${RECEIPT_WAIT_MS} ms after it was sent (automine)`)
    receiptRetries++
    polls++
    if (resend !== undefined && (await chain.request('eth_getTransactionByHash', [hash])) === null) {
      dropped++
      hash = await resend()
    }
    // A few immediate retries, then 1 ms apart: a tight loop of requests would take the CPU
    // (two cores) from the server that is sealing the block.
    if (polls < 20) await yieldTurn()
    else await sleep(1)
  }
}

/** eth_sendRawTransaction then its receipt, one after another; returns the elapsed ms. */
async function sendAll(chain: Chain, raws: readonly string[], label: string): Promise<{ ms: number; last: Receipt | undefined }> {
  let last: Receipt | undefined
  const t0 = now()
  for (const raw of raws) {
    last = await receiptOf(chain, await chain.request('eth_sendRawTransaction', [raw]))
    if (last.status !== '0x1') fail(`${label}: receipt status ${last.status}`)
  }
  return { ms: now() - t0, last }
}

async function blockNumber(chain: Chain): Promise<number> {
  return Number(BigInt((await chain.request('eth_blockNumber', [])) as string))
}

async function checkAccounts(chain: Chain, plan: Plan): Promise<void> {
  const got = ((await chain.request('eth_accounts', [])) as string[]).map((a) => a.toLowerCase())
  for (const a of plan.accounts) if (!got.includes(a.address.toLowerCase())) fail(`account ${a.address} not among eth_accounts`)
}

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc
  if (collect === undefined) fail('run with --expose-gc')
  collect()
  collect()
}

const mb = (bytes: number): number => bytes / 1024 / 1024

async function transfers(setup: ChainSetup, plan: Plan, contestant: Contestant): Promise<Figures> {
  const { chain, coldStartMs } = await open(contestant, setup)
  await checkAccounts(chain, plan)
  const { ethFirst, ethWarm, ethSteady } = plan.sizes
  const before = await blockNumber(chain)
  const first = await sendAll(chain, plan.eth.slice(0, ethFirst), 'ETH transfer')
  await sendAll(chain, plan.eth.slice(ethFirst, ethFirst + ethWarm), 'ETH transfer')
  const steady = await sendAll(chain, plan.eth.slice(ethFirst + ethWarm), 'ETH transfer')
  const mined = (await blockNumber(chain)) - before
  if (mined !== plan.eth.length) fail(`ETH transfers: ${mined} blocks for ${plan.eth.length} transactions`)
  await chain.close()
  return { coldStartMs, ethFirstTxPerSec: perSecond(ethFirst, first.ms), ethSteadyTxPerSec: perSecond(ethSteady, steady.ms) }
}

async function token(setup: ChainSetup, plan: Plan, contestant: Contestant): Promise<Figures> {
  const { chain } = await open(contestant, setup)
  const { erc20First, erc20Warm, erc20Steady, calls } = plan.sizes
  const deploy = await sendAll(chain, [plan.tokenDeploy], 'token deployment')
  if (deploy.last?.contractAddress?.toLowerCase() !== plan.tokenAddress.toLowerCase()) fail(`token at ${deploy.last?.contractAddress}, expected ${plan.tokenAddress}`)
  await sendAll(chain, plan.erc20Seed, 'ERC20 seeding')

  const logsFrom = await blockNumber(chain)
  const first = await sendAll(chain, plan.erc20.slice(0, erc20First), 'ERC20 transfer')
  const filter = { fromBlock: hex(logsFrom), toBlock: hex(logsFrom + erc20First), address: plan.tokenAddress, topics: [plan.transferTopic] }
  let t = now()
  const logs = (await chain.request('eth_getLogs', [filter])) as unknown[]
  const getLogsMs = now() - t
  if (logs.length !== erc20First + 1) fail(`eth_getLogs returned ${logs.length} logs, expected ${erc20First + 1}`)

  await sendAll(chain, plan.erc20.slice(erc20First, erc20First + erc20Warm), 'ERC20 transfer')
  const steady = await sendAll(chain, plan.erc20.slice(erc20First + erc20Warm), 'ERC20 transfer')

  const call = [{ to: plan.tokenAddress, data: plan.balanceOfData }, 'latest']
  const expected = (await chain.request('eth_call', call)) as string
  if (BigInt(expected) <= 0n) fail(`balanceOf answered ${expected}`)
  t = now()
  for (let i = 0; i < calls; i++) {
    if ((await chain.request('eth_call', call)) !== expected) fail(`eth_call #${i} changed its answer`)
  }
  const callsMs = now() - t

  gc()
  const memory = process.memoryUsage()
  const serverRss = chain.serverRssMb()
  await chain.close()
  return {
    deployMs: deploy.ms,
    erc20FirstTxPerSec: perSecond(erc20First, first.ms),
    getLogsMs,
    erc20SteadyTxPerSec: perSecond(erc20Steady, steady.ms),
    callsPerSec: perSecond(calls, callsMs),
    heapUsedMb: mb(memory.heapUsed),
    rssMb: serverRss ?? mb(memory.rss),
  }
}

async function controls(setup: ChainSetup, plan: Plan, contestant: Contestant): Promise<Figures> {
  const { chain } = await open(contestant, setup)
  const { cycles, mineBlocks } = plan.sizes
  const from = plan.accounts[0]!.address
  const to = plan.accounts[1]!.address
  let t = now()
  for (let i = 0; i < cycles; i++) {
    const id = await chain.request('evm_snapshot', [])
    const tx = { from, to, value: hex(i + 1), gas: '0x5208', maxFeePerGas: hex(10_000_000_000), maxPriorityFeePerGas: hex(1_000_000_000) }
    const send = (): Promise<unknown> => chain.request('eth_sendTransaction', [tx])
    const receipt = await receiptOf(chain, await send(), send)
    if (receipt.status !== '0x1') fail(`snapshot cycle #${i}: receipt status ${receipt.status}`)
    if ((await chain.request('evm_revert', [id])) !== true) fail(`evm_revert #${i} did not answer true`)
  }
  const cyclesMs = now() - t
  if ((await blockNumber(chain)) !== 0) fail('the snapshot cycles did not return to genesis')

  t = now()
  await chain.request(contestant === 'anvil' ? 'anvil_mine' : 'hardhat_mine', [hex(mineBlocks)])
  const mineMs = now() - t
  // The first read after it: a chain that defers the blocks' work (reserved ranges) would pay here.
  t = now()
  const latest = (await chain.request('eth_getBlockByNumber', ['latest', false])) as { number: string }
  const mineLatestMs = now() - t
  if (Number(BigInt(latest.number)) !== mineBlocks) fail(`the latest block after mining ${mineBlocks} is ${latest.number}`)
  await chain.close()
  return { wrappedPerSec: perSecond(cycles, cyclesMs), mineMs, mineLatestMs }
}

async function suite(setup: ChainSetup, plan: Plan, contestant: Contestant): Promise<Figures> {
  const t0 = now()
  const { chain } = await open(contestant, setup)
  await sendAll(chain, [plan.tokenDeploy], 'token deployment')
  await sendAll(chain, plan.suiteTransfers, 'ERC20 transfer')
  const call = [{ to: plan.tokenAddress, data: plan.balanceOfData }, 'latest']
  for (let i = 0; i < plan.sizes.suiteCalls; i++) await chain.request('eth_call', call)
  const logs = (await chain.request('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: plan.tokenAddress, topics: [plan.transferTopic] }])) as unknown[]
  const suiteMs = now() - t0
  if (logs.length !== plan.suiteTransfers.length + 1) fail(`suite: ${logs.length} Transfer logs, expected ${plan.suiteTransfers.length + 1}`)
  await chain.close()
  return { suiteMs }
}

const WORKLOADS: Record<Kind, (setup: ChainSetup, plan: Plan, contestant: Contestant) => Promise<Figures>> = { transfers, token, controls, suite }

const [kind, contestant, planPath] = process.argv.slice(2)
if (!(KINDS as readonly string[]).includes(kind ?? '') || !(CONTESTANTS as readonly string[]).includes(contestant ?? '') || planPath === undefined) {
  throw new Error(`usage: runner.mjs <${KINDS.join('|')}> <${CONTESTANTS.join('|')}> <plan.json>`)
}
const plan = JSON.parse(readFileSync(planPath, 'utf8')) as Plan
const paths = JSON.parse(process.env.CONTEST_PATHS ?? fail('CONTEST_PATHS not set')) as Paths
const setup: ChainSetup = { paths, chainId: plan.chainId, hardfork: plan.hardfork, balanceWei: plan.balanceWei, accounts: plan.accounts }
const figures = await WORKLOADS[kind as Kind](setup, plan, contestant as Contestant)
figures.receiptRetries = receiptRetries
figures.dropped = dropped
process.stdout.write(`CONTEST_RESULT ${JSON.stringify(figures)}\n`)
process.exit(0)
