/**
 * Every node.* helper takes what its RPC method takes (a quantity also as a bigint or a safe
 * integer) and refuses the rest at once with -32602, naming the helper and the argument; nothing
 * wrong reaches the state (a dump made after a refusal loads again).
 */
import { describe, expect, it } from 'vitest'
import { InvalidOptionError, type FinalityNode, type Hex } from '../../src/index.js'
import { trackNodes } from '../helpers/nodes.js'
import { requestRaw } from '../helpers/raw-request.js'

const newNode = trackNodes()
const ALICE = '0x00000000000000000000000000000000000a11ce'
const balance = (node: FinalityNode, a: Hex) => node.request({ method: 'eth_getBalance', params: [a, 'latest'] })

/** Expects `run` to throw or reject with -32602 and a message matching `message`. */
async function refused(run: () => unknown, message: RegExp | string): Promise<void> {
  let error: unknown
  try {
    await run()
  } catch (e) {
    error = e
  }
  expect(error, `no error, want ${String(message)}`).toBeDefined()
  expect(error).toMatchObject({ code: -32602 })
  expect((error as Error).message).toMatch(message)
}

describe('node.* helpers: arguments', () => {
  it('setBalance / setNonce / setCode / setStorageAt: bigint, integer and hex quantities; bad addresses and values named', async () => {
    const node = await newNode()
    await node.setBalance(ALICE, 5n)
    expect(await balance(node, ALICE)).toBe('0x5')
    await node.setBalance(ALICE, 7)
    expect(await balance(node, ALICE)).toBe('0x7')
    await node.setBalance(ALICE, '0x10')
    expect(await balance(node, ALICE)).toBe('0x10')
    await refused(() => node.setBalance('0xdead', 5n), /^node\.setBalance: invalid address: hex string has length 4, want 40 for common\.Address$/)
    await refused(() => node.setBalance(ALICE, '16' as never), /^node\.setBalance: invalid wei: hex string without 0x prefix$/)
    await refused(() => node.setBalance(ALICE, -1n), /^node\.setBalance: invalid wei: -1 is negative/)
    await refused(() => node.setBalance(ALICE, 1.5), /^node\.setBalance: invalid wei: 1\.5 is not an integer/)
    await refused(() => node.setBalance(ALICE, 2n ** 256n), /^node\.setBalance: invalid wei: hex number > 256 bits$/)
    await refused(() => node.setBalance(undefined as never, 1n), /^node\.setBalance: missing address$/)
    expect(await balance(node, ALICE)).toBe('0x10')
    // Nothing refused reached the state: the dump loads into another node.
    const other = await newNode()
    await other.loadState(node.dumpState())
    expect(await balance(other, ALICE)).toBe('0x10')

    await node.setNonce(ALICE, 3n)
    await node.setNonce(ALICE, '0x4')
    expect(await node.request({ method: 'eth_getTransactionCount', params: [ALICE, 'latest'] })).toBe('0x4')
    await refused(() => node.setNonce(ALICE, -1), /^node\.setNonce: invalid nonce: -1 is not an integer >= 0/)
    await refused(() => node.setNonce('0x1234' as never, 1n), /^node\.setNonce: invalid address:/)

    await node.setCode(ALICE, '0x6001')
    expect(await node.request({ method: 'eth_getCode', params: [ALICE, 'latest'] })).toBe('0x6001')
    await refused(() => node.setCode(ALICE, '6001' as never), /^node\.setCode: invalid code: hex string without 0x prefix$/)
    await refused(() => node.setCode(ALICE, '0x601' as never), /^node\.setCode: invalid code: hex string of odd length$/)

    const word = `0x${'00'.repeat(31)}2a` as const
    await node.setStorageAt(ALICE, 1n, word)
    await node.setStorageAt(ALICE, '0x2', word)
    expect(await node.request({ method: 'eth_getStorageAt', params: [ALICE, '0x1', 'latest'] })).toBe(word)
    expect(await node.request({ method: 'eth_getStorageAt', params: [ALICE, '0x2', 'latest'] })).toBe(word)
    await refused(() => node.setStorageAt(ALICE, -2n, word), /^node\.setStorageAt: invalid slot: -2 is negative/)
    await refused(() => node.setStorageAt(ALICE, 1n, 42 as never), /^node\.setStorageAt: invalid value: json: cannot unmarshal number/)
  })

  it('time and mining: increaseTime refuses a negative offset as evm_increaseTime does; counts and timestamps as quantities', async () => {
    const node = await newNode()
    await refused(() => node.increaseTime(-5), /^node\.increaseTime: invalid seconds: -5 is not an integer >= 0/)
    await refused(() => node.request({ method: 'evm_increaseTime', params: [-5] }), /^invalid argument 0: invalid number -5$/)
    expect(await node.increaseTime(5n)).toBe(5n)
    expect(await node.increaseTime('0xa')).toBe(15n)
    await refused(() => node.increaseTime('ten' as never), /^node\.increaseTime: invalid seconds: hex string without 0x prefix$/)

    await node.mineBlocks(2n)
    await node.mineBlocks(1, '0x3')
    expect(await node.request({ method: 'eth_blockNumber' })).toBe('0x3')
    await refused(() => node.mineBlocks(-1), /^node\.mineBlocks: invalid count: -1 is not an integer >= 0/)
    await refused(() => node.mineBlocks(2n ** 64n), /^node\.mineBlocks: invalid count: hex number > 64 bits$/)
    await refused(() => node.mineBlocks(1n, -1n), /^node\.mineBlocks: invalid interval: -1 is negative/)

    const head = BigInt((await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] }) as { timestamp: string }).timestamp)
    await node.setNextBlockTimestamp(head + 100n)
    const mined = await node.mine()
    expect(mined?.number).toBe(4n)
    await refused(() => node.setNextBlockTimestamp(-1), /^node\.setNextBlockTimestamp: invalid timestamp: -1 is not an integer >= 0/)
    await refused(() => node.setNextBlockTimestamp(null as never), /^node\.setNextBlockTimestamp: missing timestamp$/)

    expect((await node.mine({ timestamp: head + 200n }))?.number).toBe(5n)
    await refused(() => node.mine({ timestamp: -1 }), /^node\.mine: invalid options: -1 is not an integer >= 0/)
    await refused(() => node.mine({ time: 1 } as never), /^node\.mine: invalid options: unknown field "time"; known: timestamp$/)
    await refused(() => node.mine(5 as never), /^node\.mine: invalid options: want an object \{ timestamp\? \}$/)

    await node.setAutomine(false)
    expect(await node.request({ method: 'hardhat_getAutomine' })).toBe(false)
    await refused(() => node.setAutomine('yes' as never), /^node\.setAutomine: invalid on: json: cannot unmarshal string into Go value of type bool$/)
    expect(() => node.setMining({ mode: 'sometimes' } as never)).toThrow(InvalidOptionError)
  })

  it('snapshot / revert / reset / impersonation / loadState / importBlocks', async () => {
    const node = await newNode()
    const id = await node.snapshot()
    expect(id).toBe('0x1')
    await refused(() => node.revert('0xzz' as never), /^node\.revert: invalid id: invalid hex string$/)
    expect(await node.revert(1n)).toBe(true)
    expect(await node.revert(1)).toBe(false)
    await node.reset()

    await node.impersonate(ALICE)
    await node.stopImpersonating(ALICE)
    await refused(() => node.impersonate('0xa11ce' as never), /^node\.impersonate: invalid address: hex string of odd length$/)
    await refused(() => node.stopImpersonating(5 as never), /^node\.stopImpersonating: invalid address: json: cannot unmarshal number into Go value of type common\.Address$/)

    await refused(() => node.loadState({ nope: true } as never), /^node\.loadState: invalid state dump: /)
    await refused(() => node.importBlocks('0xc0' as never), /^node\.importBlocks: invalid bytes: want a Uint8Array of concatenated RLP blocks, got string$/)
    expect(await node.importBlocks(new Uint8Array())).toEqual({ imported: 0 })
  })

  it('validators: commitCertificate takes a number, a bigint, hex or a tag; the fault helpers name what is wrong', async () => {
    const node = await newNode({ validators: 4 })
    await node.request({ method: 'eth_sendTransaction', params: [{ from: node.accounts[0]!.address, to: ALICE, value: '0x1' }] })
    for (const n of [1, 1n, '0x1', 'latest'] as const) expect((await node.commitCertificate(n))?.valid).toBe(true)
    expect(await node.commitCertificate(0)).toBeUndefined()
    expect(await node.commitCertificate(99n)).toBeUndefined()
    await refused(() => node.commitCertificate(-1), /^node\.commitCertificate: invalid number: -1 is not an integer >= 0/)
    await refused(() => node.commitCertificate('one' as never), /^node\.commitCertificate: invalid number: hex string without 0x prefix$/)

    const [v0, v1] = node.validators.map((v) => v.address)
    expect(typeof node.validators[0]!.power).toBe('bigint')
    expect(() => node.setValidatorOnline('0xdead', false)).toThrow(/^node\.setValidatorOnline: invalid address: hex string has length 4/)
    expect(() => node.setValidatorOnline(ALICE, false)).toThrow(/^node\.setValidatorOnline: invalid address: unknown validator 0x0+a11ce$/)
    expect(() => node.setValidatorOnline(v0!, 'no' as never)).toThrow(/^node\.setValidatorOnline: invalid online: json: cannot unmarshal string into Go value of type bool$/)
    node.setValidatorOnline(v0!, false)
    expect(node.validators.find((v) => v.address === v0)?.online).toBe(false)
    node.setValidatorOnline(v0!, true)

    expect(() => node.setValidatorFault('0x12' as never, { silent: true })).toThrow(/^node\.setValidatorFault: invalid address: /)
    expect(() => node.setValidatorFault(v1!, 'silent' as never)).toThrow(/^node\.setValidatorFault: a fault is an object/)
    expect(() => node.setValidatorFault(v1!, { silent: true })).not.toThrow()
    expect(() => node.healValidators('0x12' as never)).toThrow(/^node\.healValidators: invalid address: /)
    node.healValidators(v1!)
    expect(() => node.partitionValidators('x' as never)).toThrow(/^node\.partitionValidators: a partition is an array of groups/)
    expect(() => node.partitionValidators([['0x12' as never]])).toThrow(/^node\.partitionValidators: invalid groups: /)
    node.partitionValidators([[v0!, v1!]])
    node.healValidators()

    expect(node.changeValidators([{ index: 5, power: 10n }])).toBe(3n)
    expect(node.changeValidators([{ index: 6, power: 3 }])).toBe(3n)
    expect(() => node.changeValidators([{ index: 7, power: -1n }])).toThrow(/^node\.changeValidators: invalid changes: power: -1 is negative/)
    expect(() => node.changeValidators([{ index: 7, power: -1 }])).toThrow(/^node\.changeValidators: invalid changes: power: -1 is negative/)
    expect(() => node.changeValidators([{ address: '0x12' as never, power: 1n }])).toThrow(/^node\.changeValidators: invalid changes: /)
    expect(() => node.changeValidators('x' as never)).toThrow(/^node\.changeValidators: changes is a non-empty array/)
  })

  it('request: a bigint is not JSON, refused as Hardhat\'s in-process provider refuses it, saying what to pass', async () => {
    const node = await newNode()
    const from = node.accounts[0]!.address
    await refused(
      () => requestRaw(node, 'eth_sendTransaction', [{ from, to: ALICE, value: 5n }]),
      'invalid argument 0: json: cannot unmarshal bigint into Go value of type *hexutil.Big (a bigint is not JSON: pass the hex string "0x5", as over HTTP)',
    )
    await refused(() => requestRaw(node.provider, 'eth_getBlockByNumber', [1n, false]), /rpc\.BlockNumber \(a bigint is not JSON: pass the hex string "0x1"/)
  })

  it('request: anything but { method, params? } is an invalid request (-32600), as through the provider', async () => {
    const node = await newNode()
    for (const bad of ['eth_chainId', {}, null, { method: 5 }]) {
      await expect(node.request(bad as never)).rejects.toMatchObject({ code: -32600, message: 'invalid request: node.request takes { method: string, params?: unknown[] }' })
      await expect(node.provider.request(bad as never)).rejects.toMatchObject({ code: -32600 })
    }
  })
})
