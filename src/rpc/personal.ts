/**
 * The `personal` namespace's account methods: the node's keys and their lock state
 * (src/accounts/keyring.ts, docs/accounts.md). personal_sign and personal_ecRecover are in
 * eth/sign-messages.ts with the other message signing. Errors are geth's keystore messages.
 * personal_listWallets lists the keyring as geth lists a keystore (one wallet per account).
 * personal_openWallet, personal_deriveAccount, personal_initializeWallet and personal_unpair are
 * absent: they manage hardware wallets, which this node has none of (every key is in its memory).
 */
import { ServerError } from '../errors.js'
import { data, keyOf } from '../hex.js'
import { address, optional, text } from './codecs.js'
import { type MethodTable, methodsOf, type Ports } from './method.js'
import { callRequest } from './objects.js'
import { numberOrQuantity } from './test/params.js'
import { checksum } from './txpool.js'
import { checkFee, result } from './eth/sign.js'
import type { CallRequest } from './objects.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'keyring' | 'limits' | 'transactions'>
const method = methodsOf<keyof Here>()

/** personal_unlockAccount's default duration, in seconds (geth's). */
export const DEFAULT_UNLOCK_SECONDS = 300n

/** The longest unlock geth accepts: a time.Duration (int64 nanoseconds) of whole seconds. */
const MAX_UNLOCK_SECONDS = 9_223_372_036n

/** A byte as Go's %q prints it (a rune literal), for geth's `invalid hex character` message. */
function goQuote(byte: number): string {
  const escapes: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 39: "\\'", 92: '\\\\' }
  const escaped = escapes[byte]
  if (escaped !== undefined) return `'${escaped}'`
  if (byte < 0x20 || byte === 0x7f) return `'\\x${byte.toString(16).padStart(2, '0')}'`
  // Go reads the byte as the rune U+00XX; U+0080–U+009F, U+00A0 and U+00AD are not printable.
  if (byte >= 0x80 && (byte <= 0xa0 || byte === 0xad)) return `'\\u00${byte.toString(16).padStart(2, '0')}'`
  return `'${String.fromCharCode(byte)}'`
}

/** geth's crypto.HexToECDSA decoding: 64 hex characters, no `0x`, and its messages. */
function parsePrivateKey(hex: string): Uint8Array {
  const bytes = new TextEncoder().encode(hex)
  for (const b of bytes) {
    const isHex = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    if (!isHex) throw new ServerError(`invalid hex character ${goQuote(b)} in private key`)
  }
  if (hex.length % 2 === 1) throw new ServerError('invalid hex data for private key')
  return Uint8Array.from(Buffer.from(hex, 'hex'))
}

/**
 * geth's personal_signTransaction: the caller names gas, fees and nonce (geth refuses to guess
 * them here, unlike eth_signTransaction), the key is decrypted with `passphrase` for this one
 * signature, and the answer is `{ raw, tx }`. Nothing is sent.
 */
async function signWithPassphrase(s: Here, req: CallRequest, passphrase: string) {
  // geth's checks and messages, in its order.
  if (req.from === undefined) throw new ServerError('sender not specified')
  if (req.gas === undefined) throw new ServerError('gas not specified')
  if (req.gasPrice === undefined && (req.maxFeePerGas === undefined || req.maxPriorityFeePerGas === undefined)) {
    throw new ServerError('missing gasPrice or maxFeePerGas/maxPriorityFeePerGas')
  }
  if (req.blobVersionedHashes !== undefined) throw new ServerError('signing blob transactions not supported')
  if (req.nonce === undefined) throw new ServerError('nonce not specified')
  const tx = await s.transactions.fill(req)
  checkFee(s, tx)
  const key = await s.keyring.withPassphrase(keyOf(req.from), passphrase)
  return result(tx.sign(key))
}

/** A keyring account as geth's keystore lists a wallet; the keys live in memory, hence the URL scheme. */
function wallets(s: Here) {
  return s.keyring
    .statuses()
    .map(({ address, unlocked }) => {
      const url = `memory://${address.toLowerCase()}`
      return { url, status: unlocked ? 'Unlocked' : 'Locked', accounts: [{ address: address.toLowerCase(), url }] }
    })
    .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0))
}

export const personalAccounts: MethodTable = {
  // geth's accounts manager lists wallets sorted by URL.
  personal_listWallets: method({ params: [], run: (s) => wallets(s) }),
  personal_signTransaction: method({
    params: [callRequest, text],
    run: (s, [req, passphrase]) => signWithPassphrase(s, req, passphrase),
  }),
  personal_listAccounts: method({ params: [], run: (s) => s.keyring.addresses() }),
  // geth answers the new address in its EIP-55 form (importRawKey's is lower-case).
  personal_newAccount: method({
    params: [text],
    run: async (s, [passphrase]) => checksum((await s.keyring.create(passphrase)).slice(2)),
  }),
  personal_importRawKey: method({
    params: [text, text],
    run: (s, [hex, passphrase]) => s.keyring.importKey(parsePrivateKey(hex), passphrase),
  }),
  personal_unlockAccount: method({
    params: [address, text, optional(numberOrQuantity, DEFAULT_UNLOCK_SECONDS)],
    run: async (s, [account, passphrase, seconds]) => {
      if (seconds > MAX_UNLOCK_SECONDS) throw new ServerError('unlock duration too large')
      await s.keyring.unlock(keyOf(account), passphrase, seconds)
      return true
    },
  }),
  // geth answers true whether or not the account was unlocked (or is known): afterwards it is locked.
  personal_lockAccount: method({
    params: [address],
    run: (s, [account]) => {
      s.keyring.lock(keyOf(account))
      return true
    },
  }),
  personal_sendTransaction: method({
    params: [callRequest, text],
    run: async (s, [req, passphrase]) => data(await s.transactions.submit(req, passphrase)),
  }),
}
