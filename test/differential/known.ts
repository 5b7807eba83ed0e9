/**
 * The differences from Hardhat Network that are known, each with its reason. Every one is also in
 * docs/hardhat.md ("What differs from Hardhat Network"). The differential test fails on any
 * difference no entry covers, and on an entry that covers nothing in the corpus run (it has become stale).
 * The first entry that covers a difference names it, so the narrow entries come first.
 */
import type { LeafDiff } from './normalise.js'
import type { Answer } from './sides.js'

/** One leaf difference with the step it was found at. */
export interface Found extends LeafDiff {
  corpus: string
  index: number
  method: string
  params: unknown[]
  /** What the step checks, when the corpus says. */
  note?: string
  /** Both normalised answers, whole. */
  answers: { hardhat: Answer; finality: Answer }
}

/** A known difference. */
export interface Known {
  id: string
  reason: string
  /** Being fixed in Hardhat mode (the hardhat-mode work); otherwise left, for the reason given. */
  owner?: 'hardhat mode'
  /** Met only by a full run (DIFF_FULL=1: the recorded suite's 8,197-block hardhat_mine). */
  fullOnly?: true
  /** Met only when the in-process providers are compared (DIFF_MODE=provider). */
  providerOnly?: true
  covers(d: Found): boolean
}

/** The `type` of a transaction answered. */
const typeOf = (a: Answer): unknown => ('result' in a && typeof a.result === 'object' && a.result !== null ? (a.result as { type?: unknown }).type : undefined)
const leaf = (d: Found): string => d.path.replace(/^.*[.[]/, '').replace(/]$/, '')
const errorOf = (a: Answer): { code?: unknown; message?: string; data?: unknown } | undefined => ('error' in a ? a.error : undefined)
const hhError = (d: Found) => errorOf(d.answers.hardhat)
const fiError = (d: Found) => errorOf(d.answers.finality)

export const KNOWN: readonly Known[] = [
  {
    id: 'in-process provider errors',
    reason: "finality's provider throws what its server answers (a numeric code, as EIP-1193 wants; for a failed send Hardhat's server form: -32603, `Error: VM Exception …`, data { message, txHash, data }); Hardhat's in-process provider throws its own error (a failed send's without a code, data = the revert data, a transactionHash field; others with data null; an out-of-gas call's data { reason, data, transactionHash }); the chai matchers read both",
    providerOnly: true,
    covers: (d) =>
      (hhError(d) !== undefined && fiError(d)?.code === -32603 && hhError(d)?.code === undefined) ||
      (d.path === '$.error.data' && d.hardhat === null && d.finality === undefined) ||
      (d.path.startsWith('$.error.data.') && fiError(d) !== undefined && /reason|txHash|transactionHash|message/.test(leaf(d))),
  },
  {
    id: 'Solidity stack trace on the wire',
    reason:
      "a failed call, estimate or send of a node with the compilation answers its Solidity frames as data, `error.solidityTrace` beside `data` (kind, contract, function, file, line, innermost first); Hardhat's server sends only code, message and data, its frames staying in its in-process errors. `data` is Hardhat's, unchanged: clients read the revert from it and ignore other members",
    covers: (d) => d.path === '$.error.solidityTrace' && d.hardhat === undefined && Array.isArray(d.finality),
  },
  {
    id: 'parent beacon block root',
    reason: 'finality has no beacon chain: its blocks carry a zero parentBeaconBlockRoot (as Anvil); Hardhat makes one up',
    covers: (d) => leaf(d) === 'parentBeaconBlockRoot',
  },
  {
    id: "Hardhat's genesis header",
    reason: "Hardhat's genesis has extraData 0x1234 and keccak256('') as its transactions root (not the empty trie's root); so do its reserved blocks",
    covers: (d) => (leaf(d) === 'extraData' && d.hardhat === '0x1234') || (leaf(d) === 'transactionsRoot' && d.hardhat === '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470'),
  },
  {
    id: "impersonated senders' signatures",
    reason: "an impersonated sender's transaction carries a placeholder signature; Hardhat's is r = s = the sender, v = 0x1c, finality's r = the sender, s = 1, v = 0",
    covers: (d) => d.method.startsWith('eth_getTransactionBy') && ['s', 'v'].includes(leaf(d)) && (d.hardhat === '0x1c' || (typeof d.hardhat === 'string' && d.hardhat.length === 42)),
  },
  {
    id: "Hardhat's reserved blocks",
    reason: "Hardhat leaves most blocks of a long hardhat_mine unbuilt: such a block has gas limit 1,000,000, a zero parent hash and a zero miner; finality builds every block",
    fullOnly: true,
    covers: (d) =>
      (leaf(d) === 'gasLimit' && d.hardhat === '0xf4240') || (leaf(d) === 'parentHash' && d.hardhat === '<zero hash>') || (leaf(d) === 'miner' && d.hardhat === `0x${'0'.repeat(40)}`),
  },
  {
    id: 'fields that follow from another',
    reason: "a block's size and transactions root, and a transaction's signature (r, s, v), follow from fields that differ and are reported themselves (the gas of a send, the genesis extraData)",
    covers: (d) => ['size', 'transactionsRoot', 'r', 's', 'v'].includes(leaf(d)),
  },
  {
    id: 'blockTimestamp',
    reason: 'finality adds blockTimestamp to transactions and logs, as geth does since 1.16; Hardhat has no such field',
    covers: (d) => leaf(d) === 'blockTimestamp' && d.hardhat === undefined,
  },
  {
    id: 'yParity',
    reason: "finality's typed transactions carry yParity (the execution-apis spec's field); Hardhat's carry only v",
    covers: (d) => leaf(d) === 'yParity' && d.hardhat === undefined,
  },
  {
    id: 'blob fields of eth_feeHistory',
    reason: 'finality answers baseFeePerBlobGas and blobGasUsedRatio, as geth does from Cancun on; Hardhat leaves them out',
    covers: (d) => d.method === 'eth_feeHistory' && ['baseFeePerBlobGas', 'blobGasUsedRatio'].includes(leaf(d)) && d.hardhat === undefined,
  },
  {
    id: 'evm_setBlockGasLimit',
    reason: "Hardhat refuses only 0 (-32000 `Block gas limit must be greater than 0`); finality anything below 21,000 with -32602",
    covers: (d) => d.method === 'evm_setBlockGasLimit',
  },
  {
    id: 'tracers',
    reason: "Hardhat serves only the struct logger; finality serves geth's tracers (callTracer, prestateTracer, …) too",
    covers: (d) => d.method.startsWith('debug_trace') && hhError(d)?.code === -32602 && /only supports the default tracer/.test(String(hhError(d)?.message)),
  },
  {
    id: 'methods Hardhat does not serve',
    reason: 'Hardhat answers -32004 `Method … is not supported` for geth methods it lacks (eth_hashrate, eth_protocolVersion, uncles, eth_createAccessList, …) and for unknown names; finality serves the methods geth serves and answers an unknown one -32601 (JSON-RPC 2.0)',
    covers: (d) => hhError(d)?.code === -32004,
  },
  {
    id: 'raw transaction refusals',
    reason: 'Hardhat refuses an undecodable raw transaction or one for another chain with -32602; finality with -32000, as geth',
    covers: (d) => d.method === 'eth_sendRawTransaction' && hhError(d)?.code === -32602 && fiError(d)?.code === -32000,
  },
  {
    id: 'parameter decoding wording',
    reason: "both refuse with -32602; Hardhat's text is its JSON decoder's (`invalid length 0, expected tuple variant …`, with the request as data), finality's is geth's (`missing value for required argument 0`)",
    covers: (d) => hhError(d)?.code === -32602 && (fiError(d)?.code === -32602 || fiError(d)?.code === -32000) && ['message', 'data', 'code'].includes(d.path.split('.')[2] ?? ''),
  },
  {
    id: 'error data object',
    reason: "Hardhat's JSON-RPC server wraps every error's data as { message, data? }; finality sends geth's errors, with data only where there is some (revert data)",
    covers: (d) => d.path === '$.error.data' && typeof d.hardhat === 'object' && d.hardhat !== null && 'message' in d.hardhat && d.finality === undefined,
  },
  {
    id: 'transaction validation wording',
    reason: "the same refusal with geth's words (`nonce too low: …`, `insufficient funds for gas * price + value`, `intrinsic gas too low`), which viem and ethers recognise; Hardhat words them its own way",
    covers: (d) =>
      d.path === '$.error.message' &&
      hhError(d)?.code === fiError(d)?.code &&
      /^(nonce too (low|high)|insufficient funds|intrinsic gas too low|gas required exceeds allowance|max fee per gas less than block base fee|transaction gas price below minimum)/.test(fiError(d)?.message ?? ''),
  },
  {
    id: 'client version',
    reason: 'each node names itself (finality: `HardhatNetwork/finality/…`, which the network helpers accept); hardhat_metadata\'s instanceId and latestBlockHash are per instance and per chain',
    covers: (d) => d.method === 'web3_clientVersion' || (d.method === 'hardhat_metadata' && ['clientVersion', 'instanceId', 'latestBlockHash'].includes(leaf(d))),
  },
  {
    id: 'pending block',
    reason: "Hardhat's pending block has no number, hash or nonce (null); finality's is geth's: the next number, a hash, a nonce",
    covers: (d) => /pending/.test(JSON.stringify(d.params)) && d.method.startsWith('eth_getBlockBy') && ['number', 'hash', 'nonce'].includes(leaf(d)),
  },
  {
    id: 'quantities in decimal',
    reason: "finality decodes quantities as geth does (0x-prefixed hex, no leading zeros); Hardhat also takes decimal strings and leading zeros",
    covers: (d) => fiError(d)?.code === -32602 && /hex string without 0x prefix|leading zero digits/.test(String(fiError(d)?.message)) && !('error' in d.answers.hardhat),
  },
  {
    id: 'parameter checks Hardhat answers with -32000',
    reason: "a parameter refused after decoding (both fee kinds in one call, a storage value not 32 bytes, reward percentiles out of order) is -32602 here (geth's `invalid argument N`); Hardhat answers -32000",
    covers: (d) => hhError(d)?.code === -32000 && fiError(d)?.code === -32602 && !/block gas limit/i.test(String(fiError(d)?.message)) && d.path.startsWith('$.error.'),
  },
  {
    id: 'optional parameters',
    reason: "finality takes geth's optional parameters as optional: eth_feeHistory's reward percentiles, eth_getBlockByNumber's full-transactions flag (false); a block count of 0 answers an empty history, as geth; Hardhat requires them and refuses 0",
    covers: (d) => (d.method === 'eth_feeHistory' || d.method === 'eth_getBlockByNumber') && hhError(d) !== undefined && !('error' in d.answers.finality),
  },
  {
    id: 'eth_getProof storage keys',
    reason: "finality takes eth_getProof's storage keys as geth does (any hex of up to 32 bytes, `0x0` included); Hardhat's decoder wants an even number of digits",
    covers: (d) => d.method === 'eth_getProof' && hhError(d)?.code === -32602 && !('error' in d.answers.finality),
  },
  {
    id: 'chainId of legacy transactions',
    reason: "finality lists the chainId of an EIP-155 legacy transaction, as geth does; Hardhat leaves it out",
    covers: (d) => leaf(d) === 'chainId' && d.hardhat === undefined && d.method.startsWith('eth_getTransactionBy'),
  },
  {
    id: 'transaction type of a send',
    reason: "finality builds the type an eth_sendTransaction asks for (`type`), as geth does; Hardhat picks the type from the fee fields alone (gasPrice: legacy, else EIP-1559)",
    covers: (d) => d.method.startsWith('eth_getTransactionBy') && ['type', 'accessList', 'maxFeePerGas', 'maxPriorityFeePerGas', 'gasPrice'].includes(leaf(d)) && typeOf(d.answers.hardhat) !== typeOf(d.answers.finality),
  },
  {
    id: 'data and input alike',
    reason: "finality takes a request with both `data` and `input` when they are equal, as geth does; Hardhat's decoder refuses any duplicate (-32602)",
    covers: (d) => hhError(d)?.code === -32602 && /duplicate field `data`/.test(String(hhError(d)?.message)) && !('error' in d.answers.finality),
  },
  {
    id: 'block filters',
    reason: "Hardhat's first poll of a block filter also answers the block that was the head when the filter was made; finality's answers only the blocks after it, as geth's",
    covers: (d) => d.method === 'eth_getFilterChanges' && d.path === '$.result.length' && d.hardhat === (d.finality as number) + 1,
  },
  {
    id: 'proofs',
    reason: "account proofs walk the state trie, which differs with the fee recipient's balance; a key of an empty storage trie is proved by [] here (geth) and by [0x80] on Hardhat",
    covers: (d) => d.method === 'eth_getProof' && (/\.accountProof/.test(d.path) || (/storageProof\[\d+]\.proof\.length$/.test(d.path) && d.hardhat === 1 && d.finality === 0)),
  },
  {
    id: 'hardhat_mine with interval 0',
    reason: "Hardhat's reserved blocks of a hardhat_mine with interval 0 share the first block's timestamp; finality's block times strictly increase (1 s apart)",
    covers: (d) => d.note === 'after hardhat_mine with interval 0' && leaf(d) === 'timestamp',
  },
  {
    id: 'eth_subscribe without notifications',
    reason: "Hardhat's server answers eth_subscribe on any transport (over HTTP its notifications go nowhere); finality refuses it where it cannot notify (-32601 `notifications not supported`, geth's answer over HTTP) and serves it over WebSocket and the provider",
    covers: (d) => d.method === 'eth_subscribe' && fiError(d)?.code === -32601,
  },
  {
    id: "evm_increaseTime's total",
    reason: "both answer the total offset in seconds; Hardhat's counts from the wall clock (its initialDate is such an offset too, and so is each evm_setNextBlockTimestamp), finality's from its clock (here started at the same date)",
    covers: (d) => d.method === 'evm_increaseTime' && d.path === '$.result',
  },
]

/** The known difference that covers `d`, if any. */
export function knownFor(d: Found): Known | undefined {
  return KNOWN.find((k) => k.covers(d))
}
