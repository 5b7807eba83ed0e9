import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { createTestClient, custom } from 'viem'
import { createNode, STATE_DUMP_VERSION } from '../../src/index.js'
import { finalityChain as chain } from '../helpers/viem.js'

const v1 = JSON.parse(readFileSync(new URL('../fixtures/state/dump-v1.json', import.meta.url), 'utf8'))
const contract = '0x1000000000000000000000000000000000000002'

describe('state dumps', () => {
  test('behavior: anvil_dumpState → anvil_loadState moves accounts, code and storage to another node', async () => {
    const a = await createNode()
    await a.request({ method: 'anvil_setBalance', params: ['0x00000000000000000000000000000000000000aa', '0x1234'] })
    await a.request({ method: 'hardhat_setCode', params: [contract, '0x60005460005260206000f3'] })
    await a.request({ method: 'hardhat_setStorageAt', params: [contract, '0x0', `0x${'00'.repeat(31)}07`] })
    const anvil = createTestClient({ chain, transport: custom(a.provider), mode: 'anvil' })
    const dump = await anvil.dumpState()
    expect(dump).toMatch(/^0x1f8b/)
    const b = await createNode({ mnemonic: 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about' })
    expect(await b.request({ method: 'anvil_loadState', params: [dump] })).toBe(true)
    expect(await b.request({ method: 'eth_getBalance', params: ['0x00000000000000000000000000000000000000aa', 'latest'] })).toBe('0x1234')
    expect(await b.request({ method: 'eth_call', params: [{ to: contract }] })).toBe(`0x${'00'.repeat(31)}07`)
    // Node a's prefunded accounts came along.
    expect(await b.request({ method: 'eth_getBalance', params: [a.accounts[0]!.address, 'latest'] })).toBe(
      await a.request({ method: 'eth_getBalance', params: [a.accounts[0]!.address, 'latest'] }),
    )
    expect(a.dumpState().version).toBe(STATE_DUMP_VERSION)
    await a.close()
    await b.close()
  })

  test('behavior: createNode({ state }) starts from a dump; a version-1 dump still loads', async () => {
    const node = await createNode({ state: v1 })
    expect(await node.request({ method: 'eth_getBalance', params: ['0x1000000000000000000000000000000000000001', 'latest'] })).toBe('0xde0b6b3a7640000')
    expect(await node.request({ method: 'eth_getTransactionCount', params: ['0x1000000000000000000000000000000000000001', 'latest'] })).toBe('0x2')
    expect(await node.request({ method: 'eth_call', params: [{ to: contract }] })).toBe(`0x${'00'.repeat(31)}2a`)
    expect(await node.request({ method: 'eth_blockNumber' })).toBe('0x0')
    const round = await createNode({ state: node.dumpState() })
    expect(round.dumpState().accounts).toEqual(node.dumpState().accounts)
    await node.close()
    await round.close()
  })

  test('error: a malformed or newer dump is refused with -32602 and changes nothing', async () => {
    const node = await createNode()
    const before = node.dumpState()
    for (const bad of ['0x1234', '0x', { ...v1, version: 99 }, { ...v1, format: 'other' }]) {
      await expect(node.request({ method: 'anvil_loadState', params: [bad] })).rejects.toMatchObject({ code: -32602 })
    }
    expect(node.dumpState()).toEqual(before)
    await node.close()
  })
})
