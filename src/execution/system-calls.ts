/**
 * The system operations a block runs besides its transactions (Cancun and Prague): the parent
 * beacon root (EIP-4788) and parent hash (EIP-2935) writes before the transactions, and the
 * execution-layer requests (EIP-6110 deposits, EIP-7002 withdrawals, EIP-7251 consolidations)
 * after them, whose `requestsHash` goes into the header (EIP-7685).
 */
import type { Block } from '@ethereumjs/block'
import { type Common, Mainnet } from '@ethereumjs/common'
import { type Address, createAddressFromString } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
import { JournaledState } from '../state/journaled-state.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { concat, equalBytes, word } from '../hex.js'
import { keccak256 } from '../crypto/keccak.js'
import type { RawLog } from '../chain/receipts.js'
import { emptyDiff, type StateDiff, type SyncStateReader } from '../state/types.js'
import { SYSTEM_CONTRACTS } from '../chain/system-contracts.js'
import { fromHex } from '../hex.js'
import { depositContractAddress } from './engine/common.js'

const SYSTEM_ADDRESS = createAddressFromString('0xfffffffffffffffffffffffffffffffffffffffe')
const BEACON_ROOTS = createAddressFromString('0x000f3df6d732807ef1319fb7b8bb8522d0beac02')
const HISTORY_STORAGE = createAddressFromString('0x0000f90827f1c53a10cb7a02335b175320002935')
const WITHDRAWAL_REQUESTS = createAddressFromString('0x00000961ef480eb55e80d19ad83579a64c007002')
const CONSOLIDATION_REQUESTS = createAddressFromString('0x0000bbddc7ce488642fb579f8b00f3a590007251')
const RING = 8191n
const SYSTEM_CALL_GAS = 30_000_000n
const EMPTY = new Uint8Array(0)
const DEPOSIT_TOPIC = fromHex('0x649bbc62d0e31342afea4e5cd82d4049e7e1ee912fc0889aa790803be39038c5')

/**
 * keccak256 of the canonical code of each request contract, for the fast path. Made at the first
 * block, not at import: hashed then, before a node has started its WebAssembly keccak, the codes
 * (a few KB) went through @noble/hashes' cold keccak, ~2-5 ms of every process's start.
 */
let canonical: Map<string, Uint8Array> | undefined
const canonicalCodeHashes = (): Map<string, Uint8Array> =>
  (canonical ??= new Map(SYSTEM_CONTRACTS.map((c) => [c.address.slice(2), keccak256(fromHex(c.code))])))

/** EIP-4788 and EIP-2935: store the parent beacon root and parent hash in their ring buffers. */
export async function preBlock(vm: VM, number: bigint, timestamp: bigint, parentHash: Uint8Array, beaconRoot: Uint8Array): Promise<void> {
  const state = vm.stateManager
  // The block builder's overlay reads and writes the head synchronously: no promise per access then.
  const now = state instanceof JournaledState ? state : undefined
  const writes: Array<[Address, Uint8Array, Uint8Array]> = []
  if (vm.common.isActivatedEIP(4788) && (now?.codeNow(BEACON_ROOTS) ?? (await state.getCode(BEACON_ROOTS))).length > 0) {
    const index = timestamp % RING
    writes.push([BEACON_ROOTS, word(index), word(timestamp)], [BEACON_ROOTS, word(index + RING), beaconRoot])
  }
  if (vm.common.isActivatedEIP(2935) && number > 0n && (now?.codeNow(HISTORY_STORAGE) ?? (await state.getCode(HISTORY_STORAGE))).length > 0) {
    writes.push([HISTORY_STORAGE, word((number - 1n) % RING), parentHash])
  }
  for (const [address, key, value] of writes) {
    if (now !== undefined) now.setStorage(address, key, value)
    else await state.putStorage(address, key, value)
  }
}

/**
 * {@link preBlock} on the block builder's overlay, without a promise (it reads and writes the
 * head synchronously). The beacon root of this chain's blocks is zero: written over a zero slot
 * it changes nothing, so it is left out, as {@link emptyBlockEffects} does (one slot less for the
 * state root's trie walk every block).
 */
export function preBlockNow(state: JournaledState, common: Common, number: bigint, timestamp: bigint, parentHash: Uint8Array, beaconRoot: Uint8Array): boolean {
  const beacon = common.isActivatedEIP(4788) ? state.codeNow(BEACON_ROOTS) : EMPTY
  const history = common.isActivatedEIP(2935) && number > 0n ? state.codeNow(HISTORY_STORAGE) : EMPTY
  if (beacon === undefined || history === undefined) return false
  if (beacon.length > 0) {
    const index = timestamp % RING
    const rootSlot = word(index + RING)
    let writeRoot = true
    if (isZero(beaconRoot)) {
      const current = state.storageNow(BEACON_ROOTS, rootSlot)
      if (current === undefined) return false
      writeRoot = !isZero(current)
    }
    state.setStorage(BEACON_ROOTS, word(index), word(timestamp))
    if (writeRoot) state.setStorage(BEACON_ROOTS, rootSlot, beaconRoot)
  }
  if (history.length > 0) state.setStorage(HISTORY_STORAGE, word((number - 1n) % RING), parentHash)
  return true
}

/** One execution-layer request: its type byte and data. */
export interface ExecutionRequest {
  type: number
  data: Uint8Array
}

/** EIP-6110: deposit requests from the deposit contract's DepositEvent logs. */
function deposits(logs: RawLog[], depositContract: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = []
  for (const [address, topics, data] of logs) {
    if (!equalBytes(address, depositContract) || topics[0] === undefined || !equalBytes(topics[0], DEPOSIT_TOPIC)) continue
    // DepositEvent(bytes pubkey, bytes withdrawal_credentials, bytes amount, bytes signature, bytes index):
    // fixed ABI layout, each field at its offset after a 32-byte length word.
    const field = (offset: number, size: number) => data.subarray(offset + 32, offset + 32 + size)
    parts.push(field(160, 48), field(256, 32), field(320, 8), field(384, 96), field(512, 8))
  }
  return concat(...parts)
}

/** The queue head and tail and the excess and count words of a request contract: slots 0-3. */
const QUEUE_SLOTS = [0n, 1n, 2n, 3n].map((slot) => word(slot))

function isZero(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) return false
  return true
}

/** Code already compared with a contract's canonical code (the same bytes are read each block). */
const checkedCode = new WeakMap<Uint8Array, { contract: string; canonical: boolean }>()

/** Each request contract's key in {@link canonicalCodeHashes} (Address#toString hexes on every call). */
const contractKeys = new WeakMap<Address, string>()

function isCanonicalCode(contract: Address, code: Uint8Array): boolean {
  let key = contractKeys.get(contract)
  if (key === undefined) {
    key = contract.toString().slice(2)
    contractKeys.set(contract, key)
  }
  const known = checkedCode.get(code)
  if (known?.contract === key) return known.canonical
  const expected = canonicalCodeHashes().get(key)
  const canonical = expected !== undefined && equalBytes(keccak256(code), expected)
  checkedCode.set(code, { contract: key, canonical })
  return canonical
}

/**
 * EIP-7002 / EIP-7251: a system call that dequeues the contract's requests. When the contract
 * holds its canonical code and its queue and counters are all zero, the call returns nothing and
 * writes nothing (every SSTORE writes back a zero), so the EVM run is skipped: it took ~0.3 ms
 * per contract per block.
 */
async function dequeue(vm: VM, contract: Address, block: Block): Promise<Uint8Array> {
  const state = vm.stateManager
  // The block builder's overlay reads the head synchronously: no promise per read then.
  const now = state instanceof JournaledState ? state : undefined
  const code = now?.codeNow(contract) ?? (await state.getCode(contract))
  if (code.length === 0) return new Uint8Array(0)
  if (isCanonicalCode(contract, code)) {
    let idle = true
    for (let slot = 0; slot < 4 && idle; slot++) {
      const key = QUEUE_SLOTS[slot] as Uint8Array
      idle = isZero(now?.storageNow(contract, key) ?? (await state.getStorage(contract, key)))
    }
    if (idle) return new Uint8Array(0)
  }
  const systemAccount = await state.getAccount(SYSTEM_ADDRESS)
  const result = await vm.evm.runCall({ caller: SYSTEM_ADDRESS, to: contract, gasLimit: SYSTEM_CALL_GAS, block })
  if (systemAccount === undefined) await state.deleteAccount(SYSTEM_ADDRESS)
  else await state.putAccount(SYSTEM_ADDRESS, systemAccount)
  if (result.execResult.exceptionError !== undefined) {
    throw new Error(`system contract call failed: ${contract.toString()} (${result.execResult.exceptionError.error})`)
  }
  return result.execResult.returnValue
}

/** Each Common's deposit contract, parsed once. */
const depositContracts = new WeakMap<object, Uint8Array>()

/** The chain's deposit contract (EIP-6110), from its chain configuration. */
function depositContract(vm: VM): Uint8Array {
  let address = depositContracts.get(vm.common)
  if (address === undefined) {
    address = fromHex(depositContractAddress(vm.common) ?? Mainnet.depositContractAddress ?? '0x' + '00'.repeat(20))
    depositContracts.set(vm.common, address)
  }
  return address
}

/** The `requestsHash` of a block without requests: sha256 of nothing. */
const EMPTY_REQUESTS_HASH = sha256(new Uint8Array(0))

/** The requests of a block (EIP-7685) and their `requestsHash`. */
export async function postBlock(vm: VM, block: Block, logs: RawLog[]): Promise<{ requests: ExecutionRequest[]; requestsHash: Uint8Array }> {
  const requests: ExecutionRequest[] = [
    // No logs, no deposits: an empty block need not look up the deposit contract.
    { type: 0, data: logs.length === 0 ? new Uint8Array(0) : deposits(logs, depositContract(vm)) },
    { type: 1, data: await dequeue(vm, WITHDRAWAL_REQUESTS, block) },
    { type: 2, data: await dequeue(vm, CONSOLIDATION_REQUESTS, block) },
  ]
  if (requests.every((r) => r.data.length === 0)) return { requests, requestsHash: EMPTY_REQUESTS_HASH }
  const hashes = requests.filter((r) => r.data.length > 0).map((r) => sha256(concat(Uint8Array.of(r.type), r.data)))
  return { requests, requestsHash: sha256(concat(...hashes)) }
}

/**
 * The `requestsHash` {@link postBlock} answers, without a promise, when no request contract has to
 * run in the EVM (each holds its canonical code with an empty queue, or has no code) and the logs
 * carry no deposit; undefined otherwise (then {@link postBlock} runs).
 */
export function idleRequestsHash(state: JournaledState, vm: VM, logs: RawLog[]): Uint8Array | undefined {
  if (logs.length > 0 && deposits(logs, depositContract(vm)).length > 0) return undefined
  for (const contract of [WITHDRAWAL_REQUESTS, CONSOLIDATION_REQUESTS]) {
    const code = state.codeNow(contract)
    if (code === undefined) return undefined
    if (code.length === 0) continue
    if (!isCanonicalCode(contract, code)) return undefined
    for (const key of QUEUE_SLOTS) {
      const value = state.storageNow(contract, key)
      if (value === undefined || !isZero(value)) return undefined
    }
  }
  return EMPTY_REQUESTS_HASH
}

/** The contracts' state keys (unprefixed lower-case hex), for reads of the flat head state. */
const KEY = {
  beaconRoots: BEACON_ROOTS.toString().slice(2),
  history: HISTORY_STORAGE.toString().slice(2),
  requests: [WITHDRAWAL_REQUESTS, CONSOLIDATION_REQUESTS].map((a) => ({ address: a, key: a.toString().slice(2) })),
}
const QUEUE_SLOT_KEYS = QUEUE_SLOTS.map((slot) => Buffer.from(slot).toString('hex'))

/** A storage value as the state keeps it: without leading zeros (empty for zero). */
function unpadded(value: Uint8Array): Uint8Array {
  let i = 0
  while (i < value.length && value[i] === 0) i++
  return i === 0 ? value : value.slice(i)
}

/**
 * Everything a block without transactions changes, read from the head state without an EVM:
 * the EIP-4788 and EIP-2935 ring writes {@link preBlock} makes, and, where EIP-7685 is active,
 * the requests hash of a block without requests. Undefined when a request contract would have to
 * run in the EVM (code that is not its canonical code, or requests waiting in its queue): such a
 * block is built the general way. `hardhat_mine` of thousands of blocks goes through here.
 */
export function emptyBlockEffects(
  now: SyncStateReader,
  common: Common,
  number: bigint,
  timestamp: bigint,
  parentHash: Uint8Array,
  beaconRoot: Uint8Array,
): { diff: StateDiff; requestsHash: Uint8Array | undefined } | undefined {
  let requestsHash: Uint8Array | undefined
  if (common.isActivatedEIP(7685)) {
    for (const { address, key } of KEY.requests) {
      const code = now.code(key)
      if (code.length === 0) continue
      if (!isCanonicalCode(address, code)) return undefined
      for (const slot of QUEUE_SLOT_KEYS) if (!isZero(now.storage(key, slot))) return undefined
    }
    requestsHash = EMPTY_REQUESTS_HASH
  }
  const diff = emptyDiff()
  const write = (address: string, slot: bigint, value: Uint8Array) => {
    let slots = diff.storage.get(address)
    if (slots === undefined) diff.storage.set(address, (slots = new Map()))
    slots.set(slot.toString(16).padStart(64, '0'), unpadded(value))
  }
  if (common.isActivatedEIP(4788) && now.code(KEY.beaconRoots).length > 0) {
    const index = timestamp % RING
    write(KEY.beaconRoots, index, word(timestamp))
    // This chain's beacon roots are zero: writing one over a zero slot changes nothing, and
    // leaving it out spares the trie a walk and a hashed key per block.
    const rootSlot = (index + RING).toString(16).padStart(64, '0')
    if (!isZero(beaconRoot) || !isZero(now.storage(KEY.beaconRoots, rootSlot))) write(KEY.beaconRoots, index + RING, beaconRoot)
  }
  if (common.isActivatedEIP(2935) && number > 0n && now.code(KEY.history).length > 0) {
    write(KEY.history, (number - 1n) % RING, parentHash)
  }
  return { diff, requestsHash }
}
