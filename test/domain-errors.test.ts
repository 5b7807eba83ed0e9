/**
 * The domain errors the services throw keep their JSON-RPC form (code, message, data) in one
 * place: what the dispatcher answers for each, and what the services throw over the path users take.
 */
import { describe, expect, it } from 'vitest'
import { createNode } from '../src/index.js'
import { InvalidInput, LimitReached, NotFound, Refused, SimulationRefused, TransactionFailed, TxRejected } from '../src/domain-errors.js'
import { toErrorObject } from '../src/errors.js'

describe('domain errors', () => {
  it('each maps to its JSON-RPC code, with geth\'s message and its data unchanged', () => {
    expect(toErrorObject(new Refused('genesis is not traceable'))).toEqual({ code: -32000, message: 'genesis is not traceable' })
    expect(toErrorObject(new TxRejected('already known'))).toEqual({ code: -32000, message: 'already known' })
    expect(toErrorObject(new NotFound('filter not found'))).toEqual({ code: -32000, message: 'filter not found' })
    expect(toErrorObject(InvalidInput.argument(0, 'bad'))).toEqual({ code: -32602, message: 'invalid argument 0: bad' })
    expect(toErrorObject(new LimitReached('too many filters, the limit is 1'))).toEqual({ code: -32005, message: 'too many filters, the limit is 1' })
    expect(toErrorObject(new SimulationRefused(-38010, 'nonce too low'))).toEqual({ code: -38010, message: 'nonce too low' })
    const data = { message: 'Transaction ran out of gas', txHash: '0x01', data: '0x' }
    expect(toErrorObject(new TransactionFailed(-32000, 'Transaction ran out of gas', data))).toEqual({ code: -32000, message: 'Transaction ran out of gas', data })
  })

  it('keep the name of the JSON-RPC error they become, as node.request callers saw before', () => {
    expect([new Refused('a'), new TxRejected('a'), new NotFound('a')].map((e) => e.name)).toEqual(['ServerError', 'ServerError', 'ServerError'])
    expect(new InvalidInput('a').name).toBe('InvalidParamsError')
    expect(new LimitReached('a').name).toBe('LimitExceededError')
    expect(new SimulationRefused(-38010, 'a').name).toBe('RpcError')
  })

  it('over node.request: a pool refusal, a tip above the fee cap, an unknown filter and a bad storage value answer as before', async () => {
    const node = await createNode()
    try {
      const [from] = await node.request({ method: 'eth_accounts' })
      const err = (p: Promise<unknown>) => p.then(() => undefined, (e: { code: number; message: string }) => ({ code: e.code, message: e.message }))
      expect(await err(node.request({ method: 'eth_uninstallFilter', params: ['0x1'] }))).toBeUndefined()
      expect(await err(node.request({ method: 'eth_getFilterChanges', params: ['0x1'] }))).toEqual({ code: -32000, message: 'filter not found' })
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
    } finally {
      await node.close()
    }
  })
})
