/**
 * Distribution: the base fee an Ethereum chain burns is paid to the validators (Cosmos EVM's
 * rule): the distribution pool holds exactly the base fees of every block; delegators' rewards
 * follow power, commission and community tax; a vault claims its rewards through the precompile.
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, custom, decodeEventLog, defineChain, parseEther, type Abi, type Hex } from 'viem'
import { createNode, type FinalityNode } from '../../src/index.js'
import { compile, type Compiled } from './compile.js'

const chain = defineChain({ id: 262144, name: 'cosmos-evm', nativeCurrency: { name: 'test', symbol: 'TEST', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:0'] } } })
const DISTRIBUTION = '0x0000000000000000000000000000000000000801' as const
const BECH32 = '0x0000000000000000000000000000000000000400' as const
const POOL = `0x${createHash('sha256').update('distribution').digest('hex').slice(0, 40)}` as Hex

let contracts: Record<string, Compiled>
let node: FinalityNode

beforeAll(async () => {
  contracts = compile(['test/cosmos/StakingVault.sol', 'test/fixtures/cosmos-evm/precompiles/bech32/Bech32I.sol'])
  node = await createNode({ validators: 2, cosmos: {}, onConsoleLog: false })
}, 60_000)
afterAll(async () => {
  await node?.close()
})

describe('distribution', () => {
  it('behavior: base fees go to the distribution pool, are allocated, and a vault claims its rewards', async () => {
    const transport = custom(node.provider, { retryCount: 0 })
    const account = { address: node.accounts[0]!.address as Hex, type: 'json-rpc' as const }
    const client = createPublicClient({ chain, transport, pollingInterval: 20 })
    const wallet = createWalletClient({ chain, transport, account })
    const [a] = (await node.request({ method: 'finality_getValidators', params: [] })) as Array<{ address: Hex }>
    const operator = (await client.readContract({ address: BECH32, abi: contracts.Bech32I!.abi, functionName: 'hexToBech32', args: [a!.address, 'cosmosvaloper'] })) as string
    const artifact = contracts.StakingVault!
    const deployed = await client.waitForTransactionReceipt({ hash: await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args: [operator] }) })
    const vault = { address: deployed.contractAddress!, abi: artifact.abi }
    await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ ...vault, functionName: 'deposit', value: parseEther('10') }) })
    for (let i = 0; i < 3; i++) await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: node.accounts[1]!.address as Hex, value: 1n }) })

    // The pool holds every block's base fee × gas used: nothing was burned.
    const head = await client.getBlockNumber()
    let burned = 0n
    for (let n = 1n; n <= head; n++) {
      const block = await client.getBlock({ blockNumber: n })
      burned += block.baseFeePerGas! * block.gasUsed
    }
    expect(burned).toBeGreaterThan(0n)
    expect(await client.getBalance({ address: POOL })).toBe(burned)

    const abi = contracts.DistributionI!.abi
    const pool = (await client.readContract({ address: DISTRIBUTION, abi, functionName: 'communityPool' })) as Array<{ denom: string; amount: bigint; precision: number }>
    expect(pool[0]!.denom).toBe('atest')
    expect(pool[0]!.precision).toBe(18)
    // At least the 2% community tax, in DecCoin units (10^-18 of a token).
    expect(pool[0]!.amount).toBeGreaterThanOrEqual((burned * 10n ** 18n * 2n) / 100n)
    const commission = (await client.readContract({ address: DISTRIBUTION, abi, functionName: 'validatorCommission', args: [operator] })) as Array<{ amount: bigint }>
    expect(commission[0]!.amount).toBeGreaterThan(0n)

    const pending = (await client.readContract({ address: DISTRIBUTION, abi, functionName: 'delegationRewards', args: [vault.address, operator] })) as Array<{ amount: bigint }>
    expect(pending[0]!.amount).toBeGreaterThan(0n)
    const hash = await wallet.writeContract({ ...vault, functionName: 'claim' })
    const receipt = await client.waitForTransactionReceipt({ hash })
    const claimed = receipt.logs.find((l) => l.address.toLowerCase() === DISTRIBUTION)!
    const event = decodeEventLog({ abi: abi as Abi, data: claimed.data, topics: claimed.topics as [Hex, ...Hex[]] }) as unknown as { eventName: string; args: { amount: bigint } }
    expect(event.eventName).toBe('ClaimRewards')
    // Whole tokens (wei) of what had accrued before the claim's block; the fraction stays.
    expect(event.args.amount).toBe(pending[0]!.amount / 10n ** 18n)
    expect(await client.getBalance({ address: vault.address })).toBe(event.args.amount)
  })

  it('default: off, the base fee is burned as on Ethereum', async () => {
    const plain = await createNode({})
    try {
      await plain.request({ method: 'eth_sendTransaction', params: [{ from: plain.accounts[0]!.address, to: plain.accounts[1]!.address, value: '0x1' }] })
      expect(await plain.request({ method: 'eth_getBalance', params: [POOL, 'latest'] })).toBe('0x0')
    } finally {
      await plain.close()
    }
  })
})
