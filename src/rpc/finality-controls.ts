/**
 * The finality namespace's test controls: faults on demand, partitions, heals and validator-set
 * changes (docs/consensus.md). Like the evm_/hardhat_/anvil_ controls they are private methods:
 * served on loopback by default, behind a JWT elsewhere.
 */
import { checkFault } from '../consensus/tendermint/faults.js'
import { InvalidParamsError } from '../errors.js'
import { quantity, quantity as quantity_, type Hex } from '../hex.js'
import type { CosmosControls } from '../cosmos/controls.js'
import { Refused } from '../domain-errors.js'
import { address, decodeParam, optional, parseQuantity, quantity as quantityCodec, uint64, type Codec } from './codecs.js'
import { type MethodTable, methodsOf, type Ports } from './method.js'
import { data } from '../hex.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'consensus' | 'limits' | 'cosmos'>
const method = methodsOf<keyof Here>()

const addr = (v: unknown, index: number): Hex => data(decodeParam(address, v, index))

/** Checked in `run`, against the node's `faultDelayMs` limit. */
const fault: Codec<unknown> = { name: 'fault', optional: false, decode: (v) => v }

const groups: Codec<Hex[][]> = {
  name: 'groups',
  optional: false,
  decode: (v) => {
    if (!Array.isArray(v) || v.some((g) => !Array.isArray(g))) throw new InvalidParamsError('a partition is an array of groups, each an array of validator addresses')
    return (v as unknown[][]).map((g) => g.map((a) => addr(a, 0)))
  },
}

const changes: Codec<Array<{ address?: Hex; index?: number; power: bigint }>> = {
  name: 'changes',
  optional: false,
  decode: (v) => {
    if (!Array.isArray(v) || v.length === 0) throw new InvalidParamsError('changes is a non-empty array of { address | index, power }')
    return v.map((c: unknown) => {
      if (typeof c !== 'object' || c === null || Array.isArray(c)) throw new InvalidParamsError('a change is an object { address | index, power }')
      const o = c as Record<string, unknown>
      for (const k of Object.keys(o)) if (k !== 'address' && k !== 'index' && k !== 'power') throw new InvalidParamsError(`unknown field ${JSON.stringify(k)} of a change; known: address, index, power`)
      if (o.power === undefined) throw new InvalidParamsError('a change needs power (0 removes the validator)')
      let power: bigint
      try {
        if (typeof o.power === 'number' && !(Number.isSafeInteger(o.power) && o.power >= 0)) throw new Error(`${o.power} is not an integer >= 0 (0 removes the validator)`)
        power = typeof o.power === 'number' ? BigInt(o.power) : parseQuantity(o.power, 64)
      } catch (e) {
        throw new InvalidParamsError(`power: ${(e as Error).message}`)
      }
      if (o.index !== undefined && (typeof o.index !== 'number' || !Number.isSafeInteger(o.index) || o.index < 0)) {
        throw new InvalidParamsError(`index must be a non-negative integer, got ${JSON.stringify(o.index)}`)
      }
      return { address: o.address === undefined ? undefined : addr(o.address, 0), index: o.index as number | undefined, power }
    })
  },
}

/** The cosmos option's controls, or why there are none. */
function cosmosOf(s: Here): CosmosControls {
  if (s.cosmos === undefined) throw new Refused('the staking controls need the cosmos option (createNode({ cosmos: {} }), --profile cosmos-evm): this chain has no staking state')
  return s.cosmos
}

export const finalityControls: MethodTable = {
  /** Sets a delegation to an amount of tokens (cosmos option); answers the height its power takes effect at. */
  finality_setDelegation: method({
    params: [address, address, quantityCodec],
    run: async (s, [delegator, validator, amount]) => ({ effectiveBlock: quantity_(await cosmosOf(s).setDelegation(delegator, validator, amount)) }),
  }),
  /** Makes every unbonding entry complete in the next block (cosmos option); answers that block. */
  finality_completeUnbonding: method({
    params: [],
    run: async (s) => ({ completesAt: quantity_(await cosmosOf(s).completeUnbonding()) }),
  }),
  /** Jails a validator for a number of blocks, without a slash (cosmos option); answers the height it leaves the set at. */
  finality_jailValidator: method({
    params: [address, optional(uint64, 0n)],
    run: async (s, [validator, blocks]) => ({ effectiveBlock: quantity_(await cosmosOf(s).jail(validator, blocks)) }),
  }),
  /** Unjails a validator, tombstoned or not (cosmos option); answers the height it is back at. */
  finality_unjailValidator: method({
    params: [address],
    run: async (s, [validator]) => ({ effectiveBlock: quantity_(await cosmosOf(s).unjail(validator)) }),
  }),
  /** Gives a validator faults (replacing its previous ones); `{}` makes it correct again. */
  finality_setFault: method({
    params: [address, fault],
    run: (s, [a, f]) => {
      s.consensus.setFault(data(a), checkFault(f, s.limits.faultDelayMs))
      return true
    },
  }),
  /** Heals one validator, or (without an address) every validator and the partition. */
  finality_heal: method({
    params: [optional(address, undefined)],
    run: (s, [a]) => {
      s.consensus.heal(a === undefined ? undefined : data(a))
      return true
    },
  }),
  /** Splits the validators into groups that cannot reach each other; those not listed form one more. */
  finality_partition: method({
    params: [groups],
    run: (s, [g]) => {
      s.consensus.partition(g)
      return true
    },
  }),
  /** Requests validator-set changes; answers the height they take effect at (the head + 2). */
  finality_changeValidators: method({
    params: [changes],
    run: (s, [c]) => {
      const max = s.limits.validatorChanges
      if (c.length > max) throw new InvalidParamsError(`at most ${max} changes at once (the validatorChanges limit), got ${c.length}`)
      return { effectiveBlock: quantity(s.consensus.changeValidators(c)) }
    },
  }),
}
