/**
 * Compiles the vendored Cosmos EVM interfaces (test/fixtures/cosmos-evm) and this folder's
 * contracts with the `solc` npm package, once per test file.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Abi, Hex } from 'viem'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const ROOT = path.resolve(HERE, '..', '..')
const solc = createRequire(path.join(ROOT, 'package.json'))('solc') as { compile(input: string, cb: { import(p: string): { contents: string } | { error: string } }): string }

/** A compiled contract. */
export interface Compiled {
  abi: Abi
  bytecode: Hex
}

/** Compiles `files` (paths relative to the repository root); contracts by name. */
export function compile(files: readonly string[]): Record<string, Compiled> {
  const sources = Object.fromEntries(files.map((f) => [f, { content: readFileSync(path.join(ROOT, f), 'utf8') }]))
  const input = { language: 'Solidity', sources, settings: { evmVersion: 'prague', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } } }
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), {
      import: (p) => {
        try {
          return { contents: readFileSync(path.join(ROOT, p), 'utf8') }
        } catch {
          return { error: `not found: ${p}` }
        }
      },
    }),
  ) as { errors?: Array<{ severity: string; formattedMessage: string }>; contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>> }
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  const out: Record<string, Compiled> = {}
  for (const file of Object.values(output.contracts)) {
    for (const [name, c] of Object.entries(file)) out[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` }
  }
  return out
}
