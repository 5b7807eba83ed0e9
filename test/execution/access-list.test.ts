/**
 * eth_createAccessList: the addresses and slots a call touches (leaving out what is warm anyway),
 * the gas used with the list; a transaction sent with the list works and costs no more.
 */
import { createPublicClient, custom, encodeAbiParameters, encodeDeployData, getContractAddress, keccak256, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode, RpcTransactionRequest } from '../../src/index.js'
import { artifact, calldata, deploy, qty, rpcError, sender, testNode, word } from '../helpers/execution.js'

let node: FinalityNode
let caller: Hex
let callee: Hex
let token: Hex

type Result = { accessList: Array<{ address: Hex; storageKeys: Hex[] }>; gasUsed: Hex; error?: string }

beforeAll(async () => {
  node = await testNode()
  caller = await deploy(node, 'Caller')
  callee = await deploy(node, 'Callee')
  token = await deploy(node, 'Token', ['T', 'T', 10n ** 24n])
})
afterAll(() => node.close())

async function gasOf(tx: Record<string, unknown>): Promise<bigint> {
  const hash = await node.request({ method: 'eth_sendTransaction', params: [tx] })
  const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { gasUsed: Hex; status: Hex }
  expect(receipt.status).toBe('0x1')
  return BigInt(receipt.gasUsed)
}

describe('eth_createAccessList', () => {
  it('default: lists the other contract and its slot, not sender, recipient or precompiles', async () => {
    await gasOf({ from: sender(node), to: caller, input: calldata('Caller', 'callSet', [callee, 1n]) })
    const tx = { from: sender(node), to: caller, input: calldata('Caller', 'callSet', [callee, 7n]) }
    const result = (await node.request({ method: 'eth_createAccessList', params: [tx, 'latest'] })) as Result
    expect(result.accessList).toEqual([{ address: callee, storageKeys: [word(0n)] }])
    expect(result.error).toBeUndefined()

    const withList = await gasOf({ ...tx, accessList: result.accessList, gas: qty(200_000n) })
    expect(withList).toBe(BigInt(result.gasUsed))
    const without = await gasOf({ ...tx, input: calldata('Caller', 'callSet', [callee, 8n]), gas: qty(200_000n) })
    // Both write a non-zero slot over a non-zero one; the list saves the cold surcharges.
    expect(withList).toBeLessThan(without)
  })

  it('behavior: the called contract\'s own slots are listed (an ERC-20 transfer writes two balances of `to`), as geth does', async () => {
    const to = sender(node, 1)
    const tx = { from: sender(node), to: token, input: calldata('Token', 'transfer', [to, 5n]) }
    const result = (await node.request({ method: 'eth_createAccessList', params: [tx] })) as Result
    // OpenZeppelin's ERC20 keeps `_balances` at slot 0: balanceOf(a) is at keccak256(a . 0).
    const balanceSlot = (a: Hex) => keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [a, 0n]))
    expect(result.accessList).toHaveLength(1)
    expect(result.accessList[0]!.address).toBe(token)
    expect([...result.accessList[0]!.storageKeys].sort()).toEqual([balanceSlot(sender(node)), balanceSlot(to)].sort())
    const withList = await gasOf({ ...tx, accessList: result.accessList })
    expect(withList).toBe(BigInt(result.gasUsed))
  })

  it('behavior: a contract creation lists the new contract\'s slots; bare sender and new address are left out', async () => {
    const a = artifact('Token')
    const input = encodeDeployData({ abi: a.abi, bytecode: a.bytecode, args: ['N', 'S', 1000n] })
    const nonce = BigInt((await node.request({ method: 'eth_getTransactionCount', params: [sender(node), 'latest'] })) as Hex)
    const created = getContractAddress({ from: sender(node), nonce })
    const result = (await node.request({ method: 'eth_createAccessList', params: [{ from: sender(node), data: input }] })) as Result
    expect(result.accessList.map((e) => e.address.toLowerCase())).toEqual([created.toLowerCase()])
    // _balances[sender], _totalSupply, _name, _symbol.
    expect(result.accessList[0]!.storageKeys).toHaveLength(4)
  })

  it('behavior: a failing call reports its error beside the list', async () => {
    const tx = { from: sender(node), to: caller, input: calldata('Caller', 'callFail', [callee]) }
    const result = (await node.request({ method: 'eth_createAccessList', params: [tx] })) as Result
    expect(result.error).toBe('execution reverted')
    expect(result.accessList.map((e) => e.address)).toContain(callee)
  })

  it('args: block and state overrides', async () => {
    const tx: RpcTransactionRequest = { from: '0x00000000000000000000000000000000000000aa', to: caller, input: calldata('Caller', 'readThrough', [callee]), value: '0x1' }
    const refused = await rpcError(node, 'eth_createAccessList', [{ ...tx, gasPrice: '0x174876e800' }, 'latest'])
    expect(refused.message).toMatch(/^insufficient funds for gas \* price \+ value/)
    const result = (await node.request({
      method: 'eth_createAccessList',
      params: [{ ...tx, value: '0x0' }, 'latest', { [callee]: { stateDiff: { [word(0n)]: word(3n) } } }],
    })) as Result
    expect(result.accessList).toEqual([{ address: callee, storageKeys: [word(0n)] }])
  })

  it('through viem: createAccessList', async () => {
    const client = createPublicClient({ transport: custom(node.provider, { retryCount: 0 }) })
    const { accessList, gasUsed } = await client.createAccessList({
      account: sender(node),
      to: caller,
      data: calldata('Caller', 'readThrough', [callee]),
    })
    expect(accessList).toEqual([{ address: callee, storageKeys: [word(0n)] }])
    expect(gasUsed).toBeGreaterThan(21_000n)
  })
})
