import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createPublicClient, createWalletClient, custom, encodeFunctionData, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createNode, type FinalityNode } from '../../src/index.js'
import { loadArtifacts } from '../helpers/compile.js'
import { finalityChain as chain } from '../helpers/viem.js'


const { Counter } = loadArtifacts()
let node: FinalityNode

beforeAll(async () => {
  node = await createNode()
})
afterAll(() => node.close())

describe('EIP-7702 set-code transactions', () => {
  test('behavior: an EOA delegates to a contract, runs its code on its own storage, and can undelegate', async () => {
    const transport = custom(node.provider, { retryCount: 0 })
    const client = createPublicClient({ chain, transport })
    const sponsor = privateKeyToAccount(node.accounts[3]!.privateKey as Hex)
    const eoa = privateKeyToAccount(node.accounts[4]!.privateKey as Hex)
    const wallet = createWalletClient({ chain, transport, account: sponsor })

    const deploy = await wallet.deployContract({ abi: Counter!.abi, bytecode: Counter!.bytecode, gas: 1_000_000n })
    const counter = (await client.getTransactionReceipt({ hash: deploy })).contractAddress as Hex

    const authorization = await eoa.signAuthorization({ chainId: 31337, contractAddress: counter, nonce: 0 })
    const hash = await wallet.sendTransaction({
      authorizationList: [authorization],
      to: eoa.address,
      data: encodeFunctionData({ abi: Counter!.abi, functionName: 'increment' }),
      gas: 200_000n,
    })
    const receipt = await client.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.type).toBe('eip7702')
    const tx = await client.getTransaction({ hash })
    expect(tx.authorizationList?.[0]?.address.toLowerCase()).toBe(counter.toLowerCase())

    // The delegation designator: 0xef0100 ‖ address.
    expect(await client.getCode({ address: eoa.address })).toBe(`0xef0100${counter.slice(2).toLowerCase()}`)
    expect(await client.getTransactionCount({ address: eoa.address })).toBe(1)
    // The counter's code ran on the EOA's own storage, not the contract's.
    expect(await client.readContract({ address: eoa.address, abi: Counter!.abi, functionName: 'count' })).toBe(1n)
    expect(await client.readContract({ address: counter, abi: Counter!.abi, functionName: 'count' })).toBe(0n)

    const undo = await eoa.signAuthorization({
      chainId: 31337,
      contractAddress: '0x0000000000000000000000000000000000000000',
      nonce: 1,
    })
    await wallet.sendTransaction({ authorizationList: [undo], to: eoa.address, gas: 100_000n })
    expect(await client.getCode({ address: eoa.address })).toBeUndefined()
  })
})
