/**
 * The Vault fixture (test/fixtures/contracts/Vault.sol) compiled with the npm `solc` as Hardhat
 * compiles: standard JSON with source maps, immutable references and the AST, wrapped as a Hardhat 2
 * build-info file. Compiled once per process (about a second).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const SOURCE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'contracts', 'Vault.sol')

/** The source name the contracts are compiled under, as a Hardhat project names it. */
export const VAULT_SOURCE = 'contracts/Vault.sol'

/** A Hardhat 2 build-info file's fields. */
export interface BuildInfo {
  _format: string
  id: string
  solcVersion: string
  solcLongVersion: string
  input: { language: string; sources: Record<string, { content: string }>; settings: Record<string, unknown> }
  output: {
    errors?: { severity: string; formattedMessage: string }[]
    sources: Record<string, { id: number; ast: unknown }>
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>
  }
}

let built: BuildInfo | undefined

/** The Vault build-info (Hardhat's default settings: optimizer off). */
export function vaultBuildInfo(): BuildInfo {
  if (built !== undefined) return built
  const solc = require('solc') as { version(): string; compile(input: string): string }
  const input = {
    language: 'Solidity',
    sources: { [VAULT_SOURCE]: { content: readFileSync(SOURCE, 'utf8') } },
    settings: {
      optimizer: { enabled: false, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: {
        '*': { '*': ['abi', 'evm.bytecode', 'evm.deployedBytecode', 'evm.methodIdentifiers', 'metadata'], '': ['ast'] },
      },
    },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as BuildInfo['output']
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  const long = solc.version().replace(/\.Emscripten.*$/, '')
  built = { _format: 'hh-sol-build-info-1', id: 'vault', solcVersion: long.split('+')[0]!, solcLongVersion: long, input, output }
  return built
}
