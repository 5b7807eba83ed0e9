/**
 * The precompiles against Cosmos EVM's own Solidity interfaces (vendored, compiled with solc):
 * every function each interface declares is served at the interface's address (or refused with a
 * reason), never unknown; the events the node emits are the interfaces' events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toEventSelector, toFunctionSelector, type AbiEvent, type AbiFunction, type Hex } from 'viem'
import { createNode, type FinalityNode } from '../../src/index.js'
import { eventTopic } from '../../src/cosmos/abi.js'
import { compile, type Compiled } from './compile.js'

const INTERFACES = {
  StakingI: { file: 'test/fixtures/cosmos-evm/precompiles/staking/StakingI.sol', address: '0x0000000000000000000000000000000000000800' },
  IBank: { file: 'test/fixtures/cosmos-evm/precompiles/bank/IBank.sol', address: '0x0000000000000000000000000000000000000804' },
  ISlashing: { file: 'test/fixtures/cosmos-evm/precompiles/slashing/ISlashing.sol', address: '0x0000000000000000000000000000000000000806' },
  DistributionI: { file: 'test/fixtures/cosmos-evm/precompiles/distribution/DistributionI.sol', address: '0x0000000000000000000000000000000000000801' },
  IGov: { file: 'test/fixtures/cosmos-evm/precompiles/gov/IGov.sol', address: '0x0000000000000000000000000000000000000805' },
  Bech32I: { file: 'test/fixtures/cosmos-evm/precompiles/bech32/Bech32I.sol', address: '0x0000000000000000000000000000000000000400' },
} as const

let contracts: Record<string, Compiled>
let node: FinalityNode

beforeAll(async () => {
  contracts = compile(Object.values(INTERFACES).map((i) => i.file))
  node = await createNode({ cosmos: {} })
}, 60_000)
afterAll(async () => {
  await node?.close()
})

/** The revert reason of a call of `data` to `to`, or undefined when it succeeds. */
async function reason(to: Hex, data: Hex): Promise<string | undefined> {
  try {
    await node.request({ method: 'eth_call', params: [{ from: node.accounts[0]!.address, to, data, gas: '0x1000000' }, 'latest'] })
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}

describe('Cosmos EVM interfaces', () => {
  for (const [name, { address }] of Object.entries(INTERFACES) as Array<[string, { address: Hex }]>) {
    it(`${name} at ${address}: every function is served or refused with a reason`, async () => {
      const functions = contracts[name]!.abi.filter((x): x is AbiFunction => x.type === 'function')
      expect(functions.length).toBeGreaterThan(1)
      for (const f of functions) {
        const selector = toFunctionSelector(f)
        const answer = await reason(address, `${selector}${'00'.repeat(32 * 12)}` as Hex)
        expect(answer ?? '', `${name}.${f.name}`).not.toMatch(/no method with id/)
      }
      expect(await reason(address, '0xdeadbeef')).toMatch(/no method with id: 0xdeadbeef/)
    })
  }

  it('the distribution events the node emits are DistributionI\'s', () => {
    const events = contracts.DistributionI!.abi.filter((x): x is AbiEvent => x.type === 'event').map((e) => toEventSelector(e))
    for (const signature of ['ClaimRewards(address,uint256)', 'WithdrawDelegatorReward(address,address,uint256)', 'WithdrawValidatorCommission(string,uint256)', 'FundCommunityPool(address,string,uint256)']) {
      expect(events).toContain(`0x${Buffer.from(eventTopic(signature)).toString('hex')}`)
    }
  })

  it('the slashing event the node emits is ISlashing\'s', () => {
    const events = contracts.ISlashing!.abi.filter((x): x is AbiEvent => x.type === 'event')
    expect(events.map((e) => toEventSelector(e))).toContain(`0x${Buffer.from(eventTopic('ValidatorUnjailed(address)')).toString('hex')}`)
  })

  it('the staking events the node emits are StakingI\'s', () => {
    const events = contracts.StakingI!.abi.filter((x): x is AbiEvent => x.type === 'event')
    for (const signature of ['Delegate(address,address,uint256,uint256)', 'Unbond(address,address,uint256,uint256)']) {
      const topic = `0x${Buffer.from(eventTopic(signature)).toString('hex')}`
      expect(events.map((e) => toEventSelector(e))).toContain(topic)
    }
  })
})
