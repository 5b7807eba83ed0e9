/**
 * Compiles contracts/MyToken.sol (with OpenZeppelin from node_modules) once per run and writes
 * the artifact to artifacts/MyToken.json, which the tests read.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(path.join(ROOT, 'package.json'))
export const ARTIFACT = path.join(ROOT, 'artifacts', 'MyToken.json')

export default function compile(): void {
  const solc = require('solc') as { compile(input: string, options: object): string }
  const input = {
    language: 'Solidity',
    sources: { 'MyToken.sol': { content: readFileSync(path.join(ROOT, 'contracts', 'MyToken.sol'), 'utf8') } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'prague',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  }
  const findImports = (file: string) => {
    try {
      return { contents: readFileSync(require.resolve(file), 'utf8') }
    } catch {
      return { error: `not found: ${file}` }
    }
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as {
    errors?: { severity: string; formattedMessage: string }[]
    contracts: Record<string, Record<string, { abi: unknown; evm: { bytecode: { object: string } } }>>
  }
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  const token = output.contracts['MyToken.sol']!['MyToken']!
  mkdirSync(path.dirname(ARTIFACT), { recursive: true })
  writeFileSync(ARTIFACT, JSON.stringify({ abi: token.abi, bytecode: `0x${token.evm.bytecode.object}` }))
}
