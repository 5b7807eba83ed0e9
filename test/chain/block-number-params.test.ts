/**
 * A block number sent as a JSON number: taken where the block param has no EIP-1898 form, as
 * Hardhat takes it (eth_getBlockByNumber and the other …ByNumber methods,
 * finality_getCommitCertificate); refused with a message that says what to send where it has.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'
import { rpc as post } from '../helpers/loopback.js'

let node: FinalityNode
let served: Awaited<ReturnType<FinalityNode['listen']>>
beforeAll(async () => {
  node = await createNode()
  await node.request({ method: 'evm_mine' })
  await node.request({ method: 'evm_mine' })
  served = await node.listen({ address: '127.0.0.1:0', api: ['eth', 'finality'] })
})
afterAll(async () => {
  await served.close()
  await node.close()
})

const rpc = (method: string, ...params: unknown[]) => node.request({ method, params })

describe('JSON numbers as block numbers', () => {
  test('default: eth_getBlockByNumber, eth_getHeaderByNumber and the …ByNumber methods take them', async () => {
    expect(await rpc('eth_getBlockByNumber', 1, false)).toEqual(await rpc('eth_getBlockByNumber', '0x1', false))
    expect(await rpc('eth_getHeaderByNumber', 0)).toEqual(await rpc('eth_getHeaderByNumber', '0x0'))
    expect(await rpc('eth_getBlockTransactionCountByNumber', 2)).toBe('0x0')
    expect(await rpc('eth_getTransactionByBlockNumberAndIndex', 1, '0x0')).toBeNull()
    expect(await rpc('eth_getBlockByNumber', 99, false)).toBeNull()
  })

  test('default: finality_getCommitCertificate([1]) answers the certificate of block 1', async () => {
    const certificate = await rpc('finality_getCommitCertificate', 1)
    expect(certificate).not.toBeNull()
    expect(certificate).toEqual(await rpc('finality_getCommitCertificate', '0x1'))
  })

  test('error: a negative or fractional number is refused with what is wrong', async () => {
    await expect(rpc('eth_getBlockByNumber', -1, false)).rejects.toMatchObject({ code: -32602, message: 'invalid argument 0: block number -1 is not a non-negative integer' })
    await expect(rpc('finality_getCommitCertificate', 1.5)).rejects.toMatchObject({ code: -32602, message: 'invalid argument 0: block number 1.5 is not a non-negative integer' })
  })

  test('error: EIP-1898 block params refuse them, saying what to send', async () => {
    const address = node.accounts[0]!.address
    await expect(rpc('eth_getBalance', address, 1)).rejects.toMatchObject({
      code: -32602,
      message: 'invalid argument 1: block number 1 must be a hex string such as "0x1" here, not a JSON number',
    })
    await expect(rpc('eth_call', { to: address }, { blockNumber: 2 })).rejects.toMatchObject({ code: -32602, message: /must be a hex string such as "0x2"/ })
  })

  test('http: a JSON number in the request body', async () => {
    const answer = await post(served.http!, 'eth_getBlockByNumber', [1, false])
    expect(answer.result.number).toBe('0x1')
    const certificate = await post(served.http!, 'finality_getCommitCertificate', [1])
    expect(certificate.error ?? null).toBeNull()
  })
})
