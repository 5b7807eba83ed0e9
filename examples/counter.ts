/**
 * A tiny contract for the examples, compiled with solc (npm) when an example starts. In a real
 * project the artifact comes from Hardhat, Foundry or your own build.
 */
import { createRequire } from 'node:module'

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Counter {
    uint256 public count;
    event Incremented(uint256 newCount);
    error TooLate(uint256 deadline);
    function increment() external { count += 1; emit Incremented(count); }
    function incrementBefore(uint256 deadline) external {
        if (block.timestamp > deadline) revert TooLate(deadline);
        count += 1;
        emit Incremented(count);
    }
}`

interface SolcOutput {
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>
  errors?: Array<{ severity: string; formattedMessage: string }>
}

/** The Counter's ABI and creation bytecode. */
export function compileCounter(): { abi: unknown[]; bytecode: `0x${string}` } {
  const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string }
  const input = {
    language: 'Solidity',
    sources: { 'Counter.sol': { content: SOURCE } },
    settings: { evmVersion: 'prague', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  const counter = output.contracts['Counter.sol']?.Counter
  if (counter === undefined) throw new Error('solc produced no Counter')
  return { abi: counter.abi, bytecode: `0x${counter.evm.bytecode.object}` }
}
