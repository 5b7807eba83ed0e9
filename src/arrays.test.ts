import v8 from 'node:v8'
import { describe, expect, it } from 'vitest'
import { emptyObjects, mapped } from './arrays.js'

v8.setFlagsFromString('--allow-natives-syntax')
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: unknown, b: unknown) => boolean
/** `f(arg)` before and after V8 optimises `f` (TurboFan, on the next call). */
const optimised = new Function('f', 'arg', '%PrepareFunctionForOptimization(f); const before = f(arg); f(arg); %OptimizeFunctionOnNextCall(f); return [before, f(arg)]') as <T>(f: (arg: T) => unknown, arg: T) => [unknown, unknown]

describe('emptyObjects', () => {
  it('default: an empty array, new each time', () => {
    const a = emptyObjects<Uint8Array>()
    expect(a).toEqual([])
    expect(a).not.toBe(emptyObjects<Uint8Array>())
  })

  it('behavior: the hidden class of a filled array of objects or byte strings, which `[]` has not', () => {
    const filled = [new Uint8Array(32)].map((x) => x)
    expect(sameMap(emptyObjects(), filled)).toBe(true)
    expect(sameMap(emptyObjects(), [{ hash: 'a' }])).toBe(true)
    // What it replaces: the literal and the mapping of an empty array have another.
    expect(sameMap([], filled)).toBe(false)
    expect(sameMap(([] as Uint8Array[]).map((x) => x), filled)).toBe(false)
  })

  it('behavior: stays in that class once written to', () => {
    const a = emptyObjects<Uint8Array>()
    a.push(new Uint8Array(1))
    expect(sameMap(a, [new Uint8Array(2)])).toBe(true)
  })
})

describe('mapped', () => {
  it('default: what map gives', () => {
    expect(mapped([1, 2, 3], (x, i) => ({ x, i }))).toEqual([1, 2, 3].map((x, i) => ({ x, i })))
    expect(mapped([], (x) => x)).toEqual([])
  })

  it('behavior: one hidden class, empty or not, before and after its caller is optimised', () => {
    const [before, after] = optimised((a: number[]) => mapped(a, (x) => ({ x })), [1, 2, 3])
    expect(sameMap(before, after)).toBe(true)
    expect(sameMap(before, [{ x: 1 }])).toBe(true)
    expect(sameMap(mapped([], (x) => x), before)).toBe(true)
    // What it replaces: map's result changes class once the caller is optimised.
    const [mapBefore, mapAfter] = optimised((a: number[]) => a.map((x) => ({ x })), [1, 2, 3])
    expect(sameMap(mapBefore, mapAfter)).toBe(false)
  })
})
