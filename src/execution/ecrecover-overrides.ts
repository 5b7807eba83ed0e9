/**
 * anvil_impersonateSignature: signatures whose ecrecover answer is an address registered for
 * them, as Anvil's cheat precompile does. The node's VMs (blocks, calls, traces) get an ecrecover
 * precompile that looks the signature up first; with nothing registered it is the library's own,
 * untouched. Anvil's rule, taken from its source: the input is padded to 128 bytes, the signature
 * is `r ‖ s ‖ v` with `v` the last byte of the input's second word, and it must match a
 * registered 65-byte signature exactly; a match costs the precompile's 3,000 gas and answers the
 * address as a 32-byte word. Anything else is the real ecrecover.
 */
import { getActivePrecompiles, type CustomPrecompile, type PrecompileFunc } from '@ethereumjs/evm'
import type { Common } from '@ethereumjs/common'
import { keyOf } from '../hex.js'

const ECRECOVER = '0x0000000000000000000000000000000000000001'
const ECRECOVER_GAS = 3000n

/** The node's registered signature → address pairs. */
export class EcrecoverOverrides {
  private readonly bySignature = new Map<string, Uint8Array>()

  /** Registers `address` as what ecrecover answers for the 65-byte `signature`. */
  add(signature: Uint8Array, address: Uint8Array): void {
    this.bySignature.set(keyOf(signature), address.slice())
  }

  /** Forgets every pair (a reset). */
  clear(): void {
    this.bySignature.clear()
  }

  /** The ecrecover precompile of a VM under `common` that consults the pairs. */
  precompile(common: Common): CustomPrecompile {
    const original = getActivePrecompiles(common).get(ECRECOVER.slice(2)) as PrecompileFunc
    const run: PrecompileFunc = (opts) => {
      if (this.bySignature.size === 0 || opts.gasLimit < ECRECOVER_GAS) return original(opts)
      const input = new Uint8Array(128)
      input.set(opts.data.subarray(0, 128))
      const signature = new Uint8Array(65)
      signature.set(input.subarray(64, 128))
      signature[64] = input[63] as number
      const address = this.bySignature.get(keyOf(signature))
      if (address === undefined) return original(opts)
      const out = new Uint8Array(32)
      out.set(address, 12)
      return { executionGasUsed: ECRECOVER_GAS, returnValue: out }
    }
    return { address: ECRECOVER, function: run }
  }
}
