/**
 * State dumps: the whole head state as versioned JSON, for `anvil_dumpState` / `anvil_loadState`,
 * `node.dumpState()` and `createNode({ state })`.
 *
 * Format (version 1):
 * ```json
 * { "format": "finality-state", "version": 1, "chainId": "0x7a69",
 *   "block": { "number": "0x5", "timestamp": "0x…" },
 *   "accounts": { "0x…address": { "nonce": "0x1", "balance": "0x…", "code": "0x…",
 *                                 "storage": { "0x…slot (32 bytes)": "0x…value (32 bytes)" } } } }
 * ```
 * Over RPC the dump travels as `0x` + hex of the gzipped JSON, as Anvil's does. Later versions
 * must keep loading version 1 (a test keeps a version-1 dump as a fixture).
 */
import { nodeZlib } from '../builtins.js'
import type { Chain } from '../chain/chain.js'
import { InvalidInput } from '../domain-errors.js'
import { data, fromHex, quantity, type Hex } from '../hex.js'
import type { GenesisAccount } from '../options.js'

/** The current dump version. */
export const STATE_DUMP_VERSION = 1

/** A state dump. */
export interface StateDump {
  format: 'finality-state'
  version: number
  chainId: Hex
  block: { number: Hex; timestamp: Hex }
  /**
   * A fork's dump states its fork point: `accounts` holds only what the fork read or wrote, and
   * every other account and slot is the remote chain's at this block.
   */
  fork?: { blockNumber: Hex; blockHash: Hex; stateRoot: Hex }
  accounts: Record<Hex, { nonce: Hex; balance: Hex; code?: Hex; storage?: Record<Hex, Hex> }>
}

const HEX = /^0x[0-9a-fA-F]*$/

function pad32(bytes: Uint8Array): Hex {
  const out = new Uint8Array(32)
  out.set(bytes, 32 - bytes.length)
  return data(out)
}

/** The head state as a dump. */
export function dumpState(chain: Chain, chainId: bigint): StateDump {
  const accounts: StateDump['accounts'] = {}
  const fork = chain.forkBlock
  const entries = [...chain.headAccounts()].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0))
  for (const { address, account, code, storage: slots } of entries) {
    const entry: StateDump['accounts'][Hex] = { nonce: quantity(account.nonce), balance: quantity(account.balance) }
    if (code !== undefined && code.length > 0) entry.code = data(code)
    if (slots !== undefined && slots.size > 0) {
      entry.storage = {}
      for (const slot of [...slots.keys()].sort()) entry.storage[`0x${slot}`] = pad32(slots.get(slot) as Uint8Array)
    }
    accounts[`0x${address}`] = entry
  }
  return {
    format: 'finality-state',
    version: STATE_DUMP_VERSION,
    chainId: quantity(chainId),
    block: { number: quantity(chain.height), timestamp: quantity(chain.head.header.timestamp) },
    ...(fork === undefined ? {} : { fork: { blockNumber: quantity(fork.header.number), blockHash: data(fork.hash()), stateRoot: data(fork.header.stateRoot) } }),
    accounts,
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

/** Reads a dump in any supported version, from its object, JSON text or RPC (gzip hex) form. */
export function parseDump(input: unknown): StateDump {
  let value = input
  if (typeof value === 'string') {
    if (!HEX.test(value)) fail('not hex')
    let text: string
    try {
      text = nodeZlib().gunzipSync(fromHex(value)).toString('utf8')
    } catch {
      fail('not gzip data')
    }
    try {
      value = JSON.parse(text)
    } catch {
      fail('not JSON')
    }
  }
  if (typeof value !== 'object' || value === null) fail('not an object')
  const o = value as Record<string, unknown>
  if (o.format !== 'finality-state') fail('unknown format')
  if (typeof o.version !== 'number' || o.version < 1 || o.version > STATE_DUMP_VERSION) fail(`unsupported version ${String(o.version)}`)
  if (typeof o.accounts !== 'object' || o.accounts === null) fail('no accounts')
  const accounts: StateDump['accounts'] = {}
  for (const [address, raw] of Object.entries(o.accounts as Record<string, unknown>)) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) fail(`bad address ${address}`)
    if (typeof raw !== 'object' || raw === null) fail(`account ${address} is not an object`)
    const a = raw as Record<string, unknown>
    const entry: StateDump['accounts'][Hex] = {
      nonce: hexField(a.nonce ?? '0x0', 'nonce'),
      balance: hexField(a.balance ?? '0x0', 'balance'),
    }
    if (a.code !== undefined) entry.code = hexField(a.code, 'code')
    if (a.storage !== undefined) {
      if (typeof a.storage !== 'object' || a.storage === null) fail('storage is not an object')
      entry.storage = {}
      for (const [slot, v] of Object.entries(a.storage as Record<string, unknown>)) entry.storage[hexField(slot, 'slot')] = hexField(v, 'storage value')
    }
    accounts[address.toLowerCase() as Hex] = entry
  }
  return {
    format: 'finality-state',
    version: o.version,
    chainId: hexField(o.chainId ?? '0x0', 'chainId'),
    block: { number: '0x0', timestamp: '0x0', ...(o.block as object) } as StateDump['block'],
    ...(typeof o.fork === 'object' && o.fork !== null ? { fork: o.fork as StateDump['fork'] } : {}),
    accounts,
  }
}

/** A dump's accounts as genesis allocations. */
export function dumpToAlloc(dump: StateDump): Record<Hex, GenesisAccount> {
  const alloc: Record<Hex, GenesisAccount> = {}
  for (const [address, a] of Object.entries(dump.accounts) as Array<[Hex, StateDump['accounts'][Hex]]>) {
    const entry: GenesisAccount = { nonce: BigInt(a.nonce), balance: BigInt(a.balance) }
    if (a.code !== undefined) entry.code = a.code
    if (a.storage !== undefined) entry.storage = a.storage
    alloc[address] = entry
  }
  return alloc
}
