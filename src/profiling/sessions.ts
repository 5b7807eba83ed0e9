/**
 * The CPU profiler and the trace-event recorder, through `node:inspector` on this thread: the
 * Profiler domain gives the `.cpuprofile` JSON Chrome DevTools opens, NodeTracing the trace events
 * (`{ traceEvents: [...] }`) chrome://tracing and Perfetto open. One of each may run at a time.
 */
import type { Session } from 'node:inspector'
import { nodeInspector } from '../builtins.js'
import { writeFile } from 'node:fs/promises'
import { Refused } from '../domain-errors.js'

/** The trace-event categories recorded: V8, Node's own, and the event loop. */
export const TRACE_CATEGORIES = ['v8', 'node', 'node.async_hooks', 'node.perf', 'node.bootstrap'] as const

function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => {
    session.post(method, params ?? {}, (error, result) => (error === null ? resolve(result as T) : reject(error)))
  })
}

async function write(file: string, text: string): Promise<void> {
  try {
    await writeFile(file, text)
  } catch (error) {
    throw new Refused(`could not write ${file}: ${(error as Error).message}`)
  }
}

/**
 * One running profile: its session and where it goes. `target` checks the path again when the
 * file is written, so a symbolic link placed there meanwhile is refused too.
 */
interface Running {
  readonly target: () => string
  readonly session: Session
}

/**
 * One recording through an inspector session at a time, with geth's messages
 * (internal/debug.HandlerT): "… already in progress" and "… not in progress".
 */
abstract class Recording<R extends Running> {
  #running: R | undefined

  constructor(private readonly what: string) {}

  get running(): boolean {
    return this.#running !== undefined
  }

  /** Opens a session, makes the running record with `open`, and starts it with `begin`. */
  protected async record(target: () => string, open: (session: Session) => R, begin: (running: R) => Promise<unknown>): Promise<void> {
    if (this.#running !== undefined) throw new Refused(`${this.what} already in progress`)
    target()
    const session = new (nodeInspector().Session)()
    session.connect()
    const running = open(session)
    this.#running = running
    try {
      await begin(running)
    } catch (error) {
      this.#running = undefined
      session.disconnect()
      throw error
    }
  }

  /** Stops the recording, writes what `collect` gives; resolves to the file written. */
  protected async finish(collect: (running: R) => Promise<string>): Promise<string> {
    const running = this.#running
    if (running === undefined) throw new Refused(`${this.what} not in progress`)
    this.#running = undefined
    try {
      const text = await collect(running)
      const file = running.target()
      await write(file, text)
      return file
    } finally {
      running.session.disconnect()
    }
  }
}

/** CPU profiling (geth's debug_startCPUProfile / stopCPUProfile), one at a time. */
export class CpuProfiler extends Recording<Running> {
  constructor() {
    super('CPU profiling')
  }

  async start(target: () => string): Promise<void> {
    await this.record(target, (session) => ({ target, session }), async ({ session }) => {
      await post(session, 'Profiler.enable')
      await post(session, 'Profiler.start')
    })
  }

  /** Stops the profile and writes it; resolves to the file written. */
  stop(): Promise<string> {
    return this.finish(async ({ session }) => JSON.stringify((await post<{ profile: unknown }>(session, 'Profiler.stop')).profile))
  }
}

/** Trace-event recording (geth's debug_startGoTrace / stopGoTrace), one at a time. */
export class TraceRecorder extends Recording<Running & { events: unknown[] }> {
  constructor() {
    super('trace')
  }

  async start(target: () => string): Promise<void> {
    const open = (session: Session) => {
      const events: unknown[] = []
      session.on('NodeTracing.dataCollected', (message: { params: { value: unknown[] } }) => {
        events.push(...message.params.value)
      })
      return { target, session, events }
    }
    await this.record(target, open, ({ session }) => post(session, 'NodeTracing.start', { traceConfig: { includedCategories: [...TRACE_CATEGORIES] } }))
  }

  /** Stops recording and writes the trace-event file; resolves to the file written. */
  stop(): Promise<string> {
    return this.finish(async ({ session, events }) => {
      const complete = new Promise<void>((resolve) => session.once('NodeTracing.tracingComplete', () => resolve()))
      await post(session, 'NodeTracing.stop')
      await complete
      return JSON.stringify({ traceEvents: events })
    })
  }
}
