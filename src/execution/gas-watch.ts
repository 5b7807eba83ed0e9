/**
 * What one successful run of a transaction shows about the gas it needs: the least gas limit with
 * which it would run the same way, found without running it again (eth_estimateGas).
 *
 * Lower the gas limit of a successful run by Δ and, up to the first point where gas decides
 * something, the run is the same with every frame's gas left lower: the top frame's by Δ, a
 * callee's by at most Δ (all but one 64th of a lower gas left is at most Δ less; a capped amount
 * is the same or less by at most Δ). Gas decides something only where an opcode cannot be paid,
 * where SSTORE finds 2,300 gas or less left (EIP-2200's sentry), where CALL and CREATE cap what
 * they pass on, and where GAS pushes it. So when no GAS ran, the run is the same at any limit
 * down to the start limit minus the least of:
 * - each frame's gas left at its end (the top frame's, and each callee's as its caller gets it
 *   back: 0 after an exceptional halt, so such a run proves nothing below its limit);
 * - the gas left before each SSTORE, minus 2,301.
 * A caller's own gas while its callee runs is never short: what it passes on is at most all but a
 * 64th of what it has, at any limit. Nothing here is a guess: a search that would have run such a
 * limit succeeds without the run.
 * A run on a fork whose frames refund gas to their callers in other ways (EIP-8037's state gas)
 * is not watched.
 */
import type { EVMInterface } from '@ethereumjs/evm'
import { layerOpcodeTable } from './engine/layers.js'

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
}

const SSTORE = 0x55
const GAS = 0x5a
/** CREATE, CALL, CALLCODE, DELEGATECALL, CREATE2, STATICCALL. */
const FRAMES = [0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa]
const SENTRY = 2301n

/** The watch's finding on a run: the limit down to which it runs the same way, if one is proven. */
export interface GasNeed {
  /** The least gas left at the points listed above (undefined: none seen yet). */
  slack: bigint | undefined
  /** GAS ran: no limit below the run's own is proven. */
  readsGas: boolean
}

/** Watches the runs of one call VM while armed. */
export class GasWatch {
  private need: GasNeed | undefined

  /** Watches the next run; `finish` answers what it found. */
  arm(): void {
    this.need = { slack: undefined, readsGas: false }
  }

  /** Stops watching; answers what the run showed. */
  finish(): GasNeed | undefined {
    const need = this.need
    this.need = undefined
    return need
  }

  private note(left: bigint): void {
    const need = this.need
    if (need !== undefined && (need.slack === undefined || left < need.slack)) need.slack = left
  }

  /** Wraps SSTORE's gas handler and the GAS, CALL and CREATE handlers of one call VM. */
  install(evm: EVMInterface): void {
    if (evm.common.isActivatedEIP(8037)) return
    layerOpcodeTable<OpEntry>(evm, 'gaswatch', (map) => this.wrap(map))
  }

  private wrap(map: OpEntry[]): void {
    const sstore = map[SSTORE]
    if (sstore !== undefined) {
      const charge = sstore.gasHandler
      map[SSTORE] = {
        ...sstore,
        gasHandler: (rs, gas, common) => {
          if (this.need !== undefined) this.note(rs.gasLeft - SENTRY)
          return charge(rs, gas, common)
        },
      }
    }
    const gas = map[GAS]
    if (gas !== undefined) {
      const run = gas.opHandler
      map[GAS] = {
        ...gas,
        opHandler: (rs, common) => {
          if (this.need !== undefined) this.need.readsGas = true
          return run(rs, common)
        },
      }
    }
    for (const op of FRAMES) {
      const entry = map[op]
      if (entry === undefined) continue
      const run = entry.opHandler
      map[op] = {
        ...entry,
        opHandler: (rs, common) => {
          if (this.need === undefined) return run(rs, common)
          const left = rs.gasLeft
          const passed = rs.messageGasLimit
          if (passed === undefined) {
            // Not a frame of this kind after all (an EOF opcode's refusal): nothing is passed on.
            return run(rs, common)
          }
          // The callee's gas at its end, as its caller gets it back (any stipend included).
          const done = (): void => this.note(rs.gasLeft - (left - passed))
          const out = run(rs, common)
          if (out !== undefined && typeof (out as Promise<unknown>).then === 'function') return (out as Promise<unknown>).then(done)
          done()
          return out
        },
      }
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
