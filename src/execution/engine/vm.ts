/** The VMs of the engine: @ethereumjs/vm's, with an EVM the engine owns (see install.ts). */
import { createEVM, type EVM, type EVMOpts } from '@ethereumjs/evm'
import { createVM, type VM, type VMOpts } from '@ethereumjs/vm'
import type { EcrecoverOverrides } from '../ecrecover-overrides.js'
import { installEngine, ownEvm } from './install.js'

/**
 * A VM whose EVM runs the engine's fast paths where they are on; with `ecrecover`, its ecrecover
 * precompile answers the node's registered signatures (anvil_impersonateSignature).
 */
export async function createEngineVM(opts: VMOpts, ecrecover?: EcrecoverOverrides): Promise<VM> {
  await installEngine()
  if (ecrecover !== undefined && opts.common !== undefined) {
    opts = { ...opts, evmOpts: { ...opts.evmOpts, customPrecompiles: [...(opts.evmOpts?.customPrecompiles ?? []), ecrecover.precompile(opts.common)] } }
  }
  const vm = await createVM(opts)
  ownEvm(vm.evm)
  return vm
}

/** An EVM of the engine's own (for the engine's tests: a plain `createEVM()` runs the library alone). */
export async function createEngineEVM(opts: EVMOpts): Promise<EVM> {
  await installEngine()
  return ownEvm(await createEVM(opts))
}
