import { describe, expect, it } from 'vitest'
import { encodeAbiParameters, encodeErrorResult, encodeEventTopics, hexToBytes, type Abi } from 'viem'
import { AbiNames } from './names.js'
import type { ContractMetadata } from './artifacts.js'

const abi = [
  { type: 'event', name: 'Moved', inputs: [{ name: 'tag', type: 'string', indexed: true }, { name: 'n', type: 'uint256', indexed: true }, { name: 'to', type: 'address', indexed: false }, { name: 'note', type: 'string', indexed: false }] },
  { type: 'event', name: 'Quiet', anonymous: true, inputs: [] },
  { type: 'error', name: 'Bad', inputs: [{ name: 'code', type: 'int8' }] },
] as const satisfies Abi

const contract = { name: 'C', abi } as unknown as ContractMetadata
const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

function names(contracts: ContractMetadata[]): AbiNames {
  return new AbiNames({ get size() { return contracts.length }, contracts: () => contracts })
}

describe('AbiNames', () => {
  it('an event: indexed static values from topics, a dynamic indexed value as its hash, the rest from data', () => {
    const topics = encodeEventTopics({ abi, eventName: 'Moved', args: { tag: 'x', n: 5n } }).map((t) => hexToBytes(t as `0x${string}`))
    const payload = hexToBytes(encodeAbiParameters([{ type: 'address' }, { type: 'string' }], [TO, 'hi']))
    const hash = `0x${Buffer.from(topics[1]!).toString('hex')}`
    expect(names([contract]).event(topics, payload)).toBe(`Moved("${hash}", 5, "${TO}", "hi")`)
  })

  it('a custom error by name; unknown selectors, bad data and no metadata give nothing', () => {
    expect(names([contract]).error(hexToBytes(encodeErrorResult({ abi, errorName: 'Bad', args: [-3] })))).toBe('Bad(-3)')
    expect(names([contract]).error(hexToBytes('0x12345678'))).toBeUndefined()
    expect(names([contract]).event([hexToBytes(`0x${'11'.repeat(32)}`)], new Uint8Array())).toBeUndefined()
    expect(names([]).active).toBe(false)
    expect(names([]).error(hexToBytes(encodeErrorResult({ abi, errorName: 'Bad', args: [1] })))).toBeUndefined()
  })

  it('contracts added after the first question are read', () => {
    const list: ContractMetadata[] = []
    const n = names(list)
    const data = hexToBytes(encodeErrorResult({ abi, errorName: 'Bad', args: [1] }))
    expect(n.error(data)).toBeUndefined()
    list.push(contract)
    expect(n.error(data)).toBe('Bad(1)')
  })
})
