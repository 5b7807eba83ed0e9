/**
 * Every limit the node enforces, with its unit and default (see RELIABILITY.md). Override any of
 * them with `createNode({ limits: { … } })`.
 */
export interface Limits {
  /** Items in one JSON-RPC batch. */
  batchItems: number
  /** Characters in a method name. */
  methodNameLength: number
  /** Bytes of a raw transaction (`eth_sendRawTransaction`); for a blob transaction, without its sidecar. */
  rawTransactionBytes: number
  /** Bytes of a blob transaction in network form, sidecar included (geth's blob pool: 1 MiB). */
  blobTransactionBytes: number
  /**
   * Bytes of struct-logger output one debug_trace* request may build (an estimate of its JSON);
   * past it -32000 `trace too large`. A long transaction's full opcode trace can outgrow memory.
   */
  traceBytes: number
  /** Blocks one `eth_getLogs` may span. */
  logsBlockRange: number
  /** Blocks past `fromBlock` one `trace_filter` may span (Anvil's 300; past it -32602). */
  traceFilterBlocks: number
  /** Logs one `eth_getLogs` may return. */
  logsResults: number
  /** Addresses in one log filter. */
  filterAddresses: number
  /** Alternatives in one topic position. */
  filterTopicAlternatives: number
  /** Blocks one `eth_feeHistory` covers (more are truncated). */
  feeHistoryBlocks: number
  /** Gas cap for eth_call / eth_estimateGas / eth_createAccessList / eth_simulateV1; 0 = none. */
  rpcGasCap: bigint
  /**
   * Milliseconds one eth_call, eth_estimateGas, eth_createAccessList or eth_simulateV1 may execute
   * before -32000 `execution aborted (timeout = 10s)`; 0 = none. The spec's `rpc-evm-timeout`.
   */
  rpcEvmTimeoutMs: number
  /** Fee cap of a sent transaction in wei (gas × fee cap); 0 = off. Geth's `RPCTxFeeCap`. */
  txFeeCap: bigint
  /** Characters of a hex string param before it is rejected (bounds BigInt and Buffer work). */
  hexParamLength: number
  /** Bytes of an HTTP request body; past it HTTP 413, the rest is not read. */
  httpBodyBytes: number
  /** Bytes of one WebSocket message; past it the socket is closed with 1009. */
  wsMessageBytes: number
  /** Bytes of a batch's responses; later calls answer -32003 `response too large`. */
  batchResponseBytes: number
  /** Nesting depth of a JSON payload; deeper is -32700, checked in linear time. */
  jsonDepth: number
  /** Milliseconds one request may take over HTTP / WebSocket before -32002 `request timed out`. */
  requestTimeoutMs: number
  /** Milliseconds a polling filter lives without a poll (geth's 5 minutes). */
  filterIdleMs: number
  /** Polling filters alive at once; past it -32005. */
  liveFilters: number
  /** Subscriptions on one WebSocket (or one provider); past it -32005. */
  wsSubscriptions: number
  /** Simultaneous connections of a transport; 0 = unlimited (the spec's `max-open-connections`). */
  maxOpenConnections: number
  /**
   * Milliseconds an idle keep-alive connection of `listen()`'s HTTP server stays open (Node's
   * `keepAliveTimeout`, 5 s by default; geth's idle time-out is 120 s). Longer than the clients'
   * own idle time-outs (undici / Node's fetch 4 s, less the server's hint), so a client never
   * reuses a connection the server is closing at that moment (`other side closed`). 0 = the
   * server never closes an idle connection.
   */
  httpKeepAliveMs: number
  /**
   * Messages written to one WebSocket but not yet flushed. At the limit the socket's requests wait
   * (backpressure); a notification that would take it past twice the limit closes it with 1008.
   */
  wsBacklogMessages: number
  /** Bytes written to one WebSocket but not yet flushed; as {@link wsBacklogMessages}. */
  wsBacklogBytes: number
  /** Requests of one WebSocket that run at once; more wait in order (bounds the answers not yet written). */
  wsRequestsInFlight: number
  /**
   * Milliseconds a WebSocket may stay at its backlog limit without flushing anything before it is
   * closed with 1008 as a reader that stopped reading (geth's 10 s write time-out).
   */
  wsStallMs: number
  /**
   * Seconds one debug_cpuProfile / debug_goTrace may record (it holds its request that long);
   * past it -32000. geth has no bound.
   */
  profileSeconds: number
  /** Bytes of memory one JavaScript tracer's sandbox may allocate; past it the trace fails. */
  jsTracerMemoryBytes: number
  /** Bytes of native stack one JavaScript tracer's sandbox may use (deep recursion fails inside it). */
  jsTracerStackBytes: number
  /**
   * Milliseconds one uninterrupted call into a JavaScript tracer may run, whatever the trace's
   * `timeout`: the node serves nothing else meanwhile.
   */
  jsTracerCallMs: number
  /** Heights one `finality_getEvidence` may span. */
  evidenceBlockRange: number
  /** Changes in one `finality_changeValidators`. */
  validatorChanges: number
  /** Milliseconds of delay a `delay` fault may give a validator's messages. */
  faultDelayMs: number
}

/** The defaults. */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  batchItems: 1000,
  methodNameLength: 256,
  rawTransactionBytes: 128 * 1024,
  blobTransactionBytes: 1024 * 1024,
  traceBytes: 128 * 1024 * 1024,
  logsBlockRange: 10_000,
  traceFilterBlocks: 300,
  logsResults: 10_000,
  filterAddresses: 1000,
  filterTopicAlternatives: 1000,
  feeHistoryBlocks: 1024,
  rpcGasCap: 0n,
  rpcEvmTimeoutMs: 10_000,
  txFeeCap: 10n ** 18n,
  hexParamLength: 2 * 5 * 1024 * 1024 + 2,
  httpBodyBytes: 5 * 1024 * 1024,
  wsMessageBytes: 16 * 1024 * 1024,
  batchResponseBytes: 25 * 1000 * 1000,
  jsonDepth: 64,
  requestTimeoutMs: 30_000,
  filterIdleMs: 5 * 60 * 1000,
  liveFilters: 1000,
  wsSubscriptions: 1024,
  maxOpenConnections: 0,
  httpKeepAliveMs: 120_000,
  wsBacklogMessages: 10_000,
  wsBacklogBytes: 16 * 1024 * 1024,
  wsRequestsInFlight: 64,
  wsStallMs: 10_000,
  profileSeconds: 3600,
  jsTracerMemoryBytes: 64 * 1024 * 1024,
  jsTracerStackBytes: 256 * 1024,
  jsTracerCallMs: 1000,
  evidenceBlockRange: 10_000,
  validatorChanges: 100,
  faultDelayMs: 3_600_000,
})

/** Defaults overridden by the caller's values. */
export function resolveLimits(overrides: Partial<Limits> | undefined): Readonly<Limits> {
  return Object.freeze({ ...DEFAULT_LIMITS, ...overrides })
}
