/**
 * Run by automine-optimised.test.ts in a process of its own, bundled by the build's own esbuild
 * (test runners and tsx transpile a class's parameter properties to fields declared first, and
 * a field declared first is already one V8 holds as changing: the case to check would not arise).
 * The transactions' automine check, inlined in an optimised caller as a send's admission inlines
 * it, across evm_setAutomine's changes of the producer's mode. Prints V8's optimisation status of
 * the caller before and after, and the check's answers, as JSON.
 */
import v8 from 'node:v8'
import { createComponents } from '../../../src/node/components.js'
import { resolveSettings } from '../../../src/node/settings.js'

v8.setFlagsFromString('--allow-natives-syntax')
const natives = (body: string) => new Function('f', body) as (f: unknown) => number
const components = await createComponents(await resolveSettings({ hardhatCompat: true, mining: { mode: 'auto' } }))
const producer = components.producer
const check = (components.transactions as unknown as { options: { automine: () => boolean } }).options.automine
const caller = (): boolean => check()
// Enough runs for V8 to give the check the feedback that inlining it needs.
for (let i = 0; i < 1000; i++) check()
natives('%PrepareFunctionForOptimization(f)')(caller)
caller()
caller()
natives('%OptimizeFunctionOnNextCall(f)')(caller)
const answers = [caller()]
const before = natives('return %GetOptimizationStatus(f)')(caller)
producer.setMode({ mode: 'manual' })
answers.push(caller())
producer.setMode({ mode: 'auto' })
answers.push(caller())
const after = natives('return %GetOptimizationStatus(f)')(caller)
await producer.close()
console.log(JSON.stringify({ answers, before, after }))
