/**
 * Compiles contracts/Probe.sol with the solc npm package into corpus/probe.json (ABI and creation
 * code), which the generated corpus deploys. Run again after changing the contract:
 * `npx tsx test/differential/compile-probe.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const solc = require('solc') as { compile(input: string): string; version(): string }
const here = path.dirname(fileURLToPath(import.meta.url))
const source = readFileSync(path.join(here, 'contracts', 'Probe.sol'), 'utf8')
const input = {
  language: 'Solidity',
  sources: { 'Probe.sol': { content: source } },
  settings: { evmVersion: 'prague', optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
}
const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
  errors?: Array<{ severity: string; formattedMessage: string }>
  contracts: Record<string, Record<string, { abi: unknown; evm: { bytecode: { object: string } } }>>
}
const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
const probe = output.contracts['Probe.sol']!.Probe!
writeFileSync(path.join(here, 'corpus', 'probe.json'), JSON.stringify({ solc: solc.version(), abi: probe.abi, bytecode: `0x${probe.evm.bytecode.object}` }, null, 1) + '\n')
