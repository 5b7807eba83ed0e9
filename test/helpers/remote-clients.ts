/**
 * `createRemote` for a test file that keeps every client it made, for `closeAll()` in the
 * file's `afterAll`, before the servers close (a client left open keeps sockets and timers, and
 * the test process from exiting).
 */
import { createRemote, type RemoteClient, type RemoteOptions } from '../../src/fork/remote/index.js'

export interface RemoteClients {
  (options: RemoteOptions): RemoteClient
  closeAll(): Promise<void>
}

export function remoteClients(): RemoteClients {
  const clients: RemoteClient[] = []
  const make = (options: RemoteOptions): RemoteClient => {
    const c = createRemote(options)
    clients.push(c)
    return c
  }
  return Object.assign(make, {
    async closeAll(): Promise<void> {
      for (const c of clients.splice(0)) await c.close()
    },
  })
}
