/**
 * One side of the node-level differential test (test/execution/engine/library-differential.test.ts):
 * run with FINALITY_ENGINE=plain or =fast, it drives a node on every supported hardfork through
 * the paths that reach inside @ethereumjs/common, tx and block (the node's Common and its
 * caches, headers built without their constructor, EIP-1559 transactions made and signed without
 * theirs, transactions' kept answers, the chain id's owner, precompile overrides, tracers) and
 * prints every answer as JSON, with the engine's status.
 */
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { hexToBytes } from '@ethereumjs/util'
import { SUPPORTED_HARDFORKS, createChainCommon } from '../../../../src/chain/common.js'
import { engineStatus } from '../../../../src/execution/engine/index.js'
import { createNode, type Hex } from '../../../../src/index.js'

/** A fixed clock: every block of both sides gets the same timestamp, so the same hash. */
const clock = {
  now: () => 1_700_000_000_000,
  setTimer: (fn: () => void, ms: number) => {
    const t = setTimeout(fn, ms)
    t.unref()
    return () => clearTimeout(t)
  },
}

/** Initcode of a contract whose code returns CHAINID as a word (an eth_call reads it). */
const CHAIN_ID_CONTRACT = '0x600a600c600039600a6000f34660005260206000f3'
const IMPERSONATED = '0x00000000000000000000000000000000000a11ce'
const POOR = '0x00000000000000000000000000000000000b0b00'

async function fork(hardfork: (typeof SUPPORTED_HARDFORKS)[number]): Promise<unknown[]> {
  const node = await createNode({ hardfork, clock, chainId: 31337 })
  const out: unknown[] = []
  const ask = async (method: string, params: unknown[] = []): Promise<unknown> => {
    try {
      const result = await node.request({ method, params } as never)
      out.push({ method, result })
      return result
    } catch (error) {
      out.push({ method, error: error instanceof Error ? error.message : String(error) })
      return undefined
    }
  }
  const [a, b] = node.accounts
  if (a === undefined || b === undefined) throw new Error('no accounts')
  const raw = (chainId: bigint, nonce: bigint): Hex => {
    const common = createChainCommon(chainId, hardfork)
    const tx = createFeeMarket1559Tx({ chainId, nonce, to: b.address, value: 5n, gasLimit: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n }, { common })
    return `0x${Buffer.from(tx.sign(hexToBytes(a.privateKey)).serialize()).toString('hex')}`
  }
  const hashes: unknown[] = []
  await ask('eth_chainId')
  hashes.push(await ask('eth_sendTransaction', [{ from: a.address, to: b.address, value: '0x1' }]))
  hashes.push(await ask('eth_sendRawTransaction', [raw(31337n, 1n)]))
  hashes.push(await ask('eth_sendTransaction', [{ from: a.address, data: CHAIN_ID_CONTRACT }]))
  const created = ((await ask('eth_getTransactionReceipt', [hashes[2]])) as { contractAddress?: string } | undefined)?.contractAddress
  await ask('eth_call', [{ to: created }, 'latest'])
  await ask('eth_estimateGas', [{ from: a.address, to: b.address, value: '0x1', data: '0x00ff' }])
  await ask('anvil_setBalance', [IMPERSONATED, '0xde0b6b3a7640000'])
  await ask('anvil_impersonateAccount', [IMPERSONATED])
  hashes.push(await ask('eth_sendTransaction', [{ from: IMPERSONATED, to: b.address, value: '0x2' }]))
  await ask('anvil_setChainId', ['0x4d2'])
  await ask('eth_chainId')
  hashes.push(await ask('eth_sendTransaction', [{ from: a.address, to: b.address, value: '0x3' }]))
  hashes.push(await ask('eth_sendRawTransaction', [raw(1234n, 4n)]))
  await ask('eth_sendRawTransaction', [raw(31337n, 5n)])
  await ask('eth_call', [{ to: created }, 'latest'])
  // A precompile moved (identity, 0x04) and called at its new address.
  await ask('eth_call', [{ to: '0x0000000000000000000000000000000000001234', data: '0xabcd' }, 'latest', { '0x0000000000000000000000000000000000000004': { movePrecompileToAddress: '0x0000000000000000000000000000000000001234' } }])
  await ask('eth_config')
  // Calls refused by the transaction's run (its words mapped to geth's), an access list, a failed
  // creation mined and traced, a simulation: the engine's run of a transaction or the library's.
  await ask('eth_call', [{ from: POOR, to: b.address, value: '0x1', gasPrice: '0x3b9aca00' }, 'latest'])
  await ask('eth_call', [{ from: a.address, to: b.address, gas: '0x5000' }, 'latest'])
  await ask('eth_call', [{ from: a.address, to: b.address, maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x0' }, 'latest'])
  await ask('eth_createAccessList', [{ from: a.address, to: created }, 'latest'])
  const failed = await ask('eth_sendTransaction', [{ from: a.address, data: '0xfe', gas: '0x30000' }])
  await ask('eth_getTransactionReceipt', [failed])
  await ask('debug_traceTransaction', [failed, { tracer: 'callTracer' }])
  await ask('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: a.address, to: b.address, value: '0x1' }, { from: a.address, data: CHAIN_ID_CONTRACT }] }], validation: false }, 'latest'])
  for (const hash of hashes) {
    await ask('eth_getTransactionByHash', [hash])
    await ask('eth_getTransactionReceipt', [hash])
    await ask('debug_traceTransaction', [hash, { tracer: 'callTracer' }])
    await ask('debug_traceTransaction', [hash, { enableMemory: true }])
  }
  const head = Number(await ask('eth_blockNumber'))
  for (let n = 0; n <= head; n++) await ask('eth_getBlockByNumber', [`0x${n.toString(16)}`, true])
  await node.close()
  return out
}

const answers: Record<string, unknown[]> = {}
for (const hardfork of SUPPORTED_HARDFORKS) answers[hardfork] = await fork(hardfork)
process.stdout.write(JSON.stringify({ status: engineStatus(), answers }))
