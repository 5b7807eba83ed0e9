/**
 * Run by call-first-failure.test.ts in a process of its own (a test runner's worker adds its own
 * code and feedback to the process): a node's eth_calls that succeed until V8 has optimised
 * `CallExecutor#call`, then one that fails. Prints V8's optimisation status of the method before
 * and after the failure, and the failure's error code, as JSON.
 */
import v8 from 'node:v8'
import { createNode } from '../../../src/index.js'
import { CallExecutor } from '../../../src/execution/call.js'

// Returns the word 42 when called without data; reverts without data when called with any.
const CODE: `0x${string}` = '0x36156008575f5ffd5b602a5f5260205ff3'
const AT = '0x00000000000000000000000000000000000c0de1'

v8.setFlagsFromString('--allow-natives-syntax')
const natives = (body: string) => new Function('f', body) as (f: unknown) => number
const node = await createNode()
const call = (input: `0x${string}`) => node.request({ method: 'eth_call', params: [{ to: AT, input }, 'latest', { [AT]: { code: CODE } }] })
const method = CallExecutor.prototype.call
natives('%PrepareFunctionForOptimization(f)')(method)
const answers = new Set<unknown>()
for (let i = 0; i < 20; i++) answers.add(await call('0x'))
natives('%OptimizeFunctionOnNextCall(f)')(method)
answers.add(await call('0x'))
const before = natives('return %GetOptimizationStatus(f)')(method)
let code: unknown
try {
  await call('0x01')
} catch (error) {
  code = (error as { code?: unknown }).code
}
const after = natives('return %GetOptimizationStatus(f)')(method)
await node.close()
process.stdout.write(JSON.stringify({ answers: [...answers], before, after, code }))
