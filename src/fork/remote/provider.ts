/**
 * The EIP-1193 transport: each call goes to `provider.request` as it is (a provider takes no
 * batches). A thrown error with a numeric `code` and a `message` is the remote's answer;
 * EIP-1193's 4900/4901 (disconnected) are failures worth retrying; anything else is a failure
 * retrying would repeat.
 */
import type { RemoteProvider } from './options.js'
import { abortFailure, Failure, type Answer, type Call, type Transport } from './transport.js'

/** A transport over an EIP-1193 provider. */
export function providerTransport(provider: RemoteProvider): Transport {
  let closed = false
  return {
    batches: false,
    async send(calls: readonly Call[], signal: AbortSignal): Promise<Array<Answer | Failure>> {
      if (closed) return calls.map(() => new Failure('the client is closed', false))
      return Promise.all(calls.map((call) => one(provider, call, signal)))
    },
    async close() {
      closed = true
    },
  }
}

async function one(provider: RemoteProvider, call: Call, signal: AbortSignal): Promise<Answer | Failure> {
  let onAbort: (() => void) | undefined
  const aborted = new Promise<Failure>((resolve) => {
    onAbort = () => resolve(abortFailure(signal))
    signal.addEventListener('abort', onAbort, { once: true })
  })
  try {
    const asked = (async (): Promise<Answer | Failure> => {
      try {
        return { ok: true, result: await provider.request({ method: call.method, params: call.params }) }
      } catch (error) {
        return fromThrown(error)
      }
    })()
    return await Promise.race([asked, aborted])
  } finally {
    signal.removeEventListener('abort', onAbort!)
  }
}

function fromThrown(error: unknown): Answer | Failure {
  const e = error as { code?: unknown; message?: unknown; data?: unknown } | null
  const message = typeof e?.message === 'string' ? e.message : String(error)
  if (typeof e?.code === 'number' && Number.isInteger(e.code)) {
    if (e.code === 4900 || e.code === 4901) return new Failure(`provider disconnected: ${message}`, true)
    return { ok: false, error: e.data === undefined ? { code: e.code, message } : { code: e.code, message, data: e.data } }
  }
  return new Failure(`provider threw: ${message.split('\n')[0]}`, false)
}
