/**
 * The quick start: a node, a transfer, a receipt, printed.
 * Run with `npm run quickstart`.
 */
import { createNode } from '../src/index.js'

const node = await createNode()
const [alice, bob] = node.accounts
if (alice === undefined || bob === undefined) throw new Error('expected prefunded accounts')

console.log('chain id   ', await node.request({ method: 'eth_chainId' }))
console.log('alice      ', alice.address)
const hash = await node.request({
  method: 'eth_sendTransaction',
  params: [{ from: alice.address, to: bob.address, value: '0xde0b6b3a7640000' }],
})
console.log('tx hash    ', hash)
const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as Record<string, unknown>
console.log('block      ', receipt.blockNumber, 'status', receipt.status, 'gas used', receipt.gasUsed)
console.log('bob balance', await node.request({ method: 'eth_getBalance', params: [bob.address, 'latest'] }))
const certificate = await node.commitCertificate(1n)
console.log('certificate', certificate?.precommits.length, 'precommit(s), valid:', certificate?.valid)
await node.close()
