/**
 * A small suite on a fork, cold and then with the cache on disk warm: fork an ERC20 holder set
 * (a finality node over HTTP on 127.0.0.1), read 50 balances and send 5 transfers. Prints the
 * time and the requests sent to the remote for each run.
 * Run: npx tsx bench/fork-cache.ts
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { encodeAbiParameters, encodeFunctionData, keccak256, toHex, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createNode } from '../src/index.js'
import { loadArtifacts } from '../test/helpers/compile.js'

const Token = loadArtifacts().Token!
const remote = await createNode()
const served = await remote.listen({ address: '127.0.0.1:0', wsAddress: false })
const dev = remote.accounts[0]!.address
const args = encodeAbiParameters([{ type: 'string' }, { type: 'string' }, { type: 'uint256' }], ['Cache', 'CCH', 10n ** 24n])
const hash = await remote.request({ method: 'eth_sendTransaction', params: [{ from: dev, data: `${Token.bytecode}${args.slice(2)}`, gas: '0x300000' }] })
const token = ((await remote.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Address }).contractAddress
const holders = Array.from({ length: 50 }, (_, i) => privateKeyToAccount(keccak256(toHex(`holder ${i}`))).address)
for (const h of holders.slice(0, 10)) await remote.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: token, data: encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [h, 5n] }) }] })
const blockNumber = BigInt((await remote.request({ method: 'eth_blockNumber', params: [] })) as Hex)
const cacheDir = mkdtempSync(path.join(tmpdir(), 'finality-fork-bench-'))

async function suite(): Promise<{ ms: number; requests: number }> {
  const started = performance.now()
  const fork = await createNode({ fork: { url: served.http!, blockNumber, cacheDir } })
  for (const h of holders) await fork.request({ method: 'eth_call', params: [{ to: token, data: encodeFunctionData({ abi: Token.abi, functionName: 'balanceOf', args: [h] }) }, 'latest'] })
  for (const h of holders.slice(0, 5)) await fork.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: token, data: encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [h, 1n] }) }] })
  const ms = performance.now() - started
  const status = (await fork.request({ method: 'finality_forkStatus', params: [] })) as { requests: { requests: number } }
  await fork.close()
  return { ms: +ms.toFixed(1), requests: status.requests.requests }
}

const cold = await suite()
const warm = await suite()
console.log(JSON.stringify({ cold, warm }))
rmSync(cacheDir, { recursive: true, force: true })
await remote.close()
