/**
 * Which implementation of each primitive this process uses. The fast ones (native libsecp256k1,
 * libsodium, WebAssembly keccak) load where they can; the pure-JS fallbacks serve elsewhere.
 */
import { ed25519Backend, type Ed25519Backend } from './ed25519.js'
import { keccakBackend } from './keccak.js'
import { secp256k1Backend, type Secp256k1Backend } from './secp256k1.js'

/** The crypto backends in use (see {@link cryptoBackends}). */
export interface CryptoBackends {
  /** `native`: the `secp256k1` package's libsecp256k1 binding; `noble`: @noble/curves. */
  secp256k1: Secp256k1Backend
  /** `sodium`: the `sodium-native` binding; `node`: node:crypto (OpenSSL). */
  ed25519: Ed25519Backend
  /** `wasm`: hash-wasm, once a node has started; `noble`: @noble/hashes. */
  keccak: 'wasm' | 'noble'
}

/**
 * The crypto backends this process uses: a quick check that the native bindings loaded, since
 * sender recovery alone is ~30x slower without them.
 */
export function cryptoBackends(): CryptoBackends {
  return { secp256k1: secp256k1Backend, ed25519: ed25519Backend(), keccak: keccakBackend() }
}
