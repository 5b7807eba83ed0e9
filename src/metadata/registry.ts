/**
 * The node's contract metadata: the contracts given to `createNode({ artifacts })` or
 * `node.addArtifacts`, and the code → contract matches found so far. Read only when an execution
 * fails (to name its custom error and its frames); a node given no metadata holds an empty
 * registry and never asks it.
 */
import { readArtifacts, type ArtifactInput, type ContractMetadata } from './artifacts.js'
import { readArtifactPath } from './files.js'
import { codeMatches, maskCode, type MaskedCode } from './bytecode.js'
import { decodeParameters, formatValue, selectorOf, AbiDecodeError, type AbiItem } from './abi.js'

interface Entry {
  readonly contract: ContractMetadata
  readonly runtime?: MaskedCode
  readonly creation?: MaskedCode
}

/**
 * Sources read into their contracts once, for many nodes (`loadArtifacts`), given to
 * `node.addArtifacts` as a source. What they were read from is not kept: a Hardhat 3 project's
 * parsed build-info (~100 MB of heap for OpenZeppelin Contracts, whose syntax trees only give
 * the functions' ranges) held for a whole run makes every full garbage collection of the
 * process ~5× longer.
 */
export class LoadedArtifacts {
  private constructor() {}
  /** How many contracts were read. */
  get size(): number {
    return loaded.get(this)!.length
  }
  /** @internal */
  static of(entries: readonly Entry[]): LoadedArtifacts {
    const out = new LoadedArtifacts()
    loaded.set(out, entries)
    return out
  }
}

const loaded = new WeakMap<LoadedArtifacts, readonly Entry[]>()

/** Reads `sources` once; a bad one throws an `ArtifactError` naming it. */
export function loadArtifacts(sources: ArtifactSources, where = 'artifacts'): LoadedArtifacts {
  return LoadedArtifacts.of(readEntries(sources, where))
}

/**
 * What `artifacts` and `node.addArtifacts` take: build-info, solc output or artifact objects
 * (parsed JSON), paths of folders (Foundry's `out/`, Hardhat's `artifacts/`) or JSON files, and
 * sources read once by `loadArtifacts`.
 */
export type ArtifactSource = ArtifactInput | string | LoadedArtifacts
/** One source or a list of them. */
export type ArtifactSources = ArtifactSource | readonly ArtifactSource[]

/**
 * What a list of parsed sources reads to, kept by the list's first object: the nodes given the same
 * parsed objects (a Hardhat plugin's connections share one parse of the project's build-info, whose
 * reading and masking take ~0.3 s for a large project) read them once. Entries are not changed
 * after they are made, so registries share them.
 */
const readObjects = new WeakMap<object, { readonly objects: readonly ArtifactInput[]; readonly entries: readonly Entry[] }>()

function entriesOf(objects: readonly ArtifactInput[], single: boolean, where: string | undefined): readonly Entry[] {
  const first = objects[0] as object
  const known = readObjects.get(first)
  if (known !== undefined && known.objects.length === objects.length && known.objects.every((o, i) => o === objects[i])) return known.entries
  const entries = readArtifacts(single ? objects[0]! : objects, where).map(entryOf)
  readObjects.set(first, { objects: [...objects], entries })
  return entries
}

function entryOf(contract: ContractMetadata): Entry {
  return {
    contract,
    ...(contract.runtime === undefined ? {} : { runtime: maskCode(contract.runtime, true) }),
    ...(contract.creation === undefined ? {} : { creation: maskCode(contract.creation, false) }),
  }
}

/** Every contract the sources hold; a bad one throws (an `ArtifactError` naming it). */
export function readSources(sources: ArtifactSources, where = 'artifacts'): ContractMetadata[] {
  return readEntries(sources, where).map((e) => e.contract)
}

/** The sources' contracts with their masked code: parsed objects read once (entriesOf), paths each time. */
function readEntries(sources: ArtifactSources, where: string | undefined): Entry[] {
  const list: readonly ArtifactSource[] = Array.isArray(sources) ? sources : [sources as ArtifactSource]
  const objects = list.filter((s): s is ArtifactInput => typeof s !== 'string' && !(s instanceof LoadedArtifacts))
  const read: Entry[] = objects.length === 0 ? [] : [...entriesOf(objects, !Array.isArray(sources), where)]
  for (const s of list) {
    if (typeof s === 'string') read.push(...readArtifactPath(s).map(entryOf))
    else if (s instanceof LoadedArtifacts) read.push(...loaded.get(s)!)
  }
  return read
}

/** A contract matched to code, and whether the code was its deployed or creation code. */
export interface CodeMatch {
  readonly contract: ContractMetadata
  readonly runtime: boolean
}

/** The contracts a node knows, matched to code by bytecode. */
export class ContractRegistry {
  private readonly entries: Entry[] = []
  /** Deployed code lengths to their candidates: a match compares only contracts of the same size. */
  private readonly byLength = new Map<number, Entry[]>()
  /** Matches made, by code (hex): code seen once is matched once. */
  private readonly matched = new Map<string, CodeMatch | null>()
  private readonly errorsBySelector = new WeakMap<ContractMetadata, Map<string, AbiItem>>()

  /** How many contracts it holds. */
  get size(): number {
    return this.entries.length
  }

  /** The contracts it holds, in the order they were added. */
  contracts(): readonly ContractMetadata[] {
    return this.entries.map((e) => e.contract)
  }

  /** Adds the sources' contracts (a bad source throws before any is added); answers how many. */
  add(sources: ArtifactSources, where?: string): number {
    const read = readEntries(sources, where)
    for (const entry of read) {
      const contract = entry.contract
      if (contract.runtime === undefined && contract.creation === undefined && contract.abi.length === 0) continue
      if (entry.runtime !== undefined) {
        const n = entry.runtime.bytes.length
        const candidates = this.byLength.get(n)
        if (candidates === undefined) this.byLength.set(n, [entry])
        else candidates.push(entry)
      }
      this.entries.push(entry)
    }
    // A code not matched before may match a contract added now.
    for (const [k, v] of this.matched) if (v === null) this.matched.delete(k)
    return read.length
  }

  /** The contract whose deployed code (`runtime`) or creation code (with arguments) `code` is. */
  match(code: Uint8Array, runtime: boolean): ContractMetadata | undefined {
    if (this.entries.length === 0 || code.length === 0) return undefined
    const key = `${runtime ? 'r' : 'c'}${Buffer.from(code).toString('hex')}`
    const known = this.matched.get(key)
    if (known !== undefined) return known?.contract
    let found: ContractMetadata | undefined
    if (runtime) found = this.byLength.get(code.length)?.find((e) => codeMatches(e.runtime!, code, true))?.contract
    else {
      // The longest creation code that prefixes it: a contract whose code is a prefix of another's loses.
      let best: Entry | undefined
      for (const e of this.entries) if (e.creation !== undefined && codeMatches(e.creation, code, false) && (best === undefined || e.creation.bytes.length > best.creation!.bytes.length)) best = e
      found = best?.contract
    }
    this.matched.set(key, found === undefined ? null : { contract: found, runtime })
    return found
  }

  /** The custom error of `contract` that `revertData` encodes, as Hardhat writes it: `Name(arg, …)`. */
  customError(contract: ContractMetadata, revertData: Uint8Array): string | undefined {
    if (revertData.length < 4) return undefined
    let errors = this.errorsBySelector.get(contract)
    if (errors === undefined) {
      errors = new Map(contract.abi.filter((i) => i.type === 'error').map((i) => [selectorOf(i), i]))
      this.errorsBySelector.set(contract, errors)
    }
    const item = errors.get(Buffer.from(revertData.subarray(0, 4)).toString('hex'))
    if (item === undefined) return undefined
    try {
      const values = decodeParameters(item.inputs ?? [], revertData.subarray(4))
      return `${item.name}(${values.map(formatValue).join(', ')})`
    } catch (error) {
      if (error instanceof AbiDecodeError) return undefined
      throw error
    }
  }
}
