/**
 * Chain ids are bigints end to end, up to 2^64 - 1 (the uint64 chain id of EDR and Anvil; Anvil
 * refuses 2^64 with "number too large to fit in target type"), and refused past it, naming where
 * the id came from. Legacy transactions, whose EIP-155 `v` @ethereumjs/tx reads as a JS number,
 * are refused with a clear error above MAX_LEGACY_CHAIN_ID.
 */
import { describe, expect, it } from 'vitest'
import { InvalidOptionError, type RpcTransactionRequest } from '../../src/index.js'
import { MAX_CHAIN_ID, MAX_LEGACY_CHAIN_ID } from '../../src/chain/common.js'
import { parseCli } from '../../src/cli/config.js'
import { finalityChain } from '../../src/adapters/viem.js'
import { startCli, EPHEMERAL } from '../helpers/cli.js'
import { trackNodes } from '../helpers/nodes.js'
import { rpc } from '../helpers/loopback.js'

const newNode = trackNodes()
/** Init code that returns CHAINID as a 32-byte word: CHAINID PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN. */
const RETURN_CHAINID = '0x4660005260206000f3'

describe('chain ids past 2^53', () => {
  it('default: eth_chainId, node.chainId, CHAINID and a typed transaction carry 2^53 + 1 and 2^64 - 1 exactly', async () => {
    for (const id of [2n ** 53n + 1n, MAX_CHAIN_ID]) {
      const node = await newNode({ chainId: id, onConsoleLog: false })
      expect(node.chainId).toBe(id)
      expect(await node.request({ method: 'eth_chainId' })).toBe(`0x${id.toString(16)}`)
      expect(BigInt((await node.request({ method: 'eth_call', params: [{ input: RETURN_CHAINID }] })) as string)).toBe(id)
      const from = node.accounts[0]!.address
      const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from, to: from, value: '0x1' }] })
      const tx = (await node.request({ method: 'eth_getTransactionByHash', params: [hash] })) as { chainId: string }
      expect(BigInt(tx.chainId)).toBe(id)
      expect((await node.request({ method: 'eth_getTransactionReceipt', params: [hash] }))?.status).toBe('0x1')
      // viem's Chain.id is a number: refused rather than rounded to another chain's id.
      expect(() => finalityChain(node)).toThrow("finalityChain: viem's Chain.id is a number, exact up to 2^53 - 1")
    }
  })

  it('error: 2^64 and beyond are refused, naming the option, the genesis file or the flag', async () => {
    await expect(newNode({ chainId: 2n ** 64n })).rejects.toThrow(InvalidOptionError)
    await expect(newNode({ chainId: 2n ** 64n })).rejects.toThrow('createNode: option chainId must be at most 2^64 - 1 (18446744073709551615)')
    const genesis = { config: { chainId: '0x10000000000000000', londonBlock: 0, shanghaiTime: 0, cancunTime: 0, pragueTime: 0, terminalTotalDifficulty: 0 }, gasLimit: '0x1c9c380', difficulty: '0x0', alloc: {} }
    await expect(newNode({ genesis })).rejects.toThrow('genesis: config.chainId 18446744073709551616 is out of range: a chain id is an integer from 1 to 2^64 - 1')
    expect(() => parseCli(['--chain-id', '99999999999999999999'])).toThrow('flag chain-id 99999999999999999999 is out of range')
    expect(() => parseCli(['--chain-id', '0'])).toThrow('flag chain-id 0 is out of range')
    expect(parseCli(['--chain-id', '18446744073709551615']).chainId).toBe(MAX_CHAIN_ID)
  })

  it('behavior: a legacy transaction works up to MAX_LEGACY_CHAIN_ID and is refused clearly past it', async () => {
    const legacy: RpcTransactionRequest = { value: '0x1', gasPrice: '0x3b9aca00' }
    const ok = await newNode({ chainId: MAX_LEGACY_CHAIN_ID, onConsoleLog: false })
    const from = ok.accounts[0]!.address
    const hash = await ok.request({ method: 'eth_sendTransaction', params: [{ from, to: from, ...legacy }] })
    const tx = (await ok.request({ method: 'eth_getTransactionByHash', params: [hash] })) as { type: string; v: string }
    expect(tx.type).toBe('0x0')
    expect(BigInt(tx.v) - 35n - MAX_LEGACY_CHAIN_ID * 2n).toBeLessThanOrEqual(1n)
    const past = await newNode({ chainId: MAX_LEGACY_CHAIN_ID + 1n, onConsoleLog: false })
    await expect(past.request({ method: 'eth_sendTransaction', params: [{ from, to: from, ...legacy }] })).rejects.toMatchObject({
      code: -32000,
      message: expect.stringMatching(/^legacy transactions need a chain id up to 4503599627370477 .*send a typed transaction/),
    })
    await expect(past.request({ method: 'eth_sendRawTransaction', params: [`0xf8${'00'.repeat(10)}`] })).rejects.toMatchObject({ message: expect.stringMatching(/^legacy transactions need a chain id up to/) })
  })

  it('cli: --chain-id 9007199254740993 is served and printed exactly', async () => {
    const cli = await startCli([...EPHEMERAL, '--chain-id', '9007199254740993', '--quiet'])
    try {
      expect(cli.out()).toContain('Chain id: 9007199254740993 (0x20000000000001)')
      expect((await rpc(cli.http, 'eth_chainId')).result).toBe('0x20000000000001')
    } finally {
      await cli.stop()
    }
  })
})
