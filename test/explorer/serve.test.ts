/**
 * The page's handler: mounted beside the transports on the user's own server (node:http,
 * Express), options checked, and the page read only at its first request: importing the
 * package loads nothing of it, and no module of the library imports the page's code.
 */
import { execFile } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import express from 'express'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildExplorerPage } from '../../tsup.config.js'
import { trackNodes } from '../helpers/nodes.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const newNode = trackNodes()
const servers: Server[] = []

beforeAll(() => buildExplorerPage(path.join(ROOT, 'dist')), 120_000)
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))))
})

async function serve(server: Server): Promise<string> {
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** The relative and package specifiers of a file's imports (static, dynamic, export-from). */
const specifiers = (text: string) => [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map((m) => m[1] as string)

const settingsOf = (html: string) => JSON.parse(/<script id="finality-settings" type="application\/json">(.*?)<\/script>/.exec(html)?.[1] ?? 'null') as unknown

describe('node.explorer()', () => {
  it('mounts on Express beside node.http() and node.ws(): the page names where they are', async () => {
    const node = await newNode()
    const app = express()
    app.use('/rpc', node.http())
    app.get('/', node.explorer({ rpc: '/rpc', ws: '/ws' }))
    const server = createServer(app)
    node.ws(server, { path: '/ws' })
    const url = await serve(server)
    const res = await fetch(`${url}/`)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/)
    const html = await res.text()
    expect(settingsOf(html)).toEqual({ rpc: '/rpc', ws: '/ws' })
    const head = await fetch(`${url}/`, { method: 'HEAD' })
    expect([head.status, await head.text()]).toEqual([200, ''])
    const call = await fetch(`${url}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' })
    expect(await call.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' })
  })

  it('on node:http alone: GET is the page, another method 405; with next, Express has the rest', async () => {
    const node = await newNode()
    const page = node.explorer()
    const url = await serve(createServer((req, res) => page(req, res)))
    expect(settingsOf(await (await fetch(url)).text())).toEqual({})
    const post = await fetch(url, { method: 'POST' })
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD'])
    const app = express()
    app.all('/', node.explorer(), (_req, res) => void res.status(418).end())
    const other = await serve(createServer(app))
    expect((await fetch(other, { method: 'POST' })).status).toBe(418)
  })

  it('a settings value cannot end its script element', async () => {
    const node = await newNode()
    const url = await serve(createServer(node.explorer({ rpc: '/x</script><script>alert(1)</script>' }) as never))
    const html = await (await fetch(url)).text()
    expect(html).not.toContain('</script><script>alert(1)')
    expect(settingsOf(html)).toEqual({ rpc: '/x</script><script>alert(1)</script>' })
  })

  it('error: an unknown option or a bad value names it', async () => {
    const node = await newNode()
    expect(() => node.explorer({ rcp: '/rpc' } as never)).toThrow(/explorer: option rcp/)
    expect(() => node.explorer({ ws: '' })).toThrow(/explorer: option ws must be a non-empty path or URL, got ""/)
    await expect(node.listen({ port: 0, explorer: 5 as never })).rejects.toThrow(/listen: option explorer must be true, false or \{ rpc\?, ws\? \}, got 5/)
    await expect(node.listen({ port: 0, explorer: { rpc: 1 } as never })).rejects.toThrow(/listen\.explorer: option rpc must be a non-empty path or URL/)
  })
})

describe('import time', () => {
  it('importing the package reads nothing of the page; the first page request reads it', async () => {
    const script = [
      "import fs from 'node:fs'",
      "import { syncBuiltinESMExports } from 'node:module'",
      'const read = fs.readFileSync; const seen = []',
      'fs.readFileSync = function (file, ...rest) { seen.push(String(file)); return read.call(this, file, ...rest) }',
      // The named exports (`import { readFileSync } from 'node:fs'`) follow the patched object.
      'syncBuiltinESMExports()',
      "const { createNode } = await import('./src/index.ts')",
      'const node = await createNode()',
      // The page's file alone: where Node has module.registerHooks (22.15, 23.5 and later), tsx's
      // loader reads the sources (src/explorer/serve.ts) in this thread, through the same readFileSync.
      "const page = (f) => f.endsWith('explorer.html')",
      'const before = seen.filter(page)',
      "let body = ''",
      "node.explorer()({ method: 'GET', headers: {} }, { writeHead() {}, end(b) { body = b } })",
      "console.log(JSON.stringify({ before, after: seen.filter(page).length, page: body.includes('finality-settings') }))",
      'await node.close()',
    ].join('\n')
    const { stdout } = await promisify(execFile)(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['--input-type=module', '-e', script], { cwd: ROOT })
    expect(JSON.parse(stdout.trim().split('\n').pop() as string)).toEqual({ before: [], after: 1, page: true })
  })

  it("no module of the library imports the page's code, and the page imports nothing of the library: it talks to the node over JSON-RPC alone", () => {
    const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : []))
    const pageDir = path.join(ROOT, 'src', 'explorer', 'page')
    const into: string[] = []
    const out: string[] = []
    for (const file of walk(path.join(ROOT, 'src'))) {
      const inPage = file.startsWith(pageDir + path.sep)
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue
        const target = path.resolve(path.dirname(file), spec)
        if (!inPage && target.startsWith(pageDir)) into.push(`${path.relative(ROOT, file)} → ${spec}`)
        if (inPage && !target.startsWith(pageDir)) out.push(`${path.relative(ROOT, file)} → ${spec}`)
      }
    }
    expect(walk(pageDir).length).toBeGreaterThan(5)
    expect([into, out]).toEqual([[], []])
  })
})
