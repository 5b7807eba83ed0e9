import { describe, expect, test } from 'vitest'
import { privateKeyToAccount } from 'viem/accounts'
import { createNode } from '../../src/index.js'

type ForkConfig = { activationTime: number; chainId: string; forkId: string; precompiles: Record<string, string>; systemContracts: Record<string, string>; blobSchedule?: { target: number; max: number } }

describe('eth_config and eth_capabilities', () => {
  test('behavior: a one-fork node reports its fork: Prague precompiles and system contracts, fork id over the genesis hash', async () => {
    const node = await createNode()
    const config = (await node.request({ method: 'eth_config' })) as { current: ForkConfig; next: null; last: null }
    expect(config.next).toBeNull()
    expect(config.last).toBeNull()
    expect(config.current).toMatchObject({ activationTime: 0, chainId: '0x7a69', blobSchedule: { target: 6, max: 9 } })
    expect(config.current.precompiles.BLS12_PAIRING_CHECK).toBe('0x000000000000000000000000000000000000000f')
    expect(config.current.precompiles.P256VERIFY).toBeUndefined()
    expect(Object.keys(config.current.systemContracts).sort()).toEqual([
      'BEACON_ROOTS_ADDRESS',
      'CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS',
      'DEPOSIT_CONTRACT_ADDRESS',
      'HISTORY_STORAGE_ADDRESS',
      'WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS',
    ])
    expect(config.current.forkId).toMatch(/^0x[0-9a-f]{8}$/)
    const cancun = await createNode({ hardfork: 'cancun' })
    const c = (await cancun.request({ method: 'eth_config' })) as { current: ForkConfig }
    expect(c.current.precompiles.BLS12_G1ADD).toBeUndefined()
    expect(Object.keys(c.current.systemContracts)).toEqual(['BEACON_ROOTS_ADDRESS'])
    // Another genesis block (other system contracts in its state) gives another fork id.
    expect(c.current.forkId).not.toBe(config.current.forkId)
    await cancun.close()
    const caps = (await node.request({ method: 'eth_capabilities' })) as { head: { number: string }; state: { oldestBlock: string } }
    expect(caps.head.number).toBe('0x0')
    expect(caps.state).toEqual({ disabled: false, oldestBlock: '0x0' })
    await node.close()
  })
})

describe('the hardfork option', () => {
  test('behavior: osaka runs with its own rules (P256VERIFY precompile, EIP-7825 transaction gas cap)', async () => {
    const node = await createNode({ hardfork: 'osaka' })
    const config = (await node.request({ method: 'eth_config' })) as { current: ForkConfig }
    expect(config.current.precompiles.P256VERIFY).toBe('0x0000000000000000000000000000000000000100')
    const [a, b] = node.accounts
    const send = (gas: bigint) =>
      node.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: b!.address, value: '0x1', gas: `0x${gas.toString(16)}` }] })
    await expect(send(2n ** 24n + 1n)).rejects.toMatchObject({ code: -32000, message: 'transaction gas limit too high (cap: 16777216, tx: 16777217)' })
    await expect(send(2n ** 24n)).resolves.toMatch(/^0x[0-9a-f]{64}$/)
    const raw = await privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80').signTransaction({
      chainId: 31337, nonce: 1, to: b!.address, value: 1n, gas: 2n ** 24n + 1n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n,
    })
    await expect(node.request({ method: 'eth_sendRawTransaction', params: [raw] })).rejects.toMatchObject({
      code: -32000,
      message: 'transaction gas limit too high (cap: 16777216, tx: 16777217)',
    })
    expect(await node.request({ method: 'eth_blockNumber' })).toBe('0x1')
    await node.close()
    // Prague has no per-transaction cap: the same gas is accepted.
    const prague = await createNode()
    await expect(
      prague.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: b!.address, value: '0x1', gas: `0x${(2n ** 24n + 1n).toString(16)}` }] }),
    ).resolves.toMatch(/^0x[0-9a-f]{64}$/)
    await prague.close()
  })

  test('error: an unknown hardfork name is refused with the supported list', async () => {
    await expect(createNode({ hardfork: 'frontier' as never })).rejects.toThrow(
      'hardfork frontier is not supported; supported: london, paris, shanghai, cancun, prague, osaka',
    )
  })
})
