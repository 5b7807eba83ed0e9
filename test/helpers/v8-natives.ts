/**
 * V8's natives for tests that a function keeps its optimised code at a case first met after its
 * compile: prepare a function, have it optimised at its next call, read its status. The natives
 * syntax is allowed for functions compiled after the flag is set, in this process only.
 */
import v8 from 'node:v8'

v8.setFlagsFromString('--allow-natives-syntax')
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- natives syntax parses only in code compiled after the flag
const prepareNative = new Function('f', '%PrepareFunctionForOptimization(f)') as (f: unknown) => void
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- as above
const optimiseNextNative = new Function('f', '%OptimizeFunctionOnNextCall(f)') as (f: unknown) => void
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- as above
const statusNative = new Function('f', 'return %GetOptimizationStatus(f)') as (f: unknown) => number

/** V8's OptimizationStatus bit for code made by TurboFan. */
const TURBOFANNED = 1 << 4

/** `%PrepareFunctionForOptimization(f)`: keep its feedback for an optimisation asked for next. */
export function prepare(f: unknown): void {
  prepareNative(f)
}

/** `%OptimizeFunctionOnNextCall(f)`: TurboFan compiles it at its next call. */
export function optimiseNext(f: unknown): void {
  optimiseNextNative(f)
}

/** True while `f` runs TurboFan's code (`%GetOptimizationStatus`). */
export function isOptimised(f: unknown): boolean {
  return (statusNative(f) & TURBOFANNED) !== 0
}

/**
 * `f` prepared, run twice through `step`, optimised at the third: whether it runs optimised code
 * after that call.
 */
export function optimisedAfter(f: unknown, step: () => void): boolean {
  prepare(f)
  step()
  step()
  optimiseNext(f)
  step()
  return isOptimised(f)
}
