/**
 * Params and results of the test controls (evm_*, hardhat_*, anvil_*) and of finality_*: the
 * Hardhat family answers `true` where Anvil answers `null`, as each tool does.
 */
import type { Hex } from '../hex.js'
import type { StateDump } from '../controls/state-dump.js'
import type { CertificateWithSetJson } from '../consensus/certificate.js'
import type { Fault } from '../consensus/tendermint/faults.js'
import type { BlockTag, NumberOrHex, RpcBlock } from './objects.js'

/** hardhat_reset / anvil_reset's options (`null` is a field left out: viem's testClient.reset() sends `blockNumber: null`). */
export type RpcResetOptions = {
  forking?: { jsonRpcUrl?: string | null; blockNumber?: NumberOrHex | null }
}

/** evm_mine's param: a timestamp, or `{ timestamp, blocks }`. */
export type RpcMineParam = NumberOrHex | { timestamp?: NumberOrHex; blocks?: NumberOrHex }

/** The fork a node runs on, as hardhat_metadata shows it. */
export type RpcForkedNetwork = {
  chainId: number
  forkBlockNumber: number
  forkBlockHash: Hex
  stateRoots: string
}

/** hardhat_metadata's answer. */
export type RpcMetadata = {
  clientVersion: string
  chainId: number
  instanceId: Hex
  latestBlockNumber: number
  latestBlockHash: Hex
  forkedNetwork?: RpcForkedNetwork
}

/** A validator as finality_getValidators lists it. */
export type RpcValidator = {
  address: Hex
  publicKey: Hex
  votingPower: Hex
  feeRecipient: Hex
  online: boolean
}

/** Duplicate-vote evidence (finality_getEvidence). */
export type RpcEvidence = {
  type: 'duplicateVote'
  validator: Hex
  height: Hex
  round: Hex
  step: 'prevote' | 'precommit'
  voteA: { blockHash: Hex | null; signature: Hex }
  voteB: { blockHash: Hex | null; signature: Hex }
}

/** A decoded event argument (finality_decodeLogs): integers as decimal strings, bytes as hex; `hashed` for an indexed dynamic value, which its topic holds only as a hash. */
export type RpcDecodedArg = { name: string; type: string; indexed: boolean; value: RpcAbiValue; hashed?: true }
/** An ABI value as finality_decodeLogs writes it. */
export type RpcAbiValue = string | boolean | readonly RpcAbiValue[]
/** A transaction's logs decoded with the node's contract metadata (finality_decodeLogs). */
export type RpcDecodedLogs = {
  contractsKnown: Hex
  logs: Array<{
    logIndex: Hex
    address: Hex
    contract: string | null
    event: { name: string; signature: string; declaredBy: string; args: RpcDecodedArg[] } | null
  }>
}

/** One validator's view in finality_getConsensusState. */
export type RpcValidatorConsensusState = {
  address: Hex
  round: Hex
  step: string
  lockedRound: Hex | null
  lockedValue: unknown
  validRound: Hex | null
  validValue: unknown
  votes: Array<{ round: Hex; prevotes: RpcVoteTally[]; precommits: RpcVoteTally[] }>
}

/** Votes for one block hash (null: nil votes). */
export type RpcVoteTally = {
  blockHash: Hex | null
  votingPower: Hex
  votes: Hex
}

/** finality_getConsensusState's answer. */
export type RpcConsensusState = {
  height: Hex
  running: boolean
  /** One validator and no faults: blocks are committed directly. */
  direct: boolean
  validators: RpcValidatorConsensusState[]
  faults: Array<{ validator: Hex } & Record<string, unknown>>
  partition: Hex[][] | null
  rejectedMessages?: Hex
  timeouts: Record<string, unknown>
  /** How the time-outs pass: on consensus time (`simulated`) or waited out on the node's clock. */
  time: 'simulated' | 'clock'
}

/** A change of finality_changeValidators: by address or index, `power` 0 removes. */
export type RpcValidatorChange = { address?: Hex; index?: number; power: NumberOrHex }

/** The methods Hardhat and Anvil share, by prefix, with each family's success value. */
type Family<P extends string, Ok> = {
  [K in `${P}_dropTransaction`]: { params: [hash: Hex]; result: Ok extends true ? boolean : null }
} & {
  [K in `${P}_impersonateAccount` | `${P}_stopImpersonatingAccount` | `${P}_setCoinbase`]: { params: [address: Hex]; result: Ok }
} & {
  [K in `${P}_setBalance` | `${P}_setNonce`]: { params: [address: Hex, value: Hex]; result: Ok }
} & {
  [K in `${P}_setCode`]: { params: [address: Hex, code: Hex]; result: Ok }
} & {
  [K in `${P}_setStorageAt`]: { params: [address: Hex, slot: Hex, value: Hex]; result: Ok }
} & {
  [K in `${P}_mine`]: { params: [blocks?: NumberOrHex, interval?: NumberOrHex]; result: Ok }
} & {
  [K in `${P}_getAutomine`]: { params: []; result: boolean }
} & {
  [K in `${P}_reset`]: { params: [options?: RpcResetOptions]; result: Ok }
} & {
  [K in `${P}_setLoggingEnabled`]: { params: [enabled: boolean]; result: Ok }
} & {
  /** Refused: every finality chain has EIP-1559 on, where Hardhat and Anvil refuse it too. */
  [K in `${P}_setMinGasPrice`]: { params: [price: Hex]; result: never }
} & {
  [K in `${P}_setNextBlockBaseFeePerGas`]: { params: [fee: Hex]; result: Ok }
} & {
  [K in `${P}_setPrevRandao`]: { params: [randao: Hex]; result: Ok }
}

/** The evm_* methods (Ganache's and Hardhat's). */
export interface EvmMethodTypes {
  evm_increaseTime: { params: [seconds: NumberOrHex]; result: string }
  evm_mine: { params: [param?: RpcMineParam]; result: '0x0' }
  evm_mine_detailed: { params: [param?: RpcMineParam]; result: RpcBlock<true>[] }
  evm_revert: { params: [id: Hex]; result: boolean }
  evm_setAccountBalance: { params: [address: Hex, balance: Hex]; result: true }
  evm_setAccountCode: { params: [address: Hex, code: Hex]; result: true }
  evm_setAccountNonce: { params: [address: Hex, nonce: Hex]; result: true }
  evm_setAccountStorageAt: { params: [address: Hex, slot: Hex, value: Hex]; result: true }
  evm_setAutomine: { params: [enabled: boolean]; result: true }
  evm_setBlockGasLimit: { params: [limit: Hex]; result: true }
  evm_setIntervalMining: { params: [ms: NumberOrHex]; result: true }
  evm_setNextBlockTimestamp: { params: [timestamp: NumberOrHex]; result: string }
  evm_setTime: { params: [timestamp: NumberOrHex]; result: string }
  evm_snapshot: { params: []; result: Hex }
}

/** The hardhat_* methods. */
export type HardhatMethodTypes = Family<'hardhat', true> & {
  hardhat_metadata: { params: []; result: RpcMetadata }
  /** Failures the node could not explain in Solidity terms (Hardhat mode; absent otherwise). */
  hardhat_getStackTraceFailuresCount: { params: []; result: number }
  /** Adds a compilation's contracts to the node's metadata (as a Hardhat build-info's). */
  hardhat_addCompilationResult: { params: [solcVersion: string, compilerInput: Record<string, unknown>, compilerOutput: Record<string, unknown>]; result: true }
}

/** The anvil_* methods. */
export type AnvilMethodTypes = Family<'anvil', null> & {
  anvil_addBalance: { params: [address: Hex, amount: Hex]; result: null }
  anvil_autoImpersonateAccount: { params: [enabled: boolean]; result: null }
  anvil_dealERC20: { params: [holder: Hex, token: Hex, amount: NumberOrHex]; result: null }
  anvil_dropAllTransactions: { params: []; result: null }
  /** The state as gzipped JSON, hex (anvil_loadState takes it back). */
  anvil_dumpState: { params: []; result: Hex }
  anvil_getBlobByHash: { params: [versionedHash: Hex]; result: Hex | null }
  anvil_getBlobsByTransactionHash: { params: [hash: Hex]; result: Hex[] | null }
  anvil_getGenesisTime: { params: []; result: number }
  anvil_getIntervalMining: { params: []; result: number | null }
  anvil_impersonateSignature: { params: [signature: Hex | [signature: Hex, address: Hex], address?: Hex]; result: null }
  anvil_increaseTime: { params: [seconds: NumberOrHex]; result: number }
  anvil_loadState: { params: [state: Hex | StateDump]; result: true }
  anvil_metadata: { params: []; result: Omit<RpcMetadata, 'forkedNetwork'> & { forkedNetwork: RpcForkedNetwork | null; forkConfig: null; snapshots: Record<string, unknown> } }
  anvil_mine_detailed: { params: [param?: RpcMineParam]; result: RpcBlock<true>[] }
  anvil_nodeInfo: {
    params: []
    result: {
      currentBlockNumber: Hex
      currentBlockTimestamp: number
      currentBlockHash: Hex
      /** Anvil's name: `Prague`, `Osaka`… */
      hardFork: string
      transactionOrder: 'fees'
      environment: { baseFee: Hex; chainId: number; gasLimit: Hex; gasPrice: Hex }
      forkConfig: { forkUrl: string | null; forkBlockNumber: number | null; forkRetryBackoff: null; stateRoots?: string }
    }
  }
  anvil_removeBlockTimestampInterval: { params: []; result: boolean }
  anvil_removePoolTransactions: { params: [address: Hex]; result: null }
  anvil_revert: { params: [id: NumberOrHex]; result: boolean }
  anvil_setAutomine: { params: [enabled: boolean]; result: null }
  anvil_setBlockGasLimit: { params: [limit: Hex]; result: true }
  anvil_setBlockTimestampInterval: { params: [seconds: NumberOrHex]; result: null }
  anvil_setChainId: { params: [chainId: NumberOrHex]; result: null }
  anvil_setERC20Allowance: { params: [owner: Hex, spender: Hex, token: Hex, amount: NumberOrHex]; result: null }
  anvil_setERC20Balance: { params: [holder: Hex, token: Hex, amount: NumberOrHex]; result: null }
  anvil_setIntervalMining: { params: [seconds: NumberOrHex]; result: null }
  anvil_setNextBlockTimestamp: { params: [timestamp: NumberOrHex]; result: null }
  anvil_setRpcUrl: { params: [url: string]; result: null }
  anvil_setTime: { params: [timestamp: NumberOrHex]; result: number }
  anvil_snapshot: { params: []; result: Hex }
}

/** The finality_* methods: certificates, validators, consensus state and fault injection. */
export interface FinalityMethodTypes {
  finality_changeValidators: { params: [changes: RpcValidatorChange[]]; result: { effectiveBlock: Hex } }
  finality_setDelegation: { params: [delegator: Hex, validator: Hex, amount: Hex]; result: { effectiveBlock: Hex } }
  finality_completeUnbonding: { params: []; result: { completesAt: Hex } }
  finality_jailValidator: { params: [validator: Hex, blocks?: Hex]; result: { effectiveBlock: Hex } }
  finality_unjailValidator: { params: [validator: Hex]; result: { effectiveBlock: Hex } }
  finality_decodeLogs: { params: [transactionHash: Hex]; result: RpcDecodedLogs | null }
  finality_forkStatus: { params: []; result: { remote: string; chainId: Hex; forkBlockNumber: Hex; forkBlockHash: Hex; stateRoots: string; requests: unknown; loaded: unknown; history: unknown } | null }
  finality_getCommitCertificate: { params: [block: BlockTag]; result: CertificateWithSetJson | null }
  finality_getConsensusState: { params: []; result: RpcConsensusState }
  finality_getEvidence: { params: [fromBlock?: BlockTag, toBlock?: BlockTag]; result: RpcEvidence[] }
  finality_getValidatorHistory: { params: []; result: Array<{ fromBlock: Hex; requestedAt: Hex; validators: Array<{ address: Hex; votingPower: Hex }> }> }
  finality_getValidators: { params: [block?: BlockTag]; result: RpcValidator[] }
  finality_heal: { params: [address?: Hex]; result: true }
  finality_partition: { params: [groups: Hex[][]]; result: true }
  finality_setFault: { params: [address: Hex, fault: Fault]; result: true }
  /** Served on WebSocket transports (the subscription id); elsewhere it answers an error. */
  finality_subscribe: { params: [name?: 'consensus']; result: Hex }
  /** Served on WebSocket transports; elsewhere it answers an error. */
  finality_unsubscribe: { params: [id?: Hex]; result: boolean }
}
