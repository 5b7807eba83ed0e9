/**
 * eth_simulateV1's log collector: the logs of a call in execution order, with ether transfers
 * as ERC-7528 `Transfer` logs (`traceTransfers`), dropping whatever a failed frame emitted.
 * Each log gets its block-wide index when it is emitted, as geth's tracer counts them: a dropped
 * log keeps its number, so the logs after it do not move up.
 *
 * The EVM emits `beforeMessage` / `afterMessage` per call frame but no event per log, so the
 * tracer wraps the LOG opcodes of the simulation's own VM to see each log when it is emitted.
 */
import type { EVMInterface, EVMResult, Message } from '@ethereumjs/evm'
import { concat, equalBytes, fromHex, word } from '../hex.js'
import { codeAddress, frameLogs } from './engine/frames.js'
import { layerOpcodeTable, opcodeEntry } from './engine/layers.js'

/** ERC-7528's pseudo-address for ether. */
export const ETHER_ADDRESS = fromHex('eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee')
/** keccak256("Transfer(address,address,uint256)"). */
export const TRANSFER_TOPIC = fromHex('ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef')

/** A log as the EVM produces it: address, topics, data. */
export type RawLog = [Uint8Array, Uint8Array[], Uint8Array]

/** A log and its index in the block. */
export interface IndexedLog {
  log: RawLog
  index: number
}

type Pending = IndexedLog | { transfer: { from: Uint8Array; value: bigint; index: number; log?: RawLog } }

type OpEntry = {
  opcodeInfo: unknown
  opHandler: (runState: { interpreter: object }, common: unknown) => unknown
  gasHandler: unknown
}

type SelfdestructState = {
  interpreter: { getAddress(): { bytes: Uint8Array } }
  stack: { peek(n: number): bigint[] }
  stateManager: { getAccount(address: { bytes: Uint8Array }): Promise<{ balance: bigint } | undefined> }
}

function pad(address: Uint8Array): Uint8Array {
  return concat(new Uint8Array(12), address)
}

function transferLog(from: Uint8Array, to: Uint8Array, value: bigint): RawLog {
  return [ETHER_ADDRESS, [TRANSFER_TOPIC, pad(from), pad(to)], word(value)]
}

export class TransferTracer {
  private frames: Pending[][] = []
  private root: Pending[] = []
  /** Logs emitted in the block so far, kept or not. */
  private count = 0
  traceTransfers = false

  /**
   * SELFDESTRUCT sends the contract's whole balance to the beneficiary: a transfer too, logged at
   * the point it happens (as geth's tracer sees it, through its OnEnter for the opcode).
   */
  private wrapSelfdestruct(map: OpEntry[]): void {
    const entry = map[0xff]
    if (entry === undefined) return
    const run = entry.opHandler as unknown as (runState: SelfdestructState, common: unknown) => Promise<unknown>
    // Entries in the hidden class of the library's (layers.ts), not spread copies.
    map[0xff] = opcodeEntry<OpEntry>(
      entry.opcodeInfo,
      (async (runState: SelfdestructState, common: unknown) => {
        const self = runState.interpreter.getAddress()
        const beneficiary = fromHex(runState.stack.peek(1)[0]!.toString(16).padStart(40, '0').slice(-40))
        const balance = (await runState.stateManager.getAccount(self))?.balance ?? 0n
        if (this.traceTransfers && balance > 0n) {
          this.frames[this.frames.length - 1]?.push({ log: transferLog(self.bytes, beneficiary, balance), index: this.count++ })
        }
        // The handler ends the frame by throwing the interpreter's STOP trap, so it goes last;
        // a frame that fails after all drops the log with the rest of its output.
        return run(runState, common)
      }) as unknown as OpEntry['opHandler'],
      entry.gasHandler,
    )
  }

  constructor(evm: EVMInterface) {
    const events = evm.events
    if (events === undefined) throw new Error('EVM without events')
    events.on('beforeMessage', (m: Message) => this.enter(m))
    events.on('afterMessage', (r: EVMResult) => this.exit(r))
    layerOpcodeTable<OpEntry>(evm, 'transfers', (map) => this.wrapLogs(map))
  }

  private wrapLogs(map: OpEntry[]): void {
    this.wrapSelfdestruct(map)
    for (let op = 0xa0; op <= 0xa4; op++) {
      const entry = map[op]
      if (entry === undefined) continue
      const run = entry.opHandler
      map[op] = opcodeEntry<OpEntry>(
        entry.opcodeInfo,
        (runState, common) => {
          const out = run(runState, common)
          const logs = frameLogs(runState.interpreter)
          const log = logs[logs.length - 1]
          if (log !== undefined) this.frames[this.frames.length - 1]?.push({ log, index: this.count++ })
          return out
        },
        entry.gasHandler,
      )
    }
  }

  /** Starts a new block: log indexes count from 0 again. */
  startBlock(): void {
    this.count = 0
  }

  /** Starts a new transaction. */
  reset(): void {
    this.frames = []
    this.root = []
  }

  /** The logs of the finished transaction, in order. */
  logs(): IndexedLog[] {
    const out: IndexedLog[] = []
    for (const p of this.root) {
      if ('log' in p) out.push(p)
      else if (p.transfer.log !== undefined) out.push({ log: p.transfer.log, index: p.transfer.index })
    }
    return out
  }

  private enter(m: Message): void {
    const frame: Pending[] = []
    const callcode = m.to !== undefined && equalBytes(m.to.bytes, m.caller.bytes) && codeAddress(m) !== undefined && !equalBytes(codeAddress(m)!.bytes, m.to.bytes)
    if (this.traceTransfers && m.value > 0n && !m.delegatecall && !callcode) {
      const transfer: { from: Uint8Array; value: bigint; index: number; log?: RawLog } = { from: m.caller.bytes, value: m.value, index: this.count++ }
      if (m.to !== undefined) transfer.log = transferLog(m.caller.bytes, m.to.bytes, m.value)
      frame.push({ transfer })
    }
    this.frames.push(frame)
  }

  private exit(r: EVMResult): void {
    const frame = this.frames.pop()
    if (frame === undefined) return
    const first = frame[0]
    if (first !== undefined && 'transfer' in first && first.transfer.log === undefined && r.createdAddress !== undefined) {
      first.transfer.log = transferLog(first.transfer.from, r.createdAddress.bytes, first.transfer.value)
    }
    if (r.execResult.exceptionError !== undefined) return
    const parent = this.frames[this.frames.length - 1] ?? this.root
    parent.push(...frame)
  }
}
