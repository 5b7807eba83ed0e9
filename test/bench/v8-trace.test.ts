import { describe, expect, it } from 'vitest'
import { parseV8Trace } from '../../bench/replay/v8-trace.js'

// Lines as Node 20's V8 prints them under --trace-opt --trace-deopt, with other output between.
const TRACE = [
  '[marking 0x01b295f5abf9 <JSFunction _runTx (sfi = 0x2874640bd879)> for optimization to TURBOFAN, ConcurrencyMode::kConcurrent, reason: hot and stable]',
  '[compiling method 0x01b295f5abf9 <JSFunction _runTx (sfi = 0x2874640bd879)> (target TURBOFAN), mode: ConcurrencyMode::kConcurrent]',
  '[completed compiling 0x01b295f5abf9 <JSFunction _runTx (sfi = 0x2874640bd879)> (target TURBOFAN) - took 0.500, 100.250, 2.250 ms]',
  '[completed optimizing 0x01b295f5abf9 <JSFunction _runTx (sfi = 0x2874640bd879)> (target TURBOFAN)]',
  'REPLAY_RESULT {"wallMs":1}',
  '[bailout (kind: deopt-eager, reason: not a BigInt64): begin. deoptimizing 0x2d9cf4ac7421 <JSFunction _runTx (sfi = 0x2874640bd879)>, 0x08fedfa78c41 <Code TURBOFAN>, opt id 80, bytecode offset 157, deopt exit 293, FP to SP delta 248, caller SP 0x7fff8, pc 0x7f7d]',
  '[completed compiling 0x2d9cf4ac7421 <JSFunction _runTx (sfi = 0x2874640bd879)> (target TURBOFAN) - took 1.000, 50.000, 1.000 ms]',
  '[completed compiling 0x05e97a767011 <JSFunction  (sfi = 0x1262a87dd0b1)> (target TURBOFAN) - took 0.016, 0.424, 0.010 ms]',
  '[completed compiling 0x05e97a767099 <JSFunction _runTx (sfi = 0x1262a87dd0ff)> (target TURBOFAN) - took 0.100, 0.100, 0.100 ms]',
  '[bailout (kind: deopt-lazy, reason: (unknown)): begin. deoptimizing 0x19bcc3458d19 <JSFunction loop (sfi = 0x2874640b68c1)>, 0x2e57903e4279 <Code TURBOFAN>, opt id 53]',
  '[bailout (kind: deopt-eager, reason: not a BigInt64): begin. deoptimizing 0x2d9cf4ac7999 <JSFunction _runTx (sfi = 0x2874640bd879)>, 0x08fedfa78c41 <Code TURBOFAN>, opt id 81]',
].join('\n')

describe('parseV8Trace', () => {
  it('counts each function’s compiles and their time, and the deopts by function, kind and reason', () => {
    const t = parseV8Trace(TRACE)
    expect(t.totalCompiles).toBe(4)
    expect(t.totalDeopts).toBe(3)
    expect(t.totalCompileMs).toBeCloseTo(155.75, 2)
    expect(t.compiles[0]).toEqual({ name: '_runTx', tier: 'TurboFan', osr: false, compiles: 2, ms: 155 })
    // Another function of the same name (another shared function info) is counted apart.
    expect(t.compiles.filter((f) => f.name === '_runTx').map((f) => f.compiles)).toEqual([2, 1])
    expect(t.compiles).toContainEqual(expect.objectContaining({ name: '(anonymous)', compiles: 1 }))
    expect(t.deopts).toEqual([
      { name: '_runTx', kind: 'deopt-eager', reason: 'not a BigInt64', count: 2 },
      { name: 'loop', kind: 'deopt-lazy', reason: '(unknown)', count: 1 },
    ])
  })

  // Lines as Node 24's V8 prints them: Maglev first, TurboFan as TURBOFAN_JS, loops on stack replacement.
  it('counts Maglev and TurboFan apart, and compiles on stack replacement outside the totals', () => {
    const t = parseV8Trace([
      '[completed compiling 0x26c392cebb79 <JSFunction analyseJumps (sfi = 0x194261671e09)> (target MAGLEV) OSR - took 0.003, 0.552, 0.011 ms]',
      '[completed compiling 0x26c392cebb79 <JSFunction analyseJumps (sfi = 0x194261671e09)> (target TURBOFAN_JS) OSR - took 0.008, 11.906, 0.049 ms]',
      '[completed compiling 0x216b0cf35d99 <JSFunction keccakP (sfi = 0x155cfd9cf569)> (target MAGLEV) - took 0.000, 0.946, 0.026 ms]',
      '[completed compiling 0x216b0cf35d99 <JSFunction keccakP (sfi = 0x155cfd9cf569)> (target TURBOFAN_JS) - took 0.007, 43.308, 0.032 ms]',
      '[completed compiling 0x216b0cf35d99 <JSFunction keccakP (sfi = 0x155cfd9cf569)> (target TURBOFAN_JS) - took 0.001, 1.000, 0.001 ms]',
      '[completed compiling 0x0d6d66e2ca89 <JSFunction f (sfi = 0xd6d66e29171)> (target TURBOFAN) OSR - took 0.019, 0.900, 0.024 ms]',
    ].join('\n'))
    expect(t.totalCompiles).toBe(3)
    expect(t.totalCompileMs).toBeCloseTo(0.972 + 43.347 + 1.002, 3)
    expect(Object.keys(t.byTier).sort()).toEqual(['Maglev', 'Maglev OSR', 'TurboFan', 'TurboFan OSR'])
    expect(t.byTier['TurboFan']!.compiles).toBe(2)
    expect(t.byTier['TurboFan OSR']!.compiles).toBe(2)
    // A function compiled by Maglev, then twice by TurboFan: twice at one tier.
    expect(t.compiles.filter((f) => f.name === 'keccakP').map((f) => [f.tier, f.compiles])).toEqual([['TurboFan', 2], ['Maglev', 1]])
    expect(t.compiles.find((f) => f.name === 'analyseJumps' && f.tier === 'TurboFan')).toMatchObject({ osr: true, compiles: 1 })
  })

  // Node 24 (V8 13.6): Maglev first, TurboFan's target named TURBOFAN_JS, on-stack replacements marked OSR.
  it('reads anonymous functions as Node 22 and 24 print them, with one space', () => {
    const t = parseV8Trace(
      [
        '[completed compiling 0x28f56517d339 <JSFunction f (sfi = 0x28f565178919)> (target MAGLEV) - took 0.001, 0.248, 0.004 ms]',
        '[completed compiling 0x28f56517d299 <JSFunction (sfi = 0x28f565178861)> (target MAGLEV) OSR - took 0.000, 0.286, 0.006 ms]',
        '[completed compiling 0x28f56517d339 <JSFunction f (sfi = 0x28f565178919)> (target TURBOFAN_JS) - took 0.019, 1.127, 0.012 ms]',
        '[completed optimizing 0x28f56517d339 <JSFunction f (sfi = 0x28f565178919)> (target TURBOFAN_JS)]',
        '[completed compiling 0x28f56517d299 <JSFunction (sfi = 0x28f565178861)> (target TURBOFAN_JS) OSR - took 0.016, 1.156, 0.006 ms]',
        '[bailout (kind: deopt-eager, reason: not a Smi): begin. deoptimizing 0x28f56517d299 <JSFunction (sfi = 0x28f565178861)>, 0x29fc041440e1 <Code TURBOFAN_JS>, opt id 3, bytecode offset 38]',
        '[completed compiling 0x28f56517d299 <JSFunction (sfi = 0x28f565178861)> (target TURBOFAN_JS) OSR - took 0.003, 7.014, 0.025 ms]',
      ].join('\n'),
    )
    // The on-stack compiles are left out of the totals.
    expect(t.totalCompiles).toBe(2)
    expect(t.totalCompileMs).toBeCloseTo(0.253 + 1.158, 3)
    expect(t.compiles.map((f) => [f.name, f.tier, f.osr, f.compiles])).toEqual([
      ['(anonymous)', 'TurboFan', true, 2],
      ['f', 'TurboFan', false, 1],
      ['(anonymous)', 'Maglev', true, 1],
      ['f', 'Maglev', false, 1],
    ])
    expect(t.deopts).toEqual([{ name: '(anonymous)', kind: 'deopt-eager', reason: 'not a Smi', count: 1 }])
  })

  it('finds nothing in output without trace lines', () => {
    expect(parseV8Trace('REPLAY_RESULT {}\n[marking 0x1 <JSFunction f (sfi = 0x2)> for optimization]')).toEqual({ compiles: [], deopts: [], totalCompiles: 0, totalCompileMs: 0, totalDeopts: 0, byTier: {} })
  })
})
