/**
 * Slashing from the evidence consensus records: a validator that double-signs (the `equivocate`
 * fault) is slashed 5%, jailed and tombstoned in the block that commits the evidence; it leaves
 * the set two heights later; a vault staked with it sees its loss; the chain keeps producing
 * blocks whose certificates check against each height's set; unjail refuses a tombstoned one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, custom, defineChain, parseEther, type Hex } from 'viem'
import { createNode, type FinalityNode } from '../../src/index.js'
import { checkCertificate } from '../consensus/certificate-checker.js'
import { compile, type Compiled } from './compile.js'

const chain = defineChain({ id: 262144, name: 'cosmos-evm', nativeCurrency: { name: 'test', symbol: 'TEST', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:0'] } } })
const STAKING = '0x0000000000000000000000000000000000000800' as const
const SLASHING = '0x0000000000000000000000000000000000000806' as const
const BECH32 = '0x0000000000000000000000000000000000000400' as const
const FAST = { timeouts: { propose: 30, proposeDelta: 10, prevote: 10, prevoteDelta: 10, precommit: 10, precommitDelta: 10 } }

let contracts: Record<string, Compiled>
let node: FinalityNode

beforeAll(async () => {
  contracts = compile([
    'test/cosmos/StakingVault.sol',
    'test/fixtures/cosmos-evm/precompiles/slashing/ISlashing.sol',
    'test/fixtures/cosmos-evm/precompiles/staking/StakingI.sol',
    'test/fixtures/cosmos-evm/precompiles/bech32/Bech32I.sol',
  ])
  node = await createNode({ validators: 4, consensus: FAST, cosmos: {}, onConsoleLog: false })
}, 60_000)
afterAll(async () => {
  await node?.close()
})

const rpc = (method: string, ...params: unknown[]) => node.request({ method, params } as never) as Promise<unknown>
const hex = (n: bigint) => `0x${n.toString(16)}`
type Member = { address: Hex; votingPower: Hex; publicKey: Hex }
const setAt = (n: bigint) => rpc('finality_getValidators', hex(n)) as Promise<Member[]>

describe('slashing from double-sign evidence', () => {
  it('behavior: slashed 5%, jailed, tombstoned, out of the set at H + 2; the vault sees its loss; blocks and certificates go on', async () => {
    const transport = custom(node.provider, { retryCount: 0 })
    const account = { address: node.accounts[0]!.address as Hex, type: 'json-rpc' as const }
    const client = createPublicClient({ chain, transport, pollingInterval: 20 })
    const wallet = createWalletClient({ chain, transport, account })
    const [, , culprit] = await setAt(0n)
    const operator = (await client.readContract({ address: BECH32, abi: contracts.Bech32I!.abi, functionName: 'hexToBech32', args: [culprit!.address, 'cosmosvaloper'] })) as string
    const artifact = contracts.StakingVault!
    const deployed = await client.waitForTransactionReceipt({ hash: await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args: [operator] }) })
    const vault = { address: deployed.contractAddress!, abi: artifact.abi }
    await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ ...vault, functionName: 'deposit', value: parseEther('10') }) })
    expect(await client.readContract({ ...vault, functionName: 'loss' })).toBe(0n)

    await rpc('finality_setFault', culprit!.address, { equivocate: true })
    const sent = await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: node.accounts[1]!.address as Hex, value: 1n }) })
    const evidence = (await rpc('finality_getEvidence')) as Array<{ validator: Hex; height: Hex }>
    expect(evidence.length).toBeGreaterThan(0)
    expect(evidence.every((e) => e.validator === culprit!.address)).toBe(true)
    const first = BigInt(evidence[0]!.height)
    expect(first).toBe(sent.blockNumber)

    // The next block commits the evidence: BeginBlock slashes and jails.
    await rpc('evm_mine')
    const committing = first + 1n
    const slashing = contracts.ISlashing!.abi
    const info = (await client.readContract({ address: SLASHING, abi: slashing, functionName: 'getSigningInfo', args: [culprit!.address] })) as { tombstoned: boolean; jailedUntil: bigint }
    expect(info).toMatchObject({ tombstoned: true, jailedUntil: 2n ** 63n - 1n })
    const v = (await client.readContract({ address: STAKING, abi: contracts.StakingI!.abi, functionName: 'validator', args: [culprit!.address] })) as { jailed: boolean; status: number; tokens: bigint }
    // 10 genesis + 10 from the vault, less 5%.
    expect(v).toMatchObject({ jailed: true, status: 1, tokens: parseEther('19') })
    expect(await client.readContract({ ...vault, functionName: 'loss' })).toBe(parseEther('0.5'))

    // EndBlock of the committing block drops its power: the set of committing + 2 has it no more.
    await rpc('evm_mine')
    await rpc('evm_mine')
    const power = async (n: bigint) => (await setAt(n)).find((m) => m.address === culprit!.address)?.votingPower
    expect(await power(committing + 1n)).toBe('0x14')
    expect(await power(committing + 2n)).toBeUndefined()

    await rpc('finality_heal')
    for (let i = 0; i < 2; i++) await rpc('evm_mine')
    const head = await client.getBlockNumber()
    for (let n = first; n <= head; n++) {
      const cert = (await rpc('finality_getCommitCertificate', hex(n))) as { height: Hex; round: Hex; blockHash: Hex; precommits: Array<{ validator: string; signature: Hex }> }
      const members = (await setAt(n)).map((m) => ({ publicKey: Buffer.from(m.publicKey.slice(2), 'hex'), power: BigInt(m.votingPower) }))
      const decoded = {
        height: BigInt(cert.height),
        round: Number(cert.round),
        blockHash: Buffer.from(cert.blockHash.slice(2), 'hex'),
        precommits: cert.precommits.map((p) => ({ validator: p.validator, signature: Buffer.from(p.signature.slice(2), 'hex') })),
      }
      expect(checkCertificate(decoded, members, 262144n), `block ${n}`).toBe(true)
    }

    // A tombstoned validator cannot be unjailed, even by itself.
    await rpc('hardhat_impersonateAccount', culprit!.address)
    await rpc('hardhat_setBalance', culprit!.address, hex(parseEther('1')))
    await expect(
      client.simulateContract({ account: culprit!.address, address: SLASHING, abi: slashing, functionName: 'unjail', args: [culprit!.address] }),
    ).rejects.toThrow(/validator still jailed; cannot be unjailed: it is tombstoned/)
  }, 60_000)
})
