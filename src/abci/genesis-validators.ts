/**
 * CometBFT's genesis validators as the `cosmos` option's staking state knows them: each one's
 * 20-byte address (the first 20 bytes of the SHA-256 of its ed25519 key, CometBFT's rule, the same
 * as the in-process validators'), its key and its power. A devnet's applications read them from
 * the genesis file they share, so every node seals the same genesis state.
 */
import { createHash } from 'node:crypto'
import type { GenesisValidator } from '../cosmos/module.js'
import { data } from '../hex.js'

interface GenesisFileValidator {
  address?: unknown
  pub_key?: { type?: unknown; value?: unknown }
  power?: unknown
}

/** The validators of a CometBFT genesis document (its `validators`); throws, naming the entry, when one is not an ed25519 validator with a power. */
export function cometGenesisValidators(genesis: unknown): GenesisValidator[] {
  const list = (genesis as { validators?: unknown } | null)?.validators
  if (!Array.isArray(list) || list.length === 0) throw new Error('the CometBFT genesis lists no validators: the cosmos option bonds the genesis validators')
  return list.map((entry: GenesisFileValidator, i) => {
    const key = entry.pub_key
    if (key?.type !== 'tendermint/PubKeyEd25519' || typeof key.value !== 'string') throw new Error(`genesis validator ${i}: an ed25519 key (tendermint/PubKeyEd25519) is needed, not ${JSON.stringify(key?.type)}`)
    const publicKey = new Uint8Array(Buffer.from(key.value, 'base64'))
    if (publicKey.length !== 32) throw new Error(`genesis validator ${i}: its ed25519 key has ${publicKey.length} bytes, not 32`)
    if (typeof entry.power !== 'string' || !/^[1-9]\d*$/.test(entry.power)) throw new Error(`genesis validator ${i}: power must be a positive integer string, not ${JSON.stringify(entry.power)}`)
    const address = data(createHash('sha256').update(publicKey).digest().subarray(0, 20))
    if (typeof entry.address === 'string' && entry.address !== '' && entry.address.toLowerCase() !== address.slice(2)) {
      throw new Error(`genesis validator ${i}: address ${entry.address} is not its key's (${address.slice(2).toUpperCase()})`)
    }
    return { address, publicKey, power: BigInt(entry.power) }
  })
}
