/**
 * Which opcodes the fast loop (`fast-interpreter.ts`) may charge with a number instead of a
 * bigint, per opcode table.
 *
 * @ethereumjs/evm keeps a frame's gas left as a bigint on the run state (`gasLeft`), and its
 * `useGas` makes a new bigint for every opcode. The fast loop keeps it as a number while it is
 * exact as one, and writes the bigint back before anything else can read it. An opcode is
 * charged with the number only when nothing it runs reads or writes `gasLeft`: neither its gas
 * handler nor its opcode handler. That is known for the opcodes below (checked against the
 * library's handlers: none of them calls `getGasLeft`, `useGas`, `addStipend` or the state-gas
 * charges, or reads `runState.gasLeft`, on the forks the loop runs) when their entry still holds
 * the library's own handlers, the engine's replacements (`fast-opcodes.ts`), or a wrapper
 * declared with {@link gasBlindWrapper} around one of those. Any other entry (GAS, SSTORE's
 * sentry, the CALL and CREATE families, a tracer's or the gas watch's wrapper, an opcode the
 * list does not name) makes the loop write the bigint back first and read it again after.
 */

/** An opcode table's entry, as the plan reads it. */
interface Entry {
  opcodeInfo: { feeBigInt: bigint; dynamicGas: boolean; isInvalid: boolean }
  opHandler: unknown
  gasHandler?: unknown
}

/** What the loop reads per opcode: the entry that may be charged with a number, and its static fee. */
export interface GasPlan {
  /** The table's entry at each opcode that is charged with a number; undefined elsewhere. */
  readonly entries: ReadonlyArray<Entry | undefined>
  /** The static fee of each opcode, as a number. */
  readonly fees: Float64Array
}

/**
 * The opcodes whose handlers leave `gasLeft` alone: STOP, the arithmetic, comparison and bitwise
 * opcodes, KECCAK256, the environment's and the block's (but BLOCKHASH, which charges code chunks
 * on Verkle forks), POP, the memory and transient-storage opcodes, SLOAD, the jumps, PC, MSIZE,
 * JUMPDEST, the PUSHes, DUPs and SWAPs, the LOGs, RETURN and REVERT.
 */
const BLIND_OPCODES: ReadonlyArray<readonly [number, number]> = [
  [0x00, 0x0b],
  [0x10, 0x1d],
  [0x20, 0x20],
  [0x30, 0x3f],
  [0x41, 0x4b],
  [0x50, 0x54],
  [0x56, 0x59],
  [0x5b, 0x5f],
  [0x60, 0xa4],
  [0xf3, 0xf3],
  [0xfd, 0xfd],
]

const blindOpcode = new Uint8Array(256)
for (const [from, to] of BLIND_OPCODES) blindOpcode.fill(1, from, to + 1)

/** The handlers known at each opcode: the library's own and the engine's replacements. */
const knownOp: unknown[][] = Array.from({ length: 256 }, () => [])
const knownGas: unknown[][] = Array.from({ length: 256 }, () => [])

/** Wrappers that leave `gasLeft` alone themselves, each with the handler it calls. */
const wrapped = new WeakMap<object, unknown>()

/** Notes an opcode handler (`kind` 'op') or a gas handler ('gas') at `opcode` as one of the known. */
export function knownHandler(opcode: number, kind: 'op' | 'gas', handler: unknown): void {
  if (typeof handler !== 'function') return
  const list = (kind === 'op' ? knownOp : knownGas)[opcode] as unknown[]
  if (!list.includes(handler)) list.push(handler)
}

/**
 * Declares that `wrapper` reads and writes no gas itself and calls `inner`: where `inner` may be
 * charged with a number, so may the wrapper (the call time-out guard around the jumps).
 */
export function gasBlindWrapper(wrapper: object, inner: unknown): void {
  wrapped.set(wrapper, inner)
}

function isKnown(list: unknown[], handler: unknown): boolean {
  let h = handler
  for (let depth = 0; depth < 8; depth++) {
    if (list.includes(h)) return true
    if (typeof h !== 'function' || !wrapped.has(h)) return false
    h = wrapped.get(h)
  }
  return false
}

const plans = new WeakMap<object, GasPlan>()

/** The plan of `table`, made at its first use and again after {@link forgetGasPlan}. */
export function gasPlanOf(table: ReadonlyArray<Entry | undefined>): GasPlan {
  let plan = plans.get(table)
  if (plan === undefined) {
    plan = makePlan(table)
    plans.set(table, plan)
  }
  return plan
}

/** Drops the plan of a table whose entries changed (a layer added, the fast handlers put in). */
export function forgetGasPlan(table: object): void {
  plans.delete(table)
}

function makePlan(table: ReadonlyArray<Entry | undefined>): GasPlan {
  const entries: Array<Entry | undefined> = new Array<Entry | undefined>(256).fill(undefined)
  const fees = new Float64Array(256)
  for (let opcode = 0; opcode < 256; opcode++) {
    const entry = table[opcode]
    if (entry === undefined) continue
    const info = entry.opcodeInfo
    fees[opcode] = Number(info.feeBigInt)
    if (blindOpcode[opcode] !== 1 || info.isInvalid) continue
    if (!isKnown(knownOp[opcode] as unknown[], entry.opHandler)) continue
    if (info.dynamicGas && !isKnown(knownGas[opcode] as unknown[], entry.gasHandler)) continue
    entries[opcode] = entry
  }
  return { entries, fees }
}
