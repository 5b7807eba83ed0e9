/**
 * docs/cosmos-evm.md's program, run as the page shows it (a child process, the package's imports
 * pointed at src/): its printed voting powers are the page's comments.
 */
import { describe, expect, it } from 'vitest'
import { block, runBatch } from '../docs/blocks.js'

describe('docs/cosmos-evm.md', () => {
  it('### A delegation moves the validator set: the power is 10 at H + 1 and 15 at H + 2', async () => {
    const source = block('cosmos-evm.md', 1, 'ts')
    const expected = source
      .split('\n')
      .filter((l) => l.startsWith('console.log('))
      .map((l) => /\/\/\s*(.*)$/.exec(l)![1]!)
    expect(expected).toEqual(['0xa', '0xf'])
    const { runs, stderr } = await runBatch([{ name: 'cosmos-delegate.ts', source }])
    const run = runs['cosmos-delegate.ts']
    expect(run?.error, stderr).toBeUndefined()
    expect(run!.stdout.trim().split('\n')).toEqual(expected)
  }, 120_000)
})
