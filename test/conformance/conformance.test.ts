/**
 * The execution-apis rpc-compat conformance run (issue #6): imports the fixtures' chain into a node
 * built from their genesis, serves it over HTTP, replays every `.io` file and prints a table per
 * method, and fails if any case of a method in EXPECTED_TO_PASS fails. See docs/conformance.md.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'
import { FIXTURES_DIR, loadCases } from './fixtures.js'
import { formatFailures, formatTable, runConformance } from './runner.js'

/**
 * Methods every case of which must pass: add a method once all its cases pass, so a regression
 * fails the run while the methods still being worked on only show in the table.
 */
export const EXPECTED_TO_PASS: string[] = [
  'debug_getRawBlock',
  'debug_getRawHeader',
  'debug_getRawReceipts',
  'debug_getRawTransaction',
  'debug_traceBlockByHash',
  'debug_traceBlockByNumber',
  'debug_traceTransaction',
  'eth_baseFee',
  'eth_getStorageValues',
  'eth_blobBaseFee',
  'eth_blockNumber',
  'eth_capabilities',
  'eth_call',
  'eth_chainId',
  'eth_config',
  'eth_createAccessList',
  'eth_sendRawTransaction',
  'eth_estimateGas',
  'eth_feeHistory',
  'eth_getBalance',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getBlockReceipts',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getCode',
  'eth_getLogs',
  'eth_getProof',
  'eth_getStorageAt',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_simulateV1',
  'eth_syncing',
  'net_version',
  'testing_buildBlockV1',
  'txpool_content',
  'txpool_contentFrom',
  'txpool_status',
]

const genesis: unknown = JSON.parse(readFileSync(join(FIXTURES_DIR, 'genesis.json'), 'utf8'))
const chainBytes = new Uint8Array(readFileSync(join(FIXTURES_DIR, 'chain.rlp')))
// The fixtures were recorded from geth with its default `--rpc.gascap` (50M), which eth_simulateV1
// spends across all its calls and which decides the gas of a call that names none.
const node: FinalityNode = await createNode({ genesis, mining: { mode: 'manual' }, limits: { rpcGasCap: 50_000_000n } })

afterAll(async () => {
  await node.close()
})

test('conformance fixtures: every .io file is loaded as a case with at least one exchange', () => {
  const files = readdirSync(FIXTURES_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.io'))
  const cases = loadCases()
  expect(files.length).toBeGreaterThan(0)
  expect(cases.length).toBe(files.length)
  for (const c of cases) expect(c.exchanges.length, `${c.method}/${c.name}`).toBeGreaterThan(0)
})

test('conformance fixtures: EXPECTED_TO_PASS names only methods that have fixtures', () => {
  const methods = new Set(loadCases().map((c) => c.method))
  expect(EXPECTED_TO_PASS.filter((m) => !methods.has(m))).toEqual([])
})

test('conformance: the execution-apis fixtures over HTTP, on the imported chain', { timeout: 600_000 }, async () => {
  const started = performance.now()
  const { imported } = await node.importBlocks(chainBytes)
  const importMs = performance.now() - started
  expect(imported).toBe(54)

  const served = await node.listen({
    address: '127.0.0.1:0',
    wsAddress: '127.0.0.1:0',
    api: ['eth', 'web3', 'net', 'rpc', 'debug', 'txpool', 'testing'],
  })
  try {
    if (served.http === undefined) throw new Error('listen() started no HTTP server')
    const cases = loadCases()
    const report = await runConformance({ url: served.http, cases })
    console.log(
      `conformance: imported ${imported} blocks in ${importMs.toFixed(0)} ms; ${report.passed}/${report.total} cases passed\n${formatTable(report)}`,
    )
    const failures = formatFailures(report)
    if (failures !== '') console.log(`conformance failures:\n${failures}`)

    expect(report.total).toBe(cases.length)
    const regressions = EXPECTED_TO_PASS.flatMap((method) =>
      (report.perMethod.get(method)?.failures ?? []).map((f) => `${method}/${f.name}: ${f.reason}`),
    )
    expect(regressions).toEqual([])
  } finally {
    await served.close()
  }
})
