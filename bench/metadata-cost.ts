/**
 * The happy path's cost of contract metadata (docs/errors.md, "What metadata costs"): a node in
 * Hardhat mode without metadata against one given the Vault build-info and every compilation of
 * EDR's stack-trace fixtures (cached by test/metadata/edr-stack-traces-*.test.ts under
 * .cache/edr-stack-traces/: run those first). Each run deploys the Vault, then sends `deposit`
 * and calls `add` ROUNDS times; the two nodes' runs alternate (the order swapped each round), and the median of each is printed.
 *
 *   npx tsx bench/metadata-cost.ts [runs=7] [rounds=300]
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { encodeDeployData, encodeFunctionData, type Abi, type Hex } from 'viem'
import { createNode } from '../src/index.js'
import { VAULT_SOURCE, vaultBuildInfo } from '../test/metadata/vault-build.js'

const RUNS = Number(process.argv[2] ?? 7)
const ROUNDS = Number(process.argv[3] ?? 300)
const build = vaultBuildInfo()
const vault = build.output.contracts[VAULT_SOURCE]!.Vault!
const abi = vault.abi as Abi
const cache = path.join(import.meta.dirname, '..', '.cache', 'edr-stack-traces')
const outputs = readdirSync(cache).filter((f) => f.endsWith('.json')).map((f) => ({ input: { language: 'Solidity', sources: {} }, output: JSON.parse(readFileSync(path.join(cache, f), 'utf8')) as object }))
const contracts = outputs.reduce((n, o) => n + Object.values((o.output as { contracts: Record<string, object> }).contracts).reduce((m, c) => m + Object.keys(c).length, 0), 0)
console.log(`metadata: the Vault build-info and ${outputs.length} compilations (${contracts} contracts)`)

async function run(withMetadata: boolean): Promise<number> {
  const node = await createNode({ hardhatCompat: true, ...(withMetadata && { artifacts: [build, ...outputs] as never }) })
  try {
    const [from] = (await node.request({ method: 'eth_accounts' })) as [Hex]
    const data = encodeDeployData({ abi, bytecode: `0x${vault.evm.bytecode.object}`, args: [1n] } as never)
    const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from, data }] })
    const to = ((await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Hex }).contractAddress
    const deposit = encodeFunctionData({ abi, functionName: 'deposit' } as never)
    const add = encodeFunctionData({ abi, functionName: 'add', args: [1n, 2n] } as never)
    const start = performance.now()
    for (let i = 0; i < ROUNDS; i++) {
      await node.request({ method: 'eth_sendTransaction', params: [{ from, to, data: deposit, value: '0x1' }] })
      await node.request({ method: 'eth_call', params: [{ from, to, data: add }] })
    }
    return performance.now() - start
  } finally {
    await node.close()
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
await run(false) // warm-up: the engine's first compiled paths
const without: number[] = []
const withIt: number[] = []
// Alternated, the order swapped each round so neither always runs after the other's garbage.
for (let r = 0; r < RUNS; r++) {
  if (r % 2 === 0) {
    without.push(await run(false))
    withIt.push(await run(true))
  } else {
    withIt.push(await run(true))
    without.push(await run(false))
  }
}
console.log(`runs without: ${without.map((x) => x.toFixed(0)).join(" ")}; with: ${withIt.map((x) => x.toFixed(0)).join(" ")}`)
const [a, b] = [median(without), median(withIt)]
console.log(`without metadata: ${a.toFixed(0)} ms (${((a / ROUNDS) * 1000).toFixed(0)} µs per send + call)`)
console.log(`with metadata:    ${b.toFixed(0)} ms (${((b / ROUNDS) * 1000).toFixed(0)} µs per send + call)`)
console.log(`difference: ${(((b - a) / a) * 100).toFixed(1)} %`)
