/**
 * A devnet's ports: distinct, free, and below the kernel's ephemeral range, where no outgoing
 * connection (a CometBFT peer dialling, an HTTP client) can take one between the pick and the listen
 * or while a node is down.
 */
import { createServer, connect, type Server } from 'node:net'
import { describe, expect, it } from 'vitest'
import { ephemeralLow, pickPorts } from '../../src/abci/ports.js'

const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve(server))
  })
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()))

describe('pickPorts', () => {
  it('gives distinct ports below the ephemeral range, each free to listen on', async () => {
    const low = ephemeralLow()
    const ports = await pickPorts(64)
    expect(new Set(ports).size).toBe(64)
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000)
      expect(port).toBeLessThan(low)
    }
    const servers = await Promise.all(ports.map(listen))
    await Promise.all(servers.map(close))
  })

  it('never hands out a port again in the same process, nor one another listener holds', async () => {
    const first = await pickPorts(32, 10_000 + 1_000)
    const held = await Promise.all(first.slice(0, 16).map(listen))
    try {
      // 1,000 candidates: 32 already handed out, 16 of them held open by listeners.
      const second = await pickPorts(200, 10_000 + 1_000)
      expect(second.filter((p) => first.includes(p))).toEqual([])
      expect(new Set(second).size).toBe(200)
    } finally {
      await Promise.all(held.map(close))
    }
  })

  it('a port an outgoing connection holds is not in the range picked from', async () => {
    const server = await listen(0)
    const port = (server.address() as { port: number }).port
    const socket = connect(port, '127.0.0.1')
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
    try {
      expect(socket.localPort!).toBeGreaterThanOrEqual(ephemeralLow())
    } finally {
      socket.destroy()
      await close(server)
    }
  })

  it('reads the ephemeral range, and falls back to 32768 when it cannot', () => {
    expect(ephemeralLow(() => '40000\t60999\n')).toBe(40_000)
    expect(ephemeralLow(() => 'nonsense')).toBe(32_768)
    expect(
      ephemeralLow(() => {
        throw new Error('ENOENT')
      }),
    ).toBe(32_768)
  })

  it('takes the kernel picks when the range leaves too little room below it, and refuses a bad count', async () => {
    const ports = await pickPorts(4, 10_500)
    expect(new Set(ports).size).toBe(4)
    for (const port of ports) expect(port).toBeGreaterThanOrEqual(ephemeralLow())
    await expect(pickPorts(-1)).rejects.toThrow('a port count is a non-negative integer, not -1')
  })

  it('says so when the range below has no room left', async () => {
    await expect(pickPorts(2_000, 10_000 + 1_000)).rejects.toThrow('no 2000 free ports on 127.0.0.1 between 10000 and 10999')
  })
})
