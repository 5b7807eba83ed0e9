/**
 * Hardhat's compilation methods: `hardhat_addCompilationResult` (what Hardhat's `hardhat node`
 * sends after a recompilation) gives the node contract metadata at run time, and
 * `hardhat_getStackTraceFailuresCount` counts the failures the node could not explain.
 *
 * Checked against Hardhat 2.29.1: `hardhat_addCompilationResult(solcVersion, compilerInput,
 * compilerOutput)` answers `true`; exactly three params (-32602 `Expected exactly 3 arguments and
 * got N`), the version a string, the input an object with a string `language`, the output an
 * object; an output EDR cannot read (no `contracts`, a contract's `abi` not a list) is -32603.
 * The version is not checked (EDR takes `banana`). A missing or extra param is refused with the
 * dispatcher's wording (geth's), the code Hardhat's.
 */
import { InternalError, InvalidParamsError, MethodNotFoundError } from '../../errors.js'
import { ArtifactError } from '../../metadata/artifacts.js'
import type { Codec } from '../codecs.js'
import { methodsOf, type MethodTable, type Ports } from '../method.js'

type Here = Ports<'failures' | 'hardhatCompat'>
const method = methodsOf<keyof Here>()

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * One param checked as Hardhat checks it, with Hardhat's message (its io-ts wording: the value
 * that is wrong, a field's own where a field is, and the path to it).
 */
function param<T>(name: string, check: (v: unknown) => [wrong: unknown, path: string] | undefined): Codec<T> {
  return {
    name,
    optional: false,
    decode: (value, index) => {
      const found = check(value)
      if (found !== undefined) throw new InvalidParamsError(`Errors encountered in param ${index}: Invalid value ${shown(found[0])} supplied to : ${found[1]}`)
      return value as T
    },
  }
}

function shown(v: unknown): string {
  if (v === undefined) return 'undefined'
  const text = JSON.stringify(v)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

const solcVersion = param<string>('string', (v) => (typeof v === 'string' ? undefined : [v, 'string']))
const compilerInput = param<Json>('RpcCompilerInput', (v) => {
  if (!isObject(v)) return [v, 'RpcCompilerInput']
  return typeof v.language === 'string' ? undefined : [v.language, 'RpcCompilerInput/language: string']
})
const compilerOutput = param<Json>('RpcCompilerOutput', (v) => (isObject(v) ? undefined : [v, 'RpcCompilerOutput']))

const addCompilationResult = method({
  params: [solcVersion, compilerInput, compilerOutput],
  run: (s, [version, input, output]) => {
    try {
      s.failures.registry.add({ solcVersion: version, input, output })
    } catch (error) {
      // As Hardhat: an output that cannot be read is an internal error naming what is wrong.
      if (error instanceof ArtifactError) throw new InternalError(`Error: ${error.reason}`)
      throw error
    }
    return true
  },
})

/**
 * How many failures had no explanation (the failed execution could not be run again to trace
 * it): what Hardhat counted as failures of its stack trace engine, and what `hardhat test` warns
 * about when it is not 0. Hardhat's EDR-based provider makes no such count and answers 0; this
 * node answers 0 too unless a re-run failed. Outside Hardhat mode the question is Hardhat's alone.
 */
const stackTraceFailuresCount = method({
  params: [],
  run: (s) => {
    if (!s.hardhatCompat) {
      throw new MethodNotFoundError('hardhat_getStackTraceFailuresCount', "the method hardhat_getStackTraceFailuresCount does not exist/is not available: it counts the failures the node could not explain in Solidity terms and is served in Hardhat mode (hardhatCompat, --hardhat)")
    }
    return s.failures.unexplained
  },
})

/** The methods, in the `hardhat` namespace. */
export const compilation: MethodTable = {
  hardhat_addCompilationResult: addCompilationResult,
  hardhat_getStackTraceFailuresCount: stackTraceFailuresCount,
}
