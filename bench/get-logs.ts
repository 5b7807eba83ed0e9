/**
 * eth_getLogs over a range: a Token deployment, `count` transfers each in its own block, then
 * the range query by address and Transfer topic, timed `runs` times (each figure printed, then
 * the median). Run with `tsx bench/get-logs.ts [count] [runs]`; add `--cpu-prof` through
 * NODE_OPTIONS to profile it.
 */
import { encodeAbiParameters, encodeFunctionData, keccak256, toHex } from 'viem'
import { createNode, type Hex, type RpcLogFilter } from '../src/index.js'
import { compileFixtures } from '../test/helpers/compile.js'

const count = Number(process.argv[2] ?? 500)
const runs = Number(process.argv[3] ?? 7)
const { Token } = await compileFixtures()
if (Token === undefined) throw new Error('no Token artifact')
const node = await createNode()
const [from] = await node.request({ method: 'eth_accounts' })
const receiptOf = async (hash: Hex) => {
  const receipt = await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })
  if (receipt === null) throw new Error(`no receipt for ${hash}`)
  return receipt
}
const ctor = encodeAbiParameters([{ type: 'string' }, { type: 'string' }, { type: 'uint256' }], ['T', 'T', 10n ** 30n])
const deployed = await receiptOf(await node.request({ method: 'eth_sendTransaction', params: [{ from, data: `${Token.bytecode}${ctor.slice(2)}` }] }))
const address = deployed.contractAddress
if (address === null) throw new Error('the Token deployment made no contract')
const start = Number(BigInt(await node.request({ method: 'eth_blockNumber' })))
for (let i = 0; i < count; i++) {
  const data = encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [`0x${(i + 1).toString(16).padStart(40, '0')}`, 1n] })
  await node.request({ method: 'eth_sendTransaction', params: [{ from, to: address, data }] })
}
const head = Number(BigInt(await node.request({ method: 'eth_blockNumber' })))
const topic = keccak256(toHex('Transfer(address,address,uint256)'))
const filter: RpcLogFilter = { fromBlock: toHex(start + 1), toBlock: 'latest', address, topics: [topic] }
const times: number[] = []
for (let r = 0; r < runs; r++) {
  const t = performance.now()
  const logs = await node.request({ method: 'eth_getLogs', params: [filter] })
  times.push(performance.now() - t)
  if (logs.length !== count) throw new Error(`${logs.length} logs, expected ${count}`)
}
times.forEach((ms, i) => console.log(`run ${i + 1}: ${ms.toFixed(2)} ms`))
const sorted = [...times].sort((a, b) => a - b)
console.log(`${count} logs over ${head - start} blocks: first ${times[0]?.toFixed(2)} ms, median ${sorted[Math.floor(runs / 2)]?.toFixed(2)} ms`)
await node.close()
