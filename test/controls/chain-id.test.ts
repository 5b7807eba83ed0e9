import { describe, expect, test } from 'vitest'
import { privateKeyToAccount } from 'viem/accounts'
import { createNode } from '../../src/index.js'

describe('anvil_setChainId', () => {
  test('behavior: later transactions use the new chain id; the provider says chainChanged; certificates stay valid', async () => {
    const node = await createNode()
    const changes: string[] = []
    node.provider.on('chainChanged', (id) => changes.push(id))
    const account = privateKeyToAccount(node.accounts[0]!.privateKey)
    const tx = (chainId: number, nonce: number) =>
      account.signTransaction({ chainId, type: 'eip1559', nonce, to: node.accounts[1]!.address, value: 1n, gas: 21000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n })
    await node.request({ method: 'eth_sendRawTransaction', params: [await tx(31337, 0)] })

    expect(await node.request({ method: 'anvil_setChainId', params: [4242] })).toBeNull()
    expect(await node.request({ method: 'eth_chainId' })).toBe('0x1092')
    expect(await node.request({ method: 'net_version' })).toBe('4242')
    expect(node.chainId).toBe(4242n)
    expect(changes).toEqual(['0x1092'])

    await expect(node.request({ method: 'eth_sendRawTransaction', params: [await tx(31337, 1)] })).rejects.toThrow('invalid chain id for signer')
    const hash = await node.request({ method: 'eth_sendRawTransaction', params: [await tx(4242, 1)] })
    expect(((await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: string }).status).toBe('0x1')
    // CHAINID reads the new id: PUSH1 0 ... CHAINID PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
    expect(await node.request({ method: 'eth_call', params: [{ data: '0x4660005260206000f3' }] })).toBe(`0x${'00'.repeat(30)}1092`)
    expect((await node.commitCertificate(1n))?.valid).toBe(true)
    expect((await node.commitCertificate(2n))?.valid).toBe(true)
    await expect(node.request({ method: 'anvil_setChainId', params: ['0x0'] })).rejects.toMatchObject({ code: -32602 })
    await node.close()
  })
})
