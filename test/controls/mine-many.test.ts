/**
 * hardhat_mine of many blocks makes every block real: headers chain by parent hash and hash to
 * what the node answers, state roots re-execute under @ethereumjs/vm (EIP-4788 and EIP-2935
 * writes included), BLOCKHASH and the EIP-2935 history contract answer the blocks' hashes past
 * the ring's wrap, and each block's commit certificate verifies and is byte for byte the one a
 * node that signs at commit (a database-backed one) makes.
 */
import { createBlockFromRPC, type JSONRPCBlock } from '@ethereumjs/block'
import { Mainnet, createCustomCommon } from '@ethereumjs/common'
import { MerkleStateManager } from '@ethereumjs/statemanager'
import { Account, createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { createVM, runBlock } from '@ethereumjs/vm'
import { keccak_256 as keccak256 } from '@noble/hashes/sha3.js'
import { MemoryLevel } from 'memory-level'
import { encodeFunctionData, type Hex } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../src/index.js'
import { SYSTEM_CONTRACTS } from '../../src/chain/system-contracts.js'
import type { Clock } from '../../src/clock.js'
import { trackNodes } from '../helpers/nodes.js'
import { artifact, deploy, qty, sender } from '../helpers/execution.js'

const newNode = trackNodes()
const HISTORY = '0x0000f90827f1c53a10cb7a02335b175320002935'
const RING = 8191n
/** Past the EIP-2935 and EIP-4788 rings (8,191 slots), so their slots are overwritten. */
const MANY = 8200n
/** A fixed clock: two nodes made with it build the same blocks. */
const clock: Clock = { now: () => 1_700_000_000_000, setTimer: () => () => {} }

async function rpc<T>(node: FinalityNode, method: string, params: unknown[] = []): Promise<T> {
  return (await node.request({ method, params })) as T
}

const blockAt = (node: FinalityNode, n: bigint) => rpc<JSONRPCBlock & { hash: Hex; parentHash: Hex }>(node, 'eth_getBlockByNumber', [qty(n), false])

describe('hardhat_mine: many blocks, every one real', () => {
  let node: FinalityNode
  let probe: Hex
  let head: bigint

  beforeAll(async () => {
    node = await newNode({ clock, genesisTimestamp: 1_700_000_000n })
    probe = await deploy(node, 'Probe')
    expect(await rpc(node, 'hardhat_mine', [qty(MANY), '0x3'])).toBe(true)
    head = BigInt(await rpc<Hex>(node, 'eth_blockNumber'))
  }, 120_000)

  it('every header chains to its parent and hashes to its number\'s hash; timestamps follow the interval', async () => {
    expect(head).toBe(MANY + 1n)
    let parent = await blockAt(node, 0n)
    for (let n = 1n; n <= head; n++) {
      const block = await blockAt(node, n)
      expect(block.parentHash).toBe(parent.hash)
      if (n > 2n) expect(BigInt(block.timestamp as Hex) - BigInt(parent.timestamp as Hex)).toBe(3n)
      if (n % 1000n === 0n || n >= head - 2n) {
        const common = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'prague' })
        const decoded = createBlockFromRPC(block, [], { common, setHardfork: false })
        expect(`0x${Buffer.from(keccak256(decoded.header.serialize())).toString('hex')}`).toBe(block.hash)
      }
      parent = block
    }
  }, 120_000)

  it('BLOCKHASH answers the last 256 blocks, zero before', async () => {
    const hashOf = async (n: bigint) =>
      rpc<Hex>(node, 'eth_call', [{ to: probe, data: encodeFunctionData({ abi: artifact('Probe').abi, functionName: 'hashOf', args: [n] }) }, 'latest'])
    for (const n of [head - 1n, head - 2n, head - 100n, head - 256n]) expect(await hashOf(n)).toBe((await blockAt(node, n)).hash)
    expect(BigInt(await hashOf(head - 257n))).toBe(0n)
  })

  it('the EIP-2935 history contract answers the last 8,191 blocks, across the ring\'s wrap', async () => {
    const history = (n: bigint) => rpc<Hex>(node, 'eth_call', [{ from: sender(node), to: HISTORY, data: `0x${n.toString(16).padStart(64, '0')}` }, 'latest'])
    for (const n of [head - 1n, head - 2n, head - 9n, head - 10n, head - 4000n, head - RING]) expect(await history(n)).toBe((await blockAt(node, n)).hash)
    // Past the window the contract reverts, as EIP-2935 says.
    await expect(history(head - RING - 1n)).rejects.toThrow()
  })

  it('the history ring at an older block holds that block\'s window (state roots are per block)', async () => {
    // Block 5 wrote block 4's hash into slot 4; block 8,196 wrote block 8,195's into the same slot.
    const slot = qty(4n)
    expect(await rpc<Hex>(node, 'eth_getStorageAt', [HISTORY, slot, qty(5n)])).toBe((await blockAt(node, 4n)).hash)
    expect(await rpc<Hex>(node, 'eth_getStorageAt', [HISTORY, slot, qty(8195n)])).toBe((await blockAt(node, 4n)).hash)
    expect(await rpc<Hex>(node, 'eth_getStorageAt', [HISTORY, slot, 'latest'])).toBe((await blockAt(node, 4n + RING)).hash)
  })

  it('certificates verify, and are the bytes a node signing at commit makes', async () => {
    const eager = await newNode({ clock, genesisTimestamp: 1_700_000_000n, db: new MemoryLevel<string, Uint8Array>({ keyEncoding: 'utf8', valueEncoding: 'view' }) })
    await deploy(eager, 'Probe')
    await rpc(eager, 'hardhat_mine', [qty(300n), '0x3'])
    for (const n of [1n, 2n, 3n, 150n, 301n]) {
      const lazy = await node.commitCertificate(n)
      expect(lazy?.valid).toBe(true)
      const signedAtCommit = await rpc<unknown>(eager, 'finality_getCommitCertificate', [qty(n)])
      expect(await rpc<unknown>(node, 'finality_getCommitCertificate', [qty(n)])).toEqual(signedAtCommit)
    }
    for (const n of [MANY / 2n, head]) expect((await node.commitCertificate(n))?.valid).toBe(true)
  })
})

/** Replays blocks 1..head of `node` under @ethereumjs/vm's runBlock over its own state (throws on any root, bloom, gas or requests hash that differs). */
async function replay(node: FinalityNode, hardfork = 'prague'): Promise<bigint> {
  const common = createCustomCommon({ chainId: 31337, name: 'replay' }, Mainnet, { hardfork })
  const stateManager = new MerkleStateManager({ common })
  // The node's genesis holds the system contracts from Cancun on.
  for (const c of common.isActivatedEIP(4788) ? SYSTEM_CONTRACTS : []) {
    const address = createAddressFromString(c.address)
    await stateManager.putAccount(address, new Account(1n, 0n))
    await stateManager.putCode(address, hexToBytes(c.code))
  }
  for (const a of node.accounts) await stateManager.putAccount(createAddressFromString(a.address), new Account(0n, 10_000n * 10n ** 18n))
  const hashes = new Map<bigint, Uint8Array>()
  const vm = await createVM({
    common,
    stateManager,
    blockchain: {
      getBlock: async (n: number) => ({ hash: () => hashes.get(BigInt(n)) as Uint8Array }),
      putBlock: async () => {},
      shallowCopy() {
        return this
      },
    },
  })
  const height = BigInt(await rpc<Hex>(node, 'eth_blockNumber'))
  hashes.set(0n, hexToBytes((await blockAt(node, 0n)).hash))
  for (let n = 1n; n <= height; n++) {
    const json = await rpc<JSONRPCBlock & { hash: Hex }>(node, 'eth_getBlockByNumber', [qty(n), true])
    const block = createBlockFromRPC(json, [], { common, setHardfork: false })
    expect(`0x${Buffer.from(block.hash()).toString('hex')}`).toBe(json.hash)
    // runBlock without `generate` throws unless state root, receipts root, bloom, gas used and requests hash match.
    await runBlock(vm, { block, skipBlockValidation: true, skipHardForkValidation: true })
    hashes.set(n, block.hash())
  }
  return height
}

describe('hardhat_mine: state roots re-execute', () => {
  it('blocks mined in bulk replay under @ethereumjs/vm runBlock to the same roots', async () => {
    const node = await newNode({ clock, genesisTimestamp: 1_700_000_000n })
    // A transaction, many empty blocks, a transaction, and more empty blocks at other intervals.
    await rpc(node, 'eth_sendTransaction', [{ from: sender(node), to: sender(node, 1), value: '0x1' }])
    await rpc(node, 'hardhat_mine', [qty(150n)])
    await rpc(node, 'eth_sendTransaction', [{ from: sender(node, 1), to: sender(node, 2), value: '0x2' }])
    await rpc(node, 'hardhat_mine', [qty(100n), '0x64'])
    await rpc(node, 'evm_mine', [])
    expect(await replay(node)).toBe(253n)
  }, 120_000)

  it.each(['shanghai', 'cancun', 'osaka'] as const)('%s: bulk-mined blocks replay to the same roots', async (hardfork) => {
    const node = await newNode({ clock, genesisTimestamp: 1_700_000_000n, hardfork })
    await rpc(node, 'eth_sendTransaction', [{ from: sender(node), to: sender(node, 1), value: '0x1' }])
    await rpc(node, 'hardhat_mine', [qty(40n), '0x7'])
    expect(await replay(node, hardfork)).toBe(41n)
  }, 120_000)

  it('empty blocks after a burst of EIP-7002 withdrawal requests run the request contract (queue and excess not idle)', async () => {
    const node = await newNode({ clock, genesisTimestamp: 1_700_000_000n, mining: { mode: 'manual' } })
    const WITHDRAWALS = '0x00000961ef480eb55e80d19ad83579a64c007002'
    // 18 requests in one block: 16 are taken out in it, two wait, and the excess stays above zero for blocks.
    for (let i = 0; i < 18; i++) {
      const data = `0x${(i + 1).toString(16).padStart(96, '0')}${'0'.repeat(15)}1` as Hex
      await rpc(node, 'eth_sendTransaction', [{ from: sender(node), to: WITHDRAWALS, value: qty(10n ** 15n), data, gas: qty(300_000n), nonce: qty(i) }])
    }
    await rpc(node, 'evm_mine', [])
    expect(((await rpc<{ transactions: unknown[] }>(node, 'eth_getBlockByNumber', ['0x1', false])).transactions)).toHaveLength(18)
    await rpc(node, 'hardhat_mine', [qty(12n)])
    const emptyRequests = '0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
    const withRequests = async (n: bigint) => (await rpc<{ requestsHash: Hex }>(node, 'eth_getBlockByNumber', [qty(n), false])).requestsHash !== emptyRequests
    expect(await withRequests(1n)).toBe(true)
    expect(await withRequests(2n)).toBe(true)
    expect(await withRequests(3n)).toBe(false)
    expect(await replay(node)).toBe(13n)
  }, 120_000)
})
