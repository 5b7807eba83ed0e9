/**
 * Contract metadata from what users already have, read into one shape: Hardhat 2 and 3
 * build-info files, solc's standard-JSON output, Foundry's and Hardhat's artifact files, and
 * viem-style `{ abi, bytecode, deployedBytecode, sourceMap }` objects. Anything else is refused
 * with the reason, naming the entry.
 */
import type { AbiItem } from './abi.js'

/** Byte ranges solc leaves to be filled: library addresses and immutables. */
export interface ByteRange {
  readonly start: number
  readonly length: number
}

/** One contract's code: hex without `0x` (link placeholders kept), its source map and the ranges it fills in. */
export interface CodeMetadata {
  readonly hex: string
  readonly sourceMap?: string
  readonly filled: readonly ByteRange[]
  /**
   * True for deployed code whose immutables' places were not given (Hardhat's and viem-style
   * artifacts leave them out): every `PUSH32` of 32 zero bytes, solc's placeholder, is masked.
   */
  readonly immutablesUnknown?: boolean
}

/** A function's (or modifier's) source range, from the AST, with its contract (none for a free function). */
export interface FunctionRange {
  readonly contract: string | undefined
  readonly name: string
  readonly start: number
  readonly length: number
  /** The AST id of its contract. */
  readonly contractId?: number
  /** Its selector, for an external or public function and a public state variable's getter. */
  readonly selector?: string
  readonly payable?: boolean
  /** A modifier, not a function. */
  readonly modifier?: boolean
}

/** A contract's definition in the AST: its range, kind and linearized bases (itself first). */
export interface ContractRange {
  readonly name: string
  readonly id: number
  /** `contract`, `library`, `interface`. */
  readonly kind: string
  readonly bases: readonly number[]
  readonly start: number
  readonly length: number
}

/** A source file: its name, content and function ranges where known. */
export interface SourceFile {
  readonly name: string
  readonly content?: string
  readonly functions?: readonly FunctionRange[]
  readonly contracts?: readonly ContractRange[]
}

/** One contract as the node keeps it. */
export interface ContractMetadata {
  /** `Vault`, or `contracts/Vault.sol:Vault` where a source name is known. */
  readonly name: string
  readonly sourceName?: string
  readonly abi: readonly AbiItem[]
  readonly creation?: CodeMetadata
  readonly runtime?: CodeMetadata
  /** Source file names by solc's source id (for source maps). */
  readonly sources?: ReadonlyMap<number, SourceFile>
}

/** What `artifacts` and `node.addArtifacts` take: one input or a list of them. */
export type ArtifactsInput = ArtifactInput | readonly ArtifactInput[]

/**
 * A build-info file (Hardhat 2: `{ input, output }`; Hardhat 3: its input file and its
 * `.output.json`), solc's standard-JSON output (`{ contracts, sources }`), or one contract's
 * artifact (`{ abi, bytecode, deployedBytecode, sourceMap? }`, Hardhat's and Foundry's artifact
 * files included). Parsed JSON, not file names.
 */
export type ArtifactInput = Readonly<Record<string, unknown>>

/** Thrown for an input that is none of the accepted shapes; `where` names the entry. */
export class ArtifactError extends TypeError {
  constructor(
    readonly where: string,
    readonly reason: string,
  ) {
    super(`${where}: ${reason}`)
    this.name = 'ArtifactError'
  }
}

type Json = Record<string, unknown>
/** A build-info's format field (read by key: the `_` names a field of the file, not a library's insides). */
export const FORMAT = '_format'
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

function ranges(refs: unknown): ByteRange[] {
  const out: ByteRange[] = []
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const r of v) if (isObject(r) && typeof r.start === 'number' && typeof r.length === 'number') out.push({ start: r.start, length: r.length })
    } else if (isObject(v)) for (const inner of Object.values(v)) walk(inner)
  }
  walk(refs)
  return out
}

const HEX = /^(?:[0-9a-fA-F]|__\$[0-9a-fA-F]{34}\$__|__[^_][^\s]{0,36}__)*$/

function code(where: string, value: unknown, sourceMap: unknown, links: unknown, runtime: boolean, immutables?: unknown): CodeMetadata | undefined {
  const object = isObject(value) ? value.object : value
  if (object === undefined || object === null || object === '' || object === '0x') return undefined
  if (typeof object !== 'string') throw new ArtifactError(where, `bytecode must be a hex string, not ${typeof object}`)
  const hex = object.startsWith('0x') ? object.slice(2) : object
  if (hex.length % 2 !== 0 || !HEX.test(hex)) throw new ArtifactError(where, 'bytecode is not hex')
  const map = isObject(value) && typeof value.sourceMap === 'string' ? value.sourceMap : typeof sourceMap === 'string' ? sourceMap : undefined
  const linked = isObject(value) ? value.linkReferences : links
  const immutableRefs = isObject(value) ? value.immutableReferences : immutables
  const filled = [...ranges(linked), ...ranges(immutableRefs)]
  return { hex, ...(map !== undefined && { sourceMap: map }), filled, ...(runtime && immutableRefs === undefined && { immutablesUnknown: true }) }
}

function abiOf(where: string, abi: unknown): AbiItem[] {
  if (!Array.isArray(abi)) throw new ArtifactError(where, 'abi must be an array')
  for (const [i, item] of abi.entries()) if (!isObject(item) || typeof item.type !== 'string') throw new ArtifactError(where, `abi[${i}] has no type`)
  return abi as AbiItem[]
}

/** The name Hardhat gives a function of this AST kind. */
function functionName(node: Json): string | undefined {
  if (node.nodeType === 'ModifierDefinition') return typeof node.name === 'string' ? node.name : undefined
  // A public state variable's getter is a function of its own in Hardhat's traces.
  if (node.nodeType === 'VariableDeclaration') return typeof node.functionSelector === 'string' && typeof node.name === 'string' ? node.name : undefined
  if (node.nodeType !== 'FunctionDefinition') return undefined
  if (node.kind === 'constructor') return 'constructor'
  if (node.kind === 'fallback') return '<fallback>'
  if (node.kind === 'receive') return '<receive>'
  return typeof node.name === 'string' ? node.name : undefined
}

function rangeOf(node: Json): [number, number] | undefined {
  if (typeof node.src !== 'string') return undefined
  const [start, length] = node.src.split(':').map(Number)
  return start === undefined || length === undefined || Number.isNaN(start) || Number.isNaN(length) ? undefined : [start, length]
}

/** The functions and modifiers an AST declares, at its top level and inside its contracts, and its contracts. */
function functionsOf(ast: unknown): { functions: FunctionRange[]; contracts: ContractRange[] } {
  const functions: FunctionRange[] = []
  const contracts: ContractRange[] = []
  if (!isObject(ast) || !Array.isArray(ast.nodes)) return { functions, contracts }
  const add = (node: unknown, contract: string | undefined, contractId: number | undefined) => {
    if (!isObject(node)) return
    const name = functionName(node)
    const range = rangeOf(node)
    if (name === undefined || range === undefined) return
    functions.push({
      contract,
      name,
      start: range[0],
      length: range[1],
      ...(contractId !== undefined && { contractId }),
      ...(typeof node.functionSelector === 'string' && { selector: node.functionSelector }),
      payable: node.stateMutability === 'payable',
      ...(node.nodeType === 'ModifierDefinition' && { modifier: true }),
    })
  }
  for (const node of ast.nodes) {
    if (isObject(node) && node.nodeType === 'ContractDefinition' && Array.isArray(node.nodes)) {
      const name = typeof node.name === 'string' ? node.name : undefined
      const id = typeof node.id === 'number' ? node.id : undefined
      const range = rangeOf(node)
      if (name !== undefined && id !== undefined && range !== undefined) {
        const bases = Array.isArray(node.linearizedBaseContracts) ? node.linearizedBaseContracts.filter((b): b is number => typeof b === 'number') : [id]
        contracts.push({ name, id, kind: typeof node.contractKind === 'string' ? node.contractKind : 'contract', bases, start: range[0], length: range[1] })
      }
      for (const inner of node.nodes) add(inner, name, id)
    } else add(node, undefined, undefined)
  }
  return { functions, contracts }
}

/** A solc standard-JSON output's contracts (a build-info's `output`). */
function fromSolcOutput(where: string, output: Json, contents: Json | undefined): ContractMetadata[] {
  const sources = new Map<number, SourceFile>()
  if (isObject(output.sources)) {
    for (const [name, s] of Object.entries(output.sources)) {
      if (!isObject(s) || typeof s.id !== 'number') continue
      const source = contents?.[name]
      const content = isObject(source) && typeof source.content === 'string' ? source.content : undefined
      sources.set(s.id, { name, ...(content !== undefined && { content }), ...functionsOf(s.ast) })
    }
  }
  const out: ContractMetadata[] = []
  if (!isObject(output.contracts)) throw new ArtifactError(where, 'has no contracts')
  for (const [sourceName, file] of Object.entries(output.contracts)) {
    if (!isObject(file)) continue
    for (const [name, c] of Object.entries(file)) {
      if (!isObject(c)) continue
      const at = `${where} ${sourceName}:${name}`
      const evm = isObject(c.evm) ? c.evm : {}
      const creation = code(at, evm.bytecode, undefined, undefined, false)
      const runtime = code(at, evm.deployedBytecode, undefined, undefined, true)
      out.push({ name, sourceName, abi: abiOf(at, c.abi ?? []), ...(creation && { creation }), ...(runtime && { runtime }), sources })
    }
  }
  return out
}

/** One contract's artifact: viem-style, Hardhat's (`contractName`, `sourceName`) or Foundry's. */
function fromArtifact(where: string, a: Json): ContractMetadata {
  const creation = code(`${where} bytecode`, a.bytecode, a.sourceMap, a.linkReferences, false)
  const runtime = code(`${where} deployedBytecode`, a.deployedBytecode, a.deployedSourceMap, a.deployedLinkReferences, true, a.immutableReferences)
  const name = typeof a.contractName === 'string' ? a.contractName : typeof a.name === 'string' ? a.name : 'unnamed contract'
  const sourceName = typeof a.sourceName === 'string' ? a.sourceName : undefined
  return { name, ...(sourceName !== undefined && { sourceName }), abi: abiOf(where, a.abi), ...(creation && { creation }), ...(runtime && { runtime }) }
}

/**
 * Reads the inputs into contracts. A Hardhat 3 build-info comes as two objects (its input file,
 * `_format: 'hh3-sol-build-info-1'`, and its output file, `…-output-1`); given together, the input's
 * sources are joined to the output by `id`; an output alone still gives every contract.
 */
export function readArtifacts(inputs: ArtifactsInput, where = 'artifacts'): ContractMetadata[] {
  const list: readonly unknown[] = Array.isArray(inputs) ? inputs : [inputs]
  const hh3Inputs = new Map<string, Json>()
  for (const item of list) if (isObject(item) && item[FORMAT] === 'hh3-sol-build-info-1' && typeof item.id === 'string' && isObject(item.input)) hh3Inputs.set(item.id, item.input)
  const out: ContractMetadata[] = []
  for (const [i, item] of list.entries()) {
    const at = Array.isArray(inputs) ? `${where}[${i}]` : where
    if (!isObject(item)) throw new ArtifactError(at, 'must be an object (a build-info, solc output or artifact)')
    if (item[FORMAT] === 'hh3-sol-build-info-1') continue
    if (isObject(item.output)) {
      const input = isObject(item.input) ? item.input : typeof item.id === 'string' ? hh3Inputs.get(item.id) : undefined
      out.push(...fromSolcOutput(at, item.output, isObject(input?.sources) ? input.sources : undefined))
    } else if (isObject(item.contracts)) out.push(...fromSolcOutput(at, item, undefined))
    else if ('abi' in item) out.push(fromArtifact(at, item))
    else throw new ArtifactError(at, 'is neither a build-info ({ input, output }), solc output ({ contracts }) nor an artifact ({ abi, bytecode, deployedBytecode })')
  }
  return out
}
