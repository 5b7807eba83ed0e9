/**
 * Every limit the node enforces, with its unit and default (see RELIABILITY.md). Override any of
 * them with `createNode({ limits: { … } })`.
 */
export interface Limits {
  /** Items in one JSON-RPC batch. */
  batchItems: number
  /** Characters in a method name. */
  methodNameLength: number
  /** Bytes of a raw transaction (`eth_sendRawTransaction`). */
  rawTransactionBytes: number
  /** Blocks one `eth_getLogs` may span. */
  logsBlockRange: number
  /** Logs one `eth_getLogs` may return. */
  logsResults: number
  /** Addresses in one log filter. */
  filterAddresses: number
  /** Alternatives in one topic position. */
  filterTopicAlternatives: number
  /** Blocks one `eth_feeHistory` covers (more are truncated). */
  feeHistoryBlocks: number
  /** Gas cap for eth_call / eth_estimateGas; 0 = none. */
  rpcGasCap: bigint
  /** Fee cap of a sent transaction in wei (gas × fee cap); 0 = off. Geth's `RPCTxFeeCap`. */
  txFeeCap: bigint
  /** Characters of a hex string param before it is rejected (bounds BigInt and Buffer work). */
  hexParamLength: number
}

/** The defaults. */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  batchItems: 1000,
  methodNameLength: 256,
  rawTransactionBytes: 128 * 1024,
  logsBlockRange: 10_000,
  logsResults: 10_000,
  filterAddresses: 1000,
  filterTopicAlternatives: 1000,
  feeHistoryBlocks: 1024,
  rpcGasCap: 0n,
  txFeeCap: 10n ** 18n,
  hexParamLength: 2 * 5 * 1024 * 1024 + 2,
})

/** Defaults overridden by the caller's values. */
export function resolveLimits(overrides: Partial<Limits> | undefined): Readonly<Limits> {
  return Object.freeze({ ...DEFAULT_LIMITS, ...overrides })
}
