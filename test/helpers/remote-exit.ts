/**
 * Run as a child process by the remote tests: uses a fork remote client over HTTP and over
 * WebSocket against the URLs in argv (batches, a time-out, a request pending at close), closes
 * them, and then must exit by itself: a socket or timer left behind would keep it alive.
 */
import { createRemote } from '../../src/fork/remote/index.js'

const [http, ws] = process.argv.slice(2) as [string, string]
const lines: string[] = []
for (const url of [http, ws]) {
  const remote = createRemote({ url, retryBaseMs: 10_000 })
  const ids = await Promise.all([remote.request({ method: 'eth_chainId' }), remote.request({ method: 'eth_blockNumber' })])
  // Left pending at close: one waiting for its answer, one waiting for its back-off.
  const pending = remote.request({ method: 'eth_chainId' }).catch((e: Error) => e.message)
  lines.push(`${url} ${JSON.stringify(ids)} ${JSON.stringify(remote.stats())}`)
  await remote.close()
  lines.push(String(await pending))
}
// Its back-off (30 to 60 s) outlasts the test's time-out: a timer left after close() would show.
const unanswered = createRemote({ url: 'http://127.0.0.1:1', retries: 3, retryBaseMs: 60_000 })
const refused = unanswered.request({ method: 'eth_chainId' }).catch((e: Error) => e.message)
await new Promise((r) => setTimeout(r, 100))
await unanswered.close()
lines.push(String(await refused))
console.log(lines.join('\n'))
