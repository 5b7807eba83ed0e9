/**
 * Cosmos EVM's distribution precompile (0x…0801, `DistributionI`): rewards and commission from
 * the fees the chain pays its validators (distribution-state.ts), withdrawn to the delegator.
 */
import { checksumAddress as checksum } from '../crypto/checksum.js'
import { keccak256 } from '../crypto/keccak.js'
import { data } from '../hex.js'
import { encode, type AbiValue } from './abi.js'
import { toBech32 } from './bech32.js'
import { DistributionState } from './distribution-state.js'
import type { CosmosSettings } from './options.js'
import { distributionExtraMethods } from './distribution-extra.js'
import { addressTopic, PrecompileRevert, tablePrecompile, type PrecompileMethod } from './precompile.js'
import { requester, validatorNamed } from './staking-rules.js'

/** The distribution precompile. */
export function distributionPrecompile(settings: CosmosSettings) {
  const dec = (amount: bigint): AbiValue[] => (amount === 0n ? [] : [[settings.denom, amount, 18n]])
  const coins = (tokens: bigint): AbiValue[] => [[settings.denom, tokens]]
  const valoper = (a: Uint8Array) => toBech32(`${settings.bech32Prefix}valoper`, a)
  /** The validators `delegator` holds shares with. */
  const delegated = async (d: DistributionState, delegator: Uint8Array): Promise<Uint8Array[]> => {
    const out: Uint8Array[] = []
    for (const v of await d.staking.validatorAddresses()) if ((await d.staking.delegationShares(delegator, v)) > 0n) out.push(v)
    return out
  }
  const methods: PrecompileMethod[] = [
    {
      signature: 'claimRewards(address,uint32)',
      outputs: ['bool'],
      write: true,
      gas: 60_000n,
      async run([delegator, maxRetrieve], call) {
        const who = delegator as Uint8Array
        requester(call, who)
        const d = new DistributionState(call.state)
        const validators = await delegated(d, who)
        if (BigInt(validators.length) > (maxRetrieve as bigint)) {
          throw new PrecompileRevert(`maxRetrieve (${maxRetrieve}) parameter exceeds the maximum number of validators (${validators.length})`)
        }
        let total = 0n
        for (const v of validators) total += await d.withdraw(who, v)
        return { values: [true], events: [{ signature: 'ClaimRewards(address,uint256)', topics: [addressTopic(who)], data: encode(['uint256'], [total]) }] }
      },
    },
    {
      signature: 'withdrawDelegatorRewards(address,string)',
      outputs: ['(string,uint256)[]'],
      write: true,
      gas: 40_000n,
      async run([delegator, validatorText], call) {
        const who = delegator as Uint8Array
        requester(call, who)
        const d = new DistributionState(call.state)
        const v = await validatorNamed(d.staking, settings, validatorText as string)
        const tokens = await d.withdraw(who, v.address)
        return {
          values: [coins(tokens)],
          events: [{ signature: 'WithdrawDelegatorReward(address,address,uint256)', topics: [addressTopic(who), addressTopic(v.address)], data: encode(['uint256'], [tokens]) }],
        }
      },
    },
    {
      signature: 'withdrawValidatorCommission(string)',
      outputs: ['(string,uint256)[]'],
      write: true,
      gas: 40_000n,
      async run([validatorText], call) {
        const d = new DistributionState(call.state)
        const v = await validatorNamed(d.staking, settings, validatorText as string)
        requester(call, v.address)
        const tokens = await d.withdrawCommission(v.address)
        // The indexed string topic is the keccak of the string, as Solidity indexes a string.
        return {
          values: [coins(tokens)],
          events: [{ signature: 'WithdrawValidatorCommission(string,uint256)', topics: [keccak256(new TextEncoder().encode(validatorText as string))], data: encode(['uint256'], [tokens]) }],
        }
      },
    },
    {
      signature: 'fundCommunityPool(address,(string,uint256)[])',
      outputs: ['bool'],
      write: true,
      gas: 40_000n,
      async run([depositor, amount], call) {
        const who = depositor as Uint8Array
        requester(call, who)
        const d = new DistributionState(call.state)
        const events = []
        for (const [denom, value] of amount as Array<[string, bigint]>) {
          if (denom !== settings.denom) throw new PrecompileRevert(`invalid denom ${denom}: the one coin here is ${settings.denom}`)
          if (!(await d.fundCommunityPool(who, value))) throw new PrecompileRevert(`spendable balance ${await d.staking.balance(who)}${settings.denom} is smaller than ${value}${settings.denom}: insufficient funds`)
          events.push({ signature: 'FundCommunityPool(address,string,uint256)', topics: [addressTopic(who)], data: encode(['string', 'uint256'], [denom, value]) })
        }
        return { values: [true], events }
      },
    },
    {
      signature: 'delegationRewards(address,string)',
      outputs: ['(string,uint256,uint8)[]'],
      write: false,
      gas: 4_000n,
      async run([delegator, validatorText], call) {
        const d = new DistributionState(call.state)
        const v = await validatorNamed(d.staking, settings, validatorText as string)
        return { values: [dec(await d.rewards(delegator as Uint8Array, v.address))] }
      },
    },
    {
      signature: 'delegationTotalRewards(address)',
      outputs: ['(string,(string,uint256,uint8)[])[]', '(string,uint256,uint8)[]'],
      write: false,
      gas: 8_000n,
      async run([delegator], call) {
        const d = new DistributionState(call.state)
        const rows: AbiValue[] = []
        let total = 0n
        for (const v of await delegated(d, delegator as Uint8Array)) {
          const r = await d.rewards(delegator as Uint8Array, v)
          total += r
          rows.push([valoper(v), dec(r)])
        }
        return { values: [rows, dec(total)] }
      },
    },
    {
      signature: 'delegatorValidators(address)',
      outputs: ['string[]'],
      write: false,
      gas: 4_000n,
      async run([delegator], call) {
        return { values: [(await delegated(new DistributionState(call.state), delegator as Uint8Array)).map(valoper)] }
      },
    },
    {
      signature: 'delegatorWithdrawAddress(address)',
      outputs: ['string'],
      write: false,
      gas: 2_000n,
      run: async ([delegator], call) => ({ values: [toBech32(settings.bech32Prefix, await new DistributionState(call.state).withdrawAddress(delegator as Uint8Array))] }),
    },
    {
      signature: 'validatorCommission(string)',
      outputs: ['(string,uint256,uint8)[]'],
      write: false,
      gas: 4_000n,
      async run([validatorText], call) {
        const d = new DistributionState(call.state)
        const v = await validatorNamed(d.staking, settings, validatorText as string)
        return { values: [dec(await d.commission(v.address))] }
      },
    },
    {
      signature: 'validatorOutstandingRewards(string)',
      outputs: ['(string,uint256,uint8)[]'],
      write: false,
      gas: 4_000n,
      async run([validatorText], call) {
        const d = new DistributionState(call.state)
        const v = await validatorNamed(d.staking, settings, validatorText as string)
        return { values: [dec(await d.outstanding(v.address))] }
      },
    },
    {
      signature: 'validatorDistributionInfo(string)',
      outputs: ['(string,(string,uint256,uint8)[],(string,uint256,uint8)[])'],
      write: false,
      gas: 6_000n,
      async run([validatorText], call) {
        const d = new DistributionState(call.state)
        const v = await validatorNamed(d.staking, settings, validatorText as string)
        return { values: [[checksum(data(v.address)), dec(await d.rewards(v.address, v.address)), dec(await d.commission(v.address))]] }
      },
    },
    {
      signature: 'communityPool()',
      outputs: ['(string,uint256,uint8)[]'],
      write: false,
      gas: 2_000n,
      run: async (_args, call) => ({ values: [dec(await new DistributionState(call.state).communityPool())] }),
    },
    ...distributionExtraMethods(settings),
  ]
  return tablePrecompile('0000000000000000000000000000000000000801', methods)
}
