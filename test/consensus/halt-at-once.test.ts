/**
 * A halt the faults make certain (offline or nil-voting validators leave no quorum, or no quorum
 * group has a proposer) is known before any round runs: on the default round time-outs (3 s
 * propose), sends answer their hash and evm_mine / hardhat_mine answer -32000 at once, saying
 * which validators are offline and the power missing.
 */
import { describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../src/index.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
/** Well under round 0's default propose time-out (3 s), which the halt used to wait out. */
const AT_ONCE_MS = 1000

async function timed<T>(run: () => Promise<T>): Promise<{ value: T | undefined; error: unknown; ms: number }> {
  const started = performance.now()
  try {
    const value = await run()
    return { value, error: undefined, ms: performance.now() - started }
  } catch (error) {
    return { value: undefined, error, ms: performance.now() - started }
  }
}

const send = (node: FinalityNode) =>
  node.request({ method: 'eth_sendTransaction', params: [{ from: node.accounts[0]!.address, to: node.accounts[1]!.address, value: '0x1' }] })

describe('a halted chain answers at once', () => {
  it('default: two of four offline: the send answers its hash, evm_mine and hardhat_mine -32000 naming the offline validators', async () => {
    const node = await newNode({ validators: 4 })
    const [a, b] = node.validators.map((v) => v.address)
    node.setValidatorOnline(a!, false)
    node.setValidatorOnline(b!, false)
    const sent = await timed(() => send(node))
    expect(sent.value).toMatch(/^0x[0-9a-f]{64}$/)
    expect(sent.ms).toBeLessThan(AT_ONCE_MS)
    for (const method of ['evm_mine', 'hardhat_mine']) {
      const mined = await timed(() => node.request({ method }))
      expect(mined.ms).toBeLessThan(AT_ONCE_MS)
      expect(mined.error).toMatchObject({
        code: -32000,
        message: `the chain is halted: validators able to vote for a block hold 20 of 40 voting power, and a block needs more than 2/3 of it; offline: ${a}, ${b}`,
      })
    }
    const mined = await timed(() => node.mine())
    expect(mined.value).toBeUndefined()
    expect(mined.ms).toBeLessThan(AT_ONCE_MS)
    expect(await node.request({ method: 'eth_blockNumber' })).toBe('0x0')
    // Healed: the pending transfer is mined (automine drains the pool once the faults change).
    node.healValidators()
    await node.mine()
    expect((await node.request({ method: 'eth_getTransactionReceipt', params: [sent.value!] }))?.status).toBe('0x1')
  })

  it('behavior: nil voters, a partition without a quorum group, or no proposer in the quorum are halts known up-front too', async () => {
    const node = await newNode({ validators: 4, mining: { mode: 'manual' } })
    const [a, b, c, d] = node.validators.map((v) => v.address) as [`0x${string}`, `0x${string}`, `0x${string}`, `0x${string}`]
    node.setValidatorFault(a, { nil: true })
    node.setValidatorFault(b, { nil: true })
    let mined = await timed(() => node.request({ method: 'evm_mine' }))
    expect(mined.ms).toBeLessThan(AT_ONCE_MS)
    expect((mined.error as Error).message).toBe(`the chain is halted: validators able to vote for a block hold 20 of 40 voting power, and a block needs more than 2/3 of it; voting nil: ${a}, ${b}`)
    node.healValidators()
    node.partitionValidators([[a, b], [c, d]])
    mined = await timed(() => node.request({ method: 'evm_mine' }))
    expect(mined.ms).toBeLessThan(AT_ONCE_MS)
    expect((mined.error as Error).message).toBe('the chain is halted: the largest group of the partition (2 groups) able to vote for a block holds 20 of 40 voting power, and a block needs more than 2/3 of it')
    node.healValidators()
    for (const v of [a, b, c, d]) node.setValidatorFault(v, { silent: true })
    mined = await timed(() => node.request({ method: 'evm_mine' }))
    expect(mined.ms).toBeLessThan(AT_ONCE_MS)
    expect((mined.error as Error).message).toMatch(/^the chain is halted: validators able to vote for a block hold 40 of 40 voting power, but none of them proposes; silent \(never proposing\): /)
    node.healValidators()
    expect(await node.request({ method: 'evm_mine' })).toBe('0x0')
  })
})
