/**
 * Loopback ports for a devnet's listeners, picked where no outgoing connection takes them.
 *
 * A devnet's ports are chosen before anything listens on them (CometBFT's config names every
 * peer's), and each node's listeners close and open again on a stop and a start. A port the kernel
 * hands out for `listen(0)` lies in its ephemeral range, the range every outgoing connection (a
 * CometBFT peer dialling, CometBFT's connections to the application, an HTTP client) takes its local
 * port from, so between the pick and the listen, or while a node is down, a connection can hold it
 * and the listen fails with EADDRINUSE. The ports here come from below that range; each is checked
 * free by a listen, and the probes stay open until the whole set is picked, so a devnet's ports are
 * distinct and another process picking at the same moment sees them taken.
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'

/** The lowest port considered: above the registered services most machines run. */
const FLOOR = 10_000
/** Where the kernel's ephemeral range starts when it cannot be read (Linux's default; macOS and Windows start higher). */
const DEFAULT_EPHEMERAL_LOW = 32_768
/** Below this many candidates the range is too narrow to pick from at random. */
const MIN_SPAN = 1_000

/** Ports handed out by this process: two devnets in one process never share one. */
const handedOut = new Set<number>()

/** The first port of the kernel's ephemeral range (Linux: /proc/sys/net/ipv4/ip_local_port_range). */
export function ephemeralLow(read: () => string = () => readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')): number {
  try {
    const low = Number(read().trim().split(/\s+/)[0])
    return Number.isInteger(low) && low > 0 && low <= 65_535 ? low : DEFAULT_EPHEMERAL_LOW
  } catch {
    return DEFAULT_EPHEMERAL_LOW
  }
}

/** A probe listening on `port` (0: the kernel's pick), or undefined when the port is taken. */
function probe(port: number): Promise<Server | undefined> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', (e: NodeJS.ErrnoException) => (e.code === 'EADDRINUSE' || e.code === 'EACCES' ? resolve(undefined) : reject(e)))
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(server))
  })
}

const portOf = (server: Server): number => {
  const address = server.address()
  if (typeof address !== 'object' || address === null) throw new Error('a probe listener has no port')
  return address.port
}

/**
 * `count` distinct ports free on 127.0.0.1 now, below the ephemeral range (the kernel's picks when
 * that range leaves too little room below it).
 */
export async function pickPorts(count: number, low: number = ephemeralLow()): Promise<number[]> {
  if (!Number.isInteger(count) || count < 0) throw new Error(`a port count is a non-negative integer, not ${count}`)
  const span = low - FLOOR
  const probes: Server[] = []
  try {
    let tries = 0
    while (probes.length < count) {
      if (span < MIN_SPAN) {
        const server = await probe(0)
        if (server !== undefined) probes.push(server)
        continue
      }
      if (++tries > count * 200) throw new Error(`no ${count} free ports on 127.0.0.1 between ${FLOOR} and ${low - 1}`)
      const port = FLOOR + Math.floor(Math.random() * span)
      if (handedOut.has(port)) continue
      const server = await probe(port)
      if (server === undefined) continue
      handedOut.add(port)
      probes.push(server)
    }
    return probes.map(portOf)
  } finally {
    await Promise.all(probes.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))))
  }
}
