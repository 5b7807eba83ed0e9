/** Codecs of geth's state override set and block overrides (eth_call, eth_estimateGas, eth_simulateV1). */
import type { AccountOverride, BlockOverrides, StateOverrides } from '../execution/overrides.js'
import { keyOf } from '../hex.js'
import {
  CodecError,
  decodeAddress,
  decodeHash,
  objectParam,
  optField,
  parseData,
  parseQuantity,
  type Codec,
} from './codecs.js'

function unpad(value: Uint8Array): Uint8Array {
  let i = 0
  while (i < value.length && value[i] === 0) i++
  return value.subarray(i)
}

function storage(v: unknown, what: string): Map<string, Uint8Array> {
  const o = objectParam(v, what)
  const out = new Map<string, Uint8Array>()
  for (const [slot, value] of Object.entries(o)) out.set(keyOf(decodeHash(slot)), unpad(decodeHash(value)))
  return out
}

/** The fields that are set, without the keys of those left out (`undefined`). */
function definedFields<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>
}

function accountOverride(v: unknown): AccountOverride {
  const o = objectParam(v, 'override.OverrideAccount')
  const move = (x: unknown) => keyOf(decodeAddress(x))
  return definedFields({
    balance: optField(o, 'balance', (x) => parseQuantity(x)),
    nonce: optField(o, 'nonce', (x) => parseQuantity(x, 64)),
    code: optField(o, 'code', parseData),
    state: optField(o, 'state', (x) => storage(x, 'map[common.Hash]common.Hash')),
    stateDiff: optField(o, 'stateDiff', (x) => storage(x, 'map[common.Hash]common.Hash')),
    movePrecompileToAddress: optField(o, 'movePrecompileToAddress', move),
  })
}

/** Decodes a state override set (`{ [address]: { balance, nonce, code, state | stateDiff, movePrecompileToAddress } }`). */
export function decodeStateOverrides(v: unknown): StateOverrides {
  const o = objectParam(v, 'override.StateOverride')
  const out: StateOverrides = new Map()
  for (const [address, account] of Object.entries(o)) out.set(keyOf(decodeAddress(address)), accountOverride(account))
  return out
}

/** Decodes block overrides, with geth's field names and the aliases viem and Anvil send. */
export function decodeBlockOverrides(v: unknown): BlockOverrides {
  const o = objectParam(v, 'override.BlockOverrides')
  const qty = (x: unknown) => parseQuantity(x)
  const u64 = (x: unknown) => parseQuantity(x, 64)
  return definedFields({
    number: optField(o, 'number', qty),
    time: optField(o, 'time', u64),
    gasLimit: optField(o, 'gasLimit', u64),
    feeRecipient: optField(o, 'feeRecipient', decodeAddress) ?? optField(o, 'coinbase', decodeAddress),
    prevRandao: optField(o, 'prevRandao', decodeHash) ?? optField(o, 'random', decodeHash),
    baseFeePerGas: optField(o, 'baseFeePerGas', qty) ?? optField(o, 'baseFee', qty),
    blobBaseFee: optField(o, 'blobBaseFee', qty),
  })
}

function wrap<T>(name: string, decode: (v: unknown) => T): Codec<T | undefined> {
  return {
    name,
    optional: true,
    decode: (v) => {
      if (v === undefined || v === null) return undefined
      try {
        return decode(v)
      } catch (error) {
        if (error instanceof CodecError) throw error
        throw new CodecError(error instanceof Error ? error.message : String(error))
      }
    },
  }
}

/** The optional state override param. */
export const stateOverrides = wrap('state overrides', decodeStateOverrides)

/** The optional block overrides param. */
export const blockOverrides = wrap('block overrides', decodeBlockOverrides)
