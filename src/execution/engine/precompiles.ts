/**
 * An EVM's active precompiles, which a call's state overrides move or remove (eth_call,
 * eth_simulateV1: `movePrecompileToAddress`). @ethereumjs/evm keeps them in a private member
 * (`_precompiles`, listed in internals.ts) and offers no public way to change them after the EVM
 * is made, so where the library's version is not a verified one the overrides refuse.
 */
import type { EVMInterface } from '@ethereumjs/evm'
import { requireVerifiedEvm } from './frames.js'

/** Precompiles by unprefixed lower-case address. */
export type Precompiles = Map<string, unknown>

/** The EVM's active precompiles (`EVM._precompiles`). */
export function precompilesOf(evm: EVMInterface): Precompiles {
  requireVerifiedEvm('a precompile override')
  return (evm as unknown as { _precompiles: Precompiles })._precompiles
}

/** Makes `precompiles` the EVM's active precompiles. */
export function setPrecompiles(evm: EVMInterface, precompiles: Precompiles): void {
  ;(evm as unknown as { _precompiles: Precompiles })._precompiles = precompiles
}
