/**
 * A remote without eth_getProof: the fork reads its state with the plain getters (unverified),
 * says so in finality_forkStatus (its roots are not the remote's), and refuses what needs proofs
 * (eth_getProof, the state at an older block of its own) with an error that says why.
 */
import { keccak256, parseEther, toHex, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
const holder = privateKeyToAccount(keccak256(toHex('fork no proofs holder'))).address

describe('a fork of a remote without eth_getProof', () => {
  it('reads and writes the head state, says its roots are not real, and refuses what needs proofs', async () => {
    const remote = await newNode()
    const dev = remote.accounts[0]!.address
    await remote.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: holder, value: `0x${parseEther('2').toString(16)}` }] })
    await remote.request({ method: 'hardhat_setStorageAt', params: [holder, '0x5', `0x${'00'.repeat(31)}09`] })
    await remote.request({ method: 'evm_mine', params: [] })
    // A provider in front of the remote that has no eth_getProof, as some hosted endpoints.
    const methods: string[] = []
    const provider = {
      request: async (args: { method: string; params?: unknown[] }) => {
        methods.push(args.method)
        if (args.method === 'eth_getProof') throw Object.assign(new Error('the method eth_getProof does not exist/is not available'), { code: -32601 })
        return remote.provider.request(args as never)
      },
    }
    const fork = await newNode({ fork: { provider } })
    const status = (await fork.request({ method: 'finality_forkStatus', params: [] })) as { stateRoots: string }
    const notReal = 'not real: the remote does not answer eth_getProof'
    expect(status.stateRoots).toBe(notReal)
    // The node info methods say it too.
    for (const method of ['hardhat_metadata', 'anvil_metadata']) {
      expect(((await fork.request({ method, params: [] })) as { forkedNetwork: { stateRoots: string } }).forkedNetwork.stateRoots).toBe(notReal)
    }
    expect(((await fork.request({ method: 'anvil_nodeInfo', params: [] })) as { forkConfig: { stateRoots: string } }).forkConfig.stateRoots).toBe(notReal)
    expect(await fork.request({ method: 'eth_getBalance', params: [holder, 'latest'] })).toBe(`0x${parseEther('2').toString(16)}`)
    expect(await fork.request({ method: 'eth_getStorageAt', params: [holder, '0x5', 'latest'] })).toBe(`0x${'00'.repeat(31)}09`)
    expect(await fork.request({ method: 'eth_getTransactionCount', params: [dev, 'latest'] })).toBe(await remote.request({ method: 'eth_getTransactionCount', params: [dev, 'latest'] }))
    await fork.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: holder, value: '0x1' }] })
    await fork.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: holder, value: '0x1' }] })
    expect(await fork.request({ method: 'eth_getBalance', params: [holder, 'latest'] })).toBe(`0x${(parseEther('2') + 2n).toString(16)}`)
    expect(methods).toContain('eth_getBalance')
    await expect(fork.request({ method: 'eth_getProof', params: [holder, [], 'latest'] })).rejects.toMatchObject({ code: -32000, message: expect.stringMatching(/does not answer eth_getProof/) })
    const head = BigInt((await fork.request({ method: 'eth_blockNumber', params: [] })) as Hex)
    await expect(fork.request({ method: 'eth_getBalance', params: [holder, `0x${(head - 1n).toString(16)}`] })).rejects.toMatchObject({ code: -32000, message: expect.stringMatching(/only the head state/) })
    // The fork block's root is the remote's (its header); a block built on it has a root over
    // what the fork wrote only, not the one a fork with proofs (the remote's trie) computes.
    const forkBlock = (await fork.request({ method: 'eth_getBlockByNumber', params: [`0x${(head - 2n).toString(16)}`, false] })) as { stateRoot: Hex; hash: Hex }
    expect(forkBlock.stateRoot).toBe(((await remote.request({ method: 'eth_getBlockByHash', params: [forkBlock.hash, false] })) as { stateRoot: Hex }).stateRoot)
    const proven = await newNode({ fork: { provider: remote.provider, blockNumber: head - 2n } })
    await proven.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: holder, value: '0x1' }] })
    const ours = (await fork.request({ method: 'eth_getBlockByNumber', params: [`0x${(head - 1n).toString(16)}`, false] })) as { stateRoot: Hex }
    const real = (await proven.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { stateRoot: Hex }
    expect(ours.stateRoot).not.toBe(real.stateRoot)
    // The remote's blocks replay unverified (plain getters at the parent block); their intermediate roots need the trie.
    const remoteTx = (await remote.request({ method: 'eth_getBlockByNumber', params: ['0x1', false] })) as { transactions: Hex[]; hash: Hex }
    expect(await fork.request({ method: 'debug_traceTransaction', params: [remoteTx.transactions[0]!, { tracer: 'callTracer' }] })).toEqual(await remote.request({ method: 'debug_traceTransaction', params: [remoteTx.transactions[0]!, { tracer: 'callTracer' }] }))
    await expect(fork.request({ method: 'debug_intermediateRoots', params: [remoteTx.hash] })).rejects.toMatchObject({ code: -32000, message: expect.stringMatching(/need its parent's state trie: this fork's remote does not answer eth_getProof/) })
    // A snapshot and a revert, and a reset, still work.
    const id = await fork.request({ method: 'evm_snapshot', params: [] })
    await fork.request({ method: 'hardhat_setBalance', params: [holder, '0x7'] })
    await fork.request({ method: 'evm_revert', params: [id] })
    expect(await fork.request({ method: 'eth_getBalance', params: [holder, 'latest'] })).toBe(`0x${(parseEther('2') + 2n).toString(16)}`)
    await fork.request({ method: 'hardhat_reset', params: [] })
    expect(await fork.request({ method: 'eth_getBalance', params: [holder, 'latest'] })).toBe(`0x${parseEther('2').toString(16)}`)
  })
})
