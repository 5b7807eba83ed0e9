/**
 * The node's log entries: what `createNode({ onLog })` hands its callback, one structured entry
 * with its formatted line (the CLI prints the lines). Quantities are bigints; hashes and
 * addresses are 0x hex.
 */
import type { Hex } from '../hex.js'

/** Why a transaction or call failed, decoded from its revert data. */
export type Failure =
  | { kind: 'reason'; reason: string }
  | { kind: 'panic'; code: bigint; description: string }
  /** `name` is `Name(args)` when a known contract's ABI declares the error (the node's metadata). */
  | { kind: 'custom'; selector: Hex; data: Hex; name?: string }
  | { kind: 'empty' }
  /** An EVM error other than a revert (out of gas, invalid opcode, …). */
  | { kind: 'evm'; error: string }

/** One mined transaction. */
export interface TransactionEntry {
  type: 'transaction'
  hash: Hex
  from: Hex
  /** Undefined for a contract creation. */
  to: Hex | undefined
  contractAddress: Hex | undefined
  value: bigint
  gasUsed: bigint
  gasLimit: bigint
  blockNumber: bigint
  blockHash: Hex
  status: 'success' | 'reverted'
  failure: Failure | undefined
  consoleLogs: string[]
  /**
   * The transaction's events, `Name(args)` where a known contract's ABI declares them, the first
   * topic otherwise; present only when the node holds contract metadata.
   */
  events?: string[]
}

/** One mined block (its transactions follow as their own entries). */
export interface BlockEntry {
  type: 'block'
  number: bigint
  hash: Hex
  timestamp: bigint
  transactions: number
  gasUsed: bigint
}

/** Empty blocks one request mined (`hardhat_mine`, `anvil_mine`): summarised as one entry. */
export interface BlockRangeEntry {
  type: 'blocks'
  first: bigint
  last: bigint
  firstHash: Hex
  lastHash: Hex
}

/** One JSON-RPC request, logged when its answer is known. */
export interface RequestEntry {
  type: 'request'
  method: string
  ms: number
  /**
   * The error answered, with the decoded revert of a failing eth_call / eth_estimateGas, and the
   * Solidity frames of the failure as Hardhat writes them (`Vault.withdraw
   * (contracts/Vault.sol:33)`), innermost first: empty without contract metadata or outside
   * Hardhat's answers (docs/errors.md).
   */
  error: { code: number; message: string; failure: Failure | undefined; stack: readonly string[] } | undefined
  /** console.log lines of a call the request ran (eth_call, eth_estimateGas). */
  consoleLogs: string[]
}

/** Consensus events worth a line: round changes, time-outs, halts and resumes, evidence. */
export type ConsensusEntry =
  | { type: 'consensus'; event: 'round'; height: bigint; round: number; proposer: Hex }
  | { type: 'consensus'; event: 'timeout'; height: bigint; round: number; step: string }
  | { type: 'consensus'; event: 'halt'; height: bigint }
  | { type: 'consensus'; event: 'resume'; height: bigint }
  | { type: 'consensus'; event: 'evidence'; height: bigint; round: number; validator: Hex; step: string }

/** console.log output that belongs to no logged request or transaction. */
export interface ConsoleEntry {
  type: 'console'
  message: string
}

/** Every kind of log entry. */
export type LogEntry = TransactionEntry | BlockEntry | BlockRangeEntry | RequestEntry | ConsensusEntry | ConsoleEntry

/** createNode's `onLog`: each entry with its line (several lines for a transaction), no newline at the end. */
export type OnLog = (entry: LogEntry, line: string) => void
