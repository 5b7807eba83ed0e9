/**
 * The call / transaction object's codec (rpc/objects.ts): every request decoded in one shape.
 */
import { describe, expect, it } from 'vitest'
import { callRequest } from '../../src/rpc/objects.js'
import { REQUEST_FIELDS } from '../../src/execution/request-tx.js'
import { sameHiddenClass } from '../helpers/hidden-class.js'

const FROM = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

describe('callRequest', () => {
  it('default: absent fields decode as undefined', () => {
    const req = callRequest.decode({ from: FROM, to: TO, gasPrice: null }, 0)
    expect(Buffer.from(req.from as Uint8Array).toString('hex')).toBe(FROM.slice(2))
    expect(req.gasPrice).toBeUndefined()
    expect(req.data).toBeUndefined()
  })

  it('behavior: every request has every field, in one order, so all share one hidden class', () => {
    const send = callRequest.decode({ from: FROM, to: TO, gas: '0x5208', value: '0x1', data: '0x' }, 0)
    const call = callRequest.decode({ to: TO, input: '0x1234' }, 0)
    const priced = callRequest.decode({ from: FROM, maxFeePerGas: '0x10', maxPriorityFeePerGas: '0x1', nonce: '0x0', type: '0x2' }, 0)
    expect(Object.keys(send)).toEqual(Object.keys(REQUEST_FIELDS))
    expect(sameHiddenClass(send, call)).toBe(true)
    expect(sameHiddenClass(send, priced)).toBe(true)
  })

  it('error: the first bad field is the one named, in the fields\' order', () => {
    expect(() => callRequest.decode({ from: '0x12', to: '0x34' }, 0)).toThrow(/common\.Address/)
  })
})
