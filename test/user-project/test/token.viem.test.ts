/**
 * The in-process setup with viem, as the README shows it: clientConfig(node) from finality/viem.
 */
import { createNode, loadFixture, type FinalityNode } from 'finality-evm'
import { clientConfig } from 'finality-evm/viem'
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  getContract,
  parseEther,
  type Address,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { myToken } from './artifact.js'

let node: FinalityNode
let client: ReturnType<typeof createPublicClient>
let owner: Address
let alice: Address

beforeAll(async () => {
  node = await createNode()
  client = createPublicClient(clientConfig(node))
  owner = getAddress(node.accounts[0]!.address)
  alice = getAddress(node.accounts[1]!.address)
})

afterAll(async () => {
  await node.close()
})

async function deployToken(n: FinalityNode) {
  const wallet = createWalletClient({ ...clientConfig(n), account: owner })
  const hash = await wallet.deployContract({ abi: myToken.abi, bytecode: myToken.bytecode, args: [parseEther('1000')] })
  const { contractAddress } = await client.waitForTransactionReceipt({ hash })
  return { token: getContract({ address: contractAddress!, abi: myToken.abi, client: { public: client, wallet } }) }
}

describe('MyToken with viem', () => {
  it('deploys with the whole supply at the owner', async () => {
    const { token } = await loadFixture(node, deployToken)
    expect(await token.read.balanceOf([owner])).toBe(parseEther('1000'))
    expect(await token.read.symbol()).toBe('MTK')
  })

  it('transfers and emits Transfer', async () => {
    const { token } = await loadFixture(node, deployToken)
    const hash = await token.write.transfer([alice, parseEther('5')])
    const receipt = await client.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(await token.read.balanceOf([alice])).toBe(parseEther('5'))
    const events = await token.getEvents.Transfer({}, { fromBlock: receipt.blockNumber, toBlock: receipt.blockNumber })
    expect(events.map((e) => e.args)).toEqual([{ from: owner, to: alice, value: parseEther('5') }])
  })

  it('starts every test from the fixture: the transfer above is gone', async () => {
    const { token } = await loadFixture(node, deployToken)
    expect(await token.read.balanceOf([alice])).toBe(0n)
  })

  it('decodes a revert with its custom error', async () => {
    const { token } = await loadFixture(node, deployToken)
    const error = await client
      .simulateContract({ address: token.address, abi: myToken.abi, functionName: 'mint', args: [alice, 1n], account: alice })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BaseError)
    const reverted = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError
    expect(reverted.data?.errorName).toBe('OwnableUnauthorizedAccount')
    expect(reverted.data?.args).toEqual([alice])
  })

  it('rolls back to a snapshot and moves time with a test client', async () => {
    const { token } = await loadFixture(node, deployToken)
    const test = createTestClient({ ...clientConfig(node), mode: 'hardhat' })
    const id = await test.snapshot()
    await client.waitForTransactionReceipt({ hash: await token.write.transfer([alice, 1n]) })
    const now = BigInt(Math.floor(Date.now() / 1000))
    await test.increaseTime({ seconds: 3600 })
    await test.mine({ blocks: 1 })
    expect((await client.getBlock()).timestamp).toBeGreaterThanOrEqual(now + 3600n)
    await test.revert({ id })
    expect(await token.read.balanceOf([alice])).toBe(0n)
  })
})
