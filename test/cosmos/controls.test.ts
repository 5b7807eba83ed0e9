/**
 * The cosmos option's test controls, from JavaScript and over node.request: set a delegation,
 * complete the unbonding, jail and unjail; each change of power lands at the height it answers,
 * and the same calls on two nodes make the same chain.
 */
import { describe, expect, it } from 'vitest'
import { decodeFunctionResult, encodeFunctionData, parseAbi, parseEther, toHex, type Hex } from 'viem'
import { createNode, type FinalityNode } from '../../src/index.js'
import { toBech32 } from '../../src/cosmos/bech32.js'

const STAKING = '0x0000000000000000000000000000000000000800'
const SLASHING = '0x0000000000000000000000000000000000000806'
const abi = parseAbi([
  'function undelegate(address delegatorAddress, string validatorAddress, uint256 amount) returns (int64)',
  'function delegation(address delegatorAddress, string validatorAddress) view returns (uint256 shares, (string denom, uint256 amount) balance)',
  'function unjail(address validatorAddress) returns (bool)',
])
const valoper = (a: Hex) => toBech32('cosmosvaloper', Buffer.from(a.slice(2), 'hex'))

async function powers(node: FinalityNode, block: bigint): Promise<Record<string, bigint>> {
  const set = (await node.request({ method: 'finality_getValidators', params: [toHex(block)] })) as Array<{ address: Hex; votingPower: Hex }>
  return Object.fromEntries(set.map((v) => [v.address, BigInt(v.votingPower)]))
}
const head = async (node: FinalityNode) => BigInt((await node.request({ method: 'eth_blockNumber' })) as Hex)
const mine = (node: FinalityNode, n: number) => node.request({ method: 'hardhat_mine', params: [toHex(n)] })

describe('cosmos test controls', () => {
  it('setDelegation (JavaScript): the power changes at the height answered; deterministic across nodes', async () => {
    const roots: Hex[] = []
    for (let i = 0; i < 2; i++) {
      const node = await createNode({ validators: 3, cosmos: {}, initialDate: '2026-01-01T00:00:00Z' })
      try {
        const [v] = node.validators
        const me = node.accounts[0]!.address as Hex
        const before = await node.request({ method: 'eth_getBalance', params: [me, 'latest'] })
        const at = await node.setDelegation(me, v!.address, parseEther('5'))
        expect(at).toBe((await head(node)) + 3n)
        expect(await node.request({ method: 'eth_getBalance', params: [me, 'latest'] })).toBe(before)
        await mine(node, 3)
        expect((await powers(node, at - 1n))[v!.address]).toBe(10n)
        expect((await powers(node, at))[v!.address]).toBe(15n)
        const data = encodeFunctionData({ abi, functionName: 'delegation', args: [me, valoper(v!.address)] })
        const out = (await node.request({ method: 'eth_call', params: [{ to: STAKING, data }, 'latest'] })) as Hex
        const [, balance] = decodeFunctionResult({ abi, functionName: 'delegation', data: out })
        expect(balance).toEqual({ denom: 'atest', amount: parseEther('5') })
        roots.push(((await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { stateRoot: Hex }).stateRoot)
      } finally {
        await node.close()
      }
    }
    expect(roots[0]).toBe(roots[1])
  })

  it('finality_jailValidator / unjail: out of the set and back; the precompile\'s unjail waits for the jail to end', async () => {
    const node = await createNode({ validators: 3, cosmos: {} })
    try {
      const [, v] = node.validators
      const jailed = (await node.request({ method: 'finality_jailValidator', params: [v!.address, '0x3'] })) as { effectiveBlock: Hex }
      const h = await head(node)
      expect(BigInt(jailed.effectiveBlock)).toBe(h + 3n)
      await mine(node, 3)
      expect((await powers(node, h + 2n))[v!.address]).toBe(10n)
      expect((await powers(node, h + 3n))[v!.address]).toBeUndefined()
      // Jailed until block h + 1 + 3: the validator's own unjail is refused before, accepted from then.
      await node.request({ method: 'hardhat_impersonateAccount', params: [v!.address] })
      await node.request({ method: 'hardhat_setBalance', params: [v!.address, toHex(parseEther('1'))] })
      const data = encodeFunctionData({ abi, functionName: 'unjail', args: [v!.address] })
      await expect(node.request({ method: 'eth_call', params: [{ from: v!.address, to: SLASHING, data }, 'latest'] })).rejects.toThrow(/validator still jailed; cannot be unjailed: jailed until block/)
      await mine(node, 1)
      const hash = (await node.request({ method: 'eth_sendTransaction', params: [{ from: v!.address, to: SLASHING, data }] })) as Hex
      const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: Hex; blockNumber: Hex; logs: Array<{ address: Hex }> }
      expect(receipt.status).toBe('0x1')
      expect(receipt.logs.map((l) => l.address)).toEqual([SLASHING])
      await mine(node, 2)
      expect((await powers(node, BigInt(receipt.blockNumber) + 2n))[v!.address]).toBe(10n)

      // The control unjails at once (no wait), a test's cheat.
      await node.jailValidator(v!.address, 100n)
      const back = await node.unjailValidator(v!.address)
      await mine(node, 3)
      expect((await powers(node, back))[v!.address]).toBe(10n)
    } finally {
      await node.close()
    }
  })

  it('finality_completeUnbonding: an undelegation of 100 blocks pays out in the next block', async () => {
    const node = await createNode({ validators: 2, cosmos: { unbondingBlocks: 100 } })
    try {
      const [v] = node.validators
      const me = node.accounts[0]!.address as Hex
      await node.request({ method: 'finality_setDelegation', params: [me, v!.address, toHex(parseEther('4'))] })
      const data = encodeFunctionData({ abi, functionName: 'undelegate', args: [me, valoper(v!.address), parseEther('3')] })
      const hash = (await node.request({ method: 'eth_sendTransaction', params: [{ from: me, to: STAKING, data }] })) as Hex
      expect(((await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: Hex }).status).toBe('0x1')
      const before = BigInt((await node.request({ method: 'eth_getBalance', params: [me, 'latest'] })) as Hex)
      const { completesAt } = (await node.request({ method: 'finality_completeUnbonding', params: [] })) as { completesAt: Hex }
      expect(BigInt(completesAt)).toBe((await head(node)) + 1n)
      await mine(node, 1)
      expect(BigInt((await node.request({ method: 'eth_getBalance', params: [me, 'latest'] })) as Hex)).toBe(before + parseEther('3'))
    } finally {
      await node.close()
    }
  })

  it('error: without the cosmos option the controls say why; a non-validator is refused', async () => {
    const node = await createNode({})
    try {
      const me = node.accounts[0]!.address as Hex
      await expect(node.request({ method: 'finality_setDelegation', params: [me, me, '0x1'] })).rejects.toThrow(/the staking controls need the cosmos option/)
      await expect(node.completeUnbonding()).rejects.toThrow(/the staking controls need the cosmos option/)
    } finally {
      await node.close()
    }
    const cosmos = await createNode({ cosmos: {} })
    try {
      const me = cosmos.accounts[0]!.address as Hex
      await expect(cosmos.jailValidator(me)).rejects.toThrow(/is not a validator of the staking state/)
    } finally {
      await cosmos.close()
    }
  })
})
