/**
 * The storage slot an ERC-20 keeps a balance or an allowance in, found as Anvil finds it for
 * anvil_dealERC20 and anvil_setERC20Allowance: the token's `balanceOf` / `allowance` call is run
 * for its access list (every slot it reads), then once per slot of the token with that slot
 * overridden to the wanted value; the first slot whose override makes the call answer exactly
 * that value is the one. No layout is guessed: a token whose getter reads no single slot (a
 * computed or rebasing balance) has none, and the control says so.
 */
import type { Block } from '@ethereumjs/block'
import { ExecutionReverted, Refused } from '../domain-errors.js'
import { keyOf, toBigInt, unpadded } from '../hex.js'
import { createAccessList } from '../execution/access-list.js'
import type { CallExecutor } from '../execution/call.js'

/** `balanceOf(address)` and `allowance(address,address)` selectors. */
const BALANCE_OF = Uint8Array.of(0x70, 0xa0, 0x82, 0x31)
const ALLOWANCE = Uint8Array.of(0xdd, 0x62, 0xed, 0x3e)

/** An address as a 32-byte ABI word. */
function word(address: Uint8Array): Uint8Array {
  const out = new Uint8Array(32)
  out.set(address, 12)
  return out
}

/** The calldata of `balanceOf(holder)`. */
export function balanceOfCall(holder: Uint8Array): Uint8Array {
  return Uint8Array.from([...BALANCE_OF, ...word(holder)])
}

/** The calldata of `allowance(owner, spender)`. */
export function allowanceCall(owner: Uint8Array, spender: Uint8Array): Uint8Array {
  return Uint8Array.from([...ALLOWANCE, ...word(owner), ...word(spender)])
}

/** The slot of `token` whose value `call` answers, or undefined when none is found. */
export async function findErc20Slot(calls: CallExecutor, block: Block, token: Uint8Array, call: Uint8Array, value: bigint): Promise<bigint | undefined> {
  const req = { to: token, data: call }
  const { accessList } = await createAccessList(calls, block.common, req, block, {})
  const tokenKey = keyOf(token)
  const wanted = unpadded(value)
  for (const entry of accessList) {
    if (keyOf(entry.address) !== tokenKey) continue
    for (const slot of entry.storageKeys) {
      const state = new Map([[tokenKey, { stateDiff: new Map([[keyOf(slot), wanted]]) }]])
      let answer: Uint8Array
      try {
        answer = await calls.call(req, block, { state })
      } catch (error) {
        // This slot's value made the getter fail: not the one.
        if (error instanceof Refused || error instanceof ExecutionReverted) continue
        throw error
      }
      // Anvil reads the answer's first word as the value.
      if (answer.length >= 32 && toBigInt(answer.subarray(0, 32)) === value) return toBigInt(slot)
    }
  }
  return undefined
}
