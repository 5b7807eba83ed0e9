/**
 * Slashing: Cosmos's x/evidence handling of duplicate-vote evidence (slash the validator by the
 * double-sign fraction, unbonding entries begun at or after the infraction too; jail it and
 * tombstone it, so it can never be unjailed) run in BeginBlock of the block that commits the
 * evidence, and Cosmos EVM's slashing precompile (0x…0806, `ISlashing`). Jail periods count in
 * blocks here: `jailedUntil` is a height.
 */
import type { CosmosSettings } from './options.js'
import { addressTopic, PrecompileRevert, tablePrecompile } from './precompile.js'
import { DistributionState } from './distribution-state.js'
import { RedelegationState } from './redelegation-state.js'
import { BONDED_POOL, NOT_BONDED_POOL, StakingState, type ValidatorRecord } from './staking-state.js'
import { requester } from './staking-rules.js'

/** Cosmos's default `slash_fraction_double_sign`: 5%, as a fraction of 10^18. */
export const SLASH_FRACTION_DOUBLE_SIGN = 5n * 10n ** 16n
/** Cosmos's `DoubleSignJailEndTime`: jailed for ever (here: the largest int64 height). */
export const JAILED_FOREVER = 2n ** 63n - 1n
const SCALE = 10n ** 18n

/**
 * Handles duplicate-vote evidence against `validator` (its consensus address, which is its
 * operator address here) for an infraction at `infraction`, committed in block `height`: slashes
 * it, jails and tombstones it; answers the tokens burned, 0 when the validator is unknown or
 * already tombstoned (Cosmos ignores that evidence).
 */
export async function slashForEquivocation(staking: StakingState, validator: Uint8Array, infraction: bigint, height: bigint): Promise<bigint> {
  if ((await staking.validator(validator)) === undefined) return 0n
  const info = await staking.signingInfo(validator)
  if (info.tombstoned) return 0n
  const burned = await slash(staking, validator, infraction, height, SLASH_FRACTION_DOUBLE_SIGN)
  await staking.putValidator({ ...((await staking.validator(validator)) as ValidatorRecord), jailed: true })
  await staking.putSigningInfo(validator, { tombstoned: true, jailedUntil: JAILED_FOREVER })
  return burned
}

/**
 * Cosmos's `Slash`: burns `fraction` (of 10^18) of the validator's tokens, and of its unbonding
 * and redelegation entries begun at or after `infraction` (they were at stake then); records the
 * slash event at `height` with the fraction of its tokens burned. Answers the tokens burned from
 * the validator.
 */
export async function slash(staking: StakingState, validator: Uint8Array, infraction: bigint, height: bigint, fraction: bigint): Promise<bigint> {
  const v = await staking.validator(validator)
  if (v === undefined) return 0n
  const burned = (v.tokens * fraction) / SCALE
  await staking.putValidator({ ...v, tokens: v.tokens - burned })
  await staking.burn(BONDED_POOL.bytes, burned)
  if (v.tokens > 0n) await new DistributionState(staking.view).recordSlash(validator, height, (burned * SCALE + v.tokens - 1n) / v.tokens)
  for (const p of await staking.unbondingPairs()) {
    if (Buffer.compare(p.validator, validator) !== 0) continue
    const entries = await staking.unbonding(p.delegator, p.validator)
    let changed = false
    const slashed = entries.map((e) => {
      if (e.creationHeight < infraction) return e
      const cut = (e.initialBalance * fraction) / SCALE
      const take = cut < e.balance ? cut : e.balance
      changed = true
      return { ...e, balance: e.balance - take }
    })
    if (!changed) continue
    const before = entries.reduce((s, e) => s + e.balance, 0n)
    const after = slashed.reduce((s, e) => s + e.balance, 0n)
    await staking.burn(NOT_BONDED_POOL.bytes, before - after)
    await staking.putUnbonding(p.delegator, p.validator, slashed)
  }
  await slashRedelegations(staking, validator, infraction, fraction)
  return burned
}

/**
 * Cosmos's `SlashRedelegation`: tokens redelegated away from `validator` at or after the
 * infraction were at stake when it happened, so the destination delegation loses `fraction` of
 * the shares each such entry bought (at most what it still holds), their tokens burned.
 */
async function slashRedelegations(staking: StakingState, validator: Uint8Array, infraction: bigint, fraction: bigint): Promise<void> {
  const redelegations = new RedelegationState(staking.view)
  for (const k of await redelegations.keys()) {
    if (Buffer.compare(k.src, validator) !== 0) continue
    for (const e of await redelegations.entries(k)) {
      if (e.creationHeight < infraction) continue
      const held = await staking.delegationShares(k.delegator, k.dst)
      let shares = (e.sharesDst * fraction) / SCALE
      if (shares > held) shares = held
      const dst = await staking.validator(k.dst)
      if (shares === 0n || dst === undefined || dst.shares === 0n) continue
      await new DistributionState(staking.view).withdraw(k.delegator, k.dst)
      const tokens = (shares * dst.tokens) / dst.shares
      await staking.putValidator({ ...dst, tokens: dst.tokens - tokens, shares: dst.shares - shares })
      await staking.putDelegationShares(k.delegator, k.dst, held - shares)
      await staking.burn(BONDED_POOL.bytes, tokens)
    }
  }
}

/** Unjails `v` at `height`, or throws why not (Cosmos's x/slashing Unjail checks, in its order). */
export async function unjail(staking: StakingState, v: ValidatorRecord, height: bigint): Promise<void> {
  if (!v.jailed) throw new PrecompileRevert('validator not jailed; cannot be unjailed')
  const info = await staking.signingInfo(v.address)
  if (info.tombstoned) throw new PrecompileRevert('validator still jailed; cannot be unjailed: it is tombstoned (double-signed)')
  if (height < info.jailedUntil) throw new PrecompileRevert(`validator still jailed; cannot be unjailed: jailed until block ${info.jailedUntil}`)
  await staking.putValidator({ ...v, jailed: false })
  // Bonded again: its signature window starts afresh (x/slashing's AfterValidatorBonded).
  await staking.putDowntime(v.address, { ...(await staking.downtime(v.address)), startHeight: height })
}

const SIGNING_INFO = '(address,int64,int64,int64,bool,int64)'
const PAGE_REQUEST = '(bytes,uint64,uint64,bool,bool)'

/** The slashing precompile. */
export function slashingPrecompile(settings: CosmosSettings) {
  const infoOf = async (staking: StakingState, address: Uint8Array) => {
    const info = await staking.signingInfo(address)
    const count = await staking.downtime(address)
    return [address, count.startHeight, count.indexOffset, info.jailedUntil, info.tombstoned, count.missed]
  }
  return tablePrecompile('0000000000000000000000000000000000000806', [
    {
      signature: 'getSigningInfo(address)',
      outputs: [SIGNING_INFO],
      write: false,
      gas: 4_000n,
      async run([address], call) {
        const staking = new StakingState(call.state)
        if ((await staking.validator(address as Uint8Array)) === undefined) return { values: [[new Uint8Array(20), 0n, 0n, 0n, false, 0n]] }
        return { values: [await infoOf(staking, address as Uint8Array)] }
      },
    },
    {
      signature: `getSigningInfos(${PAGE_REQUEST})`,
      outputs: [`${SIGNING_INFO}[]`, '(bytes,uint64)'],
      write: false,
      gas: 8_000n,
      async run([page], call) {
        const staking = new StakingState(call.state)
        const all = await staking.validatorAddresses()
        const [, offset, limit, countTotal] = page as [Uint8Array, bigint, bigint, boolean, boolean]
        const from = Number(offset > BigInt(all.length) ? BigInt(all.length) : offset)
        const size = limit === 0n ? 100 : Number(limit > 1000n ? 1000n : limit)
        const infos = []
        for (const a of all.slice(from, from + size)) infos.push(await infoOf(staking, a))
        return { values: [infos, [new Uint8Array(0), countTotal ? BigInt(all.length) : 0n]] }
      },
    },
    {
      signature: 'unjail(address)',
      outputs: ['bool'],
      write: true,
      gas: 40_000n,
      async run([address], call) {
        const a = address as Uint8Array
        requester(call, a)
        const staking = new StakingState(call.state)
        const v = await staking.validator(a)
        if (v === undefined) throw new PrecompileRevert('address is not associated with any known validator')
        await unjail(staking, v, call.blockNumber)
        return { values: [true], events: [{ signature: 'ValidatorUnjailed(address)', topics: [addressTopic(a)], data: new Uint8Array(0) }] }
      },
    },
    {
      signature: 'getParams()',
      outputs: ['(int64,(uint256,uint8),int64,(uint256,uint8),(uint256,uint8))'],
      write: false,
      gas: 2_000n,
      // The downtime jail is counted in blocks here (Cosmos: seconds).
      run: async () => ({
        values: [[settings.signedBlocksWindow, [settings.minSignedPerWindow, 18n], settings.downtimeJailBlocks, [SLASH_FRACTION_DOUBLE_SIGN, 18n], [settings.slashFractionDowntime, 18n]]],
      }),
    },
  ])
}
