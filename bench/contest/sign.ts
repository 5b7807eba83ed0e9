/**
 * Builds the contest's plan: the accounts of the default mnemonic and every transaction the
 * children send, signed once here with viem (EIP-1559, chain id 31337, max fee 10 gwei, tip
 * 1 gwei), so each contestant is sent the very same raw transactions.
 */
import {
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  keccak256,
  toHex,
  type Abi,
  type Hex,
} from 'viem'
import { mnemonicToAccount, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import type { Plan, PlanAccount, Sizes } from './plan.js'

const MNEMONIC = 'test test test test test test test test test test test junk'
const ACCOUNTS = 20
const SENDERS = 10
const CHAIN_ID = 31337
const INITIAL_SUPPLY = 10n ** 27n

/** The workload sizes; `quick` divides the long ones by ten. */
export function sizes(quick: boolean): Sizes {
  const s = (n: number): number => (quick ? Math.max(1, Math.round(n / 10)) : n)
  return {
    ethFirst: s(1000),
    ethWarm: s(1000),
    ethSteady: s(2000),
    erc20Seed: SENDERS - 1,
    erc20First: s(500),
    erc20Warm: s(500),
    erc20Steady: s(1000),
    calls: s(2000),
    cycles: s(500),
    mineBlocks: s(10_000),
    suiteTransfers: 100,
    suiteCalls: 100,
  }
}

class Nonces {
  private readonly next = new Map<number, number>()
  take(index: number): number {
    const n = this.next.get(index) ?? 0
    this.next.set(index, n + 1)
    return n
  }
}

/** Signs every transaction of the plan (a few seconds; untimed). */
export async function makePlan(token: { abi: Abi; bytecode: Hex }, size: Sizes): Promise<Plan> {
  const accounts: PlanAccount[] = []
  const signers: PrivateKeyAccount[] = []
  for (let i = 0; i < ACCOUNTS; i++) {
    const key = mnemonicToAccount(MNEMONIC, { addressIndex: i }).getHdKey().privateKey
    if (key === null) throw new Error(`no private key for account #${i}`)
    const privateKey = toHex(key)
    const signer = privateKeyToAccount(privateKey)
    signers.push(signer)
    accounts.push({ address: signer.address, privateKey })
  }
  const sign = (from: number, nonce: number, tx: { to?: Hex; value?: bigint; data?: Hex; gas: bigint }): Promise<Hex> =>
    signers[from]!.signTransaction({
      chainId: CHAIN_ID,
      type: 'eip1559',
      nonce,
      to: tx.to,
      value: tx.value ?? 0n,
      data: tx.data,
      gas: tx.gas,
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    })
  const recipient = (i: number): Hex => accounts[SENDERS + (i % (ACCOUNTS - SENDERS))]!.address
  const transferData = (to: Hex, amount: bigint): Hex => encodeFunctionData({ abi: token.abi, functionName: 'transfer', args: [to, amount] })

  const ethNonces = new Nonces()
  const eth: Hex[] = []
  for (let i = 0; i < size.ethFirst + size.ethWarm + size.ethSteady; i++) {
    const from = i % SENDERS
    eth.push(await sign(from, ethNonces.take(from), { to: recipient(i), value: 1n, gas: 21_000n }))
  }

  const deployData = encodeDeployData({ abi: token.abi, bytecode: token.bytecode, args: ['Bench Token', 'BNCH', INITIAL_SUPPLY] })
  const tokenDeploy = await sign(0, 0, { data: deployData, gas: 3_000_000n })
  const tokenAddress = getContractAddress({ from: accounts[0]!.address, nonce: 0n })

  const tokenNonces = new Nonces()
  tokenNonces.take(0)
  const erc20Seed: Hex[] = []
  for (let i = 1; i <= size.erc20Seed; i++) {
    erc20Seed.push(await sign(0, tokenNonces.take(0), { to: tokenAddress, gas: 100_000n, data: transferData(accounts[i]!.address, INITIAL_SUPPLY / 100n) }))
  }
  const erc20: Hex[] = []
  for (let i = 0; i < size.erc20First + size.erc20Warm + size.erc20Steady; i++) {
    const from = i % SENDERS
    erc20.push(await sign(from, tokenNonces.take(from), { to: tokenAddress, gas: 100_000n, data: transferData(recipient(i), 1n) }))
  }

  const suiteTransfers: Hex[] = []
  for (let i = 0; i < size.suiteTransfers; i++) {
    suiteTransfers.push(await sign(0, i + 1, { to: tokenAddress, gas: 100_000n, data: transferData(recipient(i), 1n) }))
  }

  return {
    chainId: CHAIN_ID,
    hardfork: 'prague',
    balanceWei: (10_000n * 10n ** 18n).toString(),
    accounts,
    sizes: size,
    eth,
    tokenDeploy,
    tokenAddress,
    erc20Seed,
    erc20,
    suiteTransfers,
    balanceOfData: encodeFunctionData({ abi: token.abi, functionName: 'balanceOf', args: [accounts[0]!.address] }),
    transferTopic: keccak256(toHex('Transfer(address,address,uint256)')),
  }
}
