/**
 * Hardhat mode's answers given as Hardhat Network 2.29.1 gives them, each found by the
 * differential run against Hardhat's own provider (test/differential): hardhat_mine's base fees
 * over a long range, evm_mine's result, evm_setIntervalMining(0) with automine on,
 * hardhat_stopImpersonatingAccount's, hardhat_setNonce's
 * refusal to lower a nonce, hardhat_setMinGasPrice's code and evm_setNextBlockTimestamp's
 * refusals. Without Hardhat mode the answers stay as they were.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'

const A0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const STRANGER = '0x1234567890123456789012345678901234567890'
/** Hardhat 2.29's default block gas limit, which the base fees below were measured with. */
const HARDHAT_GAS_LIMIT = 60_000_000n

let node: FinalityNode | undefined
afterEach(async () => {
  await node?.close()
  node = undefined
})

async function baseFees(n: FinalityNode, from: number, to: number): Promise<bigint[]> {
  const out: bigint[] = []
  for (let i = from; i <= to; i++) {
    const block = (await n.request({ method: 'eth_getBlockByNumber', params: [`0x${i.toString(16)}`, false] })) as { baseFeePerGas: string }
    out.push(BigInt(block.baseFeePerGas))
  }
  return out
}

describe('hardhat_mine base fees', () => {
  test('hardhat mode: from 8 blocks on, the third to the one before the last repeat the second\'s base fee; the last follows from it', async () => {
    node = await createNode({ hardhatCompat: true, blockGasLimit: HARDHAT_GAS_LIMIT })
    await node.request({ method: 'eth_sendTransaction', params: [{ from: A0, to: STRANGER, value: '0x1' }] })
    await node.request({ method: 'hardhat_mine', params: ['0x8'] })
    const fees = await baseFees(node, 1, 9)
    // Hardhat 2.29.1's blocks 1–9 here: 875000000 765701563 669988868 ×6 586240260.
    expect(fees).toEqual([875000000n, 765701563n, ...Array(6).fill(669988868n), 586240260n])
  })

  test('hardhat mode: 7 blocks are all built, each base fee from its parent', async () => {
    node = await createNode({ hardhatCompat: true, blockGasLimit: HARDHAT_GAS_LIMIT })
    await node.request({ method: 'eth_sendTransaction', params: [{ from: A0, to: STRANGER, value: '0x1' }] })
    await node.request({ method: 'hardhat_mine', params: ['0x7'] })
    expect(await baseFees(node, 1, 8)).toEqual([875000000n, 765701563n, 669988868n, 586240260n, 512960228n, 448840200n, 392735175n, 343643279n])
  })

  test('without Hardhat mode, and for anvil_mine, every block\'s base fee follows from its parent', async () => {
    for (const [hardhatCompat, method] of [[false, 'hardhat_mine'], [true, 'anvil_mine']] as const) {
      const n = await createNode({ hardhatCompat })
      await n.request({ method: 'eth_sendTransaction', params: [{ from: A0, to: STRANGER, value: '0x1' }] })
      await n.request({ method, params: ['0x8'] })
      const fees = await baseFees(n, 2, 9)
      for (let i = 1; i < fees.length; i++) expect(fees[i]).toBe(fees[i - 1]! - fees[i - 1]! / 8n)
      await n.close()
    }
  })
})

describe("Hardhat's answers", () => {
  test('evm_mine answers "0" in Hardhat mode, Ganache\'s "0x0" otherwise', async () => {
    node = await createNode({ hardhatCompat: true })
    expect(await node.request({ method: 'evm_mine' })).toBe('0')
    const plain = await createNode()
    expect(await plain.request({ method: 'evm_mine' })).toBe('0x0')
    await plain.close()
  })

  test('evm_setIntervalMining(0) leaves automine on in Hardhat mode (Hardhat keeps the two apart); otherwise it stops block production', async () => {
    node = await createNode({ hardhatCompat: true })
    expect(await node.request({ method: 'evm_setIntervalMining', params: [0] })).toBe(true)
    expect(await node.request({ method: 'hardhat_getAutomine' })).toBe(true)
    const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from: A0, to: STRANGER, value: '0x1' }] })
    expect(await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })).not.toBeNull()
    const plain = await createNode()
    await plain.request({ method: 'evm_setIntervalMining', params: [0] })
    expect(await plain.request({ method: 'hardhat_getAutomine' })).toBe(false)
    await plain.close()
  })

  test('eth_getLogs in Hardhat mode: a range past the head ends at the head, a reversed or later one has no logs; geth\'s refusals otherwise', async () => {
    node = await createNode({ hardhatCompat: true })
    // A contract whose call logs LOG0 with no data.
    const init = '0x6006600c60003960066000f360006000a000'
    const deploy = await node.request({ method: 'eth_sendTransaction', params: [{ from: A0, data: init }] })
    const { contractAddress } = (await node.request({ method: 'eth_getTransactionReceipt', params: [deploy] }))!
    await node.request({ method: 'eth_sendTransaction', params: [{ from: A0, to: contractAddress }] })
    const logs = (filter: object) => node!.request({ method: 'eth_getLogs', params: [filter] }) as Promise<unknown[]>
    expect(await logs({ fromBlock: '0x0', toBlock: '0x99' })).toHaveLength(1)
    expect(await logs({ fromBlock: '0x5', toBlock: '0x99' })).toEqual([])
    expect(await logs({ fromBlock: '0x2', toBlock: '0x1' })).toEqual([])
    const plain = await createNode()
    await expect(plain.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: '0x99' }] })).rejects.toMatchObject({ code: -32602, message: 'block range extends beyond current head block' })
    await expect(plain.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: '0x0' }] })).resolves.toEqual([])
    await plain.close()
  })

  test('error: in Hardhat mode under automine a nonce gap is refused (Hardhat cannot queue while automining); queued otherwise', async () => {
    node = await createNode({ hardhatCompat: true })
    await expect(node.request({ method: 'eth_sendTransaction', params: [{ from: A0, to: STRANGER, value: '0x1', nonce: '0x5' }] })).rejects.toMatchObject({
      code: -32000,
      message: "Nonce too high. Expected nonce to be 0 but got 5. Note that transactions can't be queued when automining.",
    })
    await node.request({ method: 'evm_setAutomine', params: [false] })
    await expect(node.request({ method: 'eth_sendTransaction', params: [{ from: A0, to: STRANGER, value: '0x1', nonce: '0x5' }] })).resolves.toMatch(/^0x/)
    const plain = await createNode()
    await expect(plain.request({ method: 'eth_sendTransaction', params: [{ from: A0, to: STRANGER, value: '0x1', nonce: '0x5' }] })).resolves.toMatch(/^0x/)
    await plain.close()
  })

  test('hardhat_stopImpersonatingAccount answers whether the account was impersonated in Hardhat mode; true otherwise; anvil_ answers null', async () => {
    node = await createNode({ hardhatCompat: true })
    expect(await node.request({ method: 'hardhat_stopImpersonatingAccount', params: [STRANGER] })).toBe(false)
    await node.request({ method: 'hardhat_impersonateAccount', params: [STRANGER] })
    expect(await node.request({ method: 'hardhat_stopImpersonatingAccount', params: [STRANGER] })).toBe(true)
    expect(await node.request({ method: 'anvil_stopImpersonatingAccount', params: [STRANGER] })).toBe(null)
    const plain = await createNode()
    expect(await plain.request({ method: 'hardhat_stopImpersonatingAccount', params: [STRANGER] })).toBe(true)
    await plain.close()
  })

  test('error: in Hardhat mode hardhat_setNonce never lowers a nonce (-32000); anvil_setNonce does, and so does hardhat_setNonce otherwise', async () => {
    node = await createNode({ hardhatCompat: true })
    await node.request({ method: 'hardhat_setNonce', params: [STRANGER, '0x5'] })
    await expect(node.request({ method: 'hardhat_setNonce', params: [STRANGER, '0x1'] })).rejects.toMatchObject({
      code: -32000,
      message: 'New nonce (1) must not be smaller than the existing nonce (5)',
    })
    expect(await node.request({ method: 'eth_getTransactionCount', params: [STRANGER, 'latest'] })).toBe('0x5')
    await node.request({ method: 'anvil_setNonce', params: [STRANGER, '0x1'] })
    expect(await node.request({ method: 'eth_getTransactionCount', params: [STRANGER, 'latest'] })).toBe('0x1')
    const plain = await createNode()
    await plain.request({ method: 'hardhat_setNonce', params: [STRANGER, '0x5'] })
    await plain.request({ method: 'hardhat_setNonce', params: [STRANGER, '0x1'] })
    expect(await plain.request({ method: 'eth_getTransactionCount', params: [STRANGER, 'latest'] })).toBe('0x1')
    await plain.close()
  })

  test('error: in Hardhat mode hardhat_setMinGasPrice is refused with -32000, as Hardhat refuses it; -32602 otherwise', async () => {
    node = await createNode({ hardhatCompat: true })
    const message = 'hardhat_setMinGasPrice is not supported when EIP-1559 is active'
    await expect(node.request({ method: 'hardhat_setMinGasPrice', params: ['0x1'] })).rejects.toMatchObject({ code: -32000, message })
    const plain = await createNode()
    await expect(plain.request({ method: 'hardhat_setMinGasPrice', params: ['0x1'] })).rejects.toMatchObject({ code: -32602, message })
    await plain.close()
  })

  test("error: in Hardhat mode a next timestamp not after the head is refused with Hardhat 2.29's code and words", async () => {
    node = await createNode({ hardhatCompat: true })
    const head = BigInt(((await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { timestamp: string }).timestamp)
    await expect(node.request({ method: 'evm_setNextBlockTimestamp', params: [Number(head)] })).rejects.toMatchObject({
      code: -32000,
      message: `Timestamp ${head} is equal to the previous block's timestamp`,
    })
    await expect(node.request({ method: 'evm_setNextBlockTimestamp', params: [Number(head) - 1] })).rejects.toMatchObject({
      code: -32000,
      message: `Timestamp ${head - 1n} is lower than the previous block's timestamp ${head}`,
    })
  })
})
