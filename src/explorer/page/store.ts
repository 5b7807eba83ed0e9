/**
 * What the page knows of the chain, kept current from the subscriptions: the latest blocks with
 * their transactions, each height's rounds as the consensus events tell them, halts and resumes,
 * evidence, the validator set and the namespaces the server serves. Views re-render on `changed`.
 */
import { call, explain, Feed, RpcError, wsUrl } from './rpc.js'

export type Hex = `0x${string}`

export interface Tx {
  hash: Hex
  from: Hex
  to: Hex | null
  value: Hex
  nonce: Hex
  input: Hex
  blockNumber: Hex
  gas: Hex
}
export interface Block {
  number: Hex
  hash: Hex
  parentHash: Hex
  timestamp: Hex
  miner: Hex
  gasUsed: Hex
  gasLimit: Hex
  baseFeePerGas?: Hex
  transactions: Tx[]
}

/** One validator's part in one round. */
export interface Seat {
  proposed?: Hex
  prevote?: Hex | null
  precommit?: Hex | null
  timeouts: string[]
  polka?: boolean
  lock?: boolean
}
export interface Round {
  round: number
  proposer?: Hex
  seats: Map<Hex, Seat>
}
export interface Height {
  height: bigint
  rounds: Map<number, Round>
  commit?: { round: number; blockHash: Hex; proposer: Hex }
  halted?: string
}
export interface Validator {
  address: Hex
  publicKey: Hex
  votingPower: Hex
  online: boolean
}
export interface HaltEvent {
  type: 'halt' | 'resume'
  height: bigint
  reason?: string
  at: Date
}
/** Duplicate-vote evidence: from finality_getEvidence at start, then from the consensus events. */
export interface Evidence {
  validator: Hex
  height: Hex
  round: Hex
  step: unknown
}

/** Adds evidence once: the start's read and the subscription may both tell the same. */
function addEvidence(e: Evidence): void {
  const key = (x: Evidence) => `${x.validator.toLowerCase()}/${BigInt(x.height)}/${BigInt(x.round)}/${String(x.step)}`
  if (!store.evidence.some((x) => key(x) === key(e))) store.evidence.push(e)
}

const KEEP_BLOCKS = 25
const KEEP_HEIGHTS = 12

export const store = {
  chainId: undefined as bigint | undefined,
  modules: undefined as Record<string, string> | undefined,
  blocks: [] as Block[],
  heights: new Map<bigint, Height>(),
  halts: [] as HaltEvent[],
  evidence: [] as Evidence[],
  validators: [] as Validator[],
  faults: [] as Array<{ validator: Hex } & Record<string, unknown>>,
  /** The partition in force (finality_getConsensusState): groups that hear only each other; null for none. */
  partition: null as Hex[][] | null,
  feed: 'connecting' as Feed['status'],
  problems: new Map<string, string>(),
  listeners: new Set<() => void>(),
}

/** Tells the views. */
export function changed(): void {
  for (const l of store.listeners) l()
}

/** Whether the server serves `namespace` (unknown until rpc_modules answered: assumed served). */
export function serves(namespace: string): boolean {
  return store.modules === undefined || namespace in store.modules
}

/** The chain is halted: a halt told after the last resume. */
export function haltedAt(): HaltEvent | undefined {
  const last = store.halts.at(-1)
  return last?.type === 'halt' ? last : undefined
}

async function addBlock(hash: Hex): Promise<void> {
  const block = await call<Block | null>('eth_getBlockByHash', [hash, true])
  if (block === null) return
  // A revert (evm_revert) drops blocks: those at or above a new block's number go.
  store.blocks = [block, ...store.blocks.filter((b) => BigInt(b.number) < BigInt(block.number))].slice(0, KEEP_BLOCKS)
  changed()
}

/**
 * How many `faults` events have arrived: a re-read answered after one of them started before it,
 * and its faults and partition are older than the event's.
 */
let faultsEvents = 0

/** Re-reads the validators and the faults (after a commit, a control, a halt). */
export async function refreshValidators(): Promise<void> {
  const seen = faultsEvents
  try {
    store.validators = await call<Validator[]>('finality_getValidators')
    const state = await call<{ faults: typeof store.faults; partition: Hex[][] | null }>('finality_getConsensusState')
    if (faultsEvents === seen) {
      store.faults = state.faults
      store.partition = state.partition
    }
    store.problems.delete('finality')
  } catch (e) {
    store.problems.set('finality', explain(e))
  }
  changed()
}

function heightOf(n: bigint): Height {
  let h = store.heights.get(n)
  if (h === undefined) {
    h = { height: n, rounds: new Map() }
    store.heights.set(n, h)
    const keep = [...store.heights.keys()].sort((a, b) => (a < b ? 1 : -1)).slice(KEEP_HEIGHTS)
    for (const k of keep) store.heights.delete(k)
  }
  return h
}

function seatOf(h: Height, round: number, validator: Hex): Seat {
  let r = h.rounds.get(round)
  if (r === undefined) h.rounds.set(round, (r = { round, seats: new Map() }))
  let seat = r.seats.get(validator)
  if (seat === undefined) r.seats.set(validator, (seat = { timeouts: [] }))
  return seat
}

type ConsensusEvent =
  | { type: 'faults'; faults: typeof store.faults; partition: Hex[][] | null }
  | { type: Exclude<string, 'faults'>; height: Hex; round?: Hex; validator?: Hex; proposer?: Hex; blockHash?: Hex | null; step?: string; reason?: string }

/** One finality_subscription event into the heights, halts, evidence, faults and partition. */
export function consensusEvent(event: ConsensusEvent): void {
  if ('faults' in event) {
    // A control changed them (this page's buttons or any other client).
    faultsEvents++
    store.faults = event.faults
    store.partition = event.partition
    changed()
    return
  }
  const e = event
  const height = BigInt(e.height)
  const round = e.round === undefined ? 0 : Number(BigInt(e.round))
  const h = heightOf(height)
  switch (e.type) {
    case 'newRound': {
      seatOf(h, round, e.validator as Hex)
      const r = h.rounds.get(round)
      if (r !== undefined) r.proposer = e.proposer
      break
    }
    case 'proposal':
      seatOf(h, round, e.proposer as Hex).proposed = e.blockHash as Hex
      break
    case 'vote': {
      const seat = seatOf(h, round, e.validator as Hex)
      if (e.step === 'prevote') seat.prevote = e.blockHash ?? null
      else seat.precommit = e.blockHash ?? null
      break
    }
    case 'polka':
      seatOf(h, round, e.validator as Hex).polka = true
      break
    case 'lock':
      seatOf(h, round, e.validator as Hex).lock = true
      break
    case 'timeout':
      seatOf(h, round, e.validator as Hex).timeouts.push(e.step ?? '?')
      break
    case 'commit':
      h.commit = { round, blockHash: e.blockHash as Hex, proposer: e.proposer as Hex }
      delete h.halted
      void refreshValidators()
      break
    case 'evidence':
      addEvidence({ validator: e.validator as Hex, height: e.height, round: e.round ?? '0x0', step: e.step })
      break
    case 'halt':
      h.halted = e.reason ?? ''
      store.halts.push({ type: 'halt', height, reason: e.reason ?? '', at: new Date() })
      void refreshValidators()
      break
    case 'resume':
      store.halts.push({ type: 'resume', height, at: new Date() })
      break
  }
  changed()
}

const POLL_MS = 1000

/** Adds the blocks after the newest one shown, up to the head. */
async function poll(): Promise<void> {
  try {
    const head = BigInt(await call<Hex>('eth_blockNumber'))
    const shown = store.blocks[0] === undefined ? head - 1n : BigInt(store.blocks[0].number)
    for (let n = shown + 1n > head - 10n ? shown + 1n : head - 10n; n <= head; n++) {
      const block = await call<Block | null>('eth_getBlockByNumber', [`0x${n.toString(16)}`, false])
      if (block !== null) await addBlock(block.hash)
    }
  } catch (e) {
    store.problems.set('eth', explain(e))
  }
}

/** The latest blocks read anew: at start, and after a revert (which drops blocks and tells no subscriber). */
export async function reloadBlocks(): Promise<void> {
  const head = BigInt(await call<Hex>('eth_blockNumber'))
  const numbers = Array.from({ length: Number(head < 10n ? head + 1n : 10n) }, (_, i) => head - BigInt(i))
  const blocks = await Promise.all(numbers.map((n) => call<Block | null>('eth_getBlockByNumber', [`0x${n.toString(16)}`, true])))
  store.blocks = blocks.filter((b): b is Block => b !== null)
  changed()
}

/** Loads what is there and subscribes to what comes. */
export async function start(): Promise<void> {
  try {
    store.modules = await call<Record<string, string>>('rpc_modules')
  } catch {
    store.modules = undefined
  }
  try {
    store.chainId = BigInt(await call<Hex>('eth_chainId'))
    await reloadBlocks()
    for (const ev of await call<Evidence[]>('finality_getEvidence').catch(() => [])) addEvidence(ev)
  } catch (e) {
    store.problems.set('eth', explain(e))
  }
  await refreshValidators()
  const feed = new Feed(wsUrl)
  feed.onStatus = (status, error) => {
    store.feed = status
    if (error === undefined) store.problems.delete('ws')
    else store.problems.set('ws', error)
    changed()
  }
  // Without the WebSocket (a server that has none, or while it reconnects) new blocks are polled.
  setInterval(() => void (feed.status === 'open' ? undefined : poll()), POLL_MS)
  feed.subscribe('eth_subscribe', ['newHeads'], (head) => void addBlock((head as { hash: Hex }).hash), (e) => store.problems.set('live blocks', explain(e)))
  feed.subscribe('finality_subscribe', ['consensus'], (e) => consensusEvent(e as ConsensusEvent), (e: RpcError) => {
    store.problems.set('live consensus', explain(e))
    changed()
  })
}
