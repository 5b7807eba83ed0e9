/**
 * The contest's `eth_call` and snapshot rows alone, for profiling and A/B runs from the sources:
 * `BENCH_SOURCE=src npx tsx bench/calls-snapshots.ts`. A fresh node runs `BENCH_CYCLES` (500)
 * cycles of evm_snapshot, an ETH transfer by eth_sendTransaction, its receipt and evm_revert, as
 * the contest's controls group does from a fresh process; then deploys the Token and runs
 * `BENCH_CALLS` (2,000) `eth_call`s of balanceOf after as many untimed. Prints the rate and the
 * main thread's on-CPU time per cycle and per call. `BENCH_PROFILE=<file>` profiles the part
 * `BENCH_ONLY` names (`cycles` or `calls`).
 */
import { encodeDeployData, encodeFunctionData, type Abi, type Hex } from 'viem'
import { MEASURED, createNode } from './finality.js'
import { compileFixtures } from '../test/helpers/compile.js'
import { fail, mainThreadCpuNs, now, profileHooks, rpc } from './util.js'

const cycles = Number(process.env.BENCH_CYCLES ?? 500)
const calls = Number(process.env.BENCH_CALLS ?? 2000)
const only = process.env.BENCH_ONLY
const token = (await compileFixtures())['Token'] ?? fail('compileFixtures() returned no Token artifact')

async function timed(label: string, n: number, profile: boolean, body: (i: number) => Promise<void>): Promise<void> {
  const hooks = profile ? profileHooks() : {}
  await hooks.before?.()
  const cpu = mainThreadCpuNs()
  const t = now()
  for (let i = 0; i < n; i++) await body(i)
  const ms = now() - t
  const mainUs = (mainThreadCpuNs() - cpu) / 1000 / n
  await hooks.after?.()
  console.log(`${label}: ${((n * 1000) / ms).toFixed(0)}/s (N=${n}, main thread ${mainUs.toFixed(1)} µs each, ${MEASURED})`)
}

const node = await createNode()
try {
  const from = node.accounts[0]!.address
  const to = node.accounts[1]!.address
  if (only === undefined || only === 'cycles') {
    await timed('snapshot + transfer + receipt + revert', cycles, only === 'cycles', async (i) => {
      const id = await rpc(node, 'evm_snapshot', [])
      const tx = { from, to, value: `0x${(i + 1).toString(16)}`, gas: '0x5208', maxFeePerGas: '0x2540be400', maxPriorityFeePerGas: '0x3b9aca00' }
      const hash = await rpc<Hex>(node, 'eth_sendTransaction', [tx])
      const receipt = await rpc<{ status: string }>(node, 'eth_getTransactionReceipt', [hash])
      if (receipt.status !== '0x1') fail(`cycle #${i}: status ${receipt.status}`)
      if ((await rpc(node, 'evm_revert', [id])) !== true) fail(`evm_revert #${i} did not answer true`)
    })
  }
  if (only === 'sends') {
    // The cycle's transfer alone, without the snapshot and revert around it, for comparison.
    await timed('transfer + receipt (no snapshot)', cycles, false, async (i) => {
      const tx = { from, to, value: `0x${(i + 1).toString(16)}`, gas: '0x5208', maxFeePerGas: '0x2540be400', maxPriorityFeePerGas: '0x3b9aca00' }
      const hash = await rpc<Hex>(node, 'eth_sendTransaction', [tx])
      const receipt = await rpc<{ status: string }>(node, 'eth_getTransactionReceipt', [hash])
      if (receipt.status !== '0x1') fail(`transfer #${i}: status ${receipt.status}`)
    })
  }
  if (only === undefined || only === 'calls') {
    const data = encodeDeployData({ abi: token.abi as Abi, bytecode: token.bytecode as Hex, args: ['Bench', 'B', 10n ** 24n] })
    const hash = await rpc<Hex>(node, 'eth_sendTransaction', [{ from, data }])
    const { contractAddress } = await rpc<{ contractAddress: Hex }>(node, 'eth_getTransactionReceipt', [hash])
    const call = [{ to: contractAddress, data: encodeFunctionData({ abi: token.abi as Abi, functionName: 'balanceOf', args: [from] }) }, 'latest']
    const expected = await rpc<string>(node, 'eth_call', call)
    for (let i = 0; i < calls; i++) await rpc(node, 'eth_call', call)
    await timed('eth_call balanceOf', calls, only === 'calls', async (i) => {
      if ((await rpc(node, 'eth_call', call)) !== expected) fail(`eth_call #${i} changed its answer`)
    })
  }
} finally {
  await node.close()
}
