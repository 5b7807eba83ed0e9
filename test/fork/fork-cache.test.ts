/**
 * The fork's cache on disk (`fork.cacheDir`): a second run of the same fork starts warm and
 * reads what the first fetched with the remote gone; what it never fetched fails with an error
 * naming the remote, not a hang.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { keccak256, parseEther, toHex, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
const holder = privateKeyToAccount(keccak256(toHex('fork cache holder'))).address
const stranger = privateKeyToAccount(keccak256(toHex('fork cache stranger'))).address

describe('a fork with a cache on disk', () => {
  it('a second run reads what the first fetched with the remote gone; anything else is an error, not a hang', async () => {
    const remote = await newNode()
    const served = await remote.listen({ address: '127.0.0.1:0', wsAddress: false })
    await remote.request({ method: 'eth_sendTransaction', params: [{ from: remote.accounts[0]!.address, to: holder, value: `0x${parseEther('4').toString(16)}` }] })
    const blockNumber = BigInt((await remote.request({ method: 'eth_blockNumber', params: [] })) as Hex)
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'finality-fork-cache-'))
    const options = { url: served.http!, blockNumber, chainId: remote.chainId, cacheDir, retries: 0, timeoutMs: 2000 }

    const first = await newNode({ fork: options })
    expect(await first.request({ method: 'eth_getBalance', params: [holder, 'latest'] })).toBe(`0x${parseEther('4').toString(16)}`)
    const sentFirst = ((await first.request({ method: 'finality_forkStatus', params: [] })) as { requests: { requests: number } }).requests.requests
    await first.close()
    await remote.close()

    const second = await newNode({ fork: options })
    expect(await second.request({ method: 'eth_getBalance', params: [holder, 'latest'] })).toBe(`0x${parseEther('4').toString(16)}`)
    expect(((await second.request({ method: 'finality_forkStatus', params: [] })) as { requests: { requests: number } }).requests.requests).toBe(0)
    expect(sentFirst).toBeGreaterThan(0)
    const error = (await second.request({ method: 'eth_getBalance', params: [stranger, 'latest'] }).catch((e: unknown) => e)) as { code: number; message: string }
    expect(error.message).toContain('127.0.0.1')
    expect(typeof error.code).toBe('number')
    // The fork stays usable for what it has.
    expect(await second.request({ method: 'eth_getBalance', params: [holder, 'latest'] })).toBe(`0x${parseEther('4').toString(16)}`)
  })
})
