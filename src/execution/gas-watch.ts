/**
 * What one successful run of a transaction shows about the gas it needs: the least gas limit with
 * which it would run the same way, found without running it again (eth_estimateGas).
 *
 * Lower the gas limit of a successful run by Δ. The top frame then runs with Δ less gas left at
 * every point, and a frame it makes with some deficit d ≥ 0 less, for as long as nothing that gas
 * decides goes another way: a frame that runs the same way gives back exactly d less, so its
 * caller's deficit stays what it was. Gas decides something only where an opcode cannot be paid,
 * where SSTORE finds 2,300 gas or less left (EIP-2200's sentry), where CALL and CREATE cap what
 * they pass on, and where GAS pushes it. A frame's tolerance, the largest deficit with which it
 * runs the same way, is the least of:
 * - its gas left at its end, as its caller gets it back (0 after an exceptional halt), and after
 *   paying each CALL or CREATE it makes: every opcode is paid from at least that much. (Gas left
 *   only falls, except at the end of a call: a value call's callee gets a 2,300 stipend on top
 *   of what the caller passed and may give more back than it was passed, so the caller's end
 *   can lie above what it had when it paid the call.)
 * - its gas left before each SSTORE, minus 2,301;
 * - for each frame f it makes: x − least(p − T), where x is its gas left after paying the CALL or
 *   CREATE, p what it passed on (the stipend aside), T f's tolerance, and least(t) the least y
 *   whose all-but-one-64th (y − ⌊y/64⌋) is t or more. Under EIP-150 f gets the lesser of the
 *   request and all but a 64th of x − d (CREATE passes the latter); for d up to that bound this
 *   is at least p − T and at most p, so f's deficit is within its tolerance. The call's own cost
 *   (memory, cold access, value transfer, a new account, an EIP-7702 delegation) reads no gas
 *   left, and x − d ≥ 0 pays it.
 * GAS pushes the frame's gas left, which a deficit changes; a run that uses that value any way is
 * not watched further (`readsGas`), except where the opcode right after GAS is CALL, CALLCODE,
 * DELEGATECALL or STATICCALL (solc's `gas()` passed on). That call takes the pushed value off the
 * stack as its request, which at any deficit d is the gas left g − d at the call, and the cap is
 * all but a 64th of g − d − cost, less than g − d as every such call costs something: the callee
 * gets the cap at every limit, as for any request above it, and the value is gone. Nothing else
 * sees it: the call's cost does not read its request. This holds from Tangerine Whistle (EIP-150)
 * on, every fork this node runs; before it a request was passed whole. CREATE and CREATE2 read
 * no request, and GAS before one is read as the value it sends.
 * A callee that runs out of gas gives back 0: it has to get exactly what it got, which a fixed
 * request below the cap still gives it (try/catch of a starved call), and a `gas()` request
 * mostly does not (the search then runs the limits below, as before). A reverted callee gives
 * back its gas left like a successful one. A precompile's answer depends on its gas only by
 * whether it covers its cost (it gives back what is left, 0 when it did not), and the node's own
 * precompiles answer the same way (a MessagePrecompile whose answer read its gas limit otherwise
 * would break this). CREATE's code deposit is charged in the callee before it gives its gas back.
 * So the run is the same at any limit down to the start limit minus the top frame's tolerance;
 * its gas used, its refund and EIP-7623's floor are then the same too. Nothing here is a guess: a
 * search that would have run such a limit succeeds without the run.
 * A run on a fork whose frames refund gas to their callers in other ways (EIP-8037's state gas)
 * is not watched.
 */
import type { EVMInterface } from '@ethereumjs/evm'
import { layerOpcodeTable, opcodeEntry } from './engine/layers.js'

type OpEntry = {
  opcodeInfo: unknown
  opHandler: (runState: WatchedState, common: unknown) => unknown
  gasHandler: (runState: WatchedState, gas: bigint, common: unknown) => unknown
}

/** What the watch reads of the interpreter's run state. */
interface WatchedState {
  gasLeft: bigint
  /** What CALL's and CREATE's gas handlers computed to pass on (read before the opcode runs). */
  messageGasLimit?: bigint
  /** The frame's code and the next opcode's place in it (advanced before an opcode's handler runs). */
  code: Uint8Array
  programCounter: number
}

const SSTORE = 0x55
const GAS = 0x5a
/** CREATE, CALL, CALLCODE, DELEGATECALL, CREATE2, STATICCALL. */
const FRAMES = [0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa]
const CALL = 0xf1
const CALLCODE = 0xf2
const DELEGATECALL = 0xf4
const STATICCALL = 0xfa
const SENTRY = 2301n

/** The watch's finding on a run: the limit down to which it runs the same way, if one is proven. */
export interface GasNeed {
  /** The top frame's tolerance from the points listed above (undefined: none seen yet). */
  slack: bigint | undefined
  /** GAS ran and its value was used otherwise than as the next call's request. */
  readsGas: boolean
}

/** The least y whose all but one 64th (y − ⌊y/64⌋) is at least `t`. */
export function leastPassing(t: bigint): bigint {
  return t <= 0n ? 0n : (64n * (t - 1n)) / 63n + 1n
}

/** Watches the runs of one call VM while armed. */
export class GasWatch {
  private need: GasNeed | undefined
  /** The tolerances of the frames under way below the top one, innermost last (undefined: none seen yet). */
  private readonly frames: Array<bigint | undefined> = []
  /** EIP-150's cap applies, so a `gas()` request is capped at every limit. */
  private capped = false

  /** Watches the next run; `finish` answers what it found. */
  arm(): void {
    this.need = { slack: undefined, readsGas: false }
    this.frames.length = 0
  }

  /** Stops watching; answers what the run showed. */
  finish(): GasNeed | undefined {
    const need = this.need
    this.need = undefined
    this.frames.length = 0
    return need
  }

  /** Notes a bound on the tolerance of the frame under way. */
  private note(left: bigint): void {
    const need = this.need
    if (need === undefined) return
    const frames = this.frames
    const at = frames.length - 1
    if (at < 0) {
      if (need.slack === undefined || left < need.slack) need.slack = left
    } else {
      const tolerance = frames[at]
      if (tolerance === undefined || left < tolerance) frames[at] = left
    }
  }

  /** Wraps SSTORE's gas handler and the GAS, CALL and CREATE handlers of one call VM. */
  install(evm: EVMInterface): void {
    if (evm.common.isActivatedEIP(8037)) return
    // Every fork the node runs has it; the check keeps the argument's premise in the code.
    this.capped = evm.common.gteHardfork('tangerineWhistle')
    layerOpcodeTable<OpEntry>(evm, 'gaswatch', (map) => this.wrap(map))
  }

  private wrap(map: OpEntry[]): void {
    const sstore = map[SSTORE]
    if (sstore !== undefined) {
      const charge = sstore.gasHandler
      // Entries in the hidden class of the library's (layers.ts), not spread copies.
      map[SSTORE] = opcodeEntry<OpEntry>(sstore.opcodeInfo, sstore.opHandler, (rs, gas, common) => {
        if (this.need !== undefined) this.note(rs.gasLeft - SENTRY)
        return charge(rs, gas, common)
      })
    }
    const gas = map[GAS]
    if (gas !== undefined) {
      const run = gas.opHandler
      map[GAS] = opcodeEntry<OpEntry>(
        gas.opcodeInfo,
        (rs, common) => {
          const need = this.need
          if (need !== undefined && !need.readsGas) {
            // GAS takes no immediate bytes: the byte after it is the next opcode this frame runs.
            const next = rs.code[rs.programCounter]
            if (!this.capped || (next !== CALL && next !== STATICCALL && next !== DELEGATECALL && next !== CALLCODE)) need.readsGas = true
          }
          return run(rs, common)
        },
        gas.gasHandler,
      )
    }
    for (const op of FRAMES) {
      const entry = map[op]
      if (entry === undefined) continue
      const run = entry.opHandler
      map[op] = opcodeEntry<OpEntry>(
        entry.opcodeInfo,
        (rs, common) => {
          if (this.need === undefined) return run(rs, common)
          const left = rs.gasLeft
          const passed = rs.messageGasLimit
          if (passed === undefined) {
            // Not a frame of this kind after all (an EOF opcode's refusal): nothing is passed on.
            return run(rs, common)
          }
          const frames = this.frames
          const depth = frames.length
          frames.push(undefined)
          const done = (): void => {
            const need = this.need
            if (need === undefined) return
            if (frames.length !== depth + 1) {
              // The frames were not unwound in order (a bug elsewhere): this run proves nothing.
              need.slack = 0n
              return
            }
            const inner = frames.pop()
            // The callee's gas at its end, as its caller gets it back (any stipend included).
            const back = rs.gasLeft - (left - passed)
            const tolerance = inner === undefined || back < inner ? back : inner
            this.note(left - leastPassing(passed - tolerance))
          }
          const out = run(rs, common)
          if (out !== undefined && typeof (out as Promise<unknown>).then === 'function') return (out as Promise<unknown>).then(done)
          done()
          return out
        },
        entry.gasHandler,
      )
    }
  }
}

/**
 * The least gas limit a watched successful run proves, given its limit, the gas it left in its
 * top frame, and the gas it was charged (EIP-7623's floor included); undefined when none below
 * its own limit is proven.
 */
export function provenLimit(need: GasNeed | undefined, limit: bigint, topGasLeft: bigint, charged: bigint): bigint | undefined {
  if (need === undefined || need.readsGas) return undefined
  const slack = need.slack === undefined || topGasLeft < need.slack ? topGasLeft : need.slack
  if (slack <= 0n) return undefined
  const proven = limit - slack
  return proven < charged ? charged : proven
}
