/**
 * The samples of a `perf script` output, for `perf-tiers.ts` and `perf-threads.ts`: each sample's
 * header line (`tid time:`, or `comm pid/tid time:` with `-F comm,pid,tid,…`), then its stack one
 * frame a line (`ip symbol (dso)`), innermost first, then a blank line. Also the replay's window:
 * the first main-thread sample under the runner's `createFinality`/`replayPass` to the last under
 * finality's bundle or `replayPass`.
 */
import { readFileSync } from 'node:fs'

export interface PerfSample {
  /** The thread's name ('' when the output has no `comm` field). */
  comm: string
  /** The process (undefined when the output has no `pid` field). */
  pid: number | undefined
  tid: number
  time: number
  /** Innermost first: `symbol@@dso`. */
  frames: string[]
}

/** Every sample of `file`, in its order. */
export function readPerfSamples(file: string): PerfSample[] {
  const samples: PerfSample[] = []
  let cur: PerfSample | undefined
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '') {
      if (cur !== undefined) samples.push(cur)
      cur = undefined
      continue
    }
    if (!line.startsWith('\t')) {
      const m = /^\s*(?:(.*?)\s+(\d+)\/)?(\d+)\s+([\d.]+):/.exec(line)
      if (m !== null) cur = { comm: m[1] ?? '', pid: m[2] === undefined ? undefined : Number(m[2]), tid: Number(m[3]), time: Number(m[4]), frames: [] }
      continue
    }
    const m = /^\s*[0-9a-f]+ (.*) \(([^)]*)\)\s*$/.exec(line)
    if (m !== null && cur !== undefined) cur.frames.push(`${m[1]}@@${m[2]}`)
  }
  if (cur !== undefined) samples.push(cur)
  return samples
}

/** Whether any frame of the sample's stack matches. */
export const hasFrame = (s: PerfSample, re: RegExp): boolean => s.frames.some((f) => re.test(f))

/** The replay's first and last main-thread samples (see the header), among `main`'s. */
export function replayWindow(main: readonly PerfSample[]): { first: PerfSample | undefined; last: PerfSample | undefined } {
  return {
    first: main.find((s) => hasFrame(s, /createFinality|replayPass/)),
    last: [...main].reverse().find((s) => hasFrame(s, /finality\.cjs|replayPass/)),
  }
}
