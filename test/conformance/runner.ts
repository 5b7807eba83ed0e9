/**
 * Replays the execution-apis fixtures against a JSON-RPC endpoint over HTTP and reports, per
 * method, which cases pass. The node is whatever answers at `url`: the runner only speaks HTTP.
 */
import { compareReply } from './compare.js'
import { loadCases, type ConformanceCase } from './fixtures.js'

/** The results of one method's cases. */
export interface MethodResult {
  passed: number
  failed: number
  failures: Array<{ name: string; reason: string }>
}

/** The results of a run. */
export interface Report {
  perMethod: Map<string, MethodResult>
  /** Cases passed, all methods. */
  passed: number
  /** Cases run, all methods. */
  total: number
}

/** Options of {@link runConformance}. */
export interface RunOptions {
  /** The HTTP JSON-RPC endpoint. */
  url: string
  /** The cases to run; default every fixture ({@link loadCases}). */
  cases?: ConformanceCase[]
  /** Time allowed for one request, in ms. Default 60 s (block traces are large). */
  timeoutMs?: number
}

/** POSTs one request; resolves to the parsed reply, or throws with the HTTP-level reason. */
async function post(url: string, request: unknown, timeoutMs: number): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
    signal: AbortSignal.timeout(timeoutMs),
  })
  const text = await response.text()
  try {
    return JSON.parse(text)
  } catch {
    const body = text.length > 80 ? `${text.slice(0, 77)}...` : text
    throw new Error(`HTTP ${response.status} with a body that is not JSON: ${JSON.stringify(body)}`)
  }
}

/** Runs one case: its exchanges in order, stopping at the first mismatch. */
async function runCase(c: ConformanceCase, url: string, timeoutMs: number): Promise<string | undefined> {
  for (const [i, exchange] of c.exchanges.entries()) {
    const prefix = c.exchanges.length > 1 ? `exchange ${i + 1}/${c.exchanges.length}: ` : ''
    let actual: unknown
    try {
      actual = await post(url, exchange.request, timeoutMs)
    } catch (error) {
      return `${prefix}${(error as Error).message}`
    }
    const reason = compareReply(exchange.expected, actual, c.specOnly)
    if (reason !== undefined) return `${prefix}${reason}`
  }
  return undefined
}

/**
 * Sends each case's requests in order (the cases too: some depend on earlier ones, as in hive,
 * e.g. `txpool_*` on the transactions `eth_sendRawTransaction` sent) and compares each reply.
 */
export async function runConformance(options: RunOptions): Promise<Report> {
  const cases = options.cases ?? loadCases()
  const timeoutMs = options.timeoutMs ?? 60_000
  const perMethod = new Map<string, MethodResult>()
  let passed = 0
  for (const c of cases) {
    let entry = perMethod.get(c.method)
    if (entry === undefined) {
      entry = { passed: 0, failed: 0, failures: [] }
      perMethod.set(c.method, entry)
    }
    const reason = await runCase(c, options.url, timeoutMs)
    if (reason === undefined) {
      entry.passed++
      passed++
    } else {
      entry.failed++
      entry.failures.push({ name: c.name, reason })
    }
  }
  return { perMethod, passed, total: cases.length }
}

/** A plain-text table: one row per method (passed, total), then the totals. */
export function formatTable(report: Report): string {
  const rows: Array<[string, string, string]> = [...report.perMethod]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([method, r]) => [method, String(r.passed), String(r.passed + r.failed)])
  const totals: [string, string, string] = ['total', String(report.passed), String(report.total)]
  const header: [string, string, string] = ['method', 'passed', 'total']
  const all = [header, ...rows, totals]
  const width = [0, 1, 2].map((i) => Math.max(...all.map((r) => r[i as 0 | 1 | 2].length)))
  const line = (r: [string, string, string]) =>
    `${r[0].padEnd(width[0] ?? 0)}  ${r[1].padStart(width[1] ?? 0)}  ${r[2].padStart(width[2] ?? 0)}`
  const rule = '-'.repeat((width[0] ?? 0) + (width[1] ?? 0) + (width[2] ?? 0) + 4)
  return [line(header), rule, ...rows.map(line), rule, line(totals)].join('\n')
}

/** The failures, one line each (`method/case: reason`), for a log. */
export function formatFailures(report: Report): string {
  const lines: string[] = []
  for (const [method, r] of report.perMethod) for (const f of r.failures) lines.push(`${method}/${f.name}: ${f.reason}`)
  return lines.join('\n')
}
