/**
 * The two sides of the differential run: Hardhat Network's own in-process provider (EDR, made the
 * way Hardhat 2.29.1 makes it for `--network hardhat`, without a project) and a finality node in
 * Hardhat mode, configured alike: Hardhat's default network settings (mnemonic, 20 accounts of
 * 10,000 ETH, chain id 31337, a 60M block gas limit, a 1 gwei initial base fee, osaka), and the
 * same genesis date.
 */
import { createRequire } from 'node:module'
import { createNode, type Clock, type FinalityNode } from '../../src/index.js'

const require = createRequire(import.meta.url)

/** What a request answered: its result, or its error's code, message and data. */
export type Answer = { result: unknown } | { error: AnswerError }

/** A thrown error's code, message, data and any other own field (Hardhat's `transactionHash`, finality's `txHash`). */
export interface AnswerError {
  code?: unknown
  message: string
  data?: unknown
  [field: string]: unknown
}

/** Fields of a thrown error that are the thrower's own business, not the answer. */
const NOT_ANSWER = new Set(['stack', '_stack', 'name', '_isProviderError', 'parent', 'cause'])

/** One side of the comparison. */
export interface Side {
  readonly name: 'hardhat' | 'finality'
  request(method: string, params: unknown[]): Promise<Answer>
  close(): Promise<void>
}

/**
 * Where answers are taken: `wire`, the JSON-RPC response each node's server sends (Hardhat's
 * `JsonRpcHandler`, what `hardhat node` answers over HTTP; finality's `node.handle`, what
 * `npx finality --hardhat` answers); `provider`, what each in-process EIP-1193 provider resolves
 * or throws (Hardhat's provider for `--network hardhat`; finality's `node.provider`).
 */
export type Mode = 'wire' | 'provider'

/** The chain both sides start from. */
export interface SideConfig {
  mode: Mode
  /** The genesis block's date; later blocks follow the wall clock from it, as on Hardhat. */
  initialDate: Date
  /** Hardhat's `allowUnlimitedContractSize` (the recorded project deploys past EIP-170). */
  allowUnlimitedContractSize: boolean
}

/** Hardhat 2.29's defaults for its own network, the values both sides run with. */
export const HARDHAT_DEFAULTS = {
  hardfork: 'osaka',
  chainId: 31337,
  blockGasLimit: 60_000_000,
  initialBaseFeePerGas: 1_000_000_000,
} as const

interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>
}

async function answer(provider: Eip1193, method: string, params: unknown[]): Promise<Answer> {
  try {
    return { result: await provider.request({ method, params }) }
  } catch (e) {
    const error = e as Record<string, unknown>
    const out: AnswerError = { message: String(error.message) }
    for (const key of Object.keys(error)) if (!NOT_ANSWER.has(key) && error[key] !== undefined) out[key] = error[key]
    if (error.code !== undefined) out.code = error.code
    if (error.data !== undefined) out.data = error.data
    return { error: out }
  }
}

/** A JSON-RPC response as an answer. */
function wireAnswer(response: Record<string, unknown>): Answer {
  if ('error' in response) return { error: response.error as AnswerError }
  return { result: response.result }
}

/** Hardhat Network's provider, created as Hardhat's `createProvider` does for `--network hardhat`. */
export async function hardhatSide(config: SideConfig): Promise<Side> {
  const { createHardhatNetworkProvider } = require('hardhat/internal/hardhat-network/provider/provider') as {
    createHardhatNetworkProvider(config: unknown, logger: { enabled: boolean }): Promise<Eip1193>
  }
  const { normalizeHardhatNetworkAccountsConfig } = require('hardhat/internal/core/providers/util') as {
    normalizeHardhatNetworkAccountsConfig(accounts: unknown): unknown[]
  }
  const defaults = require('hardhat/internal/core/config/default-config') as {
    defaultHardhatNetworkParams: { chains: unknown }
    defaultHardhatNetworkHdAccountsConfigParams: unknown
  }
  const provider = await createHardhatNetworkProvider(
    {
      hardfork: HARDHAT_DEFAULTS.hardfork,
      chainId: HARDHAT_DEFAULTS.chainId,
      networkId: HARDHAT_DEFAULTS.chainId,
      blockGasLimit: HARDHAT_DEFAULTS.blockGasLimit,
      minGasPrice: 0n,
      automine: true,
      intervalMining: 0,
      mempoolOrder: 'priority',
      chains: defaults.defaultHardhatNetworkParams.chains,
      genesisAccounts: normalizeHardhatNetworkAccountsConfig(defaults.defaultHardhatNetworkHdAccountsConfigParams),
      allowUnlimitedContractSize: config.allowUnlimitedContractSize,
      throwOnTransactionFailures: true,
      throwOnCallFailures: true,
      allowBlocksWithSameTimestamp: false,
      initialBaseFeePerGas: HARDHAT_DEFAULTS.initialBaseFeePerGas,
      initialDate: config.initialDate,
      enableTransientStorage: false,
      enableRip7212: false,
    },
    { enabled: false },
  )
  if (config.mode === 'provider') return { name: 'hardhat', request: (method, params) => answer(provider, method, params), close: async () => {} }
  const { JsonRpcHandler } = require('hardhat/internal/hardhat-network/jsonrpc/handler') as {
    JsonRpcHandler: new (provider: Eip1193) => { _handleSingleRequest(req: unknown): Promise<Record<string, unknown>> }
  }
  const handler = new JsonRpcHandler(provider)
  let id = 0
  return {
    name: 'hardhat',
    request: async (method, params) => wireAnswer(await handler._handleSingleRequest({ jsonrpc: '2.0', id: ++id, method, params })),
    close: async () => {},
  }
}

/**
 * A clock that starts at `date` and runs with the wall clock, as Hardhat's `initialDate` does:
 * finality's `genesisTimestamp` dates the genesis only, so the clock is what moves later blocks.
 */
function clockFrom(date: Date): Clock {
  const offset = date.getTime() - Date.now()
  return {
    now: () => Date.now() + offset,
    setTimer: (fn, ms) => {
      const t = setTimeout(fn, ms)
      t.unref()
      return () => clearTimeout(t)
    },
  }
}

/** A finality node in Hardhat mode with Hardhat Network's settings, through its EIP-1193 provider. */
export async function finalitySide(config: SideConfig): Promise<Side & { node: FinalityNode }> {
  const node = await createNode({
    hardhatCompat: true,
    hardfork: HARDHAT_DEFAULTS.hardfork,
    chainId: HARDHAT_DEFAULTS.chainId,
    blockGasLimit: BigInt(HARDHAT_DEFAULTS.blockGasLimit),
    initialBaseFee: BigInt(HARDHAT_DEFAULTS.initialBaseFeePerGas),
    allowUnlimitedContractSize: config.allowUnlimitedContractSize,
    genesisTimestamp: BigInt(Math.floor(config.initialDate.getTime() / 1000)),
    clock: clockFrom(config.initialDate),
  })
  return {
    name: 'finality',
    node,
    request:
      config.mode === 'provider'
        ? (method, params) => answer(node.provider, method, params)
        : async (method, params) => wireAnswer((await node.handle({ jsonrpc: '2.0', id: 1, method, params })) as unknown as Record<string, unknown>),
    close: () => node.close(),
  }
}
