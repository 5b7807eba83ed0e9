/**
 * Whether two values share V8's hidden class (`%HaveSameMap`): tests of the objects and arrays the
 * node makes in one shape so that the sites reading them see one map. The natives syntax is
 * allowed for functions compiled after the flag is set, in this process only.
 */
import v8 from 'node:v8'

v8.setFlagsFromString('--allow-natives-syntax')
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- natives syntax parses only in code compiled after the flag
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: unknown, b: unknown) => boolean

/** True when `a` and `b` have the same hidden class. */
export function sameHiddenClass(a: object, b: object): boolean {
  return haveSameMap(a, b)
}
