/**
 * Program counters to Solidity source: solc's compressed source maps (`s:l:f:j:m` per
 * instruction, an empty field repeating the one before), the instruction each program counter
 * starts (PUSH data skipped), and the line and function of a source offset. Hardhat names a frame
 * `Contract.function (file:line)` from the same three.
 */
import type { ContractMetadata, ContractRange, FunctionRange, SourceFile } from './artifacts.js'

/** One instruction's source range; `file` is solc's source index, -1 for none (generated code). */
export interface SourceRange {
  readonly start: number
  readonly length: number
  readonly file: number
  readonly jump: string
}

/** A frame's place in the Solidity source, as Hardhat writes it. */
export interface SourceLocation {
  readonly sourceName: string
  /**
   * The contract whose code ran (a function inherited from a base contract is the deployed
   * contract's, as Hardhat names it); undefined in a free function.
   */
  readonly contract: string | undefined
  /** The function's name; `constructor`, `<fallback>`, `<receive>`, or `<unknown>` outside one. */
  readonly function: string
  /** 1-based. */
  readonly line: number
  /** The instruction's source range: its offset in the file and its length. */
  readonly start: number
  readonly length: number
  /** Set when the place is inside a modifier. */
  readonly modifier?: boolean
  /**
   * Code of no known contract: Hardhat's `<UnrecognizedContract>` entry, `sourceName` the
   * account's address (`unknown` for a creation) and no line.
   */
  readonly unrecognized?: boolean
}

/** Decodes a compressed source map into one range per instruction. */
export function parseSourceMap(map: string): SourceRange[] {
  const out: SourceRange[] = []
  let last: SourceRange = { start: -1, length: -1, file: -1, jump: '-' }
  for (const item of map.split(';')) {
    const [s, l, f, j] = item.split(':')
    last = {
      start: s === undefined || s === '' ? last.start : Number(s),
      length: l === undefined || l === '' ? last.length : Number(l),
      file: f === undefined || f === '' ? last.file : Number(f),
      jump: j === undefined || j === '' ? last.jump : j,
    }
    out.push(last)
  }
  return out
}

/** For each byte of `code`, the index of the instruction it belongs to. */
export function instructionIndexes(code: Uint8Array): Uint32Array {
  const out = new Uint32Array(code.length)
  let index = 0
  for (let pc = 0; pc < code.length; index++) {
    const op = code[pc]!
    const size = op >= 0x60 && op <= 0x7f ? op - 0x5e : 1
    out.fill(index, pc, Math.min(pc + size, code.length))
    pc += size
  }
  return out
}

/** The 1-based line of a source offset. */
export function lineOf(content: string, offset: number): number {
  let line = 1
  for (let i = 0; i < offset && i < content.length; i++) if (content.charCodeAt(i) === 10) line++
  return line
}

function functionAt(source: SourceFile, offset: number): FunctionRange | undefined {
  let best: FunctionRange | undefined
  for (const f of source.functions ?? []) {
    if (offset >= f.start && offset < f.start + f.length && (best === undefined || f.length < best.length)) best = f
  }
  return best
}

/**
 * Where the instruction at `pc` of `contract`'s code is in its source, or undefined when the
 * contract has no source map, the pc is past the code, or the instruction maps to generated code
 * (then the caller looks at an earlier instruction of the frame, as Hardhat does for a panic in a
 * compiler helper).
 */
export function locate(contract: ContractMetadata, runtime: boolean, code: Uint8Array, pc: number, cache: WeakMap<object, unknown>): SourceLocation | undefined {
  const range = rangeAt(contract, runtime, code, pc, cache)
  if (range === undefined || range.file < 0) return undefined
  const source = contract.sources?.get(range.file)
  if (source?.content === undefined) return undefined
  const fn = functionAt(source, range.start)
  return {
    sourceName: source.name,
    // A free function has no contract; any other code is the deployed contract's (Hardhat's naming).
    contract: fn !== undefined && fn.contract === undefined ? undefined : contractName(contract),
    function: fn?.name ?? '<unknown>',
    line: lineOf(source.content, range.start),
    start: range.start,
    length: range.length,
    ...(fn?.modifier === true && { modifier: true }),
  }
}

/** The contract's own name (`Vault` of `contracts/Vault.sol:Vault`). */
export function contractName(contract: ContractMetadata): string {
  return contract.name.slice(contract.name.lastIndexOf(':') + 1)
}

/** The source range of the instruction at `pc`, its jump mark included (`i` into a function, `o` out). */
export function rangeAt(contract: ContractMetadata, runtime: boolean, code: Uint8Array, pc: number, cache: WeakMap<object, unknown>): SourceRange | undefined {
  const meta = runtime ? contract.runtime : contract.creation
  if (meta?.sourceMap === undefined || contract.sources === undefined || pc < 0 || pc >= code.length) return undefined
  let parsed = cache.get(meta) as { ranges: SourceRange[]; indexes: Uint32Array } | undefined
  if (parsed === undefined) {
    parsed = { ranges: parseSourceMap(meta.sourceMap), indexes: instructionIndexes(code) }
    cache.set(meta, parsed)
  }
  return parsed.ranges[parsed.indexes[pc]!]
}

/** What the contract metadata says about a failure. */
export interface FailureReport {
  /** `Name(arg, …)`: the custom error of the contract where the revert began, when its ABI has it. */
  readonly customError?: string
  /** Hardhat's inferred reason of a revert without data (`non-payable function was called with value 1`). */
  readonly inferred?: string
  /** The Solidity frames of the failure, innermost first (code of unknown contracts as `<UnrecognizedContract>` entries). */
  readonly frames: readonly SourceLocation[]
}

/** The deployed contract's definition in the AST and the file that holds it. */
export function definitionOf(contract: ContractMetadata): { source: SourceFile; definition: ContractRange } | undefined {
  const name = contractName(contract)
  let found: { source: SourceFile; definition: ContractRange } | undefined
  for (const source of contract.sources?.values() ?? []) {
    const definition = source.contracts?.find((c) => c.name === name)
    if (definition === undefined) continue
    found = { source, definition }
    if (contract.sourceName === undefined || source.name === contract.sourceName) return found
  }
  return found
}

/**
 * Where Hardhat places an error found before any of the contract's own code ran (a function or
 * fallback that is not payable, a constructor): the start of the first definition `pick`
 * accepts in the contract or its bases, most derived first, named as the deployed contract's;
 * `undefined` pick is the contract's own start, without a function.
 */
export function definitionStart(contract: ContractMetadata, pick?: (f: FunctionRange) => boolean, name?: string): SourceLocation | undefined {
  const own = definitionOf(contract)
  if (own === undefined) return undefined
  const at = (source: SourceFile, start: number, length: number, fn: string): SourceLocation | undefined =>
    source.content === undefined ? undefined : { sourceName: source.name, contract: contractName(contract), function: fn, line: lineOf(source.content, start), start, length }
  if (pick !== undefined) {
    const found = findFunction(contract, pick)
    if (found !== undefined) return at(found.source, found.range.start, found.range.length, name ?? found.range.name)
    if (name === undefined) return undefined
  }
  return at(own.source, own.definition.start, own.definition.length, name ?? '<unknown>')
}

/** The first function `pick` accepts in the contract or its bases, most derived first. */
export function findFunction(contract: ContractMetadata, pick: (f: FunctionRange) => boolean): { source: SourceFile; range: FunctionRange } | undefined {
  for (const base of definitionOf(contract)?.definition.bases ?? []) {
    for (const source of contract.sources?.values() ?? []) {
      const range = source.functions?.find((g) => g.contractId === base && pick(g))
      if (range !== undefined) return { source, range }
    }
  }
  return undefined
}
