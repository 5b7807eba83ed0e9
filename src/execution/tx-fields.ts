/** The EIP-3860 initcode limit of a request, as geth words its refusal for sends and for calls. */
import type { Common } from '@ethereumjs/common'
import { TxRejected } from '../domain-errors.js'
import type { CallRequest } from './call-request.js'

/** ethereumjs' refusal of a creation's initcode past the limit, with the size and the limit. */
const INITCODE_TOO_LARGE = /the initcode size of this transaction is too large: it is (\d+) while the max is (\d+)/

/**
 * Geth's refusal of an initcode past the EIP-3860 limit, or undefined when `message` is another
 * error. `pool` words it as geth's transaction pool does (sends), otherwise as its state
 * transition does (calls).
 */
export function initcodeTooLarge(message: string, pool: boolean): TxRejected | undefined {
  const m = INITCODE_TOO_LARGE.exec(message)
  if (m === null) return undefined
  return new TxRejected(`max initcode size exceeded: code size ${m[1]}${pool ? ',' : ''} limit ${m[2]}`)
}

/** Refuses a creation request whose initcode is past the node's limit (EIP-3860, Shanghai on). */
export function checkInitcodeSize(req: CallRequest, common: Common): void {
  if (req.to !== undefined || !common.isActivatedEIP(3860)) return
  const size = req.data?.length ?? 0
  const max = common.param('maxInitCodeSize')
  if (BigInt(size) > max) throw new TxRejected(`max initcode size exceeded: code size ${size}, limit ${max}`)
}
