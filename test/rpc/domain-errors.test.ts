/**
 * What the services throw, over the path users take: node.request, the provider, node.handle and
 * the node's helpers answer each domain error in its JSON-RPC form (the table itself:
 * src/rpc/error-map.test.ts).
 */
import { describe, expect, it } from 'vitest'
import { createNode } from '../../src/index.js'
import { DomainError } from '../../src/domain-errors.js'
import { InvalidParamsError, ServerError } from '../../src/errors.js'

describe('domain errors', () => {
  it('over node.request: a pool refusal, a tip above the fee cap, an unknown filter and a bad storage value answer as before', async () => {
    const node = await createNode()
    try {
      const [from] = await node.request({ method: 'eth_accounts' })
      const err = (p: Promise<unknown>) => p.then(() => undefined, (e: { code: number; message: string }) => ({ code: e.code, message: e.message }))
      expect(await err(node.request({ method: 'eth_uninstallFilter', params: ['0x1'] }))).toBeUndefined()
      expect(await err(node.request({ method: 'eth_getFilterChanges', params: ['0x1'] }))).toEqual({ code: -32000, message: 'filter not found' })
      // node.request rejects with the JSON-RPC error class (its name too); the provider with its own error, same code and message.
      const thrown = await node.request({ method: 'eth_getFilterChanges', params: ['0x1'] }).catch((e: unknown) => e)
      expect(thrown).toBeInstanceOf(ServerError)
      expect(thrown).not.toBeInstanceOf(DomainError)
      expect((thrown as Error).name).toBe('ServerError')
      await expect(node.provider.request({ method: 'eth_getFilterChanges', params: ['0x1'] })).rejects.toMatchObject({ name: 'ProviderRpcError', code: -32000, message: 'filter not found' })
      expect(await node.handle({ jsonrpc: '2.0', id: 1, method: 'eth_getFilterChanges', params: ['0x1'] })).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'filter not found' } })
      expect(await err(node.request({ method: 'eth_sendTransaction', params: [{ from, to: from, gas: '0x1' }] }))).toEqual({
        code: -32000,
        message: 'intrinsic gas too low: gas 1, minimum needed 21000',
      })
      // A send whose tip is above its fee cap: the pool's (geth's) words, not the transaction library's.
      expect(await err(node.request({ method: 'eth_sendTransaction', params: [{ from, to: from, maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' }] }))).toEqual({
        code: -32000,
        message: `max priority fee per gas higher than max fee per gas: address ${from?.toLowerCase()}, maxPriorityFeePerGas: 2, maxFeePerGas: 1`,
      })
      // A fee cap alone, below the suggested tip, takes the cap as its tip.
      expect(await err(node.request({ method: 'eth_sendTransaction', params: [{ from, to: from, maxFeePerGas: '0x77359400' }] }))).toBeUndefined()
      expect(await err(node.request({ method: 'hardhat_setStorageAt', params: [from!, '0x0', '0x01'] }))).toEqual({
        code: -32602,
        message: 'invalid argument 2: storage value must be 32 bytes',
      })
      // The node's helper: the same domain error, mapped and renamed with the helper's names.
      const helper = await node.setStorageAt(from!, '0x0', '0x01').catch((e: unknown) => e)
      expect(helper).toBeInstanceOf(InvalidParamsError)
      expect(helper).toMatchObject({ code: -32602, message: 'node.setStorageAt: invalid value: storage value must be 32 bytes' })
    } finally {
      await node.close()
    }
  })
})
