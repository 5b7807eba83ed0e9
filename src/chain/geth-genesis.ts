/**
 * geth-format genesis files (`genesis.json`, the file Anvil's `--init` takes): chain id, fork
 * schedule, genesis header fields and `alloc` with balances, nonces, code and storage.
 */
import type { Block, HeaderData } from '@ethereumjs/block'
import { type ChainConfig, type Common, type GethGenesis, createCommonFromGethGenesis, parseGethGenesis as parseGethConfig } from '@ethereumjs/common'
import type { NodeCommon } from '../execution/engine/common.js'
import { KECCAK256_RLP } from '@ethereumjs/util'
import { fromHex } from '../hex.js'
import { NodeStore } from '../state/node-store.js'
import { StateTrie } from '../state/state-trie.js'
import { FlatState } from '../state/flat-state.js'
import { emptyDiff, type StateDiff } from '../state/types.js'
import { checkChainId, createChainCommon } from './common.js'
import { genesisBlock, putAccount } from './genesis.js'

/** What a genesis file describes, ready for a node. */
export interface GenesisSpec {
  chainId: bigint
  /** The hardfork active at the genesis block. */
  hardfork: string
  /** Forks the schedule activates after genesis, by name. */
  laterForks: string[]
  /** A Common fixed at the genesis hardfork, with the file's chain configuration. */
  common: NodeCommon
  /** The whole schedule, for picking each block's hardfork. */
  schedule: Common
  /** The file's chain configuration. */
  config: ChainConfig
  /** The hardfork of blocks made now (the newest the schedule reaches). */
  headHardfork: string
  header: HeaderData
  alloc: StateDiff
}

function quantity(v: unknown, what: string): bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v)
  if (typeof v === 'string' && /^0x[0-9a-fA-F]+$/.test(v)) return BigInt(v)
  if (typeof v === 'string' && /^[0-9]+$/.test(v)) return BigInt(v)
  throw new Error(`genesis: ${what} is not a number: ${String(v)}`)
}

function bytes(v: unknown, what: string): Uint8Array {
  if (typeof v !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(v)) throw new Error(`genesis: ${what} is not hex data`)
  return fromHex(v)
}

/**
 * @ethereumjs/common turns a `blobSchedule` entry into `targetBlobGasPerBlock` and
 * `maxBlobGasPerBlock` only, but for BPO forks it reads the blob *counts* (`target`, `max`);
 * without them every Cancun+ header computation of a BPO fork fails. Put the counts back.
 */
function keepBlobCounts(config: ChainConfig, schedule: Record<string, { target?: number; max?: number }> | undefined): void {
  const custom = (config as unknown as { customHardforks?: Record<string, { params?: Record<string, unknown> }> }).customHardforks
  if (custom === undefined || schedule === undefined) return
  for (const [fork, entry] of Object.entries(schedule)) {
    const hf = custom[fork]
    if (hf?.params === undefined) continue
    if (entry.target !== undefined) hf.params.target = entry.target
    if (entry.max !== undefined) hf.params.max = entry.max
  }
}

/** Reads a geth genesis file. */
export function parseGethGenesis(json: unknown): GenesisSpec {
  if (typeof json !== 'object' || json === null) throw new Error('genesis: not an object')
  const g = json as GethGenesis & Record<string, unknown>
  if (typeof g.config !== 'object' || g.config === null) throw new Error('genesis: no config')
  const chainId = checkChainId(quantity((g.config as { chainId?: unknown }).chainId, 'config.chainId'), 'genesis: config.chainId')
  const timestamp = quantity(g.timestamp ?? '0x0', 'timestamp')
  const schedule = createCommonFromGethGenesis(g, { chain: 'genesis' })
  const hardfork = schedule.getHardforkBy({ blockNumber: 0n, timestamp })
  const laterForks = schedule
    .hardforks()
    .filter((h) => (h.block !== null && h.block !== undefined && BigInt(h.block) > 0n) || (h.timestamp !== undefined && h.timestamp !== null && BigInt(h.timestamp) > timestamp))
    .map((h) => h.name)
  // The configuration the schedule was made from, as its constructor copies it (the same parse).
  const parsed = parseGethConfig(g, 'genesis') as ChainConfig
  const config = JSON.parse(JSON.stringify({ ...parsed, name: parsed.name ?? 'Custom chain' })) as ChainConfig
  keepBlobCounts(config, (g.config as { blobSchedule?: Record<string, { target?: number; max?: number }> }).blobSchedule)
  const common = createChainCommon(chainId, hardfork, config)
  const headHardfork = schedule.getHardforkBy({ blockNumber: 1n << 62n, timestamp: 1n << 62n })

  const alloc = emptyDiff()
  for (const [rawAddress, a] of Object.entries((g.alloc ?? {}) as Record<string, Record<string, unknown>>)) {
    if (!/^(0x)?[0-9a-fA-F]{40}$/.test(rawAddress)) throw new Error(`genesis: bad alloc address ${rawAddress}`)
    const code = a.code === undefined ? undefined : bytes(a.code, `code of ${rawAddress}`)
    const nonce = quantity(a.nonce ?? '0x0', `nonce of ${rawAddress}`)
    const balance = quantity(a.balance ?? '0x0', `balance of ${rawAddress}`)
    const storage = a.storage as Record<string, string> | undefined
    // Checked here, so that a bad key or value is named as the file's.
    for (const [k, v] of Object.entries(storage ?? {})) {
      bytes(k.length % 2 === 0 ? k : `0x0${k.slice(2)}`, `storage key of ${rawAddress}`)
      bytes(v.length % 2 === 0 ? v : `0x0${v.slice(2)}`, 'storage value')
    }
    putAccount(alloc, rawAddress, { nonce, balance, code, storage })
  }

  const header: HeaderData = {
    number: 0n,
    timestamp,
    gasLimit: quantity(g.gasLimit, 'gasLimit'),
    difficulty: quantity(g.difficulty ?? '0x0', 'difficulty'),
    extraData: g.extraData === undefined ? new Uint8Array() : bytes(g.extraData, 'extraData'),
    mixHash: g.mixHash === undefined ? new Uint8Array(32) : bytes(g.mixHash, 'mixHash'),
    nonce: g.nonce === undefined ? new Uint8Array(8) : fromHex(quantity(g.nonce, 'nonce').toString(16).padStart(16, '0')),
    coinbase: g.coinbase === undefined ? undefined : (g.coinbase as `0x${string}`),
    parentHash: g.parentHash === undefined ? new Uint8Array(32) : bytes(g.parentHash, 'parentHash'),
    gasUsed: quantity(g.gasUsed ?? '0x0', 'gasUsed'),
  }
  if (common.isActivatedEIP(1559)) {
    // geth's default initial base fee (params.InitialBaseFee) when the file names none.
    header.baseFeePerGas = g.baseFeePerGas === undefined || g.baseFeePerGas === null ? 1_000_000_000n : quantity(g.baseFeePerGas, 'baseFeePerGas')
  }
  if (common.isActivatedEIP(4844)) {
    header.excessBlobGas = quantity(g.excessBlobGas ?? '0x0', 'excessBlobGas')
    header.blobGasUsed = quantity((g as { blobGasUsed?: unknown }).blobGasUsed ?? '0x0', 'blobGasUsed')
  }
  return { chainId, hardfork, laterForks, common, schedule, config, headHardfork, header, alloc }
}

/** The genesis block a genesis file describes, with its state root computed (no node needed). */
export async function gethGenesisBlock(json: unknown): Promise<Block> {
  const spec = parseGethGenesis(json)
  const trie = new StateTrie(new NodeStore(undefined))
  const stateRoot = await trie.commit(KECCAK256_RLP, spec.alloc, new FlatState())
  return genesisBlock(spec.header, stateRoot, spec.common)
}
