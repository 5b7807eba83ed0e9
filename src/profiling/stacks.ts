/**
 * debug_stacks on Node.js. Go dumps every goroutine; JavaScript here runs on one thread, so the
 * honest equivalent is that thread's stack where the request runs (the call chain that reached
 * the handler) and the resources the event loop is waiting on (`process.getActiveResourcesInfo()`:
 * sockets, servers, timers), the tasks that will run next.
 */

/** The main thread's stack and the event loop's pending resources, in sections split by a blank line. */
export function stacks(filter?: string): string {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = Infinity
  const captured = new Error().stack ?? ''
  Error.stackTraceLimit = limit
  const stack = captured.split('\n').slice(2).map((line) => `\t${line.trim()}`)
  const counts = new Map<string, number>()
  for (const name of process.getActiveResourcesInfo()) counts.set(name, (counts.get(name) ?? 0) + 1)
  const sections = [
    `thread 1 (main) [running]:\n${stack.join('\n')}`,
    ...[...counts].map(([name, n]) => `resource ${name} [waiting]: ${n}`),
  ]
  const kept = filter === undefined || filter === '' ? sections : sections.filter((s) => s.includes(filter))
  return kept.length === 0 ? '' : `${kept.join('\n\n')}\n`
}
