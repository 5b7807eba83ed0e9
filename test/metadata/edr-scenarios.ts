/**
 * EDR's stack-trace fixtures (test/fixtures/edr-stack-traces/scenarios.json, bundled from EDR by
 * scripts/edr-stack-trace-fixtures.mjs) run on finality: each scenario's sources compiled with
 * the npm `solc` as EDR's runner compiles them (no optimizer, the same output selection; the
 * output cached under `.cache/edr-stack-traces/`), its transactions sent to a node in Hardhat mode
 * given that compilation, and each failure's Solidity stack trace compared with the one the
 * scenario expects: the kind of each entry, its contract, file, function and line, and the
 * reason, value or panic code of the last.
 *
 * What the node shows is read the way a user reads it: the error's message (the kind of the
 * innermost entry and its details, as Hardhat words each kind) and its `solidityStack` (the
 * frames, innermost first; the outer ones are call-stack entries).
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { encodeAbiParameters, toFunctionSelector, type AbiParameter, type Hex } from 'viem'
import { createNode } from '../../src/index.js'

const require = createRequire(import.meta.url)
const HERE = path.dirname(fileURLToPath(import.meta.url))
const ROOT = path.resolve(HERE, '..', '..')
const CACHE = path.join(ROOT, '.cache', 'edr-stack-traces')

/** An entry of a scenario's expected stack trace (EDR's `StackFrameDescription`). */
export interface ExpectedEntry {
  type: string
  sourceReference?: { contract?: string; file: string; function?: string; line: number }
  message?: string
  value?: string | number
  errorCode?: string
}

interface Deployment {
  file: string
  contract: string
  value?: string | number
  params?: unknown[]
  libraries?: Record<string, Record<string, number>>
  stackTrace?: ExpectedEntry[]
  imports?: string[]
  gas?: number
}
interface Call {
  to: number
  value?: string | number
  data?: string
  function?: string
  params?: unknown[]
  stackTrace?: ExpectedEntry[]
  gas?: number
}
/** A scenario's test.json. */
export interface Scenario {
  skip?: boolean
  reason?: string
  skipViaIR?: boolean
  solc?: string
  description?: string
  transactions: (Deployment | Call)[]
}

export const bundle = JSON.parse(readFileSync(path.join(HERE, '..', 'fixtures', 'edr-stack-traces', 'scenarios.json'), 'utf8')) as {
  commit: string
  scenarios: Record<string, { test: Scenario; sources: Record<string, string> }>
}

const solc = require('solc') as { version(): string; compile(input: string): string }
/** The npm solc's version, `0.8.37`. */
export const solcVersion = solc.version().split('+')[0]!

type Compiled = { abi: AbiItem[]; evm: { bytecode: { object: string; linkReferences: Record<string, Record<string, { start: number }[]>> } } }
type AbiItem = { type: string; name?: string; inputs?: AbiParameter[] }
type Output = { contracts: Record<string, Record<string, Compiled>>; errors?: { severity: string; formattedMessage: string }[] }

/** The scenario's standard-JSON input, as EDR's runner writes it (sources by file name). */
function inputOf(name: string): object {
  const { test, sources } = bundle.scenarios[name]!
  const all: Record<string, { content: string }> = {}
  for (const [file, content] of Object.entries(sources)) all[file] = { content }
  // Scenarios that print import Hardhat's console.sol, found at the source root.
  if (test.transactions.some((t) => 'imports' in t && t.imports !== undefined)) {
    all['console.sol'] = { content: readFileSync(require.resolve('hardhat/console.sol'), 'utf8') }
  }
  return {
    language: 'Solidity',
    sources: all,
    settings: {
      optimizer: { enabled: false },
      // The chain EDR's runner makes is Cancun's; solc's newer default could use later opcodes.
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode', 'evm.deployedBytecode', 'evm.methodIdentifiers'], '': ['id', 'ast'] } },
    },
  }
}

/** Compiles the scenario (or reads its cached output). */
export function compile(name: string): { input: object; output: Output } {
  const input = inputOf(name)
  const text = JSON.stringify(input)
  const file = path.join(CACHE, `${createHash('sha256').update(solcVersion).update(text).digest('hex').slice(0, 32)}.json`)
  if (existsSync(file)) return { input, output: JSON.parse(readFileSync(file, 'utf8')) as Output }
  const output = JSON.parse(solc.compile(text)) as Output
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(`${name}: ${errors.map((e) => e.formattedMessage).join('\n')}`)
  mkdirSync(CACHE, { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  writeFileSync(tmp, JSON.stringify(output))
  renameSync(tmp, file)
  return { input, output }
}

/** EDR's runner's sender and chain. */
const KEY = '0xe331b6d69882b4cb4ea581d88e0b604039a3de5967688d3dcffdd2270c0fd109'

const toHex = (v: string | number | undefined): Hex => `0x${BigInt(v ?? 0).toString(16)}`

/** A scenario's parameter as viem encodes it: integers as bigint, the rest as given. */
function value(type: string, v: unknown): unknown {
  if (type.endsWith(']')) return (v as unknown[]).map((x) => value(type.slice(0, type.lastIndexOf('[')), x))
  // ethereumjs-abi's inputs: integers as numbers or hex (a negative int in two's complement),
  // bytes as arrays of bytes.
  const int = /^int(\d*)$/.exec(type)
  if (int !== null) return BigInt.asIntN(Number(int[1] || 256), BigInt(v as string | number))
  if (/^uint\d*$/.test(type)) return BigInt(v as string | number)
  if (type.startsWith('bytes') && Array.isArray(v)) return `0x${Buffer.from(v as number[]).toString('hex')}`
  return v
}
function encode(inputs: readonly AbiParameter[], params: unknown[]): Hex {
  return encodeAbiParameters(inputs, inputs.map((p, i) => value(p.type, params[i])))
}

/** One entry of a trace as compared: EDR's fields, a missing one left out. */
export interface Entry {
  type: string
  contract?: string
  file?: string
  function?: string
  line?: number
  message?: string
  value?: string
  errorCode?: string
}

/** The innermost entry's kind and details from the error's message, as Hardhat words each kind. */
export function kindOf(message: string): Omit<Entry, 'contract' | 'file' | 'function' | 'line'> {
  const m = message.replace(/^Error: /, '')
  const vm = 'VM Exception while processing transaction: '
  let r: RegExpExecArray | null
  // An empty reason string compares as none, as EDR's runner decodes it.
  if ((r = /^VM Exception while processing transaction: reverted with reason string '([\s\S]*)'$/.exec(m))) return { type: 'REVERT_ERROR', ...(r[1] !== '' && { message: r[1]! }) }
  if (m === 'Transaction reverted without a reason string') return { type: 'REVERT_ERROR' }
  if ((r = /reverted with panic code 0x([0-9a-f]+)/.exec(m))) return { type: 'PANIC_ERROR', errorCode: BigInt(`0x${r[1]}`).toString(16) }
  if (m.startsWith(`${vm}reverted with custom error`)) return { type: 'CUSTOM_ERROR', message: m.slice(vm.length) }
  if (m.startsWith(`${vm}reverted with an unrecognized custom error`)) return { type: 'REVERT_ERROR' }
  const inferred: [RegExp, string][] = [
    [/^non-payable function was called with value (\d+)$/, 'FUNCTION_NOT_PAYABLE_ERROR'],
    [/^fallback function is not payable and was called with value (\d+)$/, 'FALLBACK_NOT_PAYABLE_ERROR'],
    [/^there's no receive function, fallback function is not payable and was called with value (\d+)$/, 'FALLBACK_NOT_PAYABLE_AND_NO_RECEIVE_ERROR'],
    [/^function selector was not recognized and there's no fallback function$/, 'UNRECOGNIZED_FUNCTION_WITHOUT_FALLBACK_ERROR'],
    [/^function selector was not recognized and there's no fallback nor receive function$/, 'MISSING_FALLBACK_OR_RECEIVE_ERROR'],
    [/^function returned an unexpected amount of data$/, 'RETURNDATA_SIZE_ERROR'],
    [/^function call to a non-contract account$/, 'NONCONTRACT_ACCOUNT_CALLED_ERROR'],
    [/^function call failed to execute$/, 'CALL_FAILED_ERROR'],
    [/^library was called directly$/, 'DIRECT_LIBRARY_CALL_ERROR'],
    [/^function was called with incorrect parameters$/, 'INVALID_PARAMS_ERROR'],
    [/^trying to deploy a contract whose code is too large$/, 'CONTRACT_TOO_LARGE_ERROR'],
    [/^contract call run out of gas and made the transaction revert$/, 'CONTRACT_CALL_RUN_OUT_OF_GAS_ERROR'],
    [/^call to precompile (\d+) failed$/, 'PRECOMPILE_ERROR'],
  ]
  const reason = m.replace(/^Transaction reverted: /, '')
  for (const [re, type] of inferred) {
    if ((r = re.exec(reason))) return { type, ...(r[1] !== undefined && type !== 'PRECOMPILE_ERROR' && { value: r[1] }) }
  }
  return { type: `UNKNOWN (${m})` }
}

/** A frame of `solidityStack`. */
function frameOf(text: string): Omit<Entry, 'type'> {
  // Hardhat's entries for code of no known contract.
  if (text.startsWith('<UnrecognizedContract>.constructor (')) return { contract: 'UNRECOGNIZED_CREATE' }
  if (text.startsWith('<UnrecognizedContract>.<unknown> (')) return { contract: 'UNRECOGNIZED_CONTRACT' }
  // `Contract.function (file:line)`, or `function (file:line)` for a free function.
  const r = /^(?:([^.( ]+)\.)?(\S+) \((.+):(\d+)\)$/.exec(text)
  if (r === null) return { contract: text }
  // Hardhat writes a reference without a function (an unrecognized selector) with a placeholder,
  // and one whose function has an empty name (EDR's) as V8 prints it, `<anonymous>`.
  const fn = r[2] === '<unknown>' || r[2] === '<unrecognized-selector>' ? undefined : r[2] === '<anonymous>' ? '' : r[2]
  return { ...(r[1] !== undefined && { contract: r[1] }), ...(fn !== undefined && { function: fn }), file: r[3]!, line: Number(r[4]) }
}

/** What a failed send showed: the trace, outermost entry first (EDR's order). */
export function traceOf(error: unknown): Entry[] {
  const frames = ((error as { solidityStack?: readonly string[] }).solidityStack ?? []).map(frameOf).reverse()
  const last = kindOf((error as Error).message)
  if (frames.length === 0) return [last as Entry]
  return frames.map((f, i) => {
    const kind = f.contract?.startsWith('UNRECOGNIZED_') === true ? f.contract : undefined
    if (kind !== undefined) return i === frames.length - 1 ? { ...last, type: `${kind}_ERROR` } : { type: `${kind}_CALLSTACK_ENTRY` }
    return i === frames.length - 1 ? { ...last, ...f } : { type: 'CALLSTACK_ENTRY', ...f }
  })
}

/** The expected trace in the same shape. */
export function expectedOf(entries: ExpectedEntry[]): Entry[] {
  return entries.map((e) => ({
    type: e.type,
    ...(e.sourceReference !== undefined && { file: e.sourceReference.file, line: e.sourceReference.line }),
    ...(e.sourceReference?.contract !== undefined && { contract: e.sourceReference.contract }),
    ...(e.sourceReference?.function !== undefined && { function: e.sourceReference.function }),
    ...(e.message !== undefined && { message: e.message }),
    ...(e.value !== undefined && { value: BigInt(e.value).toString() }),
    ...(e.errorCode !== undefined && { errorCode: e.errorCode }),
  }))
}

/** One transaction's outcome: the trace shown (undefined for success) and the one expected. */
export interface Outcome {
  tx: number
  actual?: Entry[]
  expected?: Entry[]
}

/** Runs the scenario on a fresh node; answers each transaction's outcome. */
export async function run(name: string): Promise<Outcome[]> {
  const { test } = bundle.scenarios[name]!
  const { input, output } = compile(name)
  // EDR's runner ignores the contracts whose names start with `Ignored` (its tracing config's
  // `ignoreContracts`): the node is given the compilation without them, so they are unknown to it.
  const known = { ...output, contracts: Object.fromEntries(Object.entries(output.contracts).map(([f, cs]) => [f, Object.fromEntries(Object.entries(cs).filter(([n]) => !n.startsWith('Ignored')))])) }
  const node = await createNode({
    hardhatCompat: true,
    artifacts: { input, output: known } as never,
    hardfork: 'cancun',
    chainId: 1,
    blockGasLimit: 10_000_000n,
    initialBaseFee: 0n,
    accounts: [{ privateKey: KEY, balance: 10n ** 15n }],
    // The scenarios' console.log lines are not compared here: only their stack traces.
    onConsoleLog: false,
  })
  try {
    const [from] = (await node.request({ method: 'eth_accounts' })) as [Hex]
    const deployed = new Map<number, { file: string; contract: string; address: Hex }>()
    const outcomes: Outcome[] = []
    for (const [i, tx] of test.transactions.entries()) {
      let send: Record<string, Hex>
      if ('file' in tx) {
        const c = output.contracts[tx.file]![tx.contract]!
        let code = c.evm.bytecode.object
        for (const [file, libs] of Object.entries(c.evm.bytecode.linkReferences)) {
          for (const [lib, refs] of Object.entries(libs)) {
            const at = deployed.get(tx.libraries![file]![lib]!)!.address.slice(2)
            for (const { start } of refs) code = code.slice(0, start * 2) + at + code.slice(start * 2 + 40)
          }
        }
        const ctor = c.abi.find((a) => a.type === 'constructor')
        const args = ctor !== undefined && (tx.params?.length ?? 0) > 0 ? encode(ctor.inputs!, tx.params!).slice(2) : ''
        send = { data: `0x${code}${args}` }
      } else {
        const target = deployed.get(tx.to)!
        let data: Hex = '0x'
        if (tx.data !== undefined) data = tx.data as Hex
        else if (tx.function !== undefined) {
          const params = tx.params ?? []
          const fn = output.contracts[target.file]![target.contract]!.abi.find((a) => a.name === tx.function && a.inputs!.length === params.length)!
          data = `${toFunctionSelector(`${fn.name}(${fn.inputs!.map((p) => p.type).join(',')})`)}${encode(fn.inputs!, params).slice(2)}`
        }
        send = { to: target.address, data }
      }
      const outcome: Outcome = { tx: i, ...(tx.stackTrace !== undefined && { expected: expectedOf(tx.stackTrace) }) }
      try {
        const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from, ...send, value: toHex(tx.value), gas: toHex(tx.gas ?? 4_000_000), gasPrice: '0xa' }] })
        const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Hex | null }
        if ('file' in tx && receipt.contractAddress !== null) deployed.set(i, { file: tx.file, contract: tx.contract, address: receipt.contractAddress })
      } catch (error) {
        outcome.actual = traceOf(error)
      }
      outcomes.push(outcome)
    }
    return outcomes
  } finally {
    await node.close()
  }
}

/** An entry with its fields in one order, a missing one left out. */
function canonical(e: Entry): Entry {
  const keys = ['type', 'contract', 'file', 'function', 'line', 'message', 'value', 'errorCode'] as const
  return Object.fromEntries(keys.filter((k) => e[k] !== undefined).map((k) => [k, e[k]])) as unknown as Entry
}

/**
 * Compares as EDR's runner does (no optimizer: lines too): the same number of entries, and each
 * entry's kind, source reference and details. Answers the first difference, or undefined.
 */
export function difference(outcomes: Outcome[]): string | undefined {
  for (const o of outcomes) {
    if (o.expected === undefined && o.actual !== undefined) return `tx ${o.tx} failed: ${JSON.stringify(o.actual)}`
    if (o.expected !== undefined && o.actual === undefined) return `tx ${o.tx} succeeded, expected ${JSON.stringify(o.expected)}`
    if (o.expected === undefined || o.actual === undefined) continue
    if (JSON.stringify(o.actual.map(canonical)) !== JSON.stringify(o.expected.map(canonical))) return `tx ${o.tx}: got ${JSON.stringify(o.actual)}, expected ${JSON.stringify(o.expected)}`
  }
  return undefined
}
