/**
 * The engine's jump-destination analysis (src/execution/jump-analysis.ts) gives exactly the
 * tables of @ethereumjs/evm's own (`Interpreter#_getValidJumpDestinations`): the same JUMPDEST
 * marks, the same PUSH values at the same positions (truncated immediates at the end of the code
 * included) and the same opcode-table entries, for every fixture contract and for random code.
 * This file never installs the engine, so the interpreter's method is still the library's. An
 * analysis for a second opcode table (the call VMs' is not the blocks') takes the first one's
 * jumps and pushes, and is otherwise the one made from nothing.
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { createEVM } from '@ethereumjs/evm'
import { describe, expect, it } from 'vitest'
import { analyseJumps, type JumpAnalysis } from '../../src/execution/jump-analysis.js'
import { cached } from '../../src/execution/engine/jump-cache.js'
import { loadArtifacts } from '../helpers/compile.js'

interface Reached {
  table: unknown[]
  analyse(code: Uint8Array): JumpAnalysis
}

/** The library's analysis and opcode table of a Prague EVM, reached through a custom opcode. */
async function library(): Promise<Reached> {
  let interpreter: { _getValidJumpDestinations(code: Uint8Array): JumpAnalysis } | undefined
  const evm = await createEVM({
    common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }),
    customOpcodes: [{ opcode: 0x0c, opcodeName: 'PROBE', baseFee: 0, logicFunction: (rs) => void (interpreter = (rs as unknown as { interpreter: typeof interpreter }).interpreter) }],
  })
  await evm.runCode({ code: Uint8Array.of(0x0c), gasLimit: 1000n })
  if (interpreter === undefined) throw new Error('the probe opcode did not run')
  const reached = interpreter
  return { table: (evm as unknown as { _opcodeMap: unknown[] })._opcodeMap, analyse: (code) => reached._getValidJumpDestinations(code) }
}

function same(code: Uint8Array, lib: Reached): void {
  const theirs = lib.analyse(code)
  const ours = analyseJumps(code, lib.table)
  expect(Array.from(ours.jumps)).toEqual(Array.from(theirs.jumps))
  expect(Object.keys(ours.pushes)).toEqual(Object.keys(theirs.pushes))
  for (const key of Object.keys(theirs.pushes)) expect(ours.pushes[Number(key)]).toBe(theirs.pushes[Number(key)])
  expect(ours.opcodesCached.length).toBe(theirs.opcodesCached.length)
  for (let i = 0; i < code.length; i++) {
    expect(i in ours.opcodesCached).toBe(i in theirs.opcodesCached)
    expect(ours.opcodesCached[i]).toBe(theirs.opcodesCached[i])
  }
}

/** A small deterministic generator (xorshift32). */
function bytes(seed: number, length: number, pushHeavy: boolean): Uint8Array {
  let x = seed >>> 0 || 1
  const next = () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return x >>> 0
  }
  const out = new Uint8Array(length)
  for (let i = 0; i < length; i++) {
    const r = next()
    // Push-heavy code: half the bytes are PUSH1..PUSH32 or JUMPDEST.
    out[i] = pushHeavy && r % 2 === 0 ? (r % 7 === 0 ? 0x5b : 0x60 + ((r >>> 8) % 32)) : r & 0xff
  }
  return out
}

describe('the jump-destination analysis', () => {
  it('behavior: the tables of every fixture contract (creation and runtime code) are the library’s', async () => {
    const lib = await library()
    const artifacts = loadArtifacts()
    expect(Object.keys(artifacts).length).toBeGreaterThan(3)
    for (const artifact of Object.values(artifacts)) {
      for (const hex of [artifact.bytecode, artifact.deployedBytecode]) same(Buffer.from(hex.slice(2), 'hex'), lib)
    }
  })

  it('behavior: random code, with PUSHes cut off by the end of the code (immediates padded with zeros)', async () => {
    const lib = await library()
    for (let seed = 1; seed <= 300; seed++) same(bytes(seed, 1 + (seed % 97), seed % 3 !== 0), lib)
    // Each PUSH size as the last opcode, with 0..size-1 of its bytes present.
    for (let size = 1; size <= 32; size++) {
      for (let present = 0; present < size; present++) same(Uint8Array.from([0x5b, 0x60 + size - 1, ...Array.from({ length: present }, (_, j) => 0xff - j)]), lib)
    }
    same(new Uint8Array(0), lib)
  })

  it('behavior: for another opcode table, the first analysis\'s jumps and pushes with that table\'s entries', async () => {
    const lib = await library()
    // Another table: other entries for every opcode, as a call VM's wrapped handlers are.
    const other = lib.table.map((entry) => (entry === undefined ? undefined : { ...(entry as object) }))
    const codes = Object.values(loadArtifacts()).flatMap((a) => [a.bytecode, a.deployedBytecode]).map((hex) => Buffer.from(hex.slice(2), 'hex'))
    for (let seed = 1; seed <= 100; seed++) codes.push(Buffer.from(bytes(seed, 1 + (seed % 97), seed % 3 !== 0)))
    for (const code of codes) {
      const first = analyseJumps(code, lib.table)
      const second = analyseJumps(code, other, first)
      expect(second.jumps).toBe(first.jumps)
      expect(second.pushes).toBe(first.pushes)
      const fresh = analyseJumps(code, other)
      expect(second.opcodesCached.length).toBe(fresh.opcodesCached.length)
      for (let i = 0; i < code.length; i++) {
        expect(i in second.opcodesCached).toBe(i in fresh.opcodesCached)
        expect(second.opcodesCached[i]).toBe(fresh.opcodesCached[i])
      }
    }
  })

  it('behavior: the cache analyses a code once, and for a second table (the same code in another array too) makes only its entries', async () => {
    const lib = await library()
    const other = lib.table.map((entry) => (entry === undefined ? undefined : { ...(entry as object) }))
    const interpreter = (table: unknown[]) => ({ _evm: { _opcodeMap: table }, common: { isActivatedEIP: () => false } })
    const analyse = cached(() => {
      throw new Error('the library\'s analysis runs only under EIP-8024')
    })
    const code = Buffer.from(Object.values(loadArtifacts())[0]!.deployedBytecode.slice(2), 'hex')
    const first = analyse.call(interpreter(lib.table), code) as JumpAnalysis
    expect(analyse.call(interpreter(lib.table), Buffer.from(code))).toBe(first)
    const second = analyse.call(interpreter(other), Buffer.from(code)) as JumpAnalysis
    expect(second).not.toBe(first)
    expect(second.jumps).toBe(first.jumps)
    expect(second.pushes).toBe(first.pushes)
    expect(second.opcodesCached).toEqual(analyseJumps(code, other).opcodesCached)
  })
})
