/**
 * The execution methods through ethers' BrowserProvider over the node's EIP-1193 provider:
 * overrides, EIP-1898 block tags, access lists in a sent transaction, simulation and raw reads.
 */
import { BrowserProvider, Contract, Transaction, type InterfaceAbi } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../src/index.js'
import { artifact, calldata, deploy, sender, testNode, word } from '../helpers/execution.js'

let node: FinalityNode
let provider: BrowserProvider
let caller: string
let callee: string
let probe: string
const stranger = '0x00000000000000000000000000000000000000aa'

beforeAll(async () => {
  node = await testNode()
  provider = new BrowserProvider(node.provider)
  caller = await deploy(node, 'Caller')
  callee = await deploy(node, 'Callee')
  probe = await deploy(node, 'Probe')
})
afterAll(() => node.close())

describe('ethers', () => {
  it('eth_call with a state override, and a contract read at an EIP-1898 block hash', async () => {
    const out = await provider.send('eth_call', [{ to: probe, data: calldata('Probe', 'balanceOf', [stranger]) }, 'latest', { [stranger]: { balance: '0x2a' } }])
    expect(BigInt(out)).toBe(42n)
    const signer = await provider.getSigner(sender(node))
    const c = new Contract(callee, artifact('Callee').abi as InterfaceAbi, signer)
    const before = await provider.getBlock('latest')
    await (await c.getFunction('set')(11n)).wait()
    expect(await c.getFunction('get')({ blockTag: before!.hash! })).toBe(0n)
    expect(await c.getFunction('get')()).toBe(11n)
  })

  it('a transaction sent with the list from eth_createAccessList', async () => {
    const signer = await provider.getSigner(sender(node))
    const data = calldata('Caller', 'callSet', [callee, 12n])
    const { accessList, gasUsed } = await provider.send('eth_createAccessList', [{ from: sender(node), to: caller, data }])
    expect(accessList).toEqual([{ address: callee, storageKeys: [word(0n)] }])
    const receipt = await (await signer.sendTransaction({ to: caller, data, accessList, type: 2 })).wait()
    expect(receipt!.gasUsed).toBe(BigInt(gasUsed))
    const raw = await provider.send('eth_getRawTransactionByHash', [receipt!.hash])
    expect(Transaction.from(raw).accessList).toHaveLength(1)
  })

  it('eth_simulateV1 and eth_estimateGas with overrides', async () => {
    const [block] = await provider.send('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: stranger, to: sender(node, 5), value: '0x1' }], stateOverrides: { [stranger]: { balance: '0x1' } } }] }, 'latest'])
    expect(block.calls[0].status).toBe('0x1')
    const gas = await provider.send('eth_estimateGas', [{ from: stranger, to: sender(node, 5), value: '0x1' }, 'latest', { [stranger]: { balance: '0x1' } }])
    expect(gas).toBe('0x5208')
  })
})
