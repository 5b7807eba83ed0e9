/**
 * Empty arrays with the hidden class of filled ones. V8 gives an array literal `[]`, and the
 * result of mapping an empty array, the elements kind of small integers; the first object stored
 * moves it to the kind of objects for good. A site that reads both (a loop over a block's
 * results, a log's topics, a receipt's logs) sees two maps, and an optimised function compiled
 * before the second arrives is thrown away and compiled again when it does.
 */

/** A marker that never leaves this module: it only sets the new array's elements kind. */
const MARK = Object.freeze({})

/**
 * A new empty array already of the elements kind of objects (as `[x]` after `pop()`), so an
 * empty list of objects or byte strings has the same hidden class as a filled one.
 */
export function emptyObjects<T extends object>(): T[] {
  const out = [MARK] as unknown as T[]
  out.pop()
  return out
}

/**
 * `items.map(f)` in one hidden class. The result of `Array.prototype.map` is packed when the
 * builtin makes it and holey when an optimised caller has it inlined (TurboFan makes the result
 * with `new Array(length)`), so the same list changes class once the function that makes it is
 * optimised, and every optimised reader of it is thrown away. Here always packed, as a literal is.
 */
export function mapped<T, U>(items: readonly T[], f: (item: T, index: number) => U): U[] {
  const out = emptyObjects() as unknown as U[]
  for (let i = 0; i < items.length; i++) out.push(f(items[i] as T, i))
  return out
}
