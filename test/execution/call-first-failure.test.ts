/**
 * A node's first failing eth_call after V8 optimised `CallExecutor#call` on calls that succeeded:
 * the failure's steps are a function of their own (`execution/call.ts` `callFailure`), so the
 * compiled method runs on at the failure instead of being thrown away for a branch it had never
 * taken. Checked in a process of its own (v8/call-first-failure.ts); the answers are the usual
 * ones: the return data, and the revert as code 3.
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const script = fileURLToPath(new URL('./v8/call-first-failure.ts', import.meta.url))

describe('eth_call, its first failure after V8 optimised the call', () => {
  it('behavior: CallExecutor#call stays optimised, and the failure answers as code 3', () => {
    const out = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' })) as { answers: string[]; before: number; after: number; code: number }
    expect(out.answers).toEqual([`0x${'2a'.padStart(64, '0')}`])
    expect(out.code).toBe(3)
    // V8's status bit 4 (16): the method runs optimised code (TurboFan's or Maglev's).
    expect(out.before & 16).toBe(16)
    expect(out.after & 16).toBe(16)
  })
})
