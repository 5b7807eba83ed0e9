/**
 * The node object's helpers (`node.setBalance`, `node.increaseTime`, `node.setValidatorFault`, …):
 * each decodes its arguments with the codecs of the RPC method it stands for and runs that
 * method's handler, so a helper takes what the method takes and refuses what it refuses. On top,
 * a quantity may be a bigint or a safe integer as well as a hex string, and an error names the
 * helper and the argument (`node.setBalance: invalid address: …`), code -32602 as the method's.
 */
import type { Fault } from './consensus/tendermint/faults.js'
import { UnknownValidator } from './consensus/consensus-controls.js'
import { InvalidParamsError, RpcError } from './errors.js'
import { data, type Hex } from './hex.js'
import { address as addressCodec, blockTag, boolean as booleanCodec, decodeParam, decodeParams, withHexLimit, type Codec } from './rpc/codecs.js'
import type { Method, MethodScope } from './rpc/method.js'
import { numberOrQuantity } from './rpc/test/params.js'
import { blockByTag } from './rpc/blocks.js'
import { toRpcError } from './rpc/error-map.js'
import type { Services } from './services.js'
import type { StateDump } from './controls/state-dump.js'
import type { Block } from '@ethereumjs/block'
import type { CertificateWithSetJson } from './consensus/certificate.js'
import type { MineOptions } from './producer/producer.js'

/** A quantity a helper takes: a bigint, a safe non-negative integer, or a hex quantity (`0x10`). */
export type Quantity = bigint | number | Hex

/** The wire form of a quantity argument; strings go to the codec as they are (it judges them). */
function wire(value: unknown, index: number): unknown {
  if (typeof value === 'bigint') {
    if (value < 0n) throw InvalidParamsError.argument(index, `${value} is negative: want an integer >= 0`)
    return `0x${value.toString(16)}`
  }
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw InvalidParamsError.argument(index, `${value} is not an integer >= 0 (give a bigint above 2^53)`)
    return `0x${value.toString(16)}`
  }
  return value
}

/**
 * `invalid argument N: …` (the codecs' and handlers' wording, geth's) as the helper's own:
 * `node.<helper>: invalid <name>: …`; any other -32602 gets the helper's name in front.
 */
function renamed(helper: string, names: readonly string[], thrown: unknown): unknown {
  // A domain error becomes the JSON-RPC error the method answers, as over node.request.
  const error = toRpcError(thrown)
  if (!(error instanceof RpcError) || error.code !== -32602) return error
  const m = /^(?:invalid argument (\d+): |missing value for required argument (\d+)$)/.exec(error.message)
  if (m === null) return new InvalidParamsError(`node.${helper}: ${error.message}`)
  const index = Number(m[1] ?? m[2])
  const name = names[index] ?? `argument ${index}`
  return new InvalidParamsError(m[2] !== undefined ? `node.${helper}: missing ${name}` : `node.${helper}: invalid ${name}: ${error.message.slice(m[0].length)}`)
}

/** Runs `f`, answering a thrown error or a rejection with the helper's names. */
function named<T>(helper: string, names: readonly string[], f: () => T): T {
  try {
    const out = f()
    if (out instanceof Promise) return out.catch((e: unknown) => Promise.reject(renamed(helper, names, e))) as T
    return out
  } catch (error) {
    throw renamed(helper, names, error)
  }
}

/** What the helpers run on. */
export interface HelperDeps {
  readonly services: Services
  readonly methods: ReadonlyMap<string, Method>
  readonly scope: MethodScope
  /** The hex length limit of a param (`limits.hexParamLength`). */
  readonly hexLimit: number
  /** The certificate of a block with its validator set, and whether it verifies. */
  certificate(block: Block): Promise<CertificateWithSetJson & { valid: boolean } | undefined>
  /** Produces one block now (`node.mine`). */
  mine(options: MineOptions): Promise<{ number: bigint; hash: Hex } | undefined>
  /** Imports concatenated RLP blocks (`node.importBlocks`). */
  importBlocks(bytes: Uint8Array): Promise<{ imported: number }>
}

/** The helpers of the node object (without its closed-node guard: node.ts adds it). */
export function nodeHelpers(deps: HelperDeps) {
  const { services, methods, scope, hexLimit } = deps
  /** Decodes `args` by `method`'s codecs (the quantities at `quantities` first made wire form) and runs it. */
  const run = (name: string, args: readonly unknown[], quantities: readonly number[] = []): unknown => {
    const m = methods.get(name)
    if (m === undefined) throw new Error(`${name} is not registered`)
    const given = args.map((v, i) => (quantities.includes(i) ? wire(v, i) : v))
    // Trailing undefined are absent arguments, as a shorter params array.
    while (given.length > 0 && given[given.length - 1] === undefined) given.pop()
    if (given.length > m.params.length) throw new InvalidParamsError(`too many arguments, want at most ${m.params.length}`)
    return m.run(services, decodeParams(m.params, given, hexLimit), scope)
  }
  /** One argument by one codec, `index` naming it in errors. */
  const decode = <T>(codec: Codec<T>, value: unknown, index: number): T => {
    if ((value === undefined || value === null) && !codec.optional) throw new InvalidParamsError(`missing value for required argument ${index}`)
    return withHexLimit(hexLimit, () => decodeParam(codec, value, index))
  }
  const done = async (p: unknown): Promise<void> => {
    await p
  }
  return {
    setDelegation: (delegator: Hex, validator: Hex, amount: Quantity) =>
      named('setDelegation', ['delegator', 'validator', 'amount'], async () => BigInt(((await run('finality_setDelegation', [delegator, validator, amount], [2])) as { effectiveBlock: Hex }).effectiveBlock)),
    completeUnbonding: () => named('completeUnbonding', [], async () => BigInt(((await run('finality_completeUnbonding', [])) as { completesAt: Hex }).completesAt)),
    jailValidator: (validator: Hex, blocks?: Quantity) =>
      named('jailValidator', ['validator', 'blocks'], async () => BigInt(((await run('finality_jailValidator', [validator, blocks], [1])) as { effectiveBlock: Hex }).effectiveBlock)),
    unjailValidator: (validator: Hex) =>
      named('unjailValidator', ['validator'], async () => BigInt(((await run('finality_unjailValidator', [validator])) as { effectiveBlock: Hex }).effectiveBlock)),
    setBalance: (address: Hex, wei: Quantity) => named('setBalance', ['address', 'wei'], () => done(run('hardhat_setBalance', [address, wei], [1]))),
    setCode: (address: Hex, code: Hex) => named('setCode', ['address', 'code'], () => done(run('hardhat_setCode', [address, code]))),
    setNonce: (address: Hex, nonce: Quantity) => named('setNonce', ['address', 'nonce'], () => done(run('hardhat_setNonce', [address, nonce], [1]))),
    setStorageAt: (address: Hex, slot: Quantity, value: Hex) =>
      named('setStorageAt', ['address', 'slot', 'value'], () => done(run('hardhat_setStorageAt', [address, slot, value], [1]))),
    impersonate: (address: Hex) => named('impersonate', ['address'], () => done(run('hardhat_impersonateAccount', [address]))),
    stopImpersonating: (address: Hex) => named('stopImpersonating', ['address'], () => done(run('hardhat_stopImpersonatingAccount', [address]))),
    mineBlocks: (count: Quantity, interval?: Quantity) =>
      named('mineBlocks', ['count', 'interval'], () => done(run('hardhat_mine', [count, interval], [0, 1]))),
    increaseTime: (seconds: Quantity) =>
      named('increaseTime', ['seconds'], async () => BigInt((await run('evm_increaseTime', [seconds], [0])) as string)),
    setNextBlockTimestamp: (timestamp: Quantity) =>
      named('setNextBlockTimestamp', ['timestamp'], () => done(run('evm_setNextBlockTimestamp', [timestamp], [0]))),
    setAutomine: (on: boolean) => named('setAutomine', ['on'], () => done(run('evm_setAutomine', [on]))),
    snapshot: () => named('snapshot', [], async () => (await run('evm_snapshot', [])) as Hex),
    revert: (id: Quantity) => named('revert', ['id'], async () => (await run('evm_revert', [id], [0])) as boolean),
    reset: () => named('reset', [], () => done(run('hardhat_reset', []))),
    loadState: (dump: StateDump | Hex) => named('loadState', ['dump'], () => done(run('anvil_loadState', [dump]))),
    setValidatorFault: (address: Hex, fault: Fault) => void named('setValidatorFault', ['address', 'fault'], () => run('finality_setFault', [address, fault])),
    healValidators: (address?: Hex) => void named('healValidators', ['address'], () => run('finality_heal', [address])),
    partitionValidators: (groups: Hex[][]) => void named('partitionValidators', ['groups'], () => run('finality_partition', [groups])),
    changeValidators: (changes: Array<{ address?: Hex; index?: number; power: bigint | number }>) =>
      named('changeValidators', ['changes'], () => {
        // A power is a quantity: a bigint or a safe integer as well as a hex string.
        const given = Array.isArray(changes)
          ? changes.map((c: unknown) => (typeof c === 'object' && c !== null && 'power' in c ? { ...c, power: powerWire(c.power) } : c))
          : changes
        const { effectiveBlock } = run('finality_changeValidators', [given]) as { effectiveBlock: Hex }
        return BigInt(effectiveBlock)
      }),
    setValidatorOnline: (address: Hex, online: boolean) =>
      named('setValidatorOnline', ['address', 'online'], () => {
        const a = data(decode(addressCodec, address, 0))
        const on = decode(booleanCodec, online, 1)
        try {
          services.consensus.setOnline(a, on)
        } catch (error) {
          // The writer's one error, named as the helper's argument (as the codecs' errors are).
          if (error instanceof UnknownValidator) throw InvalidParamsError.argument(0, `unknown validator ${address}`)
          throw error
        }
      }),
    /** `number`: a block number (bigint, integer or hex) or a tag (`latest`, …), as finality_getCommitCertificate takes it. */
    commitCertificate: (number: Quantity | 'latest' | 'earliest' | 'safe' | 'finalized') =>
      named('commitCertificate', ['number'], async () => {
        const tag = decode(blockTag, wire(number, 0), 0)
        const block = await blockByTag(services, tag)
        return block === undefined ? undefined : deps.certificate(block)
      }),
    /** `timestamp`: the block's, after its parent's (evm_mine's timestamp). */
    mine: (options?: { timestamp?: Quantity }) =>
      named('mine', ['options'], () => {
        if (options === undefined) return deps.mine({})
        if (typeof options !== 'object' || options === null || Array.isArray(options)) throw InvalidParamsError.argument(0, 'want an object { timestamp? }')
        for (const key of Object.keys(options)) if (key !== 'timestamp') throw InvalidParamsError.argument(0, `unknown field ${JSON.stringify(key)}; known: timestamp`)
        return deps.mine(options.timestamp === undefined ? {} : { timestamp: decode(numberOrQuantity, wire(options.timestamp, 0), 0) })
      }),
    importBlocks: (bytes: Uint8Array) =>
      named('importBlocks', ['bytes'], () => {
        if (!(bytes instanceof Uint8Array)) throw InvalidParamsError.argument(0, `want a Uint8Array of concatenated RLP blocks, got ${bytes === null ? 'null' : typeof bytes}`)
        return deps.importBlocks(bytes)
      }),
  }
}

/** A change's power in wire form: a bigint or an integer (the method takes integers too) as hex. */
function powerWire(v: unknown): unknown {
  if (typeof v === 'bigint' || (typeof v === 'number' && Number.isSafeInteger(v))) {
    if (v < 0) throw InvalidParamsError.argument(0, `power: ${v} is negative: want an integer >= 0 (0 removes the validator)`)
    return `0x${v.toString(16)}`
  }
  return v
}

/** The helpers' type, for the node object. */
export type NodeHelpers = ReturnType<typeof nodeHelpers>
