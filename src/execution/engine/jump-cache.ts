/**
 * Caches the EVM's jump-destination analysis per contract code.
 *
 * @ethereumjs/evm analyses a contract's code afresh in every call frame that jumps: it marks the
 * valid JUMPDESTs, converts every PUSH immediate to a bigint and builds a table of opcode entries,
 * the size of the code. For a token called once per transaction that work, and the garbage it
 * leaves, was ~15 % of an ERC20 transfer. The analysis depends only on the code and the EVM's
 * opcode table, and its result is only read afterwards, so it is computed once per code.
 *
 * The analysis lives on the Interpreter class, which @ethereumjs/evm does not export: a throwaway
 * EVM with one custom opcode hands the class over (see `engine/install.ts`). Each cached entry keeps a copy of the code and is used only when
 * the code is byte-for-byte the same, so a caller that reuses a buffer for other code is safe.
 * Entries are found by the code array and, for a new array, by content (the same code read again
 * for another account, or sent again as init code).
 * A second opcode table's analysis of a code (the call VMs' table is not the blocks') takes the
 * first's jumps and pushes, which no table changes, and makes only its own opcode entries.
 * `engine/install.ts` installs it, for the engine's own EVMs only.
 *
 * The analysis hook also hands each EVM's opcode table to `fast-opcodes.ts` once, and
 * `leanEnv` drops an interpreter's spent environment.
 */
import { patchOpcodeTable } from './fast-opcodes.js'
import { analyseJumps, type JumpAnalysis } from '../jump-analysis.js'
import { contractCodeAnalysed } from '../../compile-cache.js'
import { fingerprint } from '../../crypto/keccak.js'

type Analysis = unknown
/** `Interpreter#_getValidJumpDestinations`. */
export type Analyse = (this: InterpreterLike, code: Uint8Array) => Analysis
interface InterpreterLike {
  _evm: { _opcodeMap: object }
  common: { isActivatedEIP(eip: number): boolean }
}

/** EIP-8024 gives DUPN/SWAPN/EXCHANGE immediates the analysis must skip: the library's analysis runs. */
const IMMEDIATES_EIP = 8024

/** `Interpreter#run`. */
export type InterpreterRun = (this: { _env: object }, code: Uint8Array, opts?: unknown) => Promise<unknown>

/** An interpreter's environment once its run is over (see {@link leanEnv}). */
const SPENT_ENV = Object.freeze({})

/**
 * After a run, @ethereumjs/evm's `runInterpreter` builds a `runState` for its result by spreading
 * the run state, the result and the environment into one object literal. V8 (Node 20) makes each
 * property a literal gains from a second spread a slow runtime call: the environment's ~20
 * properties cost ~30 µs per call frame (measured in isolation: 32 µs for two spreads of 20
 * properties, 1.5 µs for Object.assign of the same). Nothing needs that copy: the run state
 * keeps the environment itself, as `runState.env`, which is where the struct logger reads a
 * frame's address. So the interpreter hands over an empty environment once its run has ended.
 */
export function leanEnv(run: InterpreterRun): InterpreterRun {
  return async function (this: { _env: object }, code: Uint8Array, opts?: unknown): Promise<unknown> {
    const result = await run.call(this, code, opts)
    this._env = SPENT_ENV
    return result
  }
}

/**
 * Analyses kept by content as well as by code object, up to this many bytes of code: the same
 * code arrives in a new array whenever it is read from the state for another account (every
 * proxy a factory deployed, every clone) or sent again (the same init code in each deployment),
 * and each would be analysed again. ~100 full-size contracts; a cached analysis is a few times
 * the size of its code. Past it the oldest entries are dropped.
 */
const CONTENT_CACHE_BYTES = 2 * 1024 * 1024

interface Entry {
  copy: Buffer
  byTable: WeakMap<object, Analysis>
  /**
   * The jumps and pushes of the code's first analysis by `jump-analysis.ts`, which another table's
   * analysis takes (without the first table's opcode entries, which this entry would keep alive).
   */
  first: Pick<JumpAnalysis, 'jumps' | 'pushes'> | undefined
}

/**
 * The analysis cached per code and opcode table (computed by `jump-analysis.ts`, or by `analyse`,
 * the library's, where EIP-8024 is active); also puts the fast opcode handlers into each table.
 */
export function cached(analyse: Analyse): Analyse {
  // By code object, then by opcode table (one per EVM, so per fork).
  const byCode = new WeakMap<Uint8Array, Entry>()
  // By content (see CONTENT_CACHE_BYTES), oldest first: the key's entries, compared byte for byte.
  const byContent = new Map<number, Entry[]>()
  let contentBytes = 0
  const findByContent = (code: Uint8Array): Entry => {
    const key = fingerprint(code)
    const bucket = byContent.get(key)
    const found = bucket?.find((e) => e.copy.equals(code))
    if (found !== undefined) return found
    const entry: Entry = { copy: Buffer.from(code), byTable: new WeakMap(), first: undefined }
    if (bucket === undefined) byContent.set(key, [entry])
    else bucket.push(entry)
    contentBytes += code.length
    for (const [oldKey, oldBucket] of byContent) {
      if (contentBytes <= CONTENT_CACHE_BYTES) break
      const dropped = oldBucket.shift()!
      contentBytes -= dropped.copy.length
      if (oldBucket.length === 0) byContent.delete(oldKey)
    }
    return entry
  }
  return function (this: InterpreterLike, code: Uint8Array): Analysis {
    const table = this._evm._opcodeMap
    // The one place every EVM's opcode table passes through before its code runs.
    patchOpcodeTable(table)
    let entry = byCode.get(code)
    if (entry === undefined || !entry.copy.equals(code)) {
      entry = findByContent(code)
      byCode.set(code, entry)
    }
    let analysis = entry.byTable.get(table)
    if (analysis === undefined) {
      if (this.common.isActivatedEIP(IMMEDIATES_EIP)) analysis = analyse.call(this, code)
      else {
        const made = analyseJumps(code, table as unknown[], entry.first)
        entry.first ??= { jumps: made.jumps, pushes: made.pushes }
        analysis = made
      }
      entry.byTable.set(table, analysis as object)
      contractCodeAnalysed()
    }
    return analysis
  }
}
