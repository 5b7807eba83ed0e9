/**
 * The node's log: turns requests, committed blocks, console.log output and consensus events into
 * {@link LogEntry}s with their lines, for createNode's `onLog` (the CLI is one consumer). Made
 * only when `onLog` is given: without it nothing here runs and no hook is installed.
 *
 * A request runs inside an AsyncLocalStorage context, so what happens during it is told under its
 * line: the console.log output of its call, and the empty blocks it mined (a `hardhat_mine` range
 * is one line). A block with transactions is told when it commits, one entry per transaction.
 */
import type { AsyncLocalStorage } from 'node:async_hooks'
import type { Block } from '@ethereumjs/block'
import { nodeAsyncHooks } from '../builtins.js'
import type { StoredReceipt } from '../chain/receipts.js'
import type { ConsensusEvent } from '../consensus/tendermint/events.js'
import { checksumAddress } from '../crypto/checksum.js'
import { toErrorObject } from '../errors.js'
import { PANIC_CODES, PANIC_SELECTOR, ERROR_SELECTOR, revertReason } from '../execution/revert.js'
import { data, fromHex, type Hex } from '../hex.js'
import type { TxOutcome } from '../txpool/inclusions.js'
import type { BlockEntry, Failure, LogEntry, OnLog, RequestEntry } from './entries.js'
import { formatEntry } from './format.js'
import type { AbiNames } from '../metadata/names.js'

/** What one request saw while it ran. */
interface RequestContext {
  consoleLogs: string[]
  emptyBlocks: Block[]
  done: boolean
}

/** A committed block as the application hands it over. */
export interface CommittedBlock {
  block: Block
  receipts: readonly StoredReceipt[]
  outcomes: readonly TxOutcome[]
  /** Parallel to `receipts`: each transaction's console.log messages. */
  consoleLogs: readonly (readonly string[])[]
}

/** Revert data (and the EVM's error) as a {@link Failure}; a custom error named when `names` knows it. */
export function decodeFailure(output: Uint8Array, evmError?: string, names?: AbiNames): Failure {
  if (evmError !== undefined && evmError !== 'revert') return { kind: 'evm', error: evmError }
  if (output.length === 0) return { kind: 'empty' }
  const selector = Buffer.from(output.subarray(0, 4)).toString('hex')
  if (selector === ERROR_SELECTOR || selector === PANIC_SELECTOR) {
    const reason = revertReason(output)
    if (reason !== undefined && selector === ERROR_SELECTOR) return { kind: 'reason', reason }
    if (reason !== undefined) {
      const code = BigInt(data(output.subarray(4)))
      const known = PANIC_CODES.get(code)
      return { kind: 'panic', code, description: known?.hardhat ?? known?.geth ?? 'unknown panic code' }
    }
  }
  const name = names?.active === true ? names.error(output) : undefined
  return { kind: 'custom', selector: data(output.subarray(0, Math.min(4, output.length))), data: data(output.subarray(4)), ...(name !== undefined && { name }) }
}

const hex = (b: Uint8Array): Hex => data(b)
/** Addresses EIP-55 checksummed, as Hardhat and Anvil print them. */
const address = (b: Uint8Array): Hex => checksumAddress(data(b))

export class NodeLog {
  private readonly storage: AsyncLocalStorage<RequestContext> = new (nodeAsyncHooks().AsyncLocalStorage)()
  /** Consensus lines already told (one per height, round and step, not one per validator). */
  private told = new Set<string>()
  private toldHeight = -1n

  constructor(
    private readonly onLog: OnLog,
    private readonly color: boolean,
    /**
     * Whether a line of the source is written: hardhat_/anvil_setLoggingEnabled and the log level
     * (debug_verbosity, debug_vmodule). Console entries are the `console` source, the others `rpc`.
     */
    private readonly enabled: (source: 'rpc' | 'console') => boolean,
    /** Custom errors and events by name, from the node's contract metadata (read only when it holds some). */
    private readonly names?: AbiNames,
  ) {}

  private emit(entry: LogEntry): void {
    if (!this.enabled(entry.type === 'console' ? 'console' : 'rpc')) return
    try {
      this.onLog(entry, formatEntry(entry, this.color))
    } catch {
      // A throwing consumer must not change what it observes.
    }
  }

  /** Runs one request in its context; its entry (and what it saw) follows its answer. */
  request<T>(method: string, run: () => Promise<T>): Promise<T> {
    const ctx: RequestContext = { consoleLogs: [], emptyBlocks: [], done: false }
    const started = performance.now()
    const finish = (error: unknown): void => {
      ctx.done = true
      this.flushEmpty(ctx.emptyBlocks)
      const ms = performance.now() - started
      let failure: Failure | undefined
      let answered: RequestEntry['error']
      if (error !== undefined) {
        const object = toErrorObject(error)
        if (object.code === 3 && typeof object.data === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(object.data)) failure = decodeFailure(fromHex(object.data), undefined, this.names)
        // The failure's Solidity frames, which the error carries when the node had metadata.
        const stack = (error as { solidityStack?: readonly string[] }).solidityStack
        answered = { code: object.code, message: object.message, failure, stack: Array.isArray(stack) ? stack : [] }
      }
      this.emit({ type: 'request', method, ms, error: answered, consoleLogs: ctx.consoleLogs })
    }
    const promise = this.storage.run(ctx, run)
    promise.then(
      () => finish(undefined),
      (error: unknown) => finish(error ?? new Error('rejected')),
    )
    return promise
  }

  /** A console.log message of a call: under its request when one runs, else on its own. */
  consoleLog(message: string): void {
    const ctx = this.storage.getStore()
    if (ctx !== undefined && !ctx.done) ctx.consoleLogs.push(message)
    else this.emit({ type: 'console', message })
  }

  /** A committed block: its transactions, then the block (empty ones of a request wait for its end). */
  committed({ block, receipts, outcomes, consoleLogs }: CommittedBlock): void {
    const blockHash = hex(block.hash())
    block.transactions.forEach((tx, i) => {
      const receipt = receipts[i]
      const outcome = outcomes[i]
      if (receipt === undefined) return
      const reverted = receipt.status === 0
      this.emit({
        type: 'transaction',
        hash: hex(tx.hash()),
        from: address(receipt.from),
        to: tx.to === undefined ? undefined : address(tx.to.bytes),
        contractAddress: receipt.contractAddress === undefined ? undefined : address(receipt.contractAddress),
        value: tx.value,
        gasUsed: receipt.gasUsed,
        gasLimit: tx.gasLimit,
        blockNumber: block.header.number,
        blockHash,
        status: reverted ? 'reverted' : 'success',
        failure: reverted && outcome !== undefined ? decodeFailure(outcome.output, outcome.error, this.names) : undefined,
        consoleLogs: [...(consoleLogs[i] ?? [])],
        ...(this.names?.active === true && { events: receipt.logs.map(([, topics, payload]) => this.names!.event(topics, payload) ?? (topics[0] === undefined ? 'anonymous event' : data(topics[0]))) }),
      })
    })
    if (block.transactions.length === 0) {
      const ctx = this.storage.getStore()
      if (ctx !== undefined && !ctx.done) {
        ctx.emptyBlocks.push(block)
        return
      }
    }
    this.emit(blockEntry(block))
  }

  private flushEmpty(blocks: Block[]): void {
    const first = blocks[0]
    const last = blocks.at(-1)
    if (first === undefined || last === undefined) return
    if (blocks.length === 1) return this.emit(blockEntry(first))
    this.emit({ type: 'blocks', first: first.header.number, last: last.header.number, firstHash: hex(first.hash()), lastHash: hex(last.hash()) })
  }

  /** The chain halted (no commit possible) or committed again after a halt. */
  halted(halted: boolean, height: bigint): void {
    this.emit(halted ? { type: 'consensus', event: 'halt', height } : { type: 'consensus', event: 'resume', height })
  }

  /** A validator's consensus event: round changes, time-outs and evidence are told, once each. */
  consensus(e: ConsensusEvent): void {
    if (e.type === 'evidence') {
      const x = e.evidence
      return this.emit({ type: 'consensus', event: 'evidence', height: x.height, round: x.round, validator: checksumAddress(x.validator), step: String(x.type) })
    }
    if (e.type !== 'newRound' && e.type !== 'timeout') return
    if (e.height !== this.toldHeight) {
      this.told = new Set()
      this.toldHeight = e.height
    }
    if (e.type === 'newRound') {
      if (e.round === 0 || this.once(`r${e.round}`)) return
      this.emit({ type: 'consensus', event: 'round', height: e.height, round: e.round, proposer: checksumAddress(e.proposer) })
    } else {
      if (this.once(`t${e.round}${e.step}`)) return
      this.emit({ type: 'consensus', event: 'timeout', height: e.height, round: e.round, step: String(e.step) })
    }
  }

  /** True when `key` was told already at this height; marks it told. */
  private once(key: string): boolean {
    if (this.told.has(key)) return true
    this.told.add(key)
    return false
  }
}

function blockEntry(block: Block): BlockEntry {
  return {
    type: 'block',
    number: block.header.number,
    hash: hex(block.hash()),
    timestamp: block.header.timestamp,
    transactions: block.transactions.length,
    gasUsed: block.header.gasUsed,
  }
}
