/** Nodes a test file creates, closed together after the file's tests. */
import { afterAll } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'

/** Returns `newNode`, which creates a node that is closed after all tests of the calling file. */
export function trackNodes(): (options?: Parameters<typeof createNode>[0]) => Promise<FinalityNode> {
  const nodes: FinalityNode[] = []
  afterAll(async () => {
    for (const n of nodes.splice(0)) await n.close()
  })
  return async (options) => {
    const n = await createNode(options)
    nodes.push(n)
    return n
  }
}
