/**
 * Solidity `console.log`: calls to the console address (Hardhat's `console.sol` ABI) decoded into
 * messages. The address holds no code, so the call costs what any call to an empty account
 * costs and changes nothing; the node only listens to the EVM's `beforeMessage` event.
 */
import type { EVMInterface, Message } from '@ethereumjs/evm'
import { toChecksumAddress } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { format } from 'node:util'
import { equalBytes, fromHex, toBigInt } from '../hex.js'

/** `0x000000000000000000636F6e736F6c652e6c6f67`: "console.log" in ASCII. */
export const CONSOLE_ADDRESS = fromHex('000000000000000000636f6e736f6c652e6c6f67')

type AbiType = string

/** The parameter types console.sol's multi-argument `log` overloads combine. */
const COMBINABLE: readonly AbiType[] = ['uint256', 'string', 'bool', 'address']
const SINGLE: readonly AbiType[] = ['string', 'uint256', 'int256', 'bool', 'address', 'bytes', ...Array.from({ length: 32 }, (_, i) => `bytes${i + 1}`)]
/** console.sol's typed single-argument helpers: `logUint(uint256)`, `logBytes4(bytes4)`… */
const NAMED: ReadonlyArray<[string, AbiType]> = [
  ['logString', 'string'],
  ['logUint', 'uint256'],
  ['logInt', 'int256'],
  ['logBool', 'bool'],
  ['logAddress', 'address'],
  ['logBytes', 'bytes'],
  ...Array.from({ length: 32 }, (_, i): [string, AbiType] => [`logBytes${i + 1}`, `bytes${i + 1}`]),
]

let table: Map<number, AbiType[]> | undefined

function selector(signature: string): number {
  const h = keccak_256(new TextEncoder().encode(signature))
  return ((h[0]! << 24) | (h[1]! << 16) | (h[2]! << 8) | h[3]!) >>> 0
}

function combinations(depth: number): AbiType[][] {
  if (depth === 0) return [[]]
  return combinations(depth - 1).flatMap((prefix) => COMBINABLE.map((t) => [...prefix, t]))
}

/**
 * Selector → parameter types, computed from the signature strings on first use. Older
 * console.sol versions wrote `uint` / `int` in the signatures, so both spellings are registered.
 */
function signatures(): Map<number, AbiType[]> {
  if (table !== undefined) return table
  const out = new Map<number, AbiType[]>()
  const add = (name: string, types: AbiType[]) => {
    out.set(selector(`${name}(${types.join(',')})`), types)
    const legacy = types.map((t) => (t === 'uint256' ? 'uint' : t === 'int256' ? 'int' : t))
    if (legacy.some((t, i) => t !== types[i])) out.set(selector(`${name}(${legacy.join(',')})`), types)
  }
  add('log', [])
  for (const t of SINGLE) add('log', [t])
  for (const [name, t] of NAMED) add(name, [t])
  for (let n = 2; n <= 4; n++) for (const types of combinations(n)) add('log', types)
  table = out
  return out
}

function word(data: Uint8Array, offset: number): Uint8Array {
  if (offset + 32 > data.length) throw new RangeError('short data')
  return data.subarray(offset, offset + 32)
}

function dynamic(args: Uint8Array, head: number): Uint8Array {
  const offset = Number(toBigInt(word(args, head)))
  const length = Number(toBigInt(word(args, offset)))
  if (offset + 32 + length > args.length) throw new RangeError('short data')
  return args.subarray(offset + 32, offset + 32 + length)
}

function hex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes).toString('hex')}`
}

function decodeOne(type: AbiType, args: Uint8Array, head: number): string {
  switch (type) {
    case 'string':
      return new TextDecoder().decode(dynamic(args, head))
    case 'bytes':
      return hex(dynamic(args, head))
    case 'uint256':
      return toBigInt(word(args, head)).toString()
    case 'int256': {
      const v = toBigInt(word(args, head))
      return (v >= 1n << 255n ? v - (1n << 256n) : v).toString()
    }
    case 'bool':
      return toBigInt(word(args, head)) === 0n ? 'false' : 'true'
    case 'address':
      return toChecksumAddress(hex(word(args, head).subarray(12)))
    default:
      return hex(word(args, head).subarray(0, Number(type.slice(5))))
  }
}

/**
 * The message of one console.log call's calldata, formatted as Hardhat does (`util.format`, so
 * `console.log("x = %s", x)` works), or undefined when the selector is not console.sol's.
 */
export function decodeConsoleLog(calldata: Uint8Array): string | undefined {
  if (calldata.length < 4) return undefined
  const sel = ((calldata[0]! << 24) | (calldata[1]! << 16) | (calldata[2]! << 8) | calldata[3]!) >>> 0
  const types = signatures().get(sel)
  if (types === undefined) return undefined
  const args = calldata.subarray(4)
  try {
    const values = types.map((t, i) => decodeOne(t, args, i * 32))
    return values.length === 0 ? '' : format(...(values as [string, ...string[]]))
  } catch {
    return undefined
  }
}

/** Delivers every console.log call an EVM makes to `sink`; returns the function that detaches it. */
export function attachConsoleLog(evm: EVMInterface, sink: (message: string) => void): () => void {
  const listener = (message: Message) => {
    const to = message.to
    if (to === undefined || !equalBytes(to.bytes, CONSOLE_ADDRESS)) return
    const text = decodeConsoleLog(message.data)
    if (text === undefined) return
    try {
      sink(text)
    } catch {
      // A throwing callback must not change the execution it observes.
    }
  }
  const events = evm.events
  if (events === undefined) return () => {}
  events.on('beforeMessage', listener)
  return () => events.off('beforeMessage', listener)
}
