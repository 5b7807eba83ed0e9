/**
 * A Hardhat-style test flow with viem over the in-process provider: a fixture deployed once and
 * restored for each "test", time travel, and a custom error decoded from a revert.
 * Run with `npx tsx examples/viem-fixture.ts`.
 */
import { createPublicClient, createTestClient, createWalletClient, getContract, type Abi } from 'viem'
import { clientConfig } from '../src/adapters/viem.js' // 'finality-evm/viem' in your project
import { createNode, loadFixture, type FinalityNode } from '../src/index.js' // 'finality-evm' in your project
import { compileCounter } from './counter.js'

const { abi, bytecode } = compileCounter()
const node = await createNode()
const client = createPublicClient(clientConfig(node))
const [owner] = node.accounts
if (owner === undefined) throw new Error('no prefunded account')
const wallet = createWalletClient({ ...clientConfig(node), account: owner.address as `0x${string}` })
const testClient = createTestClient({ ...clientConfig(node), mode: 'hardhat' })

/** The fixture: deploy the counter once; every later call restores the chain to this point. */
async function deployCounter(_node: FinalityNode) {
  const hash = await wallet.deployContract({ abi: abi as Abi, bytecode })
  const { contractAddress } = await client.getTransactionReceipt({ hash })
  if (contractAddress == null) throw new Error('no contract address')
  return getContract({ address: contractAddress, abi: abi as Abi, client: { public: client, wallet } })
}

// "test 1": increment twice.
let counter = await loadFixture(node, deployCounter)
await counter.write.increment!([])
await counter.write.increment!([])
console.log('test 1: count =', await counter.read.count!([]))

// "test 2": starts from the fixture again, not from test 1's state.
counter = await loadFixture(node, deployCounter)
console.log('test 2: count after restore =', await counter.read.count!([]))

// "test 3": time travel, and a custom error from a revert.
const { timestamp } = await client.getBlock()
const deadline = timestamp + 60n
await testClient.increaseTime({ seconds: 3600 })
await testClient.mine({ blocks: 1 })
try {
  await counter.simulate.incrementBefore!([deadline])
  console.log('test 3: expected a revert')
} catch (error) {
  console.log('test 3: reverted with', (error as { cause?: { data?: { errorName?: string } } }).cause?.data?.errorName)
}
await node.close()
