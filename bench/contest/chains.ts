/**
 * The three contestants behind one small interface, each created the way its users get it:
 * finality's `createNode()` from the build in `dist/` (EIP-1193 `request`), EDR's own N-API
 * provider with no Hardhat layers (`handleRequest` of a JSON string), and the Anvil binary as a
 * process on 127.0.0.1 spoken to over HTTP JSON-RPC with a keep-alive agent.
 *
 * Runs in plain Node (bundled by `contest.ts`, no tsx): child processes of the contest and the
 * generated vitest files import it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { Agent, request as httpRequest } from 'node:http'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Contestant, PlanAccount } from './plan.js'

/** Where the contestants live on disk. */
export interface Paths {
  /** file: URL of finality's `dist/index.js`. */
  finalityUrl: string
  /** The bench's own folder with EDR and Anvil installed (`bench/contestants`). */
  contestantsDir: string
  /** The Anvil binary inside its npm platform package. */
  anvilBin: string
}

/** What a chain is created with: the same on every contestant. */
export interface ChainSetup {
  paths: Paths
  chainId: number
  hardfork: 'prague'
  balanceWei: string
  accounts: PlanAccount[]
}

export interface Chain {
  request(method: string, params?: readonly unknown[]): Promise<unknown>
  close(): Promise<void>
  /** The resident set of a server process of its own, MB (Anvil); undefined for in-process chains. */
  serverRssMb(): number | undefined
}

export interface Opened {
  chain: Chain
  /** From the start of `open` (module import or process spawn) to the first answer, ms. */
  coldStartMs: number
}

/** Creates a contestant's chain; the time covers its import (or spawn) and the first answered request. */
export async function open(contestant: Contestant, setup: ChainSetup): Promise<Opened> {
  const t0 = performance.now()
  const chain = contestant === 'finality' ? await openFinality(setup) : contestant === 'edr' ? await openEdr(setup) : await openAnvil(setup)
  await chain.request('eth_chainId', [])
  return { chain, coldStartMs: performance.now() - t0 }
}

class RpcFailure extends Error {}

// finality --------------------------------------------------------------------------------------

interface FinalityNode {
  request(args: { method: string; params?: readonly unknown[] }): Promise<unknown>
  close(): Promise<void>
}

async function openFinality(setup: ChainSetup): Promise<Chain> {
  const mod = (await import(setup.paths.finalityUrl)) as { createNode(): Promise<FinalityNode> }
  const node = await mod.createNode()
  return {
    request: (method, params = []) => node.request({ method, params }),
    close: () => node.close(),
    serverRssMb: () => undefined,
  }
}

// EDR -------------------------------------------------------------------------------------------

interface EdrResponse {
  readonly data: string | { result?: unknown; error?: { code: number; message: string } }
}
interface EdrProvider {
  handleRequest(request: string): Promise<EdrResponse>
}
/** The part of `@nomicfoundation/edr`'s index.d.ts used here. */
interface EdrModule {
  EdrContext: new () => {
    registerProviderFactory(chainType: string, factory: unknown): Promise<void>
    createProvider(chainType: string, config: unknown, logger: unknown, subscriptions: unknown, decoder: unknown): Promise<EdrProvider>
  }
  ContractDecoder: new () => unknown
  L1_CHAIN_TYPE: string
  l1ProviderFactory(): unknown
  l1GenesisState(hardfork: unknown): unknown[]
  l1HardforkFromString(name: string): unknown
  MineOrdering: { Priority: unknown }
}

const hexBytes = (hex: string): Uint8Array => Buffer.from(hex.replace(/^0x/, ''), 'hex')

/** Hardhat's default coinbase. */
const HARDHAT_COINBASE = '0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e'

async function openEdr(setup: ChainSetup): Promise<Chain> {
  const require = createRequire(path.join(setup.paths.contestantsDir, 'package.json'))
  const edr = require('@nomicfoundation/edr') as EdrModule
  const context = new edr.EdrContext()
  await context.registerProviderFactory(edr.L1_CHAIN_TYPE, edr.l1ProviderFactory())
  const balance = BigInt(setup.balanceWei)
  // The fields Hardhat 3 fills for its default in-process network: automine, no block interval,
  // chain id 31337, 30M block gas limit, 1 gwei initial base fee, the owned accounts funded at genesis.
  const config = {
    allowBlocksWithSameTimestamp: false,
    allowUnlimitedContractSize: false,
    bailOnCallFailure: false,
    bailOnTransactionFailure: false,
    chainId: BigInt(setup.chainId),
    coinbase: hexBytes(HARDHAT_COINBASE),
    defaultTransactionGasLimit: 30_000_000n,
    genesisState: [
      ...edr.l1GenesisState(edr.l1HardforkFromString(setup.hardfork)),
      ...setup.accounts.map((a) => ({ address: hexBytes(a.address), balance })),
    ],
    hardfork: setup.hardfork,
    initialBaseFeePerGas: 1_000_000_000n,
    minGasPrice: 0n,
    mining: { autoMine: true, blockGasLimit: 30_000_000n, memPool: { order: edr.MineOrdering.Priority } },
    network: { genesisBlockGasLimit: 30_000_000n },
    networkId: BigInt(setup.chainId),
    observability: {},
    ownedAccounts: setup.accounts.map((a) => a.privateKey),
    precompileOverrides: [],
  }
  const logger = { enable: false, decodeConsoleLogInputsCallback: () => [], printLineCallback: () => {} }
  const provider = await context.createProvider(edr.L1_CHAIN_TYPE, config, logger, { subscriptionCallback: () => {} }, new edr.ContractDecoder())
  let id = 0
  return {
    async request(method, params = []) {
      const response = await provider.handleRequest(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }))
      const body = typeof response.data === 'string' ? (JSON.parse(response.data) as { result?: unknown; error?: { message: string } }) : response.data
      if (body.error !== undefined) throw new RpcFailure(`EDR ${method}: ${body.error.message}`)
      return body.result
    },
    close: async () => {},
    serverRssMb: () => undefined,
  }
}

// Anvil -----------------------------------------------------------------------------------------

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

function post(port: number, agent: Agent, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path: '/', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (d: string) => (text += d))
        res.on('end', () => resolve(text))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

function rssMbOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined
  try {
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb === undefined ? undefined : Number(kb) / 1024
  } catch {
    return undefined
  }
}

async function openAnvil(setup: ChainSetup): Promise<Chain> {
  const port = await freePort()
  const args = ['--host', '127.0.0.1', '--port', String(port), '--accounts', String(setup.accounts.length)]
  args.push('--balance', String(BigInt(setup.balanceWei) / 10n ** 18n), '--chain-id', String(setup.chainId), '--hardfork', setup.hardfork, '--quiet')
  // Anvil writes older states to disk (~80 MB per 1,000 blocks) under ~/.foundry/anvil/tmp and
  // leaves them there when it exits: a folder of ours, removed at close.
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'finality-contest-anvil-'))
  args.push('--cache-path', cacheDir)
  const child: ChildProcess = spawn(setup.paths.anvilBin, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  let exited = false
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())))
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  let id = 0
  const request = async (method: string, params: readonly unknown[] = []): Promise<unknown> => {
    const text = await post(port, agent, JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }))
    const body = JSON.parse(text) as { result?: unknown; error?: { message: string } }
    if (body.error !== undefined) throw new RpcFailure(`Anvil ${method}: ${body.error.message}`)
    return body.result
  }
  // Up when it answers: poll the port (a refused connection costs microseconds).
  const deadline = performance.now() + 20_000
  for (;;) {
    if (exited) throw new Error(`anvil exited before answering: ${stderr.trim()}`)
    try {
      await request('eth_chainId')
      break
    } catch (error) {
      if (error instanceof RpcFailure || performance.now() > deadline) throw error
      await sleep(2)
    }
  }
  return {
    request,
    async close() {
      agent.destroy()
      if (!exited) {
        child.kill('SIGTERM')
        await exit
      }
      rmSync(cacheDir, { recursive: true, force: true })
    },
    serverRssMb: () => rssMbOf(child.pid),
  }
}
