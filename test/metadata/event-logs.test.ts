/** EventDecoder: logs decoded by the known ABIs (encoded here with viem), the emitter's ABI first. */
import { encodeAbiParameters, encodeEventTopics, hexToBytes, keccak256, toHex, type Abi } from 'viem'
import { describe, expect, it } from 'vitest'
import type { ContractMetadata } from '../../src/metadata/artifacts.js'
import { EventDecoder } from '../../src/metadata/event-logs.js'

const moved = { type: 'event', name: 'Moved', inputs: [{ name: 'tag', type: 'string', indexed: true }, { name: 'n', type: 'int16', indexed: true }, { name: 'to', type: 'address', indexed: false }, { name: '', type: 'uint8[]', indexed: false }] } as const
// The same signature with other parameters indexed: which one fits is told by the topic count.
const movedPlain = { ...moved, inputs: moved.inputs.map((p) => ({ ...p, indexed: false })) }
const A = { name: 'A', abi: [moved] } as unknown as ContractMetadata
const B = { name: 'B', abi: [movedPlain] } as unknown as ContractMetadata
const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

function decoder(contracts: ContractMetadata[]): EventDecoder {
  return new EventDecoder({ get size() { return contracts.length }, contracts: () => contracts })
}

const topics = encodeEventTopics({ abi: [moved] as Abi, eventName: 'Moved', args: { tag: 'x', n: -5 } }).map((t) => hexToBytes(t as `0x${string}`))
const payload = hexToBytes(encodeAbiParameters([{ type: 'address' }, { type: 'uint8[]' }], [TO, [1, 2]]))

describe('EventDecoder', () => {
  it('indexed static values from topics, an indexed string as its hash, the rest from data; unnamed arguments by position', () => {
    expect(decoder([B, A]).decode(topics, payload)).toEqual({
      name: 'Moved',
      signature: 'Moved(string,int16,address,uint8[])',
      declaredBy: 'A',
      args: [
        { name: 'tag', type: 'string', indexed: true, value: keccak256(toHex('x')), hashed: true },
        { name: 'n', type: 'int16', indexed: true, value: '-5' },
        { name: 'to', type: 'address', indexed: false, value: TO },
        { name: 'arg3', type: 'uint8[]', indexed: false, value: ['1', '2'] },
      ],
    })
  })

  it('the emitter first: its declaration wins where it fits the log', () => {
    const all = hexToBytes(encodeAbiParameters(movedPlain.inputs, ['x', -5, TO, [1]]))
    expect(decoder([A, B]).decode(topics.slice(0, 1), all, B)?.declaredBy).toBe('B')
    expect(decoder([A, B]).decode(topics.slice(0, 1), all, A)?.declaredBy).toBe('B')
    expect(decoder([A, B]).decode(topics, payload, B)?.declaredBy).toBe('A')
  })

  it('nothing known, an unknown topic, data too short, no topics: null', () => {
    expect(decoder([]).decode(topics, payload)).toBeNull()
    expect(decoder([A]).decode([hexToBytes(`0x${'11'.repeat(32)}`)], payload)).toBeNull()
    expect(decoder([A]).decode(topics, payload.subarray(0, 40))).toBeNull()
    expect(decoder([A]).decode([], payload)).toBeNull()
  })

  it('contracts added after the first question are read', () => {
    const list: ContractMetadata[] = []
    const d = decoder(list)
    expect(d.decode(topics, payload)).toBeNull()
    list.push(A)
    expect(d.decode(topics, payload)?.name).toBe('Moved')
  })
})
