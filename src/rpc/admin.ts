/**
 * The `admin` namespace, for what it means on a node without a peer-to-peer network: who the
 * node is (admin_nodeInfo, in geth's shape), its peers (none: the validators run in-process), its
 * data directory, exporting / importing the chain as RLP files, and starting / stopping the
 * node's own HTTP and WebSocket servers. The p2p methods (admin_addPeer, …) are absent;
 * docs/controls.md says why.
 */
import { open, readFile } from 'node:fs/promises'
import { nodeZlib } from '../builtins.js'
import { paramsBlock } from '@ethereumjs/block'
import { type Common, Mainnet } from '@ethereumjs/common'
import { createChainCommon } from '../chain/common.js'
import { depositContractAddress } from '../execution/engine/common.js'
import { keccak256 } from '../crypto/keccak.js'
import { ServerError } from '../errors.js'
import { concat, data } from '../hex.js'
import { jsonInt, optional, text } from './codecs.js'
import { type MethodTable, methodsOf, type Ports } from './method.js'
import { numberOrQuantity } from './test/params.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'bft' | 'chain' | 'chainId' | 'clientVersion' | 'controls' | 'dataDir' | 'servers'>
const method = methodsOf<keyof Here>()

/** geth's ChainConfig keys of the block-numbered forks, by @ethereumjs/common's fork names. */
const BLOCK_KEYS: Readonly<Record<string, readonly string[]>> = {
  homestead: ['homesteadBlock'],
  dao: ['daoForkBlock'],
  tangerineWhistle: ['eip150Block'],
  spuriousDragon: ['eip155Block', 'eip158Block'],
  byzantium: ['byzantiumBlock'],
  constantinople: ['constantinopleBlock'],
  petersburg: ['petersburgBlock'],
  istanbul: ['istanbulBlock'],
  muirGlacier: ['muirGlacierBlock'],
  berlin: ['berlinBlock'],
  london: ['londonBlock'],
  arrowGlacier: ['arrowGlacierBlock'],
  grayGlacier: ['grayGlacierBlock'],
  mergeNetsplitBlock: ['mergeNetsplitBlock'],
}

/**
 * The Common of `fork`, with the block parameters (blob gas) a Common lacks until a block is
 * made with it. A chain made from options runs only its newest fork: an earlier one's parameters
 * are that fork's defaults.
 */
function commonOf(s: Here, fork: string): Common {
  const forks = s.chain.forks
  const common = forks.single && fork !== forks.head.hardfork() ? createChainCommon(s.chainId, fork) : forks.named(fork)
  common.updateParams(paramsBlock)
  return common
}

/**
 * The chain configuration as geth's `params.ChainConfig` JSON: the forks this chain runs with
 * their activation blocks and times, the merge's total difficulty, and the blob schedule. There is
 * no `ethash` or `clique` section: consensus is BFT (finality_getValidators describes it).
 */
export function gethChainConfig(s: Here): Record<string, unknown> {
  const forks = s.chain.forks
  const out: Record<string, unknown> = { chainId: Number(s.chainId) }
  const blobSchedule: Record<string, unknown> = {}
  for (const fork of forks.activations()) {
    if (fork.block !== undefined) {
      for (const key of BLOCK_KEYS[fork.name] ?? []) out[key] = Number(fork.block)
      if (fork.name === 'dao') out.daoForkSupport = true
      // A chain that is proof-of-stake from genesis, as geth's dev genesis says it.
      if (fork.name === 'paris' && fork.block === 0n) out.terminalTotalDifficulty = 0
    }
    if (fork.timestamp !== undefined) out[`${fork.name}Time`] = Number(fork.timestamp)
    // Blob parameters come with time-based forks (Cancun on).
    if (fork.timestamp === undefined) continue
    const common = commonOf(s, fork.name)
    if (common.isActivatedEIP(4844)) {
      const schedule = common.getBlobGasSchedule()
      const perBlob = common.param('blobGasPerBlob')
      blobSchedule[fork.name] = {
        target: Number(schedule.targetBlobGasPerBlock / perBlob),
        max: Number(schedule.maxBlobGasPerBlock / perBlob),
        baseFeeUpdateFraction: Number(schedule.blobGasPriceUpdateFraction),
      }
    }
  }
  const head = forks.head
  if (head.isActivatedEIP(6110)) {
    out.depositContractAddress = (depositContractAddress(head) ?? Mainnet.depositContractAddress ?? '').toLowerCase()
  }
  if (Object.keys(blobSchedule).length > 0) out.blobSchedule = blobSchedule
  return out
}

/**
 * geth's admin_nodeInfo, with what is true here. `id` is keccak256 of the node's validators'
 * ed25519 public keys in set order (its consensus identity: there is no devp2p node key);
 * `enode`, `enr`, `ip`, `ports` and `listenAddr` are left out, as no p2p listener exists.
 */
function nodeInfo(s: Here): Record<string, unknown> {
  const genesis = s.chain.genesisHash
  return {
    id: data(keccak256(concat(...s.bft.set.validators.map((v) => v.publicKey)))).slice(2),
    name: s.clientVersion,
    protocols: {
      eth: { network: Number(s.chainId), genesis: data(genesis), config: gethChainConfig(s), head: data(s.chain.head.hash()) },
    },
  }
}

/** geth's `*int` port; a port outside 0–65535 is refused before binding. */
const port = {
  name: 'int',
  optional: false,
  decode: (v: unknown, index: number): number => {
    const n = Number(jsonInt.decode(v, index))
    if (n < 0 || n > 65535) throw new ServerError(`invalid port ${n}: want 0 to 65535`)
    return n
  },
}

function fsError(error: unknown): ServerError {
  return new ServerError(error instanceof Error ? error.message : String(error))
}

/** admin_exportChain: blocks `first`..`last` (default all) as concatenated RLP, gzipped for `.gz`. */
async function exportChain(s: Here, file: string, first: bigint | undefined, last: bigint | undefined): Promise<boolean> {
  if (first === undefined && last !== undefined) throw new ServerError('last cannot be specified without first')
  const from = first ?? 0n
  const to = last ?? s.chain.height
  if (from > to) throw new ServerError(`export failed: first (${from}) is greater than last (${to})`)
  if (to > s.chain.height) throw new ServerError(`export failed on #${s.chain.height + 1n}: not found`)
  const blocks: Uint8Array[] = []
  for (let n = from; n <= to; n++) {
    const block = await s.chain.blockByNumber(n)
    if (block === undefined) throw new ServerError(`export failed on #${n}: not found`)
    blocks.push(block.serialize())
  }
  const bytes = concat(...blocks)
  let handle
  try {
    // `wx`: never overwrite, as geth refuses to (the path may be anywhere on the node's disk).
    handle = await open(file, 'wx', 0o644)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new ServerError('location would overwrite an existing file')
    throw fsError(error)
  }
  try {
    await handle.writeFile(file.endsWith('.gz') ? nodeZlib().gzipSync(bytes) : bytes)
  } catch (error) {
    throw fsError(error)
  } finally {
    await handle.close()
  }
  return true
}

/** admin_importChain: a file admin_exportChain (or geth's `export`) wrote; blocks already held are skipped. */
async function importChain(s: Here, file: string): Promise<boolean> {
  let bytes: Uint8Array
  try {
    bytes = await readFile(file)
  } catch (error) {
    throw fsError(error)
  }
  if (file.endsWith('.gz')) {
    try {
      bytes = nodeZlib().gunzipSync(bytes)
    } catch (error) {
      throw fsError(error)
    }
  }
  const input = bytes
  await s.controls.importChain(input)
  return true
}

const startHttp = method({
  params: [optional(text, undefined), optional(port, undefined), optional(text, undefined), optional(text, undefined), optional(text, undefined)],
  run: (s, [host, p, cors, apis, vhosts]) => s.servers.startHttp({ host, port: p, cors, apis, vhosts }),
})
const stopHttp = method({ params: [], run: (s) => s.servers.stopHttp() })

export const admin: MethodTable = {
  admin_nodeInfo: method({ params: [], run: (s) => nodeInfo(s) }),
  // The validators run in this process and exchange votes without a network.
  admin_peers: method({ params: [], run: () => [] }),
  // geth answers "" for a node without a data directory (an in-memory chain).
  admin_datadir: method({ params: [], run: (s) => s.dataDir ?? '' }),
  admin_exportChain: method({
    params: [text, optional(numberOrQuantity, undefined), optional(numberOrQuantity, undefined)],
    run: (s, [file, first, last]) => exportChain(s, file, first, last),
  }),
  admin_importChain: method({ params: [text], run: (s, [file]) => importChain(s, file) }),
  admin_startHTTP: startHttp,
  // geth's deprecated names of the two.
  admin_startRPC: startHttp,
  admin_stopRPC: stopHttp,
  admin_startWS: method({
    params: [optional(text, undefined), optional(port, undefined), optional(text, undefined), optional(text, undefined)],
    run: (s, [host, p, origins, apis]) => s.servers.startWs({ host, port: p, origins, apis }),
  }),
  admin_stopHTTP: stopHttp,
  admin_stopWS: method({ params: [], run: (s) => s.servers.stopWs() }),
}
