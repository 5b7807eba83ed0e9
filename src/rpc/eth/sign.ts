/**
 * eth_fillTransaction and eth_signTransaction: a request completed with nonce, gas and fees
 * (as eth_sendTransaction fills them), without sending it. eth_fillTransaction returns geth's
 * `{ raw, tx }` (raw unsigned, v, r, s zero); eth_signTransaction signs with a key the node holds
 * and returns the raw signed transaction, as Hardhat and Anvil do (viem and ethers expect that). Unlike geth, which refuses a sign request without gas, fees or
 * nonce, missing fields are filled, as Hardhat and Anvil do.
 */
import { Capability, TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { ServerError } from '../../errors.js'
import { data, keyOf, quantity } from '../../hex.js'
import type { Services } from '../../services.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'
import { callRequest } from '../objects.js'
import { authorizationListJson } from '../format.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'keyring' | 'limits' | 'transactions'>
const method = methodsOf<keyof Here>()

/** A transaction as geth's `types.Transaction` JSON (the `tx` of a sign / fill result). */
export function transactionJson(tx: TypedTransaction): Record<string, unknown> {
  const out: Record<string, unknown> = { type: quantity(tx.type) }
  if (tx.type !== TransactionType.Legacy || tx.supports(Capability.EIP155ReplayProtection)) out.chainId = quantity(tx.common.chainId())
  out.nonce = quantity(tx.nonce)
  out.to = tx.to === undefined ? null : tx.to.toString()
  out.gas = quantity(tx.gasLimit)
  if ('maxFeePerGas' in tx) {
    out.maxPriorityFeePerGas = quantity(tx.maxPriorityFeePerGas as bigint)
    out.maxFeePerGas = quantity(tx.maxFeePerGas as bigint)
  } else {
    out.gasPrice = quantity((tx as unknown as { gasPrice: bigint }).gasPrice)
  }
  out.value = quantity(tx.value)
  out.input = data(tx.data)
  if (tx.type !== TransactionType.Legacy) out.accessList = (tx.toJSON() as { accessList?: unknown }).accessList ?? []
  if (tx.type === TransactionType.EOACodeEIP7702) out.authorizationList = authorizationListJson(tx)
  out.v = quantity(tx.v ?? 0n)
  out.r = quantity(tx.r ?? 0n)
  out.s = quantity(tx.s ?? 0n)
  if (tx.type !== TransactionType.Legacy) out.yParity = quantity(tx.v ?? 0n)
  // An unsigned transaction's hash is that of its encoding with zero v, r, s, as geth's.
  out.hash = data(tx.isSigned() ? tx.hash() : keccak_256(tx.serialize()))
  return out
}

/** geth's SignTransactionResult: `{ raw, tx }`. */
export function result(tx: TypedTransaction) {
  return { raw: data(tx.serialize()), tx: transactionJson(tx) }
}

function ether(wei: bigint): string {
  return (Number(wei) / 1e18).toFixed(2)
}

/** geth's checkTxFee against `limits.txFeeCap`. */
export function checkFee(s: Pick<Services, 'limits'>, tx: TypedTransaction): void {
  const price = 'maxFeePerGas' in tx ? (tx.maxFeePerGas as bigint) : (tx as unknown as { gasPrice: bigint }).gasPrice
  const fee = tx.gasLimit * price
  const cap = s.limits.txFeeCap
  if (cap > 0n && fee > cap) throw new ServerError(`tx fee (${ether(fee)} ether) exceeds the configured cap (${ether(cap)} ether)`)
}

export const sign: MethodTable = {
  eth_fillTransaction: method({
    params: [callRequest],
    run: async (s, [req]) => result(await s.transactions.fill(req)),
  }),
  eth_signTransaction: method({
    params: [callRequest],
    run: async (s, [req]) => {
      if (req.from === undefined) throw new ServerError('from not specified')
      const key = s.keyring.signer(keyOf(req.from))
      const tx = await s.transactions.fill(req)
      checkFee(s, tx)
      // The signed raw transaction, as Hardhat and Anvil answer and as viem's and ethers'
      // signTransaction expect (geth wraps it as `{ raw, tx }`).
      return data(tx.sign(key).serialize())
    },
  }),
}
