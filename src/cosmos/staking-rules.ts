/**
 * The staking rules the staking precompile's methods share: the validator a `valoper` string
 * names, the requester and amount checks, Cosmos's share arithmetic (`ValidateUnbondAmount`,
 * `SharesFromTokens`), and the bonded power a change would leave.
 */
import { checksumAddress as checksum } from '../crypto/checksum.js'
import { data } from '../hex.js'
import type { PrecompileCall } from '../execution/engine/precompiles.js'
import { Bech32Error, fromBech32 } from './bech32.js'
import type { CosmosSettings } from './options.js'
import { PrecompileRevert } from './precompile.js'
import { SHARE_SCALE, type StakingState, type ValidatorRecord } from './staking-state.js'

const equal = (a: Uint8Array, b: Uint8Array): boolean => Buffer.compare(a, b) === 0

/** The 20 bytes a `cosmosvaloper1…` string names (it must have the validator prefix). */
export function valoperBytes(settings: CosmosSettings, text: string): Uint8Array {
  let decoded: { prefix: string; bytes: Uint8Array }
  try {
    decoded = fromBech32(text)
  } catch (error) {
    if (error instanceof Bech32Error) throw new PrecompileRevert(`invalid validator address ${JSON.stringify(text)}: ${error.message}`)
    throw error
  }
  const want = `${settings.bech32Prefix}valoper`
  if (decoded.prefix !== want) throw new PrecompileRevert(`invalid validator address ${JSON.stringify(text)}: expected prefix ${want}, got ${decoded.prefix}`)
  if (decoded.bytes.length !== 20) throw new PrecompileRevert(`invalid validator address ${JSON.stringify(text)}: ${decoded.bytes.length} bytes, expected 20`)
  return decoded.bytes
}

/** The validator a `cosmosvaloper1…` string names (it must be one). */
export async function validatorNamed(staking: StakingState, settings: CosmosSettings, text: string): Promise<ValidatorRecord> {
  const v = await staking.validator(valoperBytes(settings, text))
  if (v === undefined) throw new PrecompileRevert('validator does not exist')
  return v
}

/** The chain's bonded voting power with the validators of `changed` holding the tokens it gives. */
export async function bondedPower(staking: StakingState, settings: CosmosSettings, changed: ReadonlyArray<{ address: Uint8Array; tokens: bigint }>): Promise<bigint> {
  let total = 0n
  for (const a of await staking.validatorAddresses()) {
    const v = (await staking.validator(a)) as ValidatorRecord
    if (!v.jailed) total += (changed.find((c) => equal(c.address, a))?.tokens ?? v.tokens) / settings.powerReduction
  }
  return total
}

/**
 * Cosmos's `ValidateUnbondAmount`: the shares `amount` tokens of `v` are; the truncated shares
 * must be held, and rounded up past the delegation the whole delegation goes.
 */
export function unbondShares(v: ValidatorRecord, held: bigint, amount: bigint): bigint {
  if (held === 0n) throw new PrecompileRevert('no delegation for (address, validator) tuple')
  if (v.tokens === 0n) throw new PrecompileRevert('invalid shares amount')
  if ((amount * v.shares) / v.tokens > held) throw new PrecompileRevert('invalid shares amount')
  const shares = (amount * v.shares + v.tokens - 1n) / v.tokens
  return shares > held ? held : shares
}

/** The shares `tokens` buy of `v` (Cosmos's `SharesFromTokens`; the first delegation sets 10^18 per token). */
export function sharesFor(v: ValidatorRecord, tokens: bigint): bigint {
  return v.tokens === 0n ? tokens * SHARE_SCALE : (tokens * v.shares) / v.tokens
}

/** Cosmos EVM's check that the transaction's sender is the account a message acts for. */
export function requester(call: PrecompileCall, delegator: Uint8Array): void {
  if (!equal(call.caller, delegator)) {
    throw new PrecompileRevert(`msg.sender address ${checksum(data(call.caller))} does not match the requester address ${checksum(data(delegator))}`)
  }
}

export function positive(amount: bigint): void {
  if (amount <= 0n) throw new PrecompileRevert(`invalid amount: ${amount}: amount must be positive`)
}
