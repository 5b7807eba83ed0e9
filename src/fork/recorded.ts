/**
 * Requests asked of a remote ahead, for a reset to another fork that must not leave the node half
 * reset: the answers are recorded while nothing of the chain has changed, and the new fork's state
 * is then built from them, each answered once, without the remote.
 */
import type { RemoteRequests } from './lazy-state.js'

const keyOf = (method: string, params: unknown[] | undefined) => `${method} ${JSON.stringify(params ?? [])}`

/** A remote whose answers are kept (`answers`) as they arrive. */
export function recording(remote: RemoteRequests): RemoteRequests & { answers: Map<string, unknown> } {
  const answers = new Map<string, unknown>()
  return {
    answers,
    async request(args) {
      const answer = await remote.request(args)
      answers.set(keyOf(args.method, args.params), answer)
      return answer
    },
  }
}

/** `remote`, answering the requests in `answers` from them, once each. */
export function replaying(remote: RemoteRequests, answers: Map<string, unknown>): RemoteRequests {
  return {
    request(args) {
      const key = keyOf(args.method, args.params)
      if (answers.has(key)) {
        const answer = answers.get(key)
        answers.delete(key)
        return Promise.resolve(answer)
      }
      return remote.request(args)
    },
  }
}
