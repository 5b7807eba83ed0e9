/**
 * The CPU profiler and the trace-event recorder, through `node:inspector` on this thread: the
 * Profiler domain gives the `.cpuprofile` JSON Chrome DevTools opens, NodeTracing the trace events
 * (`{ traceEvents: [...] }`) chrome://tracing and Perfetto open. One of each may run at a time.
 */
import { Session } from 'node:inspector'
import { writeFile } from 'node:fs/promises'
import { ServerError } from '../errors.js'

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
    throw new ServerError(`could not write ${file}: ${(error as Error).message}`)
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

/** CPU profiling (geth's debug_startCPUProfile / stopCPUProfile), one at a time. */
export class CpuProfiler {
  #running: Running | undefined

  get running(): boolean {
    return this.#running !== undefined
  }

  async start(target: () => string): Promise<void> {
    // geth's messages (internal/debug.HandlerT).
    if (this.#running !== undefined) throw new ServerError('CPU profiling already in progress')
    target()
    const session = new Session()
    session.connect()
    this.#running = { target, session }
    try {
      await post(session, 'Profiler.enable')
      await post(session, 'Profiler.start')
    } catch (error) {
      this.#running = undefined
      session.disconnect()
      throw error
    }
  }

  /** Stops the profile and writes it; resolves to the file written. */
  async stop(): Promise<string> {
    const running = this.#running
    if (running === undefined) throw new ServerError('CPU profiling not in progress')
    this.#running = undefined
    try {
      const { profile } = await post<{ profile: unknown }>(running.session, 'Profiler.stop')
      const file = running.target()
      await write(file, JSON.stringify(profile))
      return file
    } finally {
      running.session.disconnect()
    }
  }
}

/** Trace-event recording (geth's debug_startGoTrace / stopGoTrace), one at a time. */
export class TraceRecorder {
  #running: (Running & { events: unknown[] }) | undefined

  get running(): boolean {
    return this.#running !== undefined
  }

  async start(target: () => string): Promise<void> {
    if (this.#running !== undefined) throw new ServerError('trace already in progress')
    target()
    const session = new Session()
    session.connect()
    const events: unknown[] = []
    session.on('NodeTracing.dataCollected', (message: { params: { value: unknown[] } }) => {
      events.push(...message.params.value)
    })
    this.#running = { target, session, events }
    try {
      await post(session, 'NodeTracing.start', { traceConfig: { includedCategories: [...TRACE_CATEGORIES] } })
    } catch (error) {
      this.#running = undefined
      session.disconnect()
      throw error
    }
  }

  /** Stops recording and writes the trace-event file; resolves to the file written. */
  async stop(): Promise<string> {
    const running = this.#running
    if (running === undefined) throw new ServerError('trace not in progress')
    this.#running = undefined
    try {
      const complete = new Promise<void>((resolve) => running.session.once('NodeTracing.tracingComplete', () => resolve()))
      await post(running.session, 'NodeTracing.stop')
      await complete
      const file = running.target()
      await write(file, JSON.stringify({ traceEvents: running.events }))
      return file
    } finally {
      running.session.disconnect()
    }
  }
}
