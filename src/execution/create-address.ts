/**
 * `EVM#_generateAddress` for CREATE2 with the node's keccak (WebAssembly, `crypto/keccak.ts`):
 * @ethereumjs/util's `generateAddress2` hashes the init code with @noble/hashes' pure-JS keccak,
 * ~40x slower on code of a few kilobytes, and a suite that deploys through a CREATE2 factory
 * (proxies, Safe accounts) spent more time there than in the deployment's EVM steps. The address
 * is the library's, `keccak256(0xff ‖ sender ‖ salt ‖ keccak256(init code))[12:]`, checked against
 * it in test/execution/create-address.test.ts. CREATE (by nonce) goes through the library.
 */
import type { Message } from '@ethereumjs/evm'
import { Address } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.js'

/** `EVM#_generateAddress`. */
export type GenerateAddress = (this: object, message: Message) => Promise<Address>

/** CREATE2 addresses computed here for the EVMs `fast` accepts; everything else by `library`. */
export function fastGenerateAddress(library: GenerateAddress, fast: (evm: object) => boolean): GenerateAddress {
  return function (this: object, message: Message): Promise<Address> {
    const salt = message.salt
    const code = message.code
    if (salt === undefined || !(code instanceof Uint8Array) || !fast(this) || salt.length !== 32 || message.caller.bytes.length !== 20) return library.call(this, message)
    return Promise.resolve(new Address(create2Address(message.caller.bytes, salt, code)))
  }
}

/** The CREATE2 address of `initCode` deployed by `sender` with `salt` (EIP-1014). */
export function create2Address(sender: Uint8Array, salt: Uint8Array, initCode: Uint8Array): Uint8Array {
  const preimage = new Uint8Array(85)
  preimage[0] = 0xff
  preimage.set(sender, 1)
  preimage.set(salt, 21)
  preimage.set(keccak256(initCode), 53)
  return keccak256(preimage).subarray(12)
}
