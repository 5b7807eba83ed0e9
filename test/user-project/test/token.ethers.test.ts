/**
 * The in-process setup with ethers, as the README shows it: a BrowserProvider over node.provider.
 */
import { BrowserProvider, Contract, ContractFactory, parseEther, type CallExceptionError, type JsonRpcSigner } from 'ethers'
import { createNode, type FinalityNode } from 'finality-evm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { myToken } from './artifact.js'

let node: FinalityNode
let provider: BrowserProvider
let owner: JsonRpcSigner
let bob: JsonRpcSigner
let token: Contract

beforeAll(async () => {
  node = await createNode()
  provider = new BrowserProvider(node.provider, undefined, { cacheTimeout: -1, pollingInterval: 50 })
  owner = await provider.getSigner(0)
  bob = await provider.getSigner(2)
  const deployed = await new ContractFactory(myToken.abi as never, myToken.bytecode, owner).deploy(parseEther('1000'))
  await deployed.waitForDeployment()
  token = deployed as Contract
})

afterAll(async () => {
  provider.destroy()
  await node.close()
})

describe('MyToken with ethers', () => {
  it('transfers and finds the Transfer event', async () => {
    const tx = await token.getFunction('transfer')(bob.address, parseEther('2'))
    const receipt = await tx.wait()
    expect(receipt?.status).toBe(1)
    expect(await token.getFunction('balanceOf')(bob.address)).toBe(parseEther('2'))
    const events = await token.queryFilter(token.filters.Transfer!(owner.address, bob.address), receipt!.blockNumber)
    expect(events).toHaveLength(1)
  })

  it('decodes a revert with its custom error', async () => {
    const mint = (token.connect(bob) as Contract).getFunction('mint')
    const error = (await mint.staticCall(bob.address, 1n).catch((e: unknown) => e)) as CallExceptionError
    expect(error.code).toBe('CALL_EXCEPTION')
    expect(error.revert?.name).toBe('OwnableUnauthorizedAccount')
    expect([...(error.revert?.args ?? [])]).toEqual([bob.address])
  })

  it('refuses a reverting send before it is mined, with the revert data', async () => {
    const mint = (token.connect(bob) as Contract).getFunction('mint')
    const nonce = await provider.getTransactionCount(bob.address)
    const error = (await mint(bob.address, 1n).catch((e: unknown) => e)) as CallExceptionError
    expect(error.code).toBe('CALL_EXCEPTION')
    expect(token.interface.parseError(error.data!)?.name).toBe('OwnableUnauthorizedAccount')
    expect(await provider.getTransactionCount(bob.address)).toBe(nonce)
  })

  it('signs a message with a node account', async () => {
    const { verifyMessage } = await import('ethers')
    const signature = await owner.signMessage('hello')
    expect(verifyMessage('hello', signature)).toBe(owner.address)
  })
})
