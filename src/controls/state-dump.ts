/**
 * State dumps: the whole head state as versioned JSON, for `anvil_dumpState` / `anvil_loadState`,
 * `node.dumpState()`, `createNode({ state })` and the CLI's `--state` / `--dump-state` /
 * `--load-state` files. One format that Anvil reads too, and Anvil's own read here.
 *
 * Format (version 2), a superset of Anvil's `SerializableState`:
 * ```json
 * { "format": "finality-state", "version": 2, "chainId": "0x7a69",
 *   "head": { "number": "0x5", "timestamp": "0x…" },
 *   "accounts": { "0x…address": { "nonce": 1, "balance": "0x…", "code": "0x…",
 *                                 "storage": { "0x…slot (32 bytes)": "0x…value (32 bytes)" } } },
 *   "block": null, "best_block_number": null, "blocks": [], "transactions": [] }
 * ```
 * Anvil 1.7.1 refuses a dump without `block`, `best_block_number`, `blocks` and `transactions`, an
 * account without `code` and `storage`, and a nonce that is not a JSON number; it ignores fields it
 * does not know. Its `block` is its block environment, which it loads only with the blocks that
 * end at it (else `Best hash not found`): a state dump has no blocks, so `null`. Our own header
 * facts are in `head`. Version 1 (`block: { number, timestamp }`, nonces as hex) still loads (a
 * test keeps a version-1 dump as a fixture). An Anvil dump (no `format`) loads as its accounts:
 * its blocks and transactions are Anvil's history, which this chain does not take.
 *
 * Over RPC the dump travels as `0x` + hex of the gzipped JSON, as Anvil's does; Anvil's
 * anvil_loadState also takes hex of the plain JSON, and so does this one.
 */
import { nodeZlib } from '../builtins.js'
import type { Chain } from '../chain/chain.js'
import { InvalidInput } from '../domain-errors.js'
import { data, fromHex, quantity, type Hex } from '../hex.js'
import type { GenesisAccount } from '../options.js'

/** The current dump version. */
export const STATE_DUMP_VERSION = 2

/** One account of a dump: a nonce past 2^53 is written as hex (Anvil cannot read that one). */
export interface DumpAccount {
  nonce: number | Hex
  balance: Hex
  code: Hex
  storage: Record<Hex, Hex>
}

/** A state dump. */
export interface StateDump {
  format: 'finality-state'
  version: number
  chainId: Hex
  /** The head block's number and time when the dump was made. */
  head: { number: Hex; timestamp: Hex }
  /**
   * A fork's dump states its fork point: `accounts` holds only what the fork read or wrote, and
   * every other account and slot is the remote chain's at this block.
   */
  fork?: { blockNumber: Hex; blockHash: Hex; stateRoot: Hex }
  accounts: Record<Hex, DumpAccount>
  /** Anvil's fields, there so Anvil loads the dump: no block environment, no blocks. */
  block: null
  best_block_number: null
  blocks: []
  transactions: []
}

const HEX = /^0x[0-9a-fA-F]*$/

function pad32(bytes: Uint8Array): Hex {
  const out = new Uint8Array(32)
  out.set(bytes, 32 - bytes.length)
  return data(out)
}

/** A hex quantity of at most 32 bytes as a 32-byte word (Anvil writes slots and values that way). */
function word(hex: Hex): Hex {
  return `0x${hex.slice(2).padStart(64, '0')}`
}

/** The head state as a dump. */
export function dumpState(chain: Chain, chainId: bigint): StateDump {
  const accounts: StateDump['accounts'] = {}
  const fork = chain.forkBlock
  const entries = [...chain.headAccounts()].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0))
  for (const { address, account, code, storage: slots } of entries) {
    const storage: Record<Hex, Hex> = {}
    if (slots !== undefined) for (const slot of [...slots.keys()].sort()) storage[`0x${slot}`] = pad32(slots.get(slot) as Uint8Array)
    const nonce = account.nonce <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(account.nonce) : quantity(account.nonce)
    accounts[`0x${address}`] = { nonce, balance: quantity(account.balance), code: code === undefined ? '0x' : data(code), storage }
  }
  return {
    format: 'finality-state',
    version: STATE_DUMP_VERSION,
    chainId: quantity(chainId),
    head: { number: quantity(chain.height), timestamp: quantity(chain.head.header.timestamp) },
    ...(fork === undefined ? {} : { fork: { blockNumber: quantity(fork.header.number), blockHash: data(fork.hash()), stateRoot: data(fork.header.stateRoot) } }),
    accounts,
    block: null,
    best_block_number: null,
    blocks: [],
    transactions: [],
  }
}

/** gzip + hex, the RPC form. */
export function encodeDump(dump: StateDump): Hex {
  return data(nodeZlib().gzipSync(JSON.stringify(dump)))
}

function fail(reason: string): never {
  throw new InvalidInput(`invalid state dump: ${reason}`)
}

function hexField(value: unknown, what: string): Hex {
  if (typeof value !== 'string' || !HEX.test(value)) fail(`${what} is not a hex string`)
  return value as Hex
}

/** A quantity as Anvil writes it (a JSON number) or as hex (our version 1). */
function quantityField(value: unknown, what: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(value)) return BigInt(value)
  fail(`${what} is not a quantity (a JSON number or 0x-prefixed hex)`)
}

/** A slot or value: hex of at most 32 bytes. */
function wordField(value: unknown, what: string): Hex {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) fail(`${what} is not hex of at most 32 bytes`)
  return word(value as Hex)
}

/** The bytes of the RPC form: gzip (Anvil's and ours), or plain JSON (Anvil takes that too). */
function decodeHex(value: string): unknown {
  if (!HEX.test(value) || value.length % 2 !== 0) fail('not hex')
  const bytes = fromHex(value)
  let text: string
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      text = nodeZlib().gunzipSync(bytes).toString('utf8')
    } catch {
      fail('not gzip data')
    }
  } else text = Buffer.from(bytes).toString('utf8')
  try {
    return JSON.parse(text)
  } catch {
    fail('neither gzipped JSON nor JSON')
  }
}

function headOf(o: Record<string, unknown>): StateDump['head'] {
  // Version 2: `head`; version 1: `block`; Anvil: its block environment or best_block_number.
  const from = (typeof o.head === 'object' && o.head !== null ? o.head : typeof o.block === 'object' && o.block !== null ? o.block : {}) as Record<string, unknown>
  const number = from.number ?? o.best_block_number ?? 0
  return {
    number: quantity(quantityField(number, 'head number')),
    timestamp: quantity(quantityField(from.timestamp ?? 0, 'head timestamp')),
  }
}

/** Reads a dump (ours in any version, or Anvil's), from its object, JSON text or RPC (hex) form. */
export function parseDump(input: unknown): StateDump {
  let value = input
  if (typeof value === 'string') value = value.trimStart().startsWith('{') ? parseJson(value) : decodeHex(value)
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('not an object')
  const o = value as Record<string, unknown>
  const anvil = o.format === undefined
  if (!anvil && o.format !== 'finality-state') fail('unknown format')
  const version = anvil ? STATE_DUMP_VERSION : o.version
  if (typeof version !== 'number' || version < 1 || version > STATE_DUMP_VERSION) fail(`unsupported version ${String(o.version)}`)
  if (typeof o.accounts !== 'object' || o.accounts === null || Array.isArray(o.accounts)) fail('no accounts')
  const accounts: StateDump['accounts'] = {}
  for (const [address, raw] of Object.entries(o.accounts as Record<string, unknown>)) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) fail(`bad address ${address}`)
    if (typeof raw !== 'object' || raw === null) fail(`account ${address} is not an object`)
    const a = raw as Record<string, unknown>
    const storage: Record<Hex, Hex> = {}
    if (a.storage !== undefined && a.storage !== null) {
      if (typeof a.storage !== 'object') fail(`storage of ${address} is not an object`)
      for (const [slot, v] of Object.entries(a.storage as Record<string, unknown>)) storage[wordField(slot, 'slot')] = wordField(v, 'storage value')
    }
    const nonce = quantityField(a.nonce ?? 0, `nonce of ${address}`)
    accounts[address.toLowerCase() as Hex] = {
      nonce: nonce <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(nonce) : quantity(nonce),
      balance: quantity(quantityField(a.balance ?? '0x0', `balance of ${address}`)),
      code: a.code === undefined || a.code === null ? '0x' : hexField(a.code, `code of ${address}`),
      storage,
    }
  }
  return {
    format: 'finality-state',
    version,
    chainId: anvil ? '0x0' : hexField(o.chainId ?? '0x0', 'chainId'),
    head: headOf(o),
    ...(typeof o.fork === 'object' && o.fork !== null ? { fork: o.fork as StateDump['fork'] } : {}),
    accounts,
    block: null,
    best_block_number: null,
    blocks: [],
    transactions: [],
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    fail('not JSON')
  }
}

/** A dump's accounts as genesis allocations. */
export function dumpToAlloc(dump: StateDump): Record<Hex, GenesisAccount> {
  const alloc: Record<Hex, GenesisAccount> = {}
  for (const [address, a] of Object.entries(dump.accounts) as Array<[Hex, DumpAccount]>) {
    const entry: GenesisAccount = { nonce: BigInt(a.nonce), balance: BigInt(a.balance) }
    if (a.code !== '0x') entry.code = a.code
    if (Object.keys(a.storage).length > 0) entry.storage = a.storage
    alloc[address] = entry
  }
  return alloc
}
