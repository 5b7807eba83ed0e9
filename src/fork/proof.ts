/**
 * Checks of what a remote answers for `eth_getProof`: every account and slot a fork uses is
 * proven against the fork block's state root (accounts) or the account's storage root (slots)
 * before it is used, so a remote that lies, or is broken, is caught instead of trusted.
 */
import { RLP } from '@ethereumjs/rlp'
import { Account, KECCAK256_NULL, createAccountFromRLP } from '@ethereumjs/util'
import { keccak256 as keccak_256 } from '../crypto/keccak.js'
import { Refused } from '../domain-errors.js'
import { equalBytes, fromHex, keyOf } from '../hex.js'
import { EMPTY_ROOT, refNode, trieGet } from '../state/mpt.js'

/** A proof that does not verify, or an answer that is not a proof. */
export class ForkProofError extends Refused {
  constructor(message: string) {
    super(message)
    this.name = 'ForkProofError'
  }
}

/** What `eth_getProof` answers (EIP-1186), as JSON. */
export interface ProofJson {
  address: string
  balance: string
  nonce: string
  codeHash: string
  storageHash: string
  accountProof: string[]
  storageProof: Array<{ key: string; value: string; proof: string[] }>
}

/** A proven account (undefined: absent at the root) and its proven slots, with every node of the proofs. */
export interface ProvenState {
  account: Account | undefined
  /** Slot (64 hex digits) → value (unpadded bytes, empty for zero). */
  slots: Map<string, Uint8Array>
  /** The proof nodes, each keyed by its own hash: a partial trie of the remote state. */
  nodes: Uint8Array[]
}

function bytesOf(v: unknown, what: string): Uint8Array {
  if (typeof v !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(v)) throw new ForkProofError(`${what} is not hex bytes: ${JSON.stringify(v)?.slice(0, 80)}`)
  return fromHex(v)
}

function quantityOf(v: unknown, what: string): bigint {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]+$/.test(v)) throw new ForkProofError(`${what} is not a quantity: ${JSON.stringify(v)?.slice(0, 80)}`)
  return BigInt(v)
}

/** The value a proof shows at `hashedKey` under `root`; throws when the proof does not reach it. */
async function provenValue(root: Uint8Array, hashedKey: Uint8Array, proof: Uint8Array[], what: string): Promise<Uint8Array | undefined> {
  const byHash = new Map<string, Uint8Array>()
  for (const node of proof) byHash.set(keyOf(keccak_256(node)), node)
  try {
    return await trieGet(refNode(root), hashedKey, { get: async (key) => byHash.get(key) })
  } catch (error) {
    throw new ForkProofError(`the proof of ${what} does not verify against root 0x${keyOf(root)}: ${(error as Error).message}`)
  }
}

function slotKey(key: unknown): string {
  const raw = typeof key === 'string' ? key.replace(/^0x/, '') : ''
  if (!/^[0-9a-fA-F]{1,64}$/.test(raw)) throw new ForkProofError(`a storage proof key is not a slot: ${JSON.stringify(key)}`)
  return raw.toLowerCase().padStart(64, '0')
}

function unpadded(value: bigint): Uint8Array {
  if (value === 0n) return new Uint8Array(0)
  const hex = value.toString(16)
  return fromHex(`0x${hex.length % 2 === 1 ? '0' : ''}${hex}`)
}

/**
 * Verifies an `eth_getProof` answer for `address` and `slots` against `stateRoot`: the account
 * fields against the account proof, each slot against the proven account's storage root.
 * Throws {@link ForkProofError} saying what did not verify.
 */
export async function verifyProof(answer: unknown, stateRoot: Uint8Array, address: string, slots: readonly string[]): Promise<ProvenState> {
  if (typeof answer !== 'object' || answer === null) throw new ForkProofError(`eth_getProof answered ${JSON.stringify(answer)?.slice(0, 80)}, not a proof`)
  const p = answer as Partial<ProofJson>
  if (!Array.isArray(p.accountProof) || !Array.isArray(p.storageProof)) throw new ForkProofError('eth_getProof answered without accountProof or storageProof')
  const accountProof = p.accountProof.map((n, i) => bytesOf(n, `accountProof[${i}]`))
  const claimed = new Account(
    quantityOf(p.nonce, 'nonce'),
    quantityOf(p.balance, 'balance'),
    bytesOf(p.storageHash, 'storageHash'),
    bytesOf(p.codeHash, 'codeHash'),
  )
  const raw = await provenValue(stateRoot, keccak_256(fromHex(`0x${address}`)), accountProof, `account 0x${address}`)
  let account: Account | undefined
  if (raw === undefined) {
    // An absent account: geth and Anvil answer zeros with the empty code hash and storage root.
    const empty = claimed.nonce === 0n && claimed.balance === 0n && equalBytes(claimed.codeHash, KECCAK256_NULL) && equalBytes(claimed.storageRoot, EMPTY_ROOT)
    const zeroHash = equalBytes(claimed.codeHash, new Uint8Array(32)) && equalBytes(claimed.storageRoot, new Uint8Array(32))
    if (!empty && !(claimed.nonce === 0n && claimed.balance === 0n && zeroHash)) {
      throw new ForkProofError(`the proof shows no account 0x${address}, but the answer claims balance ${claimed.balance}, nonce ${claimed.nonce}`)
    }
  } else {
    account = createAccountFromRLP(raw)
    if (
      account.nonce !== claimed.nonce ||
      account.balance !== claimed.balance ||
      !equalBytes(account.storageRoot, claimed.storageRoot) ||
      !equalBytes(account.codeHash, claimed.codeHash)
    ) {
      throw new ForkProofError(`account 0x${address}: the answer (balance ${claimed.balance}, nonce ${claimed.nonce}) differs from what its proof shows (balance ${account.balance}, nonce ${account.nonce})`)
    }
  }
  const nodes = [...accountProof]
  const out = new Map<string, Uint8Array>()
  const storageRoot = account?.storageRoot ?? EMPTY_ROOT
  const wanted = new Set(slots)
  for (const [i, entry] of p.storageProof.entries()) {
    const slot = slotKey(entry?.key)
    if (!wanted.has(slot)) continue
    const proof = (Array.isArray(entry.proof) ? entry.proof : []).map((n, k) => bytesOf(n, `storageProof[${i}].proof[${k}]`))
    const value = quantityOf(entry.value, `storageProof[${i}].value`)
    const stored = await provenValue(storageRoot, keccak_256(fromHex(`0x${slot}`)), proof, `slot 0x${slot} of 0x${address}`)
    const proven = stored === undefined ? 0n : BigInt(`0x${keyOf(RLP.decode(stored) as Uint8Array) || '0'}`)
    if (proven !== value) throw new ForkProofError(`slot 0x${slot} of 0x${address}: the answer ${value} differs from what its proof shows (${proven})`)
    out.set(slot, unpadded(value))
    nodes.push(...proof)
  }
  for (const slot of slots) if (!out.has(slot)) throw new ForkProofError(`eth_getProof answered no proof for slot 0x${slot} of 0x${address}`)
  return { account, slots: out, nodes }
}

/** Checks that `code` is what `codeHash` names. */
export function verifyCode(code: Uint8Array, codeHash: Uint8Array, address: string): void {
  const hash = code.length === 0 ? KECCAK256_NULL : keccak_256(code)
  if (!equalBytes(hash, codeHash)) throw new ForkProofError(`the code of 0x${address} does not match its proven code hash 0x${keyOf(codeHash)}`)
}
