/**
 * Cosmos EVM's staking precompile through viem in-process: a Solidity vault delegates its
 * deposits, the validator's voting power changes at H + 2 exactly (the validator set, the
 * certificates and finality_getValidators agree with the precompile), an undelegation completes
 * after the unbonding blocks, and the Cosmos defaults and refusals hold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createPublicClient,
  createWalletClient,
  custom,
  decodeEventLog,
  defineChain,
  getAddress,
  parseEther,
  type Abi,
  type Hex,
} from 'viem'
import { createNode, type FinalityNode } from '../../src/index.js'
import { checkCertificate } from '../consensus/certificate-checker.js'
import { compile, type Compiled } from './compile.js'

const cosmosChain = defineChain({ id: 262144, name: 'cosmos-evm', nativeCurrency: { name: 'test', symbol: 'TEST', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:0'] } } })
const STAKING = '0x0000000000000000000000000000000000000800' as const
const BECH32 = '0x0000000000000000000000000000000000000400' as const
const BANK = '0x0000000000000000000000000000000000000804' as const

let contracts: Record<string, Compiled>
let node: FinalityNode

beforeAll(async () => {
  contracts = compile(['test/cosmos/StakingVault.sol', 'test/fixtures/cosmos-evm/precompiles/bank/IBank.sol', 'test/fixtures/cosmos-evm/precompiles/bech32/Bech32I.sol'])
  node = await createNode({ validators: 3, cosmos: { unbondingBlocks: 3 }, onConsoleLog: false })
}, 60_000)
afterAll(async () => {
  await node?.close()
})

function clients() {
  const transport = custom(node.provider, { retryCount: 0 })
  const account = { address: node.accounts[0]!.address as Hex, type: 'json-rpc' as const }
  return {
    client: createPublicClient({ chain: cosmosChain, transport, pollingInterval: 20 }),
    wallet: createWalletClient({ chain: cosmosChain, transport, account }),
    account,
  }
}

const rpc = (method: string, ...params: unknown[]) => node.request({ method, params } as never) as Promise<unknown>

async function validators(block: bigint): Promise<Array<{ address: Hex; votingPower: Hex; publicKey: Hex }>> {
  return (await rpc('finality_getValidators', `0x${block.toString(16)}`)) as Array<{ address: Hex; votingPower: Hex; publicKey: Hex }>
}

async function valoper(address: Hex): Promise<string> {
  const { client } = clients()
  return client.readContract({ address: BECH32, abi: contracts.Bech32I!.abi, functionName: 'hexToBech32', args: [address, 'cosmosvaloper'] }) as Promise<string>
}

describe('the cosmos option', () => {
  it('default: Cosmos EVM chain id 262144; the staking precompile lists the genesis validators, bonded', async () => {
    const { client } = clients()
    expect(await client.getChainId()).toBe(262144)
    const abi = contracts.StakingI!.abi
    const [list, page] = (await client.readContract({
      address: STAKING,
      abi,
      functionName: 'validators',
      args: ['BOND_STATUS_BONDED', { key: '0x', offset: 0n, limit: 0n, countTotal: true, reverse: false }],
    })) as [Array<{ operatorAddress: string; tokens: bigint; status: number; jailed: boolean; consensusPubkey: string }>, { total: bigint }]
    const set = await validators(0n)
    expect(page.total).toBe(3n)
    expect(list.map((v) => v.operatorAddress.toLowerCase()).sort()).toEqual(set.map((v) => v.address).sort())
    for (const v of list) {
      expect(v.tokens).toBe(10n * 10n ** 18n)
      expect(v.status).toBe(3)
      expect(v.jailed).toBe(false)
      const member = set.find((m) => m.address === v.operatorAddress.toLowerCase())!
      expect(Buffer.from(v.consensusPubkey, 'base64').toString('hex')).toBe(member.publicKey.slice(2))
    }
  })

  it('bech32: hex ⇄ cosmos1… round trip; a bad checksum reverts with the reason', async () => {
    const { client } = clients()
    const abi = contracts.Bech32I!.abi
    const address = node.accounts[0]!.address as Hex
    const text = (await client.readContract({ address: BECH32, abi, functionName: 'hexToBech32', args: [address, 'cosmos'] })) as string
    expect(text).toMatch(/^cosmos1[02-9ac-hj-np-z]{38}$/)
    expect(((await client.readContract({ address: BECH32, abi, functionName: 'bech32ToHex', args: [text] })) as string).toLowerCase()).toBe(address.toLowerCase())
    const broken = text.slice(0, -1) + (text.endsWith('q') ? 'p' : 'q')
    await expect(client.readContract({ address: BECH32, abi, functionName: 'bech32ToHex', args: [broken] })).rejects.toThrow(/invalid bech32 checksum/)
  })

  it('bank: an account\'s native balance under the native coin\'s ERC-20 address; none for an empty account; the supply under the same address', async () => {
    const { client } = clients()
    const abi = contracts.IBank!.abi
    const address = node.accounts[1]!.address as Hex
    const balances = (await client.readContract({ address: BANK, abi, functionName: 'balances', args: [address] })) as Array<{ contractAddress: Hex; amount: bigint }>
    expect(balances).toEqual([{ contractAddress: '0xD4949664cD82660AaE99bEdc034a0deA8A0bd517', amount: await client.getBalance({ address }) }])
    expect(await client.readContract({ address: BANK, abi, functionName: 'balances', args: ['0x00000000000000000000000000000000000000ee'] })).toEqual([])
    // The supply itself: test/cosmos/supply.test.ts.
    const [native] = (await client.readContract({ address: BANK, abi, functionName: 'totalSupply' })) as Array<{ contractAddress: Hex; amount: bigint }>
    expect(native!.contractAddress).toBe('0xD4949664cD82660AaE99bEdc034a0deA8A0bd517')
    expect(await client.readContract({ address: BANK, abi, functionName: 'supplyOf', args: [native!.contractAddress] })).toBe(native!.amount)
  })

  it('behavior: a vault delegates its deposit; the power changes at H + 2 exactly; certificates check against each height\'s set', async () => {
    const { client, wallet } = clients()
    const vaultArtifact = contracts.StakingVault!
    const [target] = await validators(0n)
    const operator = await valoper(target!.address)
    const deployHash = await wallet.deployContract({ abi: vaultArtifact.abi, bytecode: vaultArtifact.bytecode, args: [operator] })
    const vaultAddress = (await client.waitForTransactionReceipt({ hash: deployHash })).contractAddress!
    const vault = { address: vaultAddress, abi: vaultArtifact.abi }
    const staked = () => client.readContract({ ...vault, functionName: 'staked' }) as Promise<bigint>

    const hash = await wallet.writeContract({ ...vault, functionName: 'deposit', value: parseEther('5') })
    const receipt = await client.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    const h = receipt.blockNumber
    const event = receipt.logs.find((l) => l.address.toLowerCase() === STAKING)!
    const decoded = decodeEventLog({ abi: contracts.StakingI!.abi as Abi, data: event.data, topics: event.topics as [Hex, ...Hex[]] })
    expect(decoded).toMatchObject({ eventName: 'Delegate', args: { delegatorAddress: getAddress(vaultAddress), amount: parseEther('5'), newShares: parseEther('5') * 10n ** 18n } })
    expect((decoded.args as unknown as { validatorAddress: string }).validatorAddress.toLowerCase()).toBe(target!.address)
    expect(await staked()).toBe(parseEther('5'))

    const power = async (block: bigint) => BigInt((await validators(block)).find((v) => v.address === target!.address)!.votingPower)
    expect(await power(h)).toBe(10n)
    expect(await power(h + 1n)).toBe(10n)
    await rpc('evm_mine')
    await rpc('evm_mine')
    expect(await power(h + 1n)).toBe(10n)
    expect(await power(h + 2n)).toBe(15n)
    const history = (await rpc('finality_getValidatorHistory')) as Array<{ fromBlock: Hex; requestedAt: Hex }>
    expect(history.at(-1)).toMatchObject({ fromBlock: `0x${(h + 2n).toString(16)}`, requestedAt: `0x${h.toString(16)}` })
    // The precompile's validator agrees with the set.
    const info = (await client.readContract({ address: STAKING, abi: contracts.StakingI!.abi, functionName: 'validator', args: [target!.address] })) as { tokens: bigint }
    expect(info.tokens).toBe(15n * 10n ** 18n)

    // Every height's certificate is signed by more than 2/3 of that height's set.
    for (let n = h; n <= h + 2n; n++) {
      const cert = (await rpc('finality_getCommitCertificate', `0x${n.toString(16)}`)) as {
        height: Hex
        round: Hex
        blockHash: Hex
        precommits: Array<{ validator: string; signature: Hex }>
        validatorSet: Array<{ publicKey: Hex; votingPower: Hex }>
      }
      const set = (await validators(n)).map((v) => ({ publicKey: Buffer.from(v.publicKey.slice(2), 'hex'), power: BigInt(v.votingPower) }))
      const certificate = {
        height: BigInt(cert.height),
        round: Number(cert.round),
        blockHash: Buffer.from(cert.blockHash.slice(2), 'hex'),
        precommits: cert.precommits.map((p) => ({ validator: p.validator, signature: Buffer.from(p.signature.slice(2), 'hex') })),
      }
      expect(checkCertificate(certificate, set, 262144n), `block ${n}`).toBe(true)
      expect(cert.validatorSet.map((v) => BigInt(v.votingPower))).toEqual(set.map((m) => m.power))
    }
  })

  it('behavior: an undelegation pays out when its completion height is reached, and the power drops at H + 2', async () => {
    const { client, wallet, account } = clients()
    const abi = contracts.StakingI!.abi
    const [, target] = await validators(0n)
    const operator = await valoper(target!.address)
    await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: STAKING, abi, functionName: 'delegate', args: [account.address, operator, parseEther('3')] }) })
    const hash = await wallet.writeContract({ address: STAKING, abi, functionName: 'undelegate', args: [account.address, operator, parseEther('2')] })
    const receipt = await client.waitForTransactionReceipt({ hash })
    const h = receipt.blockNumber
    const [, out] = (await client.readContract({ address: STAKING, abi, functionName: 'delegation', args: [account.address, operator] })) as [bigint, { denom: string; amount: bigint }]
    expect(out).toEqual({ denom: 'atest', amount: parseEther('1') })
    const ubd = (await client.readContract({ address: STAKING, abi, functionName: 'unbondingDelegation', args: [account.address, operator] })) as {
      entries: Array<{ creationHeight: bigint; completionTime: bigint; balance: bigint }>
    }
    expect(ubd.entries).toEqual([expect.objectContaining({ creationHeight: h, completionTime: h + 3n, balance: parseEther('2') })])
    const before = await client.getBalance({ address: account.address })
    await rpc('evm_mine')
    expect(BigInt((await validators(h + 2n)).find((v) => v.address === target!.address)!.votingPower)).toBe(11n)
    await rpc('evm_mine')
    expect(await client.getBalance({ address: account.address })).toBe(before)
    await rpc('evm_mine') // block h + 3: the entry completes
    expect(await client.getBalance({ address: account.address })).toBe(before + parseEther('2'))
    const done = (await client.readContract({ address: STAKING, abi, functionName: 'unbondingDelegation', args: [account.address, operator] })) as { entries: unknown[] }
    expect(done.entries).toEqual([])
  })

  it('error: a delegator other than msg.sender, an unknown validator, too much, a static call', async () => {
    const { client, wallet, account } = clients()
    const abi = contracts.StakingI!.abi
    const [target] = await validators(0n)
    const operator = await valoper(target!.address)
    const other = node.accounts[2]!.address as Hex
    await expect(client.simulateContract({ account, address: STAKING, abi, functionName: 'delegate', args: [other, operator, 1n] })).rejects.toThrow(
      /msg.sender address 0x[0-9a-fA-F]{40} does not match the requester address 0x[0-9a-fA-F]{40}/,
    )
    const unknown = await client.readContract({ address: BECH32, abi: contracts.Bech32I!.abi, functionName: 'hexToBech32', args: [other, 'cosmosvaloper'] })
    await expect(client.simulateContract({ account, address: STAKING, abi, functionName: 'delegate', args: [account.address, unknown, 1n] })).rejects.toThrow(/validator does not exist/)
    await expect(client.simulateContract({ account, address: STAKING, abi, functionName: 'delegate', args: [account.address, operator, 10n ** 30n] })).rejects.toThrow(/insufficient funds/)
    await expect(client.simulateContract({ account, address: STAKING, abi, functionName: 'redelegate', args: [account.address, operator, operator, 1n] })).rejects.toThrow(/no delegation for \(address, validator\) tuple/)
    await expect(rpc('finality_changeValidators', [{ address: target!.address, power: '0x5' }])).rejects.toThrow(/staking state sets the voting power/)
    void wallet
  })
})
