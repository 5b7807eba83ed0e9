/**
 * The same JSON-RPC requests sent to Anvil (over HTTP) and to a finality node (`node.request`, or
 * HTTP), each answer kept whole (result or error), for differential tests.
 */
import type { FinalityNode } from '../../src/index.js'

/** A JSON-RPC answer: its result, or its error's code and message. */
export type Answer = { result: unknown } | { error: { code: number; message: string } }

/** One side of a differential test. */
export interface Endpoint {
  name: string
  rpc(method: string, params?: unknown[]): Promise<Answer>
}

let id = 0

/** An endpoint served over HTTP at `url`. */
export function httpEndpoint(name: string, url: string): Endpoint {
  return {
    name,
    async rpc(method, params = []) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
      const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } }
      if (body.error !== undefined) return { error: { code: body.error.code, message: body.error.message } }
      return { result: body.result }
    },
  }
}

/** An endpoint that is a node in this process, through `node.request`. */
export function nodeEndpoint(node: FinalityNode): Endpoint {
  return {
    name: 'finality',
    async rpc(method, params = []) {
      try {
        return { result: await node.request({ method, params }) }
      } catch (error) {
        const e = error as { code: number; message: string }
        return { error: { code: e.code, message: e.message } }
      }
    },
  }
}

/** The result of a request that must succeed. */
export async function resultOf<T = unknown>(endpoint: Endpoint, method: string, params: unknown[] = []): Promise<T> {
  const answer = await endpoint.rpc(method, params)
  if ('error' in answer) throw new Error(`${endpoint.name} ${method}: ${answer.error.message} (${answer.error.code})`)
  return answer.result as T
}

/** The receipt of `hash`, polled for (Anvil mines a sent transaction just after answering). */
export async function receiptOf(endpoint: Endpoint, hash: string): Promise<Record<string, unknown>> {
  for (let i = 0; ; i++) {
    const r = await resultOf<Record<string, unknown> | null>(endpoint, 'eth_getTransactionReceipt', [hash])
    if (r !== null) return r
    if (i > 400) throw new Error(`${endpoint.name} did not mine ${hash}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
