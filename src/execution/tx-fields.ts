/** The fields every transaction built from a request shares (calls, sends, simulations). */
import type { CallRequest } from '../rpc/objects.js'

/** Nonce, gas, recipient, value, input and access list of a request, as `createTx` takes them. */
export function txFields(req: CallRequest, nonce: bigint, gasLimit: bigint) {
  return {
    nonce,
    gasLimit,
    to: req.to,
    value: req.value ?? 0n,
    data: req.data ?? new Uint8Array(),
    accessList: req.accessList?.map((e) => [e.address, e.storageKeys]) as never,
  }
}
