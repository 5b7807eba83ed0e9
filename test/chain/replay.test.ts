/**
 * The node's blocks are valid Ethereum blocks: an independent executor (@ethereumjs/vm's
 * runBlock over its own MerkleStateManager) replays them from genesis and finds the same state
 * root, receipts root, logs bloom and gas used in every header.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createBlockFromRPC, type JSONRPCBlock } from '@ethereumjs/block'
import { Mainnet, createCustomCommon } from '@ethereumjs/common'
import { MerkleStateManager } from '@ethereumjs/statemanager'
import { Account, createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { keccak_256 as keccak256 } from '@noble/hashes/sha3.js'
import { createVM, runBlock } from '@ethereumjs/vm'
import { encodeDeployData, encodeFunctionData, type Hex } from 'viem'
import { createNode, type FinalityNode } from '../../src/index.js'
import { SYSTEM_CONTRACTS } from '../../src/chain/system-contracts.js'
import { loadArtifacts } from '../helpers/compile.js'

const artifacts = loadArtifacts()
let node: FinalityNode

async function rpc<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
  return (await node.request({ method, params })) as T
}

beforeAll(async () => {
  node = await createNode({ mining: { mode: 'manual' } })
  const [a, b, c] = node.accounts.map((x) => x.address)
  const send = (from: string, tx: Record<string, unknown>) => rpc<Hex>('eth_sendTransaction', [{ from, gas: '0x4c4b40', ...tx }])
  // Block 1: deployments from two senders.
  const tokenHash = await send(a!, {
    data: encodeDeployData({ abi: artifacts.Token!.abi, bytecode: artifacts.Token!.bytecode, args: ['T', 'T', 10n ** 24n] }),
  })
  const emitterHash = await send(b!, { data: artifacts.Emitter!.bytecode })
  await node.mine()
  const token = (await rpc<{ contractAddress: Hex }>('eth_getTransactionReceipt', [tokenHash])).contractAddress
  const emitter = (await rpc<{ contractAddress: Hex }>('eth_getTransactionReceipt', [emitterHash])).contractAddress
  // Block 2: token transfers, events, a plain transfer, a reverting call.
  await send(a!, { to: token, data: encodeFunctionData({ abi: artifacts.Token!.abi, functionName: 'transfer', args: [c, 5n] }) })
  await send(a!, { to: token, data: encodeFunctionData({ abi: artifacts.Token!.abi, functionName: 'transfer', args: [b, 7n] }) })
  await send(b!, { to: emitter, data: encodeFunctionData({ abi: artifacts.Emitter!.abi, functionName: 'emitMany', args: [4n] }) })
  await send(c!, { to: a, value: '0x1234' })
  await send(c!, { to: token, data: encodeFunctionData({ abi: artifacts.Token!.abi, functionName: 'transfer', args: [a, 10n ** 30n] }) })
  await node.mine()
  // Blocks 3-5: one transaction each, then an empty block.
  for (let i = 0; i < 2; i++) {
    await send(b!, { to: c, value: '0x1' })
    await node.mine()
  }
  await node.mine()
  // Block 6: plain ether transfers of every shape (most take the builder's EVM-free path, the
  // odd ones runTx): legacy, EIP-2930 and EIP-1559 (gas above 21,000), to a new account, to
  // itself, to the fee recipient, with no tip, with no value, to a precompile.
  const miner = (await rpc<{ miner: Hex }>('eth_getBlockByNumber', ['0x1', false])).miner
  await send(a!, { to: '0x00000000000000000000000000000000000abcde', value: '0x10', gasPrice: '0x77359400' })
  await send(a!, { to: c, value: '0x11', gasPrice: '0x77359400', type: '0x1', accessList: [] })
  await send(a!, { to: a, value: '0x12', gas: '0x7530' })
  await send(b!, { to: miner, value: '0x13', gas: '0x5208' })
  await send(b!, { to: c, value: '0x14', gas: '0x5208', maxPriorityFeePerGas: '0x0' })
  await send(c!, { to: a, value: '0x0', gas: '0x5208' })
  await send(c!, { to: '0x0000000000000000000000000000000000000004', value: '0x15', gas: '0x7530' })
  await node.mine()
})

afterAll(() => node.close())

describe('replay', () => {
  test('behavior: every block re-executes to the same roots under @ethereumjs/vm runBlock', async () => {
    const common = createCustomCommon({ chainId: 31337, name: 'replay' }, Mainnet, { hardfork: 'prague' })
    const stateManager = new MerkleStateManager({ common })
    for (const c of SYSTEM_CONTRACTS) {
      const address = createAddressFromString(c.address)
      await stateManager.putAccount(address, new Account(1n, 0n))
      await stateManager.putCode(address, hexToBytes(c.code))
    }
    for (const a of node.accounts) {
      await stateManager.putAccount(createAddressFromString(a.address), new Account(0n, 10_000n * 10n ** 18n))
    }
    const genesis = await rpc<JSONRPCBlock>('eth_getBlockByNumber', ['0x0', false])
    expect(Buffer.from(await stateManager.getStateRoot()).toString('hex')).toBe(genesis.stateRoot.slice(2))

    const hashes = new Map<bigint, Uint8Array>()
    hashes.set(0n, hexToBytes(genesis.hash as Hex))
    const vm = await createVM({
      common,
      stateManager,
      blockchain: {
        getBlock: async (n: number) => ({ hash: () => hashes.get(BigInt(n)) as Uint8Array }),
        putBlock: async () => {},
        shallowCopy() { return this },
      },
    })
    const height = BigInt(await rpc<Hex>('eth_blockNumber'))
    expect(height).toBe(6n)
    let transactions = 0
    for (let n = 1n; n <= height; n++) {
      const json = await rpc<JSONRPCBlock>('eth_getBlockByNumber', [`0x${n.toString(16)}`, true])
      const block = createBlockFromRPC(json, [], { common, setHardfork: false })
      expect(Buffer.from(block.hash()).toString('hex')).toBe(json.hash.slice(2))
      expect(Buffer.from(keccak256(block.header.serialize())).toString('hex')).toBe(json.hash.slice(2))
      // runBlock without `generate` throws unless state root, receipts root, bloom and gas used match.
      const result = await runBlock(vm, { block, skipBlockValidation: true, skipHardForkValidation: true })
      expect(result.gasUsed).toBe(block.header.gasUsed)
      hashes.set(n, block.hash())
      transactions += block.transactions.length
    }
    expect(transactions).toBe(16)
  })
})
