/**
 * x/slashing's downtime rule (`HandleValidatorSignature`), run in BeginBlock over the last
 * commit (who signed the parent's certificate): each validator of that set has a window of
 * `signedBlocksWindow` blocks, a bit per block it missed and a count of them; past its first
 * window (`startHeight + signedBlocksWindow`), a validator that has missed more than the window
 * allows (`window − round(minSignedPerWindow × window)`) is slashed `slashFractionDowntime` of its
 * stake at the height its power was fixed (height − 2), jailed for `downtimeJailBlocks` blocks,
 * and its count starts again. A jailed validator is counted but not slashed again.
 */
import { fromHex } from '../hex.js'
import type { CosmosSettings } from './options.js'
import { slash } from './slashing.js'
import type { StakingState, ValidatorRecord } from './staking-state.js'

const SCALE = 10n ** 18n

/** The blocks of a window a validator may miss. */
export function maxMissed(settings: CosmosSettings): bigint {
  const minSigned = (settings.minSignedPerWindow * settings.signedBlocksWindow + SCALE / 2n) / SCALE
  return settings.signedBlocksWindow - minSigned
}

/** Counts the last commit's signatures at `height`; slashes and jails who missed too many. */
export async function countSignatures(
  staking: StakingState,
  settings: CosmosSettings,
  height: bigint,
  lastCommit: ReadonlyArray<{ validator: string; signed: boolean }>,
): Promise<void> {
  const window = settings.signedBlocksWindow
  for (const vote of lastCommit) {
    const address = fromHex(vote.validator)
    const v = await staking.validator(address)
    if (v === undefined) continue
    const count = await staking.downtime(address)
    const index = count.indexOffset % window
    const before = await staking.missedAt(address, index)
    let missed = count.missed
    if (!before && !vote.signed) {
      await staking.putMissedAt(address, index, true)
      missed++
    } else if (before && vote.signed) {
      await staking.putMissedAt(address, index, false)
      missed--
    }
    if (height > count.startHeight + window && missed > maxMissed(settings) && !v.jailed) {
      // Cosmos slashes the stake that was bonded when the missed blocks were signed for:
      // the power of height − 2 (ValidatorUpdateDelay + 1).
      await slash(staking, address, height - 2n, height, settings.slashFractionDowntime)
      await staking.putValidator({ ...((await staking.validator(address)) as ValidatorRecord), jailed: true })
      const info = await staking.signingInfo(address)
      await staking.putSigningInfo(address, { tombstoned: info.tombstoned, jailedUntil: height + settings.downtimeJailBlocks })
      // The count starts again, so that the validator is not slashed at once when bonded again.
      for (let i = 0n; i < window; i++) if (await staking.missedAt(address, i)) await staking.putMissedAt(address, i, false)
      await staking.putDowntime(address, { startHeight: count.startHeight, indexOffset: 0n, missed: 0n })
      continue
    }
    await staking.putDowntime(address, { startHeight: count.startHeight, indexOffset: count.indexOffset + 1n, missed })
  }
}
