/**
 * Message signing with keys the node holds: eth_sign and personal_sign (EIP-191, "personal
 * message"), eth_signTypedData / _v3 / _v4 (EIP-712), and personal_ecRecover. viem's
 * `signMessage` and ethers' `signer.signMessage` with a JSON-RPC account call personal_sign;
 * `signTypedData` calls eth_signTypedData_v4 with the typed data as a JSON string.
 *
 * Signatures are 65 bytes, r ‖ s ‖ v with v 27 or 28, deterministic (RFC 6979) and low-s, so they
 * equal what a local account of the same key signs. Impersonated accounts have no key: they
 * cannot sign (`unknown account`), as in Hardhat. A locked account (docs/accounts.md) answers
 * geth's `authentication needed: password or unlock`.
 */
import { ecrecover, ecsign } from '../../crypto/secp256k1.js'
import { typedDataHash, TypedDataError, type TypedData } from '../../crypto/eip712.js'
import { keccak256 } from '../../crypto/keccak.js'
import { ServerError } from '../../errors.js'
import { checksumAddress } from '../../crypto/checksum.js'
import { concat, data, keyOf } from '../../hex.js'
import { address, bytes, CodecError, optional, text, type Codec } from '../codecs.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'keyring' | 'hardhatCompat'>
const method = methodsOf<keyof Here>()

/** EIP-191 version 0x45: keccak256("\x19Ethereum Signed Message:\n" ‖ len ‖ message). */
export function personalMessageHash(message: Uint8Array): Uint8Array {
  const prefix = new TextEncoder().encode(`\x19Ethereum Signed Message:\n${message.length}`)
  return keccak256(concat(prefix, message))
}

function privateKeyOf(s: Here, account: Uint8Array): Uint8Array {
  // Hardhat names the account it does not know (checksummed); geth says `unknown account`.
  if (s.hardhatCompat && !s.keyring.has(keyOf(account))) throw new ServerError(`Unknown account ${checksumAddress(data(account))}`)
  return s.keyring.signer(keyOf(account))
}

/** A hash signed as the RPC answers it: r ‖ s ‖ v, v 27 or 28 (ecsign answers recid ‖ r ‖ s). */
function signDigest(key: Uint8Array, hash: Uint8Array): string {
  const recovered = ecsign(hash, key)
  const out = new Uint8Array(65)
  out.set(recovered.subarray(1), 0)
  out[64] = (recovered[0] as number) + 27
  return data(out)
}

function signPersonal(key: Uint8Array, message: Uint8Array): string {
  return signDigest(key, personalMessageHash(message))
}

/** EIP-712 typed data: an object, or the JSON string of one (what viem and MetaMask send). */
const typedData: Codec<TypedData> = {
  name: 'TypedData',
  optional: false,
  decode(value) {
    let v = value
    if (typeof v === 'string') {
      try {
        v = JSON.parse(v)
      } catch {
        throw new CodecError('typed data is not valid JSON')
      }
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new CodecError('typed data must be an object')
    const o = v as Record<string, unknown>
    if (typeof o.types !== 'object' || o.types === null) throw new CodecError('typed data: types is required')
    if (typeof o.primaryType !== 'string') throw new CodecError('typed data: primaryType is required')
    // A missing domain is geth's signer error (`domain is undefined`, -32000), raised when signing.
    if (o.domain === undefined || o.domain === null) o.domain = {}
    if (typeof o.domain !== 'object' || Array.isArray(o.domain)) throw new CodecError('typed data: domain must be an object')
    if (typeof o.message !== 'object' || o.message === null) throw new CodecError('typed data: message is required')
    return o as unknown as TypedData
  },
}

/**
 * EIP712Domain, when the types leave it out, derived from the domain's fields in the order
 * EIP-712 lists them (what viem and ethers do).
 */
function withDomainType(t: TypedData): TypedData {
  if (t.types.EIP712Domain !== undefined) return t
  const fields: Array<[string, string]> = [
    ['name', 'string'],
    ['version', 'string'],
    ['chainId', 'uint256'],
    ['verifyingContract', 'address'],
    ['salt', 'bytes32'],
  ]
  const EIP712Domain = fields.filter(([name]) => t.domain[name] !== undefined).map(([name, type]) => ({ name, type }))
  return { ...t, types: { EIP712Domain, ...t.types } }
}

/** geth's TypedDataDomain.validate: a domain needs at least one of its fields. */
const DOMAIN_FIELDS = ['name', 'version', 'chainId', 'verifyingContract', 'salt'] as const

function signTypedData(s: Here, account: Uint8Array, typed: TypedData): string {
  if (DOMAIN_FIELDS.every((f) => typed.domain[f] === undefined || typed.domain[f] === null || typed.domain[f] === '')) throw new ServerError('domain is undefined')
  const key = privateKeyOf(s, account)
  let hash: Uint8Array
  try {
    hash = typedDataHash(withDomainType(typed))
  } catch (error) {
    if (!(error instanceof TypedDataError)) throw error
    throw new ServerError(`invalid typed data: ${error.message}`)
  }
  return signDigest(key, hash)
}

const typedDataMethod = method({
  params: [address, typedData],
  run: (s, [account, typed]) => signTypedData(s, account, typed),
})

export const signMessages: MethodTable = {
  eth_sign: method({
    params: [address, bytes],
    run: (s, [account, message]) => signPersonal(privateKeyOf(s, account), message),
  }),
  eth_signTypedData: typedDataMethod,
  eth_signTypedData_v3: typedDataMethod,
  eth_signTypedData_v4: typedDataMethod,
}

/** A 65-byte r ‖ s ‖ v signature, v 27 or 28 (or 0 or 1). */
/** geth checks the length and V in the handler, so both are -32000 without `invalid argument N:`. */
function checkSignature(b: Uint8Array): void {
  if (b.length !== 65) throw new ServerError('signature must be 65 bytes long')
  const v = b[64] as number
  if (v !== 0 && v !== 1 && v !== 27 && v !== 28) throw new ServerError('invalid Ethereum signature (V is not 27 or 28)')
}

export const personal: MethodTable = {
  // personal_sign(message, account, password?): eth_sign with its params swapped, and what viem's
  // and ethers' JSON-RPC signers call (without a password), so it is open wherever eth_sign is
  // (the `eth` namespace, a private method), as Hardhat and Anvil serve it. An unlocked account
  // signs whatever password is given (Hardhat's and Anvil's ignore it); a locked one signs only
  // with its passphrase, which unlocks it for this one signature (geth's SignTextWithPassphrase).
  personal_sign: method({
    namespace: 'eth',
    params: [bytes, address, optional(text, undefined)],
    run: async (s, [message, account, password]) => {
      const unlocked = s.keyring.unlocked(keyOf(account))
      if (unlocked !== undefined || password === undefined) return signPersonal(unlocked ?? privateKeyOf(s, account), message)
      return signPersonal(await s.keyring.withPassphrase(keyOf(account), password), message)
    },
  }),
  personal_ecRecover: method({
    params: [bytes, bytes],
    run: (_s, [message, sig]) => {
      checkSignature(sig)
      const v = BigInt((sig[64] as number) < 27 ? (sig[64] as number) : (sig[64] as number) - 27)
      const publicKey = ecrecover(personalMessageHash(message), v, sig.subarray(0, 32), sig.subarray(32, 64))
      return data(keccak256(publicKey).subarray(12))
    },
  }),
}
