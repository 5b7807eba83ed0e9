/**
 * The TypeScript blocks of the docs, run: each is a program, a module of its own, in one of two
 * child processes (`node --import tsx`, the package's imports pointed at src/, loaded once per
 * child: loading the sources takes seconds on a busy machine). A block that is a fragment
 * (it uses a `node` the page made earlier) gets a harness written here: a prefix that makes what
 * it assumes and a suffix that prints what the page says comes out. The block's own text is
 * always read from the page. Fixed ports (8545, 8546) become 0, so the runs never collide with a
 * node already running. A line `expr // result` the test names is printed (`PROBE <json>`) and
 * compared with the page's comment.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRemote } from '../../src/fork/remote/index.js'
import { createNode } from '../../src/index.js'
import { checkNodeOptions } from '../../src/options-check.js'
import { block, runBatch, type BatchRun, type Program } from './blocks.js'

/** `source` with every line starting with one of `starts` (an `expr // comment` line) printing `expr` as `PROBE <json>`. */
function probe(source: string, starts: string[]): string {
  return source
    .split('\n')
    .map((line) => {
      const trimmed = line.trim()
      if (!starts.some((s) => trimmed.startsWith(s))) return line
      const expr = trimmed.replace(/\s*\/\/.*$/, '').replace(/;$/, '')
      return `console.log('PROBE', JSON.stringify(${expr}, (_k, v) => (typeof v === 'bigint' ? v.toString() + 'n' : v)))`
    })
    .join('\n')
}

/** The page's comments after the lines that start with one of `starts`, in order. */
function comments(text: string, starts: string[]): string[] {
  return text
    .split('\n')
    .filter((l) => starts.some((s) => l.trim().startsWith(s)))
    .map((l) => (/\/\/\s*(.*)$/.exec(l)?.[1] ?? '').trim())
}

function probes(run: BatchRun): string[] {
  return run.stdout
    .split('\n')
    .filter((l) => l.startsWith('PROBE '))
    .map((l) => l.slice(6))
}

function freePorts(source: string): string {
  return source.replace(/\b(8545|8546)\b/g, '0')
}


const NODE = "import { createNode as __createNode } from 'finality-evm'\nconst node = await __createNode()\n"


const text = {
  viem: block('in-process.md', 1, 'ts'),
  ethers: block('in-process.md', 2, 'ts'),
  express: block('in-process.md', 3, 'ts'),
  chain: block('in-process.md', 4, 'ts'),
  inShort: block('transports.md', 1, 'ts'),
  http: block('transports.md', 5, 'ts'),
  listen: block('transports.md', 6, 'ts'),
  fixture: block('controls.md', 1, 'ts'),
  halt: block('validators.md', 1, 'ts'),
  certificate: block('validators.md', 2, 'ts'),
  remote: block('forking.md', 3, 'ts'),
}

const LISTEN_LINES = ['one.http', 'one.ws', 'served.http', 'served.ws']
const CERT_LINE = 'verifyCertificate(cert'

/** Waits for a server of the program's to listen, then its port. */
const LISTENING = "await new Promise((resolve) => (server.listening ? resolve(undefined) : server.once('listening', resolve)))\n"

function fetchChainId(url: string): string {
  return `(await (await fetch(${url}, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }) })).json()).result`
}

function programs(remoteUrl: string): Program[] {
  return [
    { name: 'viem.mts', source: text.viem },
    {
      name: 'ethers.mts',
      source: `${NODE}${text.ethers}\nconsole.log((await signer.getAddress()) === node.accounts[0].address)\nawait node.close()\n`,
    },
    {
      name: 'express.mts',
      source: `${NODE}${text.express}
${LISTENING}const port = server.address().port
const viaHttp = ${fetchChainId('`http://127.0.0.1:${port}/rpc`')}
const { WebSocket } = await import('ws')
const socket = new WebSocket(\`ws://127.0.0.1:\${port}/ws\`)
const viaWs = await new Promise((resolve, reject) => {
  socket.once('open', () => socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] })))
  socket.once('message', (data) => resolve(JSON.parse(String(data))))
  socket.once('error', reject)
})
console.log(viaHttp, typeof viaWs.result)
socket.close()
server.close()
await node.close()
`,
    },
    { name: 'chain.mjs', source: `${freePorts(text.chain)}\nawait node.close()\n` },
    {
      name: 'in-short.mts',
      source: `${NODE}${freePorts(text.inShort)}
${LISTENING}console.log(${fetchChainId('`http://127.0.0.1:${server.address().port}`')}, /^http:\\/\\/127\\.0\\.0\\.1:\\d+$/.test(served.http), /^ws:\\/\\/127\\.0\\.0\\.1:\\d+$/.test(served.ws))
server.close()
await node.close()
`,
    },
    {
      // The page's first server is kept in no variable: it stays open until the batch ends.
      name: 'http.mts',
      source: `${NODE}import http from 'node:http'\nimport express from 'express'\nconst app = express()\n${freePorts(text.http)}
const mounted = app.listen(0, '127.0.0.1')
await new Promise((resolve) => mounted.once('listening', resolve))
const post = (method) => fetch(\`http://127.0.0.1:\${mounted.address().port}/rpc\`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://app.example' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method }) })
const chain = await post('eth_chainId')
const mine = await (await post('evm_mine')).json()
console.log(chain.headers.get('access-control-allow-origin'), (await chain.json()).result, mine.error.code)
mounted.close()
await node.close()
`,
    },
    { name: 'listen.mts', source: `${NODE}${probe(text.listen, LISTEN_LINES)}\nawait node.close()\n` },
    {
      name: 'fixture.mts',
      source: `${text.fixture}
const first = await node.request({ method: 'eth_blockNumber' })
await node.mine()
const again = await loadFixture(node, deployToken)
console.log(first === (await node.request({ method: 'eth_blockNumber' })), JSON.stringify(again) === JSON.stringify(await loadFixture(node, deployToken)))
await node.close()
`,
    },
    {
      name: 'halt.mts',
      source: `${probe(text.halt, ['await node.mine()'])}
let receipt = null
while (receipt === null) {
  receipt = await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })
  await new Promise((resolve) => setTimeout(resolve, 50))
}
console.log('mined', receipt.status)
await node.close()
`,
    },
    {
      name: 'certificate.mts',
      source: `import { createNode as __createNode } from 'finality-evm'
const node = await __createNode({ validators: 4 })
const __hash = await node.request({ method: 'eth_sendTransaction', params: [{ from: node.accounts[0].address, to: node.accounts[1].address, value: '0x1' }] })
const receipt = await node.request({ method: 'eth_getTransactionReceipt', params: [__hash] })
${probe(text.certificate, [CERT_LINE])}
await node.close()
`,
    },
    {
      name: 'remote.mts',
      source: `const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'\n${probe(text.remote.replace('https://rpc.example/v2/KEY', remoteUrl), ['remote.stats()'])}`,
    },
  ]
}

let runs: Record<string, BatchRun> = {}
let stderr = ''
let remoteNode: Awaited<ReturnType<typeof createNode>> | undefined

beforeAll(async () => {
  remoteNode = await createNode()
  const served = await remoteNode.listen({ port: 0 })
  const all = programs(served.http as string)
  // Two children, the slowest (a halt waits out consensus time-outs) in the shorter one.
  const second = new Set(['halt.mts', 'certificate.mts', 'remote.mts', 'fixture.mts', 'viem.mts'])
  const batches = await Promise.all([runBatch(all.filter((p) => !second.has(p.name))), runBatch(all.filter((p) => second.has(p.name)))])
  for (const batch of batches) {
    Object.assign(runs, batch.runs)
    stderr += batch.stderr
  }
}, 180_000)

afterAll(async () => {
  await remoteNode?.close()
})

/** The output of program `name`, which ran to its end without throwing. */
function output(name: string): string {
  const run = runs[name]
  expect(run, `${name} did not run; stderr: ${stderr}`).toBeDefined()
  expect(run?.error, run?.error).toBeUndefined()
  return (run as BatchRun).stdout
}

describe('the programs', () => {
  it('print nothing on stderr', () => {
    expect(stderr).toBe('')
  })
})

describe('docs/in-process.md', () => {
  it('viem: the program runs as written', () => {
    expect(output('viem.mts')).toBe('')
  })

  it('ethers: a BrowserProvider over node.provider, whose signer 0 is the first node account', () => {
    expect(output('ethers.mts')).toBe('true')
  })

  it('Express: JSON-RPC over HTTP at /rpc and WebSocket at /ws on the same server', () => {
    expect(output('express.mts')).toBe('0x7a69 string')
  })

  it('chain.mjs: node.listen prints its two endpoints', () => {
    expect(output('chain.mjs')).toMatch(/^http:\/\/127\.0\.0\.1:\d+ ws:\/\/127\.0\.0\.1:\d+$/)
  })
})

describe('docs/transports.md', () => {
  it('in short: a server of your own with node.http() and node.ws(), and node.listen()', () => {
    expect(output('in-short.mts')).toBe('0x7a69 true true')
  })

  it('HTTP: node.http() with its api and cors options, on a server and in an Express app', () => {
    expect(output('http.mts')).toBe('https://app.example 0x7a69 -32601')
  })

  it('node.listen(): the endpoints are what the comments show (one port for both, or one each)', () => {
    output('listen.mts')
    const printed = probes(runs['listen.mts'] as BatchRun).map((p) => JSON.parse(p) as string)
    const stated = comments(text.listen, LISTEN_LINES).map((c) => c.replace(/^'|'$/g, ''))
    expect(printed).toHaveLength(4)
    // The same port in two comments is the same port in the answers; different ports differ.
    const ports = new Map<string, string>()
    for (const [i, said] of stated.entries()) {
      const [, scheme, port] = /^(\w+:\/\/127\.0\.0\.1:)(\d+)$/.exec(said) ?? []
      const [, gotScheme, got] = /^(\w+:\/\/127\.0\.0\.1:)(\d+)$/.exec(printed[i] ?? '') ?? []
      expect(gotScheme, printed[i]).toBe(scheme)
      if (!ports.has(port as string)) {
        expect([...ports.values()], 'a port the page shows as another').not.toContain(got)
        ports.set(port as string, got as string)
      }
      expect(got).toBe(ports.get(port as string))
    }
  })
})

describe('docs/controls.md', () => {
  it('loadFixture: the first call runs the setup, a later one restores its chain', () => {
    expect(output('fixture.mts')).toBe('true true')
  })
})

describe('docs/validators.md', () => {
  it('a halt: no block while two of four are offline, the transaction mined when one is back', () => {
    expect(comments(text.halt, ['await node.mine()'])[0]).toMatch(/^undefined\b/)
    expect(output('halt.mts')).toBe('PROBE undefined\nmined 0x1')
  })

  it('the certificate check: a block of a four-validator node verifies with keys from the mnemonic alone', () => {
    expect(comments(text.certificate, [CERT_LINE])).toEqual(['true'])
    expect(output('certificate.mts')).toBe('PROBE true')
  })
})

describe('docs/forking.md', () => {
  it('createRemote: a request to a remote and the stats the comment lists', () => {
    output('remote.mts')
    const stated = (/\{([^}]*)\}/.exec(comments(text.remote, ['remote.stats()'])[0] ?? '')?.[1] ?? '').split(',').map((k) => k.trim())
    expect(Object.keys(JSON.parse(probes(runs['remote.mts'] as BatchRun)[0] ?? '{}') as object).sort()).toEqual(stated.sort())
  })

  it("createNode's fork options: the URL form passes the option check, the provider form forks", async () => {
    const text = block('forking.md', 1, 'ts')
    const calls = [...text.matchAll(/createNode\((\{[^\n]*\})\)/g)].map((m) => m[1] as string)
    expect(calls).toHaveLength(2)
    const otherNode = await createNode()
    try {
      const evaluate = (expr: string) => new Function('otherNode', `return (${expr})`)(otherNode) as { fork: { url?: string } }
      const byUrl = evaluate(calls[0] as string)
      expect(byUrl.fork.url).toMatch(/^https:\/\//)
      // No network here: the options are checked as createNode checks them before it connects.
      expect(() => checkNodeOptions(byUrl)).not.toThrow()
      expect(() => checkNodeOptions({ fork: { ...byUrl.fork, blockNumbr: 1 } })).toThrow(/blockNumbr/)
      const fork = await createNode(evaluate(calls[1] as string) as never)
      try {
        expect(await fork.request({ method: 'eth_chainId' })).toBe(await otherNode.request({ method: 'eth_chainId' }))
      } finally {
        await fork.close()
      }
    } finally {
      await otherNode.close()
    }
  })

  it("the remote's failures read as the page's three messages", async () => {
    const lines = block('forking.md', 4, '').trim().split('\n')
    const normal = (m: string) => m.replace(/https?:\/\/[^/\s:]+(:\d+)?/g, '<origin>').replace(/\b\d+\.\d+\.\d+\.\d+:\d+/g, '<host:port>').replace(/after \d+ ms/, 'after N ms')
    const fast = { retryBaseMs: 0 }
    const failure = async (remote: ReturnType<typeof createRemote>, method: string) => {
      try {
        await remote.request({ method, params: [] } as never)
        return 'no failure'
      } finally {
        await remote.close()
      }
    }
    const message = (p: Promise<unknown>) => p.then(String, (e: Error) => e.message)
    const busy: Server = createServer((_req, res) => res.writeHead(503).end())
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
    const closed: Server = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const closedPort = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    try {
      const key = 'abcdefghijklmnopqrstuvwxyz012345'
      const got = [
        await message(failure(createRemote({ url: `http://127.0.0.1:${(busy.address() as AddressInfo).port}/v3/${key}`, ...fast }), 'eth_getProof')),
        await message(failure(createRemote({ url: `http://127.0.0.1:${closedPort}`, ...fast }), 'eth_getBalance')),
        await message(failure(createRemote({ provider: { request: () => new Promise(() => {}) }, timeoutMs: 20, ...fast }), 'eth_chainId')),
      ]
      expect(got.map(normal)).toEqual(lines.map(normal))
    } finally {
      busy.close()
    }
  })
})
