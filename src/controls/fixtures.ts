/**
 * `loadFixture`, as Hardhat's network helpers have it: the first call runs the setup and takes a
 * snapshot; every later call reverts to that snapshot (and takes a new one, since a revert uses
 * it up) and returns the setup's first result. Each test starts from the same chain, and the
 * setup runs once.
 */
import type { FinalityNode } from '../node.js'

interface Fixture<T> {
  snapshot: string
  result: T
}

const fixtures = new WeakMap<FinalityNode, Map<Function, Fixture<unknown>>>()

/**
 * Runs `setup` once per node and returns its result; later calls restore the chain to the moment
 * `setup` finished. Pass a named function (not an inline arrow), as its identity is the key.
 */
export async function loadFixture<T>(node: FinalityNode, setup: (node: FinalityNode) => Promise<T>): Promise<T> {
  let byNode = fixtures.get(node)
  if (byNode === undefined) {
    byNode = new Map()
    fixtures.set(node, byNode)
  }
  const known = byNode.get(setup) as Fixture<T> | undefined
  if (known === undefined) {
    const result = await setup(node)
    const snapshot = (await node.request({ method: 'evm_snapshot' })) as string
    byNode.set(setup, { snapshot, result })
    return result
  }
  const restored = await node.request({ method: 'evm_revert', params: [known.snapshot] })
  if (restored !== true) {
    throw new Error('loadFixture: the fixture snapshot is gone (a revert to an earlier snapshot removed it)')
  }
  known.snapshot = (await node.request({ method: 'evm_snapshot' })) as string
  return known.result
}
