/**
 * The node's `Common`: one instance shared by every block, transaction and VM of a node, with
 * its parameters and active EIPs cached where the engine may reach inside @ethereumjs/common.
 *
 * ethereumjs copies its Common into each header and transaction and re-merges parameter tables
 * into the copy (a JSON round trip per EIP): 12 % of a transfer's time in a profile. A node's
 * hardfork never changes, so one instance serves all of them, and merging the same parameter
 * table twice changes nothing ({@link SharedCommon}, public methods only). Where the version of
 * @ethereumjs/common is a verified one (gate.ts), {@link CachedCommon} also overrides the
 * protected cache builders to keep parameters as bigints and the active EIPs as a table.
 */
import { type ChainConfig, Common, type CommonOpts, type ParamsDict } from '@ethereumjs/common'
import { fastPaths, verified } from './gate.js'

/** EIP numbers below this are looked up in a table (the highest ethereumjs knows is in the 8000s). */
const EIP_TABLE_SIZE = 16384

/** What the node's Common adds to @ethereumjs/common's. */
export interface NodeCommon extends Common {
  /** Sets `name` to `value` for every later `param(name)`, whatever tables are merged after. */
  overrideParam(name: string, value: bigint): void
  /**
   * Changes the chain id `chainId()` answers: transactions are signed and checked with it and
   * CHAINID reads it. The chain (chain/chain.ts) is the one caller.
   */
  setChainId(chainId: bigint): void
  /** The deposit contract (EIP-6110) of the chain configuration, if it names one. */
  readonly depositContractAddress: string | undefined
}

/** The node's Common through public methods only (the plain path). */
class SharedCommon extends Common implements NodeCommon {
  private readonly merged = new WeakSet<object>()
  /** Parameters the node sets over the fork's (the code size limits); they survive rebuilds. */
  declare protected overrides: Map<string, bigint> | undefined
  /** The chain id, a bigint once (the library converts its configuration's string at each call). */
  declare private id: bigint
  declare readonly depositContractAddress: string | undefined

  constructor(opts: CommonOpts) {
    super(opts)
    this.id = super.chainId()
    this.depositContractAddress = (opts.chain as ChainConfig & { depositContractAddress?: string }).depositContractAddress
  }

  overrideParam(name: string, value: bigint): void {
    ;(this.overrides ??= new Map()).set(name, value)
  }

  override param(name: string): bigint {
    const value = this.overrides?.get(name)
    return value !== undefined ? value : super.param(name)
  }

  override chainId(): bigint {
    return this.id ?? super.chainId()
  }

  setChainId(chainId: bigint): void {
    this.id = chainId
  }

  override copy(): Common {
    return this
  }

  override updateParams(params: ParamsDict): void {
    if (this.merged.has(params)) return
    super.updateParams(params)
    this.merged.add(params)
  }
}

/**
 * The node's Common with its caches, which override @ethereumjs/common's protected cache
 * builders (`_buildParamsCache`, `_buildActivatedEIPsCache`) and read `_activatedEIPsCache`:
 * made only where the gate verified the library's version.
 */
class CachedCommon extends SharedCommon {
  /**
   * The active EIPs as a table indexed by EIP number (a set for numbers past its end):
   * ethereumjs keeps them in an array and `isActivatedEIP` searches it, and the EVM asks for
   * every opcode (~3 % of an ERC20 transfer). Filled by the constructor (through
   * `_buildActivatedEIPsCache`), hence `declare`: no field initializer may reset it.
   */
  declare private eipTable: Uint8Array
  declare private eipSet: Set<number>

  /**
   * Parameters as bigints, by name: `param` converts the stored value with `BigInt()` on every
   * call, and the EVM asks for gas costs at nearly every opcode. Emptied whenever ethereumjs
   * rebuilds its parameter cache (hardfork, EIPs or parameter tables changed).
   */
  declare private bigParams: Map<string, bigint>

  /** The blob gas schedule, made once per parameter cache (the builder and the header ask each block). */
  declare private blobSchedule: ReturnType<Common['getBlobGasSchedule']> | undefined

  protected override _buildParamsCache(): void {
    super._buildParamsCache()
    this.bigParams = new Map(this.overrides)
    this.blobSchedule = undefined
  }

  override getBlobGasSchedule(): ReturnType<Common['getBlobGasSchedule']> {
    return (this.blobSchedule ??= Object.freeze(super.getBlobGasSchedule()))
  }

  override overrideParam(name: string, value: bigint): void {
    super.overrideParam(name, value)
    this.bigParams.set(name, value)
    this.blobSchedule = undefined
  }

  override param(name: string): bigint {
    let value = this.bigParams.get(name)
    if (value === undefined) {
      value = super.param(name)
      this.bigParams.set(name, value)
    }
    return value
  }

  protected override _buildActivatedEIPsCache(): void {
    super._buildActivatedEIPsCache()
    this.eipSet = new Set(this._activatedEIPsCache)
    this.eipTable = new Uint8Array(EIP_TABLE_SIZE)
    for (const eip of this._activatedEIPsCache) if (eip >= 0 && eip < EIP_TABLE_SIZE) this.eipTable[eip] = 1
  }

  override isActivatedEIP(eip: number): boolean {
    return eip >= 0 && eip < EIP_TABLE_SIZE ? this.eipTable[eip] === 1 : this.eipSet.has(eip)
  }
}

/** A node's Common: with the engine's caches where @ethereumjs/common's version was verified. */
export function createNodeCommon(opts: CommonOpts): NodeCommon {
  return fastPaths('@ethereumjs/common') ? new CachedCommon(opts) : new SharedCommon(opts)
}

/** Whether `common` is a node's own Common (made by {@link createNodeCommon}). */
export function isNodeCommon(common: Common): common is NodeCommon {
  return common instanceof SharedCommon
}

/** The deposit contract (EIP-6110) `common`'s chain configuration names, if any. */
export function depositContractAddress(common: Common): string | undefined {
  if (common instanceof SharedCommon) return common.depositContractAddress
  // Another Common (a library default, a test's): its configuration is private.
  if (!verified('@ethereumjs/common')) return undefined
  return (common as unknown as { _chainParams: { depositContractAddress?: string } })._chainParams.depositContractAddress
}

/** Whether the library's cache objects may serve as keys (decided at the first use). */
let keysOn: boolean | undefined

/**
 * An object that stays the same while `common`'s parameters and active EIPs do (ethereumjs
 * replaces its parameter cache whenever hardfork, EIPs or parameter tables change): a key for
 * what is computed from them. Undefined where the library's version was not verified: then
 * compute it again.
 */
export function paramsKey(common: Common): object | undefined {
  return (keysOn ??= verified('@ethereumjs/common')) ? (common as unknown as { _paramsCache: object })._paramsCache : undefined
}

/** Like {@link paramsKey}, for the active EIPs (ethereumjs' `_activatedEIPsCache` array). */
export function activeEipsKey(common: Common): object | undefined {
  return (keysOn ??= verified('@ethereumjs/common')) ? (common as unknown as { _activatedEIPsCache?: object })._activatedEIPsCache : undefined
}
