/**
 * Faster equivalents of a few opcode handlers of @ethereumjs/evm: MLOAD, MSTORE, SLOAD, the
 * LOGs, CALLDATALOAD and KECCAK256. Each does exactly what the original does, through the same memory, stack, storage and
 * log calls; only the conversion between a stack bigint and a 32-byte word differs (MLOAD and
 * MSTORE read and write the word in the memory's own bytes, after the same `extend`). The
 * originals go through hex strings and pad short words with array spreads
 * (`new Uint8Array([...zeros, ...bytes])`), which was ~5 % of an ERC20 transfer. Also the
 * common two-operand opcodes and the jumps, without the array `popN` makes for every call. Also
 * synchronous gas handlers for the opcodes whose dynamic gas is only memory expansion (MLOAD,
 * MSTORE, MSTORE8, KECCAK256, RETURN, REVERT), and SLOAD and SSTORE with their gas handlers
 * without promises where the state is in memory (`fast-storage.ts`).
 *
 * The handlers live in each EVM's opcode table (`_opcodeMap`, one per EVM). The table is
 * reached through the interpreter's jump-destination analysis, which `jump-cache.ts` already
 * wraps: each table is patched in place the first time code runs against it. Only entries that
 * still hold @ethereumjs/evm's own handler are replaced (they are known from a pristine table,
 * see {@link rememberOriginalHandlers}); an entry another module wrapped keeps its wrapper.
 * The modules that wrap entries (the call time-out, tracers, transfer logs) go through
 * `engine/layers.ts`, which puts these handlers in first, so that the wrappers call them.
 */
import { keccak256, keccak256Word } from '../../crypto/keccak.js'
import { emptyObjects } from '../../arrays.js'
import { toBigInt, word, wordAt, writeBigEndian } from '../../hex.js'
import { peek, plus, type Stack } from './stack.js'
import { sload, sloadGas, sstore, sstoreGas, type StorageRunState } from './fast-storage.js'
import { forgetGasPlan, knownHandler } from './gas-plan.js'

/** One entry of an EVM's opcode table. */
interface OpcodeEntry {
  opHandler: (runState: RunState, common: unknown) => unknown
  gasHandler?: GasHandler
}

type GasHandler = (runState: RunState, gas: bigint, common: Params) => bigint | Promise<bigint>

interface Params {
  param(name: string): bigint
}

interface RunState {
  opCode: number
  programCounter: number
  memoryWordCount: bigint
  highestMemCost: bigint
  validJumps: ArrayLike<number>
  stack: Stack
  memory: {
    _store: Uint8Array
    extend(offset: number, size: number): void
    read(offset: number, size: number, avoidCopy?: boolean): Uint8Array
    write(offset: number, size: number, value: Uint8Array): void
  }
  interpreter: {
    storageLoad(key: Uint8Array): Promise<Uint8Array>
    log(data: Uint8Array, topicsCount: number, topics: Uint8Array[]): void
    getCallData(): Uint8Array
    getCallDataSize(): bigint
    _env: { code: Uint8Array }
  }
}

type OpHandler = (runState: RunState, common: unknown) => unknown

const ADD = 0x01
const MUL = 0x02
const SUB = 0x03
const DIV = 0x04
const LT = 0x10
const GT = 0x11
const EQ = 0x14
const AND = 0x16
const OR = 0x17
const XOR = 0x18
const SHL = 0x1b
const SHR = 0x1c
const JUMP = 0x56
const JUMPI = 0x57
const KECCAK256 = 0x20
const CALLDATALOAD = 0x35
const MLOAD = 0x51
const MSTORE = 0x52
const MSTORE8 = 0x53
const SLOAD = 0x54
const SSTORE = 0x55
const RETURN = 0xf3
const REVERT = 0xfd
const LOG0 = 0xa0
const LOG4 = 0xa4

const TWO_256 = 1n << 256n
const MAX_256 = TWO_256 - 1n

/**
 * The library's own handler of `opcode`, for what a replacement leaves to it: a stack too short
 * (its handler throws the underflow, before anything is popped, as `popN` does) or a failing
 * jump (its handler traps with the location).
 */
function library(opcode: number, runState: RunState, common: unknown): unknown {
  return (originals.get(opcode) as OpHandler)(runState, common)
}

/**
 * The replacements. The two-operand ones do what the library's do (`popN(2)`, the operation,
 * `push`) without `popN`'s array, one allocation per opcode; each handler is its own function,
 * so that each call site sees one callee and one operation.
 */
const replacements: Array<[number, OpHandler]> = [
  [
    ADD,
    (runState, common) => {
      const stack = runState.stack
      if (stack.length < 2) return library(ADD, runState, common)
      const r = stack.pop() + stack.pop()
      stack.push(r >= TWO_256 ? r - TWO_256 : r)
    },
  ],
  [
    MUL,
    (runState, common) => {
      const stack = runState.stack
      if (stack.length < 2) return library(MUL, runState, common)
      stack.push((stack.pop() * stack.pop()) & MAX_256)
    },
  ],
  [
    SUB,
    (runState, common) => {
      const stack = runState.stack
      if (stack.length < 2) return library(SUB, runState, common)
      const a = stack.pop()
      const b = stack.pop()
      stack.push(a >= b ? a - b : a - b + TWO_256)
    },
  ],
  [
    DIV,
    (runState, common) => {
      const stack = runState.stack
      if (stack.length < 2) return library(DIV, runState, common)
      const a = stack.pop()
      const b = stack.pop()
      stack.push(b === 0n ? 0n : a / b)
    },
  ],
  [
    LT,
    (runState, common) => {
      const stack = runState.stack
      if (stack.length < 2) return library(LT, runState, common)
      stack.push(stack.pop() < stack.pop() ? 1n : 0n)
    },
  ],
  [
    GT,
    (runState, common) => {
      const stack = runState.stack
      if (stack.length < 2) return library(GT, runState, common)
      stack.push(stack.pop() > stack.pop() ? 1n : 0n)
    },
  ],
  [
    EQ,
    (runState, common) => {
      const stack = runState.stack
      if (stack.length < 2) return library(EQ, runState, common)
      stack.push(stack.pop() === stack.pop() ? 1n : 0n)
    },
  ],
  [
    AND,
    (runState, common) => {
      const stack = runState.stack
      if (stack.length < 2) return library(AND, runState, common)
      stack.push(stack.pop() & stack.pop())
    },
  ],
  [
    OR,
    (runState, common) => {
      const stack = runState.stack
      if (stack.length < 2) return library(OR, runState, common)
      stack.push(stack.pop() | stack.pop())
    },
  ],
  [
    XOR,
    (runState, common) => {
      const stack = runState.stack
      if (stack.length < 2) return library(XOR, runState, common)
      stack.push(stack.pop() ^ stack.pop())
    },
  ],
  [
    SHL,
    (runState, common) => {
      const stack = runState.stack
      if (stack.length < 2) return library(SHL, runState, common)
      const shift = stack.pop()
      const value = stack.pop()
      stack.push(shift > 256n ? 0n : (value << shift) & MAX_256)
    },
  ],
  [
    SHR,
    (runState, common) => {
      const stack = runState.stack
      if (stack.length < 2) return library(SHR, runState, common)
      const shift = stack.pop()
      const value = stack.pop()
      stack.push(shift > 256n ? 0n : value >> shift)
    },
  ],
  [
    JUMPI,
    (runState, common) => {
      const stack = runState.stack
      if (stack.length < 2) return library(JUMPI, runState, common)
      const cond = peek(stack, 1)
      if (cond === 0n) {
        stack.pop()
        stack.pop()
        return
      }
      const dest = peek(stack, 0)
      // Past the code or not a JUMPDEST: the library's handler pops, checks and traps.
      // (`getCodeSize()` is the length as a new bigint; compared with the number itself here.)
      if (dest > runState.interpreter._env.code.length || runState.validJumps[Number(dest)] !== 1) return library(JUMPI, runState, common)
      stack.pop()
      stack.pop()
      runState.programCounter = Number(dest)
    },
  ],
  [
    JUMP,
    (runState, common) => {
      const stack = runState.stack
      if (stack.length < 1) return library(JUMP, runState, common)
      const dest = peek(stack, 0)
      if (dest > runState.interpreter._env.code.length || runState.validJumps[Number(dest)] !== 1) return library(JUMP, runState, common)
      stack.pop()
      runState.programCounter = Number(dest)
    },
  ],
  [
    MLOAD,
    (runState) => {
      const pos = Number(runState.stack.pop())
      // `memory.read(pos, 32, true)` is a new view of the memory per MLOAD; the word is read in place.
      const memory = runState.memory
      memory.extend(pos, 32)
      runState.stack.push(wordAt(memory._store, pos))
    },
  ],
  [
    MSTORE,
    (runState, common) => {
      const stack = runState.stack
      if (stack.length < 2) return library(MSTORE, runState, common)
      const offset = Number(stack.pop())
      const value = stack.pop()
      // `memory.write(offset, 32, word(value))` with the word written in place, not made first.
      const memory = runState.memory
      memory.extend(offset, 32)
      const store = memory._store
      store.fill(0, offset, offset + 32)
      writeBigEndian(store, offset + 32, value)
    },
  ],
  [
    CALLDATALOAD,
    (runState) => {
      const pos = runState.stack.pop()
      if (pos > runState.interpreter.getCallDataSize()) {
        runState.stack.push(0n)
        return
      }
      runState.stack.push(callDataWord(runState.interpreter.getCallData(), Number(pos)))
    },
  ],
  [
    KECCAK256,
    (runState, common) => {
      const hash = (common as { customCrypto: { keccak256?: (data: Uint8Array) => Uint8Array } }).customCrypto.keccak256
      // Without the node's keccak (a plain Common) the library's handler runs, with its own.
      if (hash === undefined) return (originals.get(KECCAK256) as (runState: RunState, common: unknown) => unknown)(runState, common)
      const stack = runState.stack
      if (stack.length < 2) return library(KECCAK256, runState, common)
      const offset = stack.pop()
      const length = stack.pop()
      if (length === 0n) {
        stack.push(toBigInt(hash(new Uint8Array(0))))
        return
      }
      const memory = runState.memory
      const at = Number(offset)
      const size = Number(length)
      if (hash === keccak256) {
        // The node's keccak: hashed from the memory's own bytes into a bigint (crypto/keccak.ts).
        memory.extend(at, size)
        stack.push(keccak256Word(memory._store, at, size))
        return
      }
      // A view of memory, not a copy: the hash reads it at once.
      stack.push(toBigInt(hash(memory.read(at, size, true))))
    },
  ],
  // Synchronous where the state is in memory (fast-storage.ts).
  [SLOAD, (runState, common) => sload(runState as unknown as StorageRunState, common as never)],
  [SSTORE, (runState, common) => sstoreOp(runState as unknown as StorageRunState, common as never)],
]

/** Scratch for {@link callDataWord}: read at once, never handed out. */
const CALLDATA_WORD = new Uint8Array(32)

/** The 32 bytes of call data at `at`, zero past its end, as CALLDATALOAD reads them. */
function callDataWord(data: Uint8Array, at: number): bigint {
  const end = Math.min(data.length, at + 32)
  CALLDATA_WORD.fill(0)
  for (let i = at; i < end; i++) CALLDATA_WORD[i - at] = data[i] as number
  return toBigInt(CALLDATA_WORD)
}

/** Below this, offsets and lengths add up exactly as numbers. */
const SMALL = 1n << 40n

/**
 * The memory-expansion charge of an access to `length` bytes at `offset`, and the new memory
 * size, as @ethereumjs/evm's `subMemUsage` computes them (words * memoryGas + words² /
 * quadCoefficientDivGas, less what the frame's largest memory already paid).
 */
function memoryExpansion(runState: RunState, offset: bigint, length: bigint, common: Params): bigint {
  if (length === 0n) return 0n
  // An access within the memory already paid for (most of them) is found without a bigint.
  if (offset < SMALL && length < SMALL && Math.floor((Number(offset) + Number(length) + 31) / 32) <= runState.memoryWordCount) return 0n
  const words = (offset + length + 31n) / 32n
  if (words <= runState.memoryWordCount) return 0n
  let cost = words * common.param('memoryGas') + (words * words) / common.param('quadCoefficientDivGas')
  if (cost > runState.highestMemCost) {
    const paid = runState.highestMemCost
    runState.highestMemCost = cost
    cost -= paid
  }
  runState.memoryWordCount = words
  return cost
}

/**
 * Synchronous equivalents of the library's dynamic-gas handlers that only price memory: theirs
 * are async functions, so each MLOAD or MSTORE waited on a promise (see fast-interpreter.ts).
 */
const gasReplacements: Array<[number, GasHandler]> = [
  [MLOAD, (runState, gas, common) => plus(gas, memoryExpansion(runState, peek(runState.stack, 0), 32n, common))],
  [MSTORE, (runState, gas, common) => plus(gas, memoryExpansion(runState, peek(runState.stack, 0), 32n, common))],
  [MSTORE8, (runState, gas, common) => plus(gas, memoryExpansion(runState, peek(runState.stack, 0), 1n, common))],
  [
    KECCAK256,
    (runState, gas, common) => {
      const offset = peek(runState.stack, 0)
      const length = peek(runState.stack, 1)
      gas = plus(gas, memoryExpansion(runState, offset, length, common))
      return gas + common.param('keccak256WordGas') * ((length + 31n) / 32n)
    },
  ],
  [RETURN, haltGas],
  [REVERT, haltGas],
  [SLOAD, (runState, gas, common) => sloadGasHandler(runState as unknown as StorageRunState, gas, common as never)],
  [SSTORE, (runState, gas, common) => sstoreGasHandler(runState as unknown as StorageRunState, gas, common as never)],
]

/** The storage handlers, each with the library's own as its fallback (set by {@link rememberOriginalHandlers}). */
let sstoreOp: ReturnType<typeof sstore>
let sloadGasHandler: ReturnType<typeof sloadGas>
let sstoreGasHandler: ReturnType<typeof sstoreGas>

function haltGas(runState: RunState, gas: bigint, common: Params): bigint {
  return plus(gas, memoryExpansion(runState, peek(runState.stack, 0), peek(runState.stack, 1), common))
}

function log(runState: RunState): void {
  const [memOffset, memLength] = runState.stack.popN(2) as [bigint, bigint]
  const topicsCount = runState.opCode - LOG0
  const popped = runState.stack.popN(topicsCount)
  // Pushed into a list of one hidden class (arrays.ts), not `map`ped: the mapping of the holey
  // array `popN` makes was packed from the builtin but holey from optimised code, and LOG0's
  // empty, so the receipts' readers (the bloom, the receipts' RLP, the store) saw three maps.
  const topics = emptyObjects<Uint8Array>()
  for (let i = 0; i < popped.length; i++) topics.push(word(popped[i] as bigint))
  const data = memLength === 0n ? new Uint8Array(0) : runState.memory.read(Number(memOffset), Number(memLength))
  runState.interpreter.log(data, topicsCount, topics)
}

const patched = new WeakSet<object>()
/** @ethereumjs/evm's own handler of each replaced opcode, from a table no one has changed. */
const originals = new Map<number, unknown>()
/** The same for the replaced gas handlers. */
const originalGas = new Map<number, unknown>()

/**
 * @ethereumjs/evm's own STOP, RETURN and REVERT handlers, which end a frame by throwing (see
 * `fast-interpreter.ts`, which ends it without the throw where an entry still holds them).
 */
export const libraryHalts: { stop?: unknown; return?: unknown; revert?: unknown } = {}

/** Learns the library's own handlers from a pristine opcode table (once per process). */
export function rememberOriginalHandlers(table: object): void {
  if (originals.size > 0) return
  const entries = table as Array<OpcodeEntry | undefined>
  for (let opcode = 0; opcode < 256; opcode++) {
    knownHandler(opcode, 'op', entries[opcode]?.opHandler)
    knownHandler(opcode, 'gas', entries[opcode]?.gasHandler)
  }
  for (const [opcode, handler] of replacements) knownHandler(opcode, 'op', handler)
  for (let opcode = LOG0; opcode <= LOG4; opcode++) knownHandler(opcode, 'op', log)
  for (const [opcode, handler] of gasReplacements) knownHandler(opcode, 'gas', handler)
  libraryHalts.stop = entries[0x00]?.opHandler
  libraryHalts.return = entries[RETURN]?.opHandler
  libraryHalts.revert = entries[REVERT]?.opHandler
  for (const [opcode] of replacements) originals.set(opcode, entries[opcode]?.opHandler)
  for (let opcode = LOG0; opcode <= LOG4; opcode++) originals.set(opcode, entries[opcode]?.opHandler)
  for (const [opcode] of gasReplacements) originalGas.set(opcode, entries[opcode]?.gasHandler)
  sstoreOp = sstore(originals.get(SSTORE) as Parameters<typeof sstore>[0])
  sloadGasHandler = sloadGas(originalGas.get(SLOAD) as Parameters<typeof sloadGas>[0])
  sstoreGasHandler = sstoreGas(originalGas.get(SSTORE) as Parameters<typeof sstoreGas>[0])
}

/** Whether an opcode table has the faster handlers. */
export function isPatched(table: object): boolean {
  return patched.has(table)
}

/**
 * Puts the faster handlers into an EVM's opcode table, once per table, where the entry still
 * holds the library's own handler. Nothing changes before the originals are known.
 */
export function patchOpcodeTable(table: object): void {
  if (patched.has(table) || originals.size === 0) return
  patched.add(table)
  forgetGasPlan(table)
  const entries = table as Array<OpcodeEntry | undefined>
  const replace = (opcode: number, handler: OpcodeEntry['opHandler']) => {
    const entry = entries[opcode]
    if (entry !== undefined && entry.opHandler === originals.get(opcode)) entry.opHandler = handler
  }
  for (const [opcode, handler] of replacements) replace(opcode, handler)
  for (let opcode = LOG0; opcode <= LOG4; opcode++) replace(opcode, log)
  for (const [opcode, handler] of gasReplacements) {
    const entry = entries[opcode]
    if (entry !== undefined && entry.gasHandler !== undefined && entry.gasHandler === originalGas.get(opcode)) entry.gasHandler = handler
  }
}
