/** The VMs of the engine: @ethereumjs/vm's, with an EVM the engine owns (see install.ts). */
import { createEVM, type EVM, type EVMOpts } from '@ethereumjs/evm'
import { createVM, type VM, type VMOpts } from '@ethereumjs/vm'
import { installEngine, isFast, ownEvm } from './install.js'

/** A VM whose EVM runs the engine's fast paths where they are on. */
export async function createEngineVM(opts: VMOpts): Promise<VM> {
  await installEngine()
  const vm = await createVM(opts)
  ownEvm(vm.evm)
  if (isFast(vm.evm)) quietEmit(vm)
  return vm
}

/** An EVM of the engine's own (for the engine's tests: a plain `createEVM()` runs the library alone). */
export async function createEngineEVM(opts: EVMOpts): Promise<EVM> {
  await installEngine()
  return ownEvm(await createEVM(opts))
}

const DONE: Promise<void> = Promise.resolve()

/**
 * The VM's `_emit` answers at once when the event has no listener: runTx awaits `beforeTx` and
 * `afterTx` (runBlock `beforeBlock` and `afterBlock`) on every run, and the library's async
 * `_emit` copies the listener array and runs an async function each time. With listeners (a
 * user's or a tracer's, added at any time: each call looks) the library's `_emit` runs.
 */
function quietEmit(vm: VM): void {
  const own = vm as unknown as { _emit: (topic: string, data: unknown) => Promise<void>; events: { listenerCount(topic: string): number } }
  const emit = own._emit
  if (typeof emit !== 'function' || typeof own.events?.listenerCount !== 'function') return
  const events = own.events
  own._emit = (topic, data) => (events.listenerCount(topic) === 0 ? DONE : emit(topic, data))
}
