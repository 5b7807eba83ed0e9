/**
 * @ethereumjs/evm's jump-destination analysis (`Interpreter#_getValidJumpDestinations`) in
 * fewer steps, for the engine's own EVMs (see `jump-cache.ts`, which runs it once per code).
 *
 * The library's loop asks Common whether EIP-8024 is active for every byte that is not a PUSH
 * (a linear search of the active EIPs), takes a view of every PUSH immediate and turns it into a
 * bigint through a hex string, and files the values in an object keyed by position. A contract's
 * first run, in a process whose code V8 has not compiled yet, spent ~0.2 ms there on the Token
 * fixture's ~3 KB of initcode. This one gives the same three tables: `jumps` (1 at each
 * JUMPDEST outside PUSH data), `pushes` (each PUSH1..32's value, the immediate padded on the
 * right with zeros where the code ends inside it, at the position after the PUSH opcode) and
 * `opcodesCached` (the opcode table's entry at each opcode's position). With EIP-8024 active
 * (immediates of DUPN/SWAPN/EXCHANGE, in no fork the engine runs) the library's own analysis
 * runs instead.
 */

/** What the analysis gives the interpreter. */
export interface JumpAnalysis {
  jumps: Uint8Array
  pushes: Record<number, bigint>
  opcodesCached: unknown[]
}

const PUSH1 = 0x60
const PUSH32 = 0x7f
const JUMPDEST = 0x5b

/** Hex digits of each byte value, for immediates too long for a number. */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'))

/** The value of the `size` bytes after position `at` of `code`, zero where the code has ended. */
function immediate(code: Uint8Array, at: number, size: number): bigint {
  const end = code.length
  if (size <= 6) {
    // Up to 48 bits fit a number exactly.
    let n = 0
    for (let j = 0; j < size; j++) n = n * 256 + (at + j < end ? (code[at + j] as number) : 0)
    return BigInt(n)
  }
  let hex = '0x'
  for (let j = 0; j < size; j++) hex += at + j < end ? HEX[code[at + j] as number] : '00'
  return BigInt(hex)
}

/**
 * The three tables for `code` against an EVM's opcode table (`_opcodeMap`). With `known`, an
 * analysis of the same code against another table, its `jumps` and `pushes` (which the table
 * does not change) are taken as they are, and only `opcodesCached` is made for this table: the
 * call VMs' table is not the blocks' (the gas watch, the time-out guard), so code that runs in
 * both, such as an estimated deployment's init code and then its send, is analysed for each.
 *
 * The result object is made before the loop, and nothing but `return` follows the loop: V8 12+
 * (Node 22 and later) compiles a long first call's loop on stack replacement, and that code,
 * kept for later calls, had no feedback for an object literal after the loop; it was thrown away
 * at the loop's exit on every later call (Seaport's replay: ~200 deopts of this function under
 * Node 24).
 */
export function analyseJumps(code: Uint8Array, table: readonly unknown[], known?: Pick<JumpAnalysis, 'jumps' | 'pushes'>): JumpAnalysis {
  if (known !== undefined) return withTable(code, table, known)
  const length = code.length
  const jumps = new Uint8Array(length)
  const pushes: Record<number, bigint> = {}
  const opcodesCached: unknown[] = Array(length)
  const analysis: JumpAnalysis = { jumps, pushes, opcodesCached }
  for (let i = 0; i < length; i++) {
    const opcode = code[i] as number
    opcodesCached[i] = table[opcode]
    if (opcode >= PUSH1 && opcode <= PUSH32) {
      const size = opcode - PUSH1 + 1
      pushes[i + 1] = immediate(code, i + 1, size)
      i += size
    } else if (opcode === JUMPDEST) {
      jumps[i] = 1
    }
  }
  return analysis
}

/** `known`'s jumps and pushes with `table`'s entries at each opcode's position (holes in PUSH data, as the library leaves them). */
function withTable(code: Uint8Array, table: readonly unknown[], known: Pick<JumpAnalysis, 'jumps' | 'pushes'>): JumpAnalysis {
  const length = code.length
  const opcodesCached: unknown[] = Array(length)
  // Made before the loop, as above.
  const analysis: JumpAnalysis = { jumps: known.jumps, pushes: known.pushes, opcodesCached }
  for (let i = 0; i < length; i++) {
    const opcode = code[i] as number
    opcodesCached[i] = table[opcode]
    if (opcode >= PUSH1 && opcode <= PUSH32) i += opcode - PUSH1 + 1
  }
  return analysis
}
