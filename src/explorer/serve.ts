/**
 * The explorer page's handler: serves dist/explorer.html (the page and its bundled script, built
 * by tsup.config.ts's buildExplorerPage) with where to reach the node written in. The file is
 * read at the first request, never at import: the library's import time does not grow with the
 * page (test/explorer/serve.test.ts checks).
 */
import { existsSync, readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { fileURLToPath } from 'node:url'
import { checkOptions, type Rule } from '../option-rules.js'

/** Where the page reaches the node: paths or URLs, resolved against the page's own address. */
export interface ExplorerOptions {
  /** The JSON-RPC (HTTP) endpoint. Default: the page's own address (the CLI serves both on one). */
  rpc?: string
  /** The WebSocket endpoint (`ws://…`, or a path on the page's host). Default: the page's address. */
  ws?: string
}

/** A node:http / Express handler serving the page on GET and HEAD; other methods go to `next` (405 without). */
export type ExplorerHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void

/** The place of the built page: beside the bundle in dist/, or dist/ seen from src/explorer/ (tests from source). */
const CANDIDATES = ['./explorer.html', '../../dist/explorer.html']

let cached: string | undefined

/** The page's HTML, read once; a clear error when the package was not built. */
export function explorerHtml(): string {
  if (cached !== undefined) return cached
  for (const candidate of CANDIDATES) {
    const file = fileURLToPath(new URL(candidate, import.meta.url))
    if (existsSync(file)) return (cached = readFileSync(file, 'utf8'))
  }
  throw new Error('the explorer page is not built (dist/explorer.html): run `npm run build`')
}

/** The page with its settings: JSON in a script element, `<` escaped so no text can end it. */
export function explorerPage(options: ExplorerOptions): string {
  const settings = JSON.stringify(options).replace(/</g, '\\u003c')
  return explorerHtml().replace('<!--finality-settings-->', `<script id="finality-settings" type="application/json">${settings}</script>`)
}

/** Whether a request asks for a page (a browser's navigation), not a health check or a JSON-RPC call. */
export function wantsPage(req: IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false
  return (req.headers.accept ?? '').includes('text/html')
}

/** Throws an InvalidOptionError naming the first bad option of `node.explorer(options)` (and listen's `explorer`). */
export function checkExplorerOptions(options: unknown, where = 'explorer'): void {
  checkOptions(where, { rpc: nonEmpty, ws: nonEmpty }, options)
}

const nonEmpty: Rule = (v, fail) => {
  if (typeof v !== 'string' || v === '') fail(`must be a non-empty path or URL, got ${JSON.stringify(v)}`)
}

/** Creates the handler; `settings` is read at each request (the CLI learns its WebSocket URL after binding). */
export function createExplorerHandler(settings: () => ExplorerOptions): ExplorerHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      if (next !== undefined) return next()
      res.writeHead(405, { 'content-type': 'text/plain', allow: 'GET, HEAD' })
      res.end('method not allowed\n')
      return
    }
    let body: string
    try {
      body = explorerPage(settings())
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(`${(error as Error).message}\n`)
      return
    }
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
      // The page runs only its own inline script and talks only to its node.
      'content-security-policy': "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src *",
      'x-content-type-options': 'nosniff',
    })
    res.end(req.method === 'HEAD' ? undefined : body)
  }
}
