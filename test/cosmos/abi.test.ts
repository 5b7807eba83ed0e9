/**
 * The precompiles' ABI coder against viem's on the shapes Cosmos EVM's interfaces use, static
 * tuples in a head among them (createValidator's CommissionRates: three words inline, not an
 * offset) and arrays of static tuples.
 */
import { decodeAbiParameters, encodeAbiParameters, parseAbiParameters, toBytes, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { decode, encode } from '../../src/cosmos/abi.js'

const address = toBytes('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')

describe('the precompiles ABI coder', () => {
  it('a static tuple between other arguments takes its words inline, as viem encodes it', () => {
    const types = ['(string,string,string,string,string)', '(uint256,uint256,uint256)', 'uint256', 'address', 'string', 'uint256']
    const viem = encodeAbiParameters(parseAbiParameters('(string,string,string,string,string), (uint256,uint256,uint256), uint256, address, string, uint256'), [
      ['m', 'id', 'web', 'sec', 'details'],
      [1n, 2n, 3n],
      4n,
      toHex(address),
      'pubkey',
      5n,
    ])
    const values = decode(types, toBytes(viem))
    expect(values).toEqual([['m', 'id', 'web', 'sec', 'details'], [1n, 2n, 3n], 4n, address, 'pubkey', 5n])
    expect(toHex(encode(types, values))).toBe(viem)
  })

  it('an array of static tuples, and a static tuple holding one', () => {
    const types = ['(uint256,address)[]', '((uint64,uint64),bool)']
    const viem = encodeAbiParameters(parseAbiParameters('(uint256,address)[], ((uint64,uint64),bool)'), [
      [
        [7n, toHex(address)],
        [8n, toHex(address)],
      ],
      [[9n, 10n], true],
    ])
    const values = decode(types, toBytes(viem))
    expect(values).toEqual([
      [
        [7n, address],
        [8n, address],
      ],
      [[9n, 10n], true],
    ])
    expect(toHex(encode(types, values))).toBe(viem)
    const back = decodeAbiParameters(parseAbiParameters('(uint256,address)[], ((uint64,uint64),bool)'), encode(types, values))
    expect(back[1]).toEqual([[9n, 10n], true])
  })
})
