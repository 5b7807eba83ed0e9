import { createPublicClient, createTestClient, createWalletClient, http, parseEther } from 'viem'
import { describe, expect, it } from 'vitest'
import { cli, inProcess } from './setup.js'

/** The same checks in each test file: vitest runs the files in different workers. */
export function checkWorkerChains(id: string): void {
  describe.each([
    ['in-process', inProcess, 1337],
    ['cli', cli, 7777],
  ] as const)('%s node of this worker', (_, server, chainId) => {
    const transport = http(server.url, { retryCount: 0 })
    const client = createPublicClient({ transport, cacheTime: 0 })

    it('serves its own chain at a URL of its own', async () => {
      expect(server.url).toMatch(new RegExp(`/${process.env.VITEST_POOL_ID}$`))
      expect(await client.getChainId()).toBe(chainId)
    })

    it('starts from a chain no other worker has written to', async () => {
      const [from] = await createWalletClient({ transport }).getAddresses()
      // Each file of this project sends one transfer per node; a shared node would see 1 here.
      expect(await client.getTransactionCount({ address: from! })).toBe(0)
      const wallet = createWalletClient({ transport, account: from! })
      const hash = await wallet.sendTransaction({ chain: null, to: '0x000000000000000000000000000000000000' + id.length.toString(16).padStart(4, '0'), value: parseEther('1') })
      expect((await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('success')
      expect(await client.getTransactionCount({ address: from! })).toBe(1)
    })

    it('answers test controls', async () => {
      const test = createTestClient({ transport, mode: 'hardhat' })
      const before = await client.getBlockNumber()
      await test.mine({ blocks: 3 })
      expect(await client.getBlockNumber()).toBe(before + 3n)
    })

    it('is reset to a fresh chain on request', async () => {
      await server.reset()
      expect(await client.getBlockNumber()).toBe(0n)
    })
  })
}
