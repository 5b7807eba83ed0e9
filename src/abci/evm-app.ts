/**
 * The EVM application as CometBFT's ABCI++ application: the node's own `EvmApplication` (the
 * application the in-process producer drives) behind the calls CometBFT makes. CometBFT decides;
 * this side checks transactions, proposes, executes the decided block and stores it.
 *
 * Execution happens in FinalizeBlock, on every node, from the block's transactions as CometBFT
 * decided them: the header's time is CometBFT's block time (in seconds, at least the parent's + 1), its fee recipient the
 * proposer's 20-byte address, so every node builds the same block and the same state root, which
 * goes back as `app_hash` (CometBFT puts it in the next block's header).
 */
import type { Common } from '@ethereumjs/common'
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx'
import type { Block } from '@ethereumjs/block'
import type { MessageInitShape } from '@bufbuild/protobuf'
import type { Chain } from '../chain/chain.js'
import type { StoredReceipt } from '../chain/receipts.js'
import { blobTransaction } from '../chain/decode.js'
import { splitBlobEnvelope } from '../execution/blobs.js'
import type { Application, Proposal } from '../consensus/application.js'
import { data, keyOf, type Hex } from '../hex.js'
import type { TxOutcome } from '../txpool/inclusions.js'
import type { PoolEntry, TxPool } from '../txpool/pool.js'
import type {
  RequestCheckTx,
  RequestFinalizeBlock,
  RequestInfo,
  RequestInitChain,
  RequestPrepareProposal,
  RequestProcessProposal,
  RequestQuery,
  ExecTxResultSchema,
  ResponseCheckTxSchema,
  ResponseCommitSchema,
  ResponseFinalizeBlockSchema,
  ResponseInfoSchema,
  ResponseInitChainSchema,
  ResponsePrepareProposalSchema,
  ResponseProcessProposalSchema,
  ResponseQuerySchema,
  ValidatorUpdateSchema,
} from './gen/tendermint/abci/types_pb.js'
import { CheckTxType } from './gen/tendermint/abci/types_pb.js'
import { BlockIDFlag } from './gen/tendermint/types/validator_pb.js'
import { ProposalStatus, type AbciApplication } from './server.js'

/** ABCI result codes of this application (0 is success, as in every ABCI application). */
export const CODE = { ok: 0, undecodable: 1, refused: 2, leftOut: 3, unknownQuery: 4 } as const

/** What the ABCI application works on: the node's components. */
export interface EvmAbciParts {
  chain: Chain
  common: Common
  pool: TxPool
  application: Application<Proposal, PoolEntry, TxOutcome, Block, StoredReceipt>
  /** The gas limit of every block. */
  gasLimit: () => bigint
  /** Admits a transaction a peer sent into the local pool (eth_sendRawTransaction's checks); throws why not. */
  admit: (raw: Uint8Array) => Promise<void>
  /** Runs `task` between the node's own tasks (its controls, its pending block). */
  exclusive: <T>(task: () => Promise<T>) => Promise<T>
  /** Answers a JSON-RPC request (Query's `/jsonrpc` path). */
  request: (body: unknown) => Promise<unknown>
  /** The application's name and version for Info. */
  version: string
  /** A validator's ed25519 key by its address: a validator update names its key (the `cosmos` option's). */
  validatorKey?: (address: Hex) => Uint8Array | undefined
}

/**
 * A transaction's bytes decoded, with its sender; undefined when they are not a signed transaction
 * of this chain. A blob transaction in its network form (as sent, with its blobs, commitments and
 * proofs) decodes to its canonical transaction, given as `canonical`: what a block carries.
 */
export function decodeTx(raw: Uint8Array, common: Common): { tx: TypedTransaction; sender: string; canonical?: Uint8Array } | undefined {
  try {
    if (raw[0] !== 3) {
      const tx = createTxFromRLP(raw, { common })
      return { tx, sender: keyOf(tx.getSenderAddress().bytes) }
    }
    const envelope = splitBlobEnvelope(raw)
    const tx = blobTransaction(envelope?.canonical ?? raw, common)
    const sender = keyOf(tx.getSenderAddress().bytes)
    return envelope === undefined ? { tx, sender } : { tx, sender, canonical: envelope.canonical }
  } catch {
    return undefined
  }
}

const seconds = (t: { seconds: bigint } | undefined): bigint => t?.seconds ?? 0n
const max = (a: bigint, b: bigint): bigint => (a > b ? a : b)

export class EvmAbciApp implements AbciApplication {
  /** The block FinalizeBlock executed, waiting for Commit. */
  private finalized: { included: string[]; leftOut: string[]; entries: PoolEntry[] } | undefined

  constructor(private readonly parts: EvmAbciParts) {}

  private appHash(): Uint8Array {
    return this.parts.chain.head.header.stateRoot
  }

  async info(_req: RequestInfo): Promise<MessageInitShape<typeof ResponseInfoSchema>> {
    const { chain } = this.parts
    return { data: 'finality', version: this.parts.version, appVersion: 0n, lastBlockHeight: chain.height, lastBlockAppHash: this.appHash() }
  }

  async initChain(req: RequestInitChain): Promise<MessageInitShape<typeof ResponseInitChainSchema>> {
    const { chain } = this.parts
    if (chain.height !== 0n) throw new Error(`InitChain on a chain at height ${chain.height}: the application's database holds another chain`)
    const genesisTime = chain.head.header.timestamp
    if (seconds(req.time) !== genesisTime) {
      throw new Error(`CometBFT's genesis time ${seconds(req.time)} is not the EVM genesis block's ${genesisTime}: start the application with CometBFT's genesis time`)
    }
    // The validators stay those of CometBFT's genesis (no change answered).
    return { appHash: this.appHash() }
  }

  async checkTx(req: RequestCheckTx): Promise<MessageInitShape<typeof ResponseCheckTxSchema>> {
    const { pool, common } = this.parts
    const decoded = decodeTx(req.tx, common)
    if (decoded === undefined) {
      let log = 'not a signed transaction of this chain'
      // The admission's own words for what is wrong with the bytes (a send may wait on them).
      if (req.type !== CheckTxType.RECHECK) {
        try {
          await this.parts.admit(req.tx)
        } catch (error) {
          log = (error as Error).message
        }
      }
      return { code: CODE.undecodable, log }
    }
    const hash = decoded.tx.hash()
    if (req.type === CheckTxType.RECHECK) {
      // After a block: a transaction whose nonce the chain passed can no longer be included.
      if (decoded.tx.nonce < this.parts.chain.nonce(decoded.sender)) {
        pool.remove(keyOf(hash))
        return { code: CODE.refused, log: 'nonce too low' }
      }
      return { code: CODE.ok, gasWanted: decoded.tx.gasLimit }
    }
    // A signing send put it in the local pool before broadcasting it.
    if (pool.has(hash)) return { code: CODE.ok, gasWanted: decoded.tx.gasLimit }
    try {
      await this.parts.admit(req.tx)
    } catch (error) {
      return { code: CODE.refused, log: (error as Error).message }
    }
    return { code: CODE.ok, gasWanted: decoded.tx.gasLimit }
  }

  async prepareProposal(req: RequestPrepareProposal): Promise<MessageInitShape<typeof ResponsePrepareProposalSchema>> {
    // Each sender's transactions in nonce order from the chain's nonce, senders in CometBFT's
    // mempool order; a transaction after a nonce gap waits in the mempool for a later block
    // (one put in a block and left out by the EVM would be gone: CometBFT drops a block's
    // transactions from its mempool whatever their result). Within the block's byte limit.
    // A blob transaction goes into the block without its sidecar, as Ethereum's blocks carry it:
    // CheckTx verified the blobs against their commitments, and execution needs only their
    // versioned hashes. (The network form stays in CometBFT's mempool until the recheck after
    // the block finds its nonce used.)
    const bySender = new Map<string, Array<{ raw: Uint8Array; nonce: bigint }>>()
    for (const sent of req.txs) {
      const d = decodeTx(sent, this.parts.common)
      if (d === undefined) continue
      const raw = d.canonical ?? sent
      const list = bySender.get(d.sender) ?? []
      list.push({ raw, nonce: d.tx.nonce })
      bySender.set(d.sender, list)
    }
    const txs: Uint8Array[] = []
    let bytes = 0n
    for (const [sender, list] of bySender) {
      let next = this.parts.chain.nonce(sender)
      for (const { raw, nonce } of list.sort((a, b) => (a.nonce < b.nonce ? -1 : a.nonce > b.nonce ? 1 : 0))) {
        if (nonce !== next) continue
        if (bytes + BigInt(raw.length) > req.maxTxBytes) return { txs }
        bytes += BigInt(raw.length)
        txs.push(raw)
        next++
      }
    }
    return { txs }
  }

  async processProposal(req: RequestProcessProposal): Promise<MessageInitShape<typeof ResponseProcessProposalSchema>> {
    // Every transaction decodable, and no blob sidecar: blocks carry blob transactions without
    // their blobs, and blobs this node did not check against their commitments have no place here.
    const ok =
      req.height === this.parts.chain.height + 1n &&
      req.txs.every((raw) => {
        const d = decodeTx(raw, this.parts.common)
        return d !== undefined && d.canonical === undefined
      })
    return { status: ok ? ProposalStatus.ACCEPT : ProposalStatus.REJECT }
  }

  async finalizeBlock(req: RequestFinalizeBlock): Promise<MessageInitShape<typeof ResponseFinalizeBlockSchema>> {
    const { chain, common, application } = this.parts
    if (req.height !== chain.height + 1n) throw new Error(`FinalizeBlock of height ${req.height} on a chain at height ${chain.height}`)
    const decoded = req.txs.map((raw) => decodeTx(raw, common))
    const entries: PoolEntry[] = []
    for (const d of decoded) {
      if (d !== undefined) entries.push({ tx: d.tx, hash: keyOf(d.tx.hash()), sender: d.sender, nonce: d.tx.nonce, arrival: 0, impersonated: false })
    }
    return this.parts.exclusive(async () => {
      const proposal = await application.prepareProposal({
        height: req.height,
        round: 0,
        feeRecipient: data(req.proposerAddress),
        // Strictly after the parent, as Ethereum requires: CometBFT's times are finer than a
        // second, so blocks less than a second apart would share one (the in-process rule too).
        time: max(seconds(req.time), chain.head.header.timestamp + 1n),
        txs: entries,
        header: { gasLimit: this.parts.gasLimit() },
        // Who signed the parent's commit, and the evidence this block commits: what the cosmos
        // option's BeginBlock counts downtime and slashes by, as x/slashing and x/evidence do.
        lastCommit: (req.decidedLastCommit?.votes ?? []).map((v) => ({ validator: data(v.validator?.address ?? new Uint8Array(20)), signed: v.blockIdFlag === BlockIDFlag.BLOCK_ID_FLAG_COMMIT })),
        misbehavior: req.misbehavior.map((m) => ({ validator: data(m.validator?.address ?? new Uint8Array(20)), height: m.height })),
      })
      const finalized = await application.finalizeBlock(proposal, undefined)
      const results = new Map(finalized.txResults.map((r) => [r.hash, r.outcome]))
      const refusals = new Map(finalized.leftOut.map((l) => [l.hash, l.error.message]))
      const txResults: Array<MessageInitShape<typeof ExecTxResultSchema>> = decoded.map((d) => {
        if (d === undefined) return { code: CODE.undecodable, log: 'not a signed transaction of this chain' }
        const hash = keyOf(d.tx.hash())
        const result = results.get(hash)
        if (result === undefined) return { code: CODE.leftOut, log: refusals.get(hash) ?? 'left out of the block' }
        return { code: CODE.ok, data: result.output, log: result.error ?? '', gasWanted: d.tx.gasLimit }
      })
      this.finalized = { included: [...results.keys()], leftOut: [...refusals.keys()], entries }
      return { txResults, appHash: finalized.appHash, validatorUpdates: (finalized.validatorUpdates ?? []).map((u) => this.update(u)) }
    })
  }

  /** A power change as CometBFT's `ValidatorUpdate`: the validator's ed25519 key and its new power (0 removes it). */
  private update(u: { address: Hex; power: bigint }): MessageInitShape<typeof ValidatorUpdateSchema> {
    const key = this.parts.validatorKey?.(u.address)
    if (key === undefined) throw new Error(`a validator update for ${u.address}, whose consensus key this application does not know`)
    return { pubKey: { sum: { case: 'ed25519', value: key } }, power: u.power }
  }

  async commit(): Promise<MessageInitShape<typeof ResponseCommitSchema>> {
    const finalized = this.finalized
    if (finalized === undefined) throw new Error('Commit without a finalized block')
    this.finalized = undefined
    const { application, pool, chain } = this.parts
    await this.parts.exclusive(async () => {
      await application.commit()
      for (const hash of finalized.included) pool.remove(hash)
      for (const hash of finalized.leftOut) pool.remove(hash)
      for (const e of finalized.entries) pool.settle(e.sender, chain.nonce(e.sender))
      application.announce()
    })
    // Every block is kept (no retain height): each node serves the whole history.
    return {}
  }

  async query(req: RequestQuery): Promise<MessageInitShape<typeof ResponseQuerySchema>> {
    if (req.path !== '/jsonrpc') return { code: CODE.unknownQuery, log: `unknown query path ${JSON.stringify(req.path)}: the one path is /jsonrpc (data: a JSON-RPC request)` }
    let body: unknown
    try {
      body = JSON.parse(new TextDecoder().decode(req.data))
    } catch {
      return { code: CODE.unknownQuery, log: 'the /jsonrpc query data is not JSON' }
    }
    const answer = await this.parts.request(body)
    return { code: CODE.ok, value: new TextEncoder().encode(JSON.stringify(answer)), height: this.parts.chain.height }
  }
}
