/**
 * What the client asks of a transport (HTTP, WebSocket, an EIP-1193 provider): send calls, one
 * or a batch, and give back per call either the remote's answer or why there is none.
 */

/** One JSON-RPC call to send. */
export interface Call {
  method: string
  params: unknown[]
}

/** The remote's JSON-RPC error object. */
export interface AnswerError {
  code: number
  message: string
  data?: unknown
}

/** The remote answered: a result or its JSON-RPC error. */
export type Answer = { ok: true; result: unknown } | { ok: false; error: AnswerError }

/** No answer for a call: why, and whether sending it again may help. */
export class Failure {
  constructor(
    /** What went wrong, for the message (`HTTP 503 Service Unavailable`, `timed out after 200 ms`). */
    readonly reason: string,
    /** A new attempt may succeed (429, 5xx, network error, time-out, dropped socket). */
    readonly retryable: boolean,
    /** The remote asked to wait this long (Retry-After, Infura's `backoff_seconds`). */
    readonly retryAfterMs?: number,
    /** The remote refuses JSON-RPC batches: send the calls one by one from now on. */
    readonly batchRefused = false,
  ) {}
}

/** A way to the remote. */
export interface Transport {
  /** Whether calls may be sent as a batch. */
  readonly batches: boolean
  /**
   * Sends `calls` (a batch when more than one) and resolves to one outcome per call, in order;
   * never rejects. `signal` aborts the send (time-out, close): the outcomes are then failures.
   */
  send(calls: readonly Call[], signal: AbortSignal): Promise<Array<Answer | Failure>>
  /** Frees sockets; later sends fail. */
  close(): Promise<void>
}

/** The failure an aborted send reports: the signal's reason when it is one, else a time-out. */
export function abortFailure(signal: AbortSignal): Failure {
  return signal.reason instanceof Failure ? signal.reason : new Failure('aborted', false)
}
