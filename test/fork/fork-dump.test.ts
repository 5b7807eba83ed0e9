/**
 * debug_dumpBlock / debug_accountRange on a fork: the walk of the state trie fetches each remote
 * node it lacks with a proof, within `fork.walkFetches` (at the bound it works, past it it fails
 * saying why); the remote's blocks below the fork block are not walked; bad bounds are refused.
 */
import { keccak256, toHex, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../src/index.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
const funded: Address[] = Array.from({ length: 6 }, (_, i) => privateKeyToAccount(keccak256(toHex(`fork dump ${i}`))).address)
let remote: FinalityNode
let forkNumber: bigint

beforeAll(async () => {
  remote = await newNode()
  const from = remote.accounts[0]!.address
  for (const [i, to] of funded.entries()) await remote.request({ method: 'eth_sendTransaction', params: [{ from, to, value: toHex(1000 + i) }] })
  forkNumber = BigInt((await remote.request({ method: 'eth_blockNumber', params: [] })) as Hex)
})

type Dump = { root: string; accounts: Record<string, { balance: string; key: string }> }
const searched = async (node: FinalityNode) => ((await node.request({ method: 'finality_forkStatus', params: [] })) as { loaded: { searched: number } }).loaded.searched

describe('a walk of the state on a fork', () => {
  it('debug_dumpBlock walks the remote trie, fetching the nodes it lacks; the accounts the fork knows are listed with the remote\'s values', async () => {
    const fork = await newNode({ fork: { provider: remote.provider } })
    for (const a of funded) await fork.request({ method: 'eth_getBalance', params: [a, 'latest'] })
    const before = await searched(fork)
    const dump = (await fork.request({ method: 'debug_dumpBlock', params: ['latest'] })) as Dump
    const fetched = (await searched(fork)) - before
    expect(fetched).toBeGreaterThan(0)
    const theirs = (await remote.request({ method: 'debug_dumpBlock', params: [toHex(forkNumber)] })) as Dump
    for (const [i, a] of funded.entries()) {
      const name = Object.keys(theirs.accounts).find((k) => k.toLowerCase() === a.toLowerCase())!
      expect(dump.accounts[name]?.balance).toBe(String(1000 + i))
    }
    // Every account of the remote is in the walk (by hashed address), the ones the fork never saw by key only.
    const range = (await fork.request({ method: 'debug_accountRange', params: ['latest', '0x', 256, true, true, true] })) as Dump
    const keys = new Set(Object.values(range.accounts).map((e) => e.key))
    for (const e of Object.values(theirs.accounts)) expect(keys.has(e.key)).toBe(true)

    // At the bound the same walk works; one short it fails saying why.
    const at = await newNode({ fork: { provider: remote.provider, walkFetches: fetched } })
    for (const a of funded) await at.request({ method: 'eth_getBalance', params: [a, 'latest'] })
    expect(await at.request({ method: 'debug_dumpBlock', params: ['latest'] })).toEqual(dump)
    const short = await newNode({ fork: { provider: remote.provider, walkFetches: fetched - 1 } })
    for (const a of funded) await short.request({ method: 'eth_getBalance', params: [a, 'latest'] })
    await expect(short.request({ method: 'debug_dumpBlock', params: ['latest'] })).rejects.toMatchObject({
      code: -32000,
      message: expect.stringMatching(new RegExp(`^debug_dumpBlock on a fork walks the remote's state trie, fetching each node it lacks with a proof: this walk needs more than ${fetched - 1} \\(fork\\.walkFetches\\)\\. The remote's whole state is not walked here`)),
    })
    // The node still works after the refused walk.
    expect(await short.request({ method: 'eth_getBalance', params: [funded[0]!, 'latest'] })).toBe(toHex(1000))
  })

  it('the remote\'s blocks below the fork block are not walked; bad bounds are refused naming the option', async () => {
    const fork = await newNode({ fork: { provider: remote.provider } })
    await expect(fork.request({ method: 'debug_dumpBlock', params: [toHex(forkNumber - 1n)] })).rejects.toMatchObject({ code: -32000, message: expect.stringMatching(/^debug_dumpBlock: block \d+ is the remote's, below the fork block: its state is read here key by key, never walked; ask the remote$/) })
    await expect(fork.request({ method: 'debug_accountRange', params: [toHex(forkNumber - 1n), '0x', 10, true, true, false] })).rejects.toMatchObject({ message: expect.stringMatching(/^debug_accountRange: block/) })
    for (const bad of [-1, 2.5, 1_000_001]) {
      await expect(newNode({ fork: { provider: remote.provider, walkFetches: bad } })).rejects.toThrow(/option fork\.walkFetches must be an integer from 0 to 1000000/)
    }
  })
})
