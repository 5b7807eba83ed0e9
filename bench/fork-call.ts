/**
 * The cost of a fork's first and warm eth_call: an ERC20 balanceOf on a fork of a finality node
 * served over HTTP on 127.0.0.1, with the requests it sent to the remote (finality_forkStatus).
 * Run: npx tsx bench/fork-call.ts
 */
import { encodeAbiParameters, encodeFunctionData, type Address, type Hex } from 'viem'
import { createNode } from '../src/index.js'
import { loadArtifacts } from '../test/helpers/compile.js'

const Token = loadArtifacts().Token!
const remote = await createNode()
const served = await remote.listen({ address: '127.0.0.1:0', wsAddress: false })
const dev = remote.accounts[0]!.address
const args = encodeAbiParameters([{ type: 'string' }, { type: 'string' }, { type: 'uint256' }], ['Bench', 'BEN', 10n ** 24n])
const hash = await remote.request({ method: 'eth_sendTransaction', params: [{ from: dev, data: `${Token.bytecode}${args.slice(2)}`, gas: '0x300000' }] })
const token = ((await remote.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Address }).contractAddress
const call = { to: token, data: encodeFunctionData({ abi: Token.abi, functionName: 'balanceOf', args: [dev] }) }

const started = performance.now()
const fork = await createNode({ fork: { url: served.http! } })
const startMs = performance.now() - started
const sent = async () => ((await fork.request({ method: 'finality_forkStatus', params: [] })) as { requests: { requests: number; httpRequests: number } }).requests
const before = await sent()
let t = performance.now()
const out = (await fork.request({ method: 'eth_call', params: [call, 'latest'] })) as Hex
const firstMs = performance.now() - t
const afterFirst = await sent()
const warm: number[] = []
for (let i = 0; i < 200; i++) {
  t = performance.now()
  await fork.request({ method: 'eth_call', params: [call, 'latest'] })
  warm.push(performance.now() - t)
}
const afterWarm = await sent()
warm.sort((a, b) => a - b)
console.log(JSON.stringify({
  balance: BigInt(out).toString(),
  forkStartMs: +startMs.toFixed(1),
  startRequests: before,
  firstCallMs: +firstMs.toFixed(2),
  firstCallRequests: afterFirst.requests - before.requests,
  firstCallHttpRequests: afterFirst.httpRequests - before.httpRequests,
  warmCallMedianMs: +(warm[100] ?? 0).toFixed(3),
  warmCallP95Ms: +(warm[190] ?? 0).toFixed(3),
  warmRequestsPer200Calls: afterWarm.requests - afterFirst.requests,
}, null, 1))
await fork.close()
await remote.close()
