/**
 * EDR's recorded request streams (its `js/benchmark/scenarios`, MIT-licensed, not part of this
 * repository): `<suite>.jsonl.gz` holds one line of EDR provider config, then every JSON-RPC
 * request the suite's tests sent, in order; `snapshot.json` names, per suite, the indexes of the
 * requests that fail on EDR (index 0 is the first request after the config line).
 *
 * This file reads them and maps the config line onto the two providers replayed: finality's
 * `createNode` options and the Hardhat 2 network config that `createHardhatNetworkProvider`
 * turns into an EDR provider (what EDR's own benchmark does).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { gunzipSync } from 'node:zlib'

/** Where the scenario files are read from: `FINALITY_REPLAY_SCENARIOS`, else `bench/.scenarios`. */
export function scenariosDir(root: string): string {
  return path.resolve(process.env.FINALITY_REPLAY_SCENARIOS ?? path.join(root, 'bench', '.scenarios'))
}

export interface ScenarioFile {
  /** `safe-contracts_914d0f8`: the file name without `.jsonl.gz`, the key in snapshot.json. */
  name: string
  file: string
}

/**
 * The usable scenarios in `dir`, sorted by name. A file that is not gzip (a Git LFS pointer left
 * by a checkout without LFS) is left out and named in `skipped`.
 */
export function listScenarios(dir: string): { scenarios: ScenarioFile[]; skipped: string[] } {
  if (!existsSync(dir)) return { scenarios: [], skipped: [] }
  const scenarios: ScenarioFile[] = []
  const skipped: string[] = []
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith('.jsonl.gz')) continue
    const file = path.join(dir, f)
    const head = readFileSync(file).subarray(0, 2)
    if (head[0] === 0x1f && head[1] === 0x8b) scenarios.push({ name: f.slice(0, -'.jsonl.gz'.length), file })
    else skipped.push(f)
  }
  return { scenarios, skipped }
}

export interface RecordedRequest {
  method: string
  params?: unknown[]
}

/** The part of EDR's serialized provider config the replay reads. */
export interface RecordedConfig {
  allowBlocksWithSameTimestamp: boolean
  allowUnlimitedContractSize: boolean
  bailOnCallFailure: boolean
  bailOnTransactionFailure: boolean
  chainId: number
  coinbase: `0x${string}`
  defaultTransactionGasLimit: number
  genesisState: Record<string, { balance: string | null; nonce: string | null; code: string | null; storage: unknown }>
  hardfork: string
  initialBaseFeePerGas: string | number | null
  minGasPrice: string
  mining: { autoMine: boolean; blockGasLimit: number; interval: unknown; memPool: { order: string } }
  network: { Local?: { genesisBlockTime?: string | null; genesisBlockGasLimit?: number } }
  networkId: number
  ownedAccounts: `0x${string}`[]
}

export interface Scenario {
  config: RecordedConfig
  requests: RecordedRequest[]
}

export function loadScenario(file: string): Scenario {
  const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n').filter((l) => l !== '')
  const first = JSON.parse(lines[0]!) as { providerConfig: RecordedConfig }
  return { config: first.providerConfig, requests: lines.slice(1).map((l) => JSON.parse(l) as RecordedRequest) }
}

/** snapshot.json: the failing request indexes per suite, or undefined when the file is absent. */
export function loadSnapshot(dir: string): Record<string, number[]> | undefined {
  const file = path.join(dir, 'snapshot.json')
  if (!existsSync(file)) return undefined
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { failures: number[] }>
  return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, v.failures]))
}

/** The genesis time of the recorded chain, ms since the epoch, when the config names one. */
export function genesisTimeMs(config: RecordedConfig): number | undefined {
  const t = config.network.Local?.genesisBlockTime
  return t === undefined || t === null ? undefined : Date.parse(t)
}

/** `Cancun` → `cancun`, `Gray Glacier` → `grayGlacier` (ethereumjs's and finality's names). */
export function hardforkName(edrName: string): string {
  const words = edrName.split(/\s+/)
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase())).join('')
}

const balanceOf = (config: RecordedConfig, address: string): bigint => BigInt(config.genesisState[address.toLowerCase()]?.balance ?? 0)

/**
 * finality's options for the recorded config, before unknown names are dropped (`coinbase`,
 * `minGasPrice`, `initialDate` exist only from a later version on: the replay asks createNode
 * which names it knows, and maps `initialDate` onto a shifted `clock` where it does not).
 * `addressOf` derives an owned account's address from its key.
 */
export function finalityOptions(config: RecordedConfig, addressOf: (key: `0x${string}`) => string): Record<string, unknown> {
  const options: Record<string, unknown> = {
    hardhatCompat: true,
    chainId: config.chainId,
    hardfork: hardforkName(config.hardfork),
    blockGasLimit: BigInt(config.mining.blockGasLimit),
    allowUnlimitedContractSize: config.allowUnlimitedContractSize,
    throwOnTransactionFailures: config.bailOnTransactionFailure,
    throwOnCallFailures: config.bailOnCallFailure,
    accounts: config.ownedAccounts.map((privateKey) => ({ privateKey, balance: balanceOf(config, addressOf(privateKey)) })),
    mining: config.mining.autoMine ? { mode: 'auto' } : { mode: 'manual' },
    coinbase: config.coinbase,
    minGasPrice: BigInt(config.minGasPrice),
  }
  if (config.initialBaseFeePerGas !== null) options.initialBaseFee = BigInt(config.initialBaseFeePerGas)
  const genesis = config.network.Local?.genesisBlockTime
  if (genesis !== undefined && genesis !== null) options.initialDate = genesis
  return options
}

/** Recorded settings finality has no option for (or needs none for), with why. */
export function unmappedSettings(config: RecordedConfig): string[] {
  const out: string[] = []
  if (config.allowBlocksWithSameTimestamp) out.push('allowBlocksWithSameTimestamp: true')
  if (config.networkId !== config.chainId) out.push(`networkId ${config.networkId} (not the chain id)`)
  if (config.mining.interval !== null) out.push('mining.interval')
  if (config.mining.memPool.order !== 'Priority') out.push(`memPool.order ${config.mining.memPool.order}`)
  return out
}

/** The Hardhat 2 network config EDR's benchmark builds from the same line. */
export function hardhatConfig(config: RecordedConfig, addressOf: (key: `0x${string}`) => string): Record<string, unknown> {
  const genesis = genesisTimeMs(config)
  return {
    allowBlocksWithSameTimestamp: config.allowBlocksWithSameTimestamp,
    allowUnlimitedContractSize: config.allowUnlimitedContractSize,
    automine: config.mining.autoMine,
    blockGasLimit: BigInt(config.defaultTransactionGasLimit),
    chainId: config.chainId,
    chains: new Map(),
    coinbase: config.coinbase,
    enableRip7212: false,
    genesisAccounts: config.ownedAccounts.map((privateKey) => ({ privateKey, balance: balanceOf(config, addressOf(privateKey)) })),
    hardfork: hardforkName(config.hardfork),
    initialBaseFeePerGas: config.initialBaseFeePerGas === null ? undefined : BigInt(config.initialBaseFeePerGas),
    initialDate: genesis === undefined ? undefined : new Date(genesis),
    intervalMining: 0,
    mempoolOrder: config.mining.memPool.order.toLowerCase(),
    minGasPrice: BigInt(config.minGasPrice),
    networkId: config.networkId,
    throwOnCallFailures: config.bailOnCallFailure,
    throwOnTransactionFailures: config.bailOnTransactionFailure,
  }
}

/**
 * The same line as `@nomicfoundation/edr`'s own provider config (its `ProviderConfig`, created
 * through `EdrContext.createProvider` with no Hardhat layer), minus the genesis state's system
 * contracts, which the caller adds with EDR's `l1GenesisState(hardfork)`. An unset initial base
 * fee is Hardhat's default for a local network, 1 gwei.
 */
export function edrProviderConfig(config: RecordedConfig, memPoolOrder: (order: string) => unknown): Record<string, unknown> {
  const hex = (h: string): Uint8Array => Buffer.from(h.replace(/^0x/, ''), 'hex')
  const genesis = genesisTimeMs(config)
  const local = config.network.Local
  return {
    allowBlocksWithSameTimestamp: config.allowBlocksWithSameTimestamp,
    allowUnlimitedContractSize: config.allowUnlimitedContractSize,
    bailOnCallFailure: config.bailOnCallFailure,
    bailOnTransactionFailure: config.bailOnTransactionFailure,
    chainId: BigInt(config.chainId),
    coinbase: hex(config.coinbase),
    defaultTransactionGasLimit: BigInt(config.defaultTransactionGasLimit),
    genesisState: Object.entries(config.genesisState).map(([address, a]) => ({
      address: hex(address),
      ...(a.balance !== null ? { balance: BigInt(a.balance) } : {}),
      ...(a.nonce !== null ? { nonce: BigInt(a.nonce) } : {}),
      ...(a.code !== null ? { code: hex(a.code) } : {}),
    })),
    hardfork: hardforkName(config.hardfork).toLowerCase(),
    initialBaseFeePerGas: BigInt(config.initialBaseFeePerGas ?? 1_000_000_000),
    minGasPrice: BigInt(config.minGasPrice),
    mining: { autoMine: config.mining.autoMine, blockGasLimit: BigInt(config.mining.blockGasLimit), memPool: { order: memPoolOrder(config.mining.memPool.order) } },
    network: {
      genesisBlockGasLimit: BigInt(local?.genesisBlockGasLimit ?? config.mining.blockGasLimit),
      ...(genesis !== undefined ? { genesisBlockTime: BigInt(Math.floor(genesis / 1000)) } : {}),
    },
    networkId: BigInt(config.networkId),
    observability: {},
    ownedAccounts: config.ownedAccounts,
    precompileOverrides: [],
  }
}
