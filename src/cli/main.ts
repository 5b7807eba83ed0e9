/**
 * `finality`: starts a node and serves it over HTTP (127.0.0.1:8545) and WebSocket
 * (127.0.0.1:8546), prints the chain id, the endpoints and the prefunded accounts with their keys,
 * logs each request compactly, and closes cleanly on Ctrl-C.
 */
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openDatabase } from './database.js'
import { isLoopback } from '../adapters/auth.js'
import { createNode, type FinalityNode } from '../node.js'
import { parseAddress, type Listening } from '../adapters/listen.js'
import { DEFAULT_MNEMONIC } from '../accounts/accounts.js'
import { VERSION } from '../version.js'
import { formatEther } from '../log/format.js'
import { consensusTime, defaultApi, helpText, parseCli, type CliConfig } from './config.js'
import { create2DeployerAlloc } from './create2-deployer.js'
import { appCommand, devnetCommand } from './network.js'


/** The settings that shape only a new chain; a resumed database keeps its own. */
const GENESIS_SETTINGS = ['balance', 'hardfork', 'genesis']

interface Shown {
  balances: bigint[]
  /** Block number of a resumed database, undefined for a new chain. */
  resumedAt: bigint | undefined
  api: { http: string[]; ws: string[] }
  /** The state file the chain started from, and the one written at exit, if any. */
  stateFrom: string | undefined
  stateTo: string | undefined
  /** What the node forked (finality_forkStatus), if anything. */
  fork: { remote: string; blockNumber: bigint; blockHash: string; chainId: bigint } | undefined
}

function banner(node: FinalityNode, c: CliConfig, served: Listening | undefined, shown: Shown): string {
  const lines = [
    `finality v${VERSION}`,
    '',
    `Chain id: ${node.chainId} (0x${node.chainId.toString(16)})`,
    `Mining:   ${c.noMining ? 'on request (--no-mining)' : c.blockTime > 0 ? `every ${c.blockTime}s` : 'automine'}`,
    ...(c.hardhat ? ['Hardhat:  compatible (--hardhat)'] : []),
    ...(c.cosmos !== undefined ? ['Cosmos:   Cosmos EVM precompiles (--profile cosmos-evm)'] : []),
    ...(c.anvil ? ['Anvil:    defaults (--anvil)'] : []),
    ...(shown.stateFrom === undefined ? [] : [`State:    loaded from ${shown.stateFrom}`]),
    ...(shown.stateTo === undefined ? [] : [`State:    written to ${shown.stateTo} at exit`]),
    ...(shown.fork === undefined ? [] : [`Fork:     ${shown.fork.remote} at block ${shown.fork.blockNumber} (${shown.fork.blockHash}), remote chain id ${shown.fork.chainId}`]),
    `Validators: ${node.validators.length}${node.validators.length > 1 ? (consensusTime(c) === 'clock' ? ' (round time-outs on the wall clock)' : ' (rounds on consensus time: time-outs are not waited for)') : ''}`,
  ]
  if (shown.resumedAt !== undefined) {
    lines.push(`Database: ${c.db} (resumed at block ${shown.resumedAt})`)
    const ignored = GENESIS_SETTINGS.filter((k) => c.given.has(k))
    if (ignored.length > 0) {
      lines.push(`Note: ${ignored.map((k) => `--${k}`).join(', ')} shape only a new chain and do not apply to the resumed one; to start anew, give --db another directory (or delete this one)`)
    }
  }
  lines.push(
    '',
    'Available Accounts',
    '==================',
    // The balances the chain holds now (a resumed chain's, not --balance).
    ...node.accounts.map((a, i) => `(${i}) ${a.address} (${formatEther(shown.balances[i] ?? 0n)} ETH)`),
    '',
    'Private Keys',
    '==================',
    ...node.accounts.map((a, i) => `(${i}) ${a.privateKey}`),
    '',
    'Wallet',
    '==================',
    `Mnemonic:        ${c.mnemonic ?? DEFAULT_MNEMONIC}`,
    `Derivation path: m/44'/60'/0'/0/`,
    '',
    shown.api.http.join(',') === shown.api.ws.join(',') ? `Namespaces: ${shown.api.http.join(',')}` : `Namespaces: HTTP ${shown.api.http.join(',')}; WebSocket ${shown.api.ws.join(',')}`,
  )
  if (served?.http !== undefined) lines.push(`HTTP listening on ${served.http}`, `Explorer: open ${served.http}/ in a browser`)
  if (served?.ws !== undefined) lines.push(`WebSocket listening on ${served.ws}`)
  if (served === undefined) lines.push('JSON-RPC is off (--json-rpc.enable false)')
  return `${lines.join('\n')}\n`
}

/** Colours only on a terminal, and never with NO_COLOR set (no-color.org: any non-empty value). */
function useColor(): boolean {
  return process.stdout.isTTY === true && (process.env.NO_COLOR ?? '') === ''
}

/** Anvil's rule for a state path: a directory means `<dir>/state.json`. */
function stateFile(path: string): string {
  return existsSync(path) && statSync(path).isDirectory() ? join(path, 'state.json') : path
}

/** The state to start from: `--load-state` (must exist) or `--state` (when it exists). */
function initialState(c: CliConfig): { from: string; state: unknown } | undefined {
  const file = c.loadState ?? (c.state !== undefined && existsSync(stateFile(c.state)) ? c.state : undefined)
  if (file === undefined) return undefined
  const from = stateFile(file)
  let text: string
  try {
    text = readFileSync(from, 'utf8')
  } catch (error) {
    throw new Error(`cannot read the state file ${from} (--${c.loadState === undefined ? 'state' : 'load-state'}): ${(error as Error).message}`)
  }
  try {
    return { from, state: JSON.parse(text) as unknown }
  } catch {
    throw new Error(`the state file ${from} is not JSON: want a dump written by --dump-state, node.dumpState() or Anvil's --dump-state`)
  }
}

/** Runs the command line; resolves to a function that stops it. */
export async function main(argv: string[]): Promise<() => Promise<void>> {
  // The chain behind CometBFT (docs/devnet.md): commands of their own, with flags of their own.
  if (argv[0] === 'devnet') return devnetCommand(argv.slice(1), (line) => process.stdout.write(`${line}\n`))
  if (argv[0] === 'app') return appCommand(argv.slice(1), (line) => process.stdout.write(`${line}\n`))
  const c = parseCli(argv)
  if (c.help) {
    process.stdout.write(helpText())
    return async () => {}
  }
  if (c.version) {
    process.stdout.write(`finality ${VERSION}\n`)
    return async () => {}
  }
  const loaded = initialState(c)
  const dumpTo = c.dumpState ?? c.state
  const resuming = c.db !== undefined && existsSync(join(c.db, 'CURRENT'))
  const db = c.db === undefined ? undefined : await openDatabase(c.db)
  const deployer = create2DeployerAlloc(c)
  const node = await createNode({
    // A genesis file names its own chain id; a database resumes under its own unless one is given.
    ...(c.genesis === undefined && c.chainId !== undefined ? { chainId: c.chainId } : {}),
    validators: c.validators,
    ...(c.cosmos === undefined ? {} : { cosmos: c.cosmos }),
    consensus: { ...(Object.keys(c.consensusTimeouts).length === 0 ? {} : { timeouts: c.consensusTimeouts }), time: consensusTime(c) },
    accountCount: c.accounts,
    balance: c.balance,
    ...(c.mnemonic === undefined ? {} : { mnemonic: c.mnemonic }),
    ...(c.hardfork === undefined ? {} : { hardfork: c.hardfork }),
    ...(c.genesis === undefined ? {} : { genesis: JSON.parse(readFileSync(c.genesis, 'utf8')) as unknown }),
    ...(deployer === undefined ? {} : { alloc: deployer }),
    ...(db === undefined ? {} : { db }),
    ...(c.forkUrl === undefined
      ? {}
      : { fork: { url: c.forkUrl, ...(c.forkBlockNumber === undefined ? {} : { blockNumber: c.forkBlockNumber }), ...(c.forkHeaders === undefined ? {} : { headers: c.forkHeaders }), ...(c.forkCacheDir === undefined ? {} : { cacheDir: c.forkCacheDir }), ...(c.forkHistoryEntries === undefined ? {} : { historyEntries: c.forkHistoryEntries }), ...(c.forkWalkFetches === undefined ? {} : { walkFetches: c.forkWalkFetches }) } }),
    ...(c.hardhat ? { hardhatCompat: true } : {}),
    ...(c.artifacts.length === 0 ? {} : { artifacts: c.artifacts }),
    ...(c.throwOnTransactionFailures === undefined ? {} : { throwOnTransactionFailures: c.throwOnTransactionFailures }),
    ...(c.throwOnCallFailures === undefined ? {} : { throwOnCallFailures: c.throwOnCallFailures }),
    ...(c.allowUnlimitedContractSize ? { allowUnlimitedContractSize: true } : {}),
    ...(c.codeSizeLimit === undefined ? {} : { codeSizeLimit: c.codeSizeLimit }),
    ...(c.enableProfiling ? { enableProfiling: true } : {}),
    ...(c.profilingDir === undefined ? {} : { profilingDir: c.profilingDir }),
    mining: c.noMining ? { mode: 'manual' } : c.blockTime > 0 ? { mode: 'interval', blockTime: Math.round(c.blockTime * 1000) } : { mode: 'auto' },
    limits: { rpcGasCap: c.rpcGasCap, maxOpenConnections: c.maxOpenConnections, rpcEvmTimeoutMs: c.rpcEvmTimeoutMs, ...(c.httpKeepAliveMs === undefined ? {} : { httpKeepAliveMs: c.httpKeepAliveMs }) },
    ...(c.blockGasLimit === undefined ? {} : { blockGasLimit: c.blockGasLimit }),
    ...(c.sendTransactionGas === undefined ? {} : { sendTransactionGas: c.sendTransactionGas }),
    ...(c.gasPrice === undefined ? {} : { sendTransactionGasPrice: c.gasPrice }),
    ...(c.initialBaseFee === undefined ? {} : { initialBaseFee: c.initialBaseFee }),
    ...(c.initialDate === undefined ? {} : { initialDate: c.initialDate }),
    ...(c.genesisTimestamp === undefined ? {} : { genesisTimestamp: c.genesisTimestamp }),
    ...(c.coinbase === undefined ? {} : { coinbase: c.coinbase }),
    ...(c.minGasPrice === undefined ? {} : { minGasPrice: c.minGasPrice }),
    ...(c.order === undefined ? {} : { txpool: { order: c.order } }),
    ...(loaded === undefined ? {} : { state: loaded.state }),
    // The log of requests, transactions, blocks and consensus (src/log), console.log lines among
    // them; with --quiet none, and Solidity console.log lines alone, as Hardhat prints them.
    ...(c.quiet
      ? { onConsoleLog: c.disableConsoleLog ? false : (message: string) => process.stdout.write(`console.log: ${message}\n`) }
      : {
          onConsoleLog: false,
          onLog: (entry: { type: string }, line: string) => {
            if (!(c.disableConsoleLog && entry.type === 'console')) process.stdout.write(`${line}\n`)
          },
          logColor: useColor(),
        }),
  })
  if (c.autoImpersonate) await node.request({ method: 'anvil_autoImpersonateAccount', params: [true] })
  let served: Listening | undefined
  const api = { http: c.api ?? defaultApi(c.address, isLoopback, c.hardhat, c.anvil), ws: c.api ?? defaultApi(c.wsAddress, isLoopback, c.hardhat, c.anvil) }
  try {
    if (c.enable) {
      // One server for both when the WebSocket follows the HTTP address (--port / --host, or an
      // HTTP port of 0 without --json-rpc.ws-address): listen()'s port/host form.
      const one = c.wsAddress === c.address && !c.given.has('json-rpc.ws-address') ? parseAddress(c.address) : undefined
      served = await node.listen({
        ...(one === undefined ? { address: c.address, wsAddress: c.wsAddress } : { host: one.host, port: one.port }),
        api: api.http,
        wsApi: api.ws,
        ...(c.cors === undefined ? {} : { cors: c.cors, origins: c.cors }),
        ...(c.hosts === undefined ? {} : { hosts: c.hosts }),
        ...(c.jwtSecret === undefined ? {} : { jwtSecret: c.jwtSecret }),
        // The explorer page for browsers at the HTTP address (docs/explorer.md).
        explorer: true,
      })
    }
  } catch (error) {
    await node.close()
    throw error
  }
  const balances = await Promise.all(
    node.accounts.map(async (a) => BigInt((await node.request({ method: 'eth_getBalance', params: [a.address, 'latest'] })) as string)),
  )
  const resumedAt = resuming ? BigInt((await node.request({ method: 'eth_blockNumber' })) as string) : undefined
  const status = (await node.request({ method: 'finality_forkStatus' })) as { remote: string; forkBlockNumber: string; forkBlockHash: string; chainId: string } | null
  const fork = status === null ? undefined : { remote: status.remote, blockNumber: BigInt(status.forkBlockNumber), blockHash: status.forkBlockHash, chainId: BigInt(status.chainId) }
  process.stdout.write(banner(node, c, served, { balances, resumedAt, api, fork, stateFrom: loaded?.from, stateTo: dumpTo === undefined ? undefined : stateFile(dumpTo) }))
  // Written beside and renamed over: a reader (or a crash) never sees half a file.
  const writeState = () => {
    if (dumpTo === undefined) return
    const file = stateFile(dumpTo)
    writeFileSync(`${file}.tmp`, `${JSON.stringify(node.dumpState())}\n`)
    renameSync(`${file}.tmp`, file)
  }
  // Anvil's --state-interval: the file kept current while running, not only at exit.
  const timer = c.stateInterval === undefined ? undefined : setInterval(() => {
    try {
      writeState()
    } catch (error) {
      process.stderr.write(`cannot write the state file: ${(error as Error).message}\n`)
    }
  }, c.stateInterval * 1000)
  timer?.unref()
  let stopping: Promise<void> | undefined
  return () =>
    (stopping ??= (async () => {
      clearInterval(timer)
      await served?.close()
      try {
        // Anvil's --dump-state / --state: the state at exit, in the form both load.
        writeState()
      } finally {
        await node.close()
      }
    })())
}
