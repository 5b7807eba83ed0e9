/**
 * The remote a fork reads from: `createRemote({ url | provider, … })` gives a client with an
 * EIP-1193 `request` that is safe against an unreliable remote (time-outs, retries with back-off,
 * a rate cap, batching of concurrent requests). Settings and behaviour: docs/forking.md, "The remote".
 */
import { ForkRemoteError } from '../../domain-errors.js'
import { redactUrl } from './classify.js'
import { createClient, type RemoteStats } from './client.js'
import { httpTransport } from './http.js'
import { checkRemoteOptions, REMOTE_DEFAULTS, type RemoteOptions } from './options.js'
import { providerTransport } from './provider.js'
import type { Transport } from './transport.js'
import { wsTransport } from './ws.js'

export { ForkRemoteError }
export { checkRemoteOptions, remoteRule, REMOTE_DEFAULTS, REMOTE_OPTION_RULES, type RemoteOptions, type RemoteProvider } from './options.js'
export type { RemoteStats } from './client.js'
export { redactUrl } from './classify.js'

/** A client of the remote. */
export interface RemoteClient {
  /** Sends a request (EIP-1193 shape); resolves to its result, rejects with a {@link ForkRemoteError}. */
  request(args: { method: string; params?: unknown[] }): Promise<unknown>
  /** Counts since creation: requests asked, round trips, batches, retries, errors. */
  stats(): RemoteStats
  /** Rejects pending requests and frees sockets and timers; later requests reject (4900). */
  close(): Promise<void>
}

/** A client of the remote `options` names; throws an `InvalidOptionError` for bad options. */
export function createRemote(options: RemoteOptions): RemoteClient {
  checkRemoteOptions('createRemote', options)
  let transport: Transport
  let remote: string
  if (options.provider !== undefined) {
    transport = providerTransport(options.provider)
    remote = 'provider'
  } else {
    const url = options.url as string
    remote = redactUrl(url)
    const protocol = new URL(url).protocol
    transport =
      protocol === 'ws:' || protocol === 'wss:'
        ? wsTransport(url, options.headers ?? {}, options.timeoutMs ?? REMOTE_DEFAULTS.timeoutMs)
        : httpTransport(url, options.headers ?? {})
  }
  return createClient(transport, remote, options)
}
