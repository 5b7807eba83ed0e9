/** The VMs of the engine: @ethereumjs/vm's, with an EVM the engine owns (see install.ts). */
import { createEVM, type EVM, type EVMOpts } from '@ethereumjs/evm'
import { createVM, type VM, type VMOpts } from '@ethereumjs/vm'
import type { EcrecoverOverrides } from '../ecrecover-overrides.js'
import type { StateManagerInterface } from '@ethereumjs/common'
import { requireVerifiedEvm } from './frames.js'
import { installEngine, ownEvm } from './install.js'
import { installMessagePrecompiles, type MessagePrecompile } from './precompiles.js'
import { markProfiled } from './run-tx.js'

/**
 * A VM whose EVM runs the engine's fast paths where they are on; with `ecrecover`, its ecrecover
 * precompile answers the node's registered signatures (anvil_impersonateSignature); `own`: the
 * node's own precompiles (the `cosmos` option's), which read their caller and state.
 */
export async function createEngineVM(opts: VMOpts, ecrecover?: EcrecoverOverrides, own?: readonly MessagePrecompile[]): Promise<VM> {
  await installEngine()
  if (ecrecover !== undefined && opts.common !== undefined) {
    opts = { ...opts, evmOpts: { ...opts.evmOpts, customPrecompiles: [...(opts.evmOpts?.customPrecompiles ?? []), ecrecover.precompile(opts.common)] } }
  }
  const vm = await createVM(opts)
  ownEvm(vm.evm)
  if (opts.profilerOpts?.reportAfterTx === true) markProfiled(vm)
  if (own !== undefined) installMessagePrecompiles(vm.evm, own)
  return vm
}

/** An EVM of the engine's own (for the engine's tests: a plain `createEVM()` runs the library alone). */
export async function createEngineEVM(opts: EVMOpts): Promise<EVM> {
  await installEngine()
  return ownEvm(await createEVM(opts))
}

/**
 * Points a VM at another state (a block's overlay, a call's): the VM's, its EVM's and its
 * journal's state manager. The journal's is private to @ethereumjs/evm (listed in internals.ts)
 * and a VM's is read-only in its types; making a VM per state is the public path, too slow for a
 * call. Refused where the library's version is not a verified one.
 */
export function bindState(vm: VM, state: StateManagerInterface): void {
  requireVerifiedEvm('running on the node\'s state')
  ;(vm as unknown as { stateManager: StateManagerInterface }).stateManager = state
  vm.evm.stateManager = state
  ;(vm.evm.journal as unknown as { stateManager: StateManagerInterface }).stateManager = state
}
