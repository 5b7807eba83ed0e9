/**
 * `loadFixture`, as Hardhat's network helpers have it: the first call runs the setup and takes a
 * snapshot; every later call reverts to that snapshot (and takes a new one, since a revert uses
 * it up) and returns the setup's first result. Each test starts from the same chain, and the
 * setup runs once.
 */
import type { Hex } from '../hex.js'
import type { FinalityNode } from '../node.js'

interface Fixture<T> {
  snapshot: Hex
  result: T
}

/** Hardhat's FixtureAnonymousFunctionError, worded for this signature. */
export class FixtureAnonymousFunctionError extends Error {
  constructor() {
    super(`Anonymous functions cannot be used as fixtures.

You probably did something like this:

    loadFixture(node, async () => { ... });

Instead, define a fixture function and refer to that same function in each call to loadFixture.`)
    this.name = 'FixtureAnonymousFunctionError'
  }
}

const fixtures = new WeakMap<FinalityNode, Map<Function, Fixture<unknown>>>()

/**
 * Runs `setup` once per node and returns its result; later calls restore the chain to the moment
 * `setup` finished. Pass a named function (not an inline arrow), as its identity is the key: an
 * anonymous one throws {@link FixtureAnonymousFunctionError}, as Hardhat's loadFixture does
 * (a new arrow on every call would run the setup again each time and never restore).
 */
export async function loadFixture<T>(node: FinalityNode, setup: (node: FinalityNode) => Promise<T>): Promise<T> {
  if (typeof setup !== 'function') throw new TypeError('loadFixture: setup must be a function')
  if (setup.name === '') throw new FixtureAnonymousFunctionError()
  let byNode = fixtures.get(node)
  if (byNode === undefined) {
    byNode = new Map()
    fixtures.set(node, byNode)
  }
  const known = byNode.get(setup) as Fixture<T> | undefined
  if (known === undefined) {
    const result = await setup(node)
    const snapshot = await node.request({ method: 'evm_snapshot' })
    byNode.set(setup, { snapshot, result })
    return result
  }
  const restored = await node.request({ method: 'evm_revert', params: [known.snapshot] })
  if (restored !== true) {
    throw new Error('loadFixture: the fixture snapshot is gone (a revert to an earlier snapshot removed it)')
  }
  known.snapshot = await node.request({ method: 'evm_snapshot' })
  return known.result
}
