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

function accountOverride(v: unknown): AccountOverride {
  const o = objectParam(v, 'override.OverrideAccount')
  const out: AccountOverride = {}
  const balance = optField(o, 'balance', (x) => parseQuantity(x))
  const nonce = optField(o, 'nonce', (x) => parseQuantity(x, 64))
  const code = optField(o, 'code', parseData)
  const state = optField(o, 'state', (x) => storage(x, 'map[common.Hash]common.Hash'))
  const stateDiff = optField(o, 'stateDiff', (x) => storage(x, 'map[common.Hash]common.Hash'))
  const move = optField(o, 'movePrecompileToAddress', decodeAddress)
  if (balance !== undefined) out.balance = balance
  if (nonce !== undefined) out.nonce = nonce
  if (code !== undefined) out.code = code
  if (state !== undefined) out.state = state
  if (stateDiff !== undefined) out.stateDiff = stateDiff
  if (move !== undefined) out.movePrecompileToAddress = keyOf(move)
  return out
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
  const out: BlockOverrides = {}
  const qty = (x: unknown) => parseQuantity(x)
  const u64 = (x: unknown) => parseQuantity(x, 64)
  const number = optField(o, 'number', qty)
  const time = optField(o, 'time', u64)
  const gasLimit = optField(o, 'gasLimit', u64)
  const feeRecipient = optField(o, 'feeRecipient', decodeAddress) ?? optField(o, 'coinbase', decodeAddress)
  const prevRandao = optField(o, 'prevRandao', decodeHash) ?? optField(o, 'random', decodeHash)
  const baseFee = optField(o, 'baseFeePerGas', qty) ?? optField(o, 'baseFee', qty)
  const blobBaseFee = optField(o, 'blobBaseFee', qty)
  if (number !== undefined) out.number = number
  if (time !== undefined) out.time = time
  if (gasLimit !== undefined) out.gasLimit = gasLimit
  if (feeRecipient !== undefined) out.feeRecipient = feeRecipient
  if (prevRandao !== undefined) out.prevRandao = prevRandao
  if (baseFee !== undefined) out.baseFeePerGas = baseFee
  if (blobBaseFee !== undefined) out.blobBaseFee = blobBaseFee
  return out
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
