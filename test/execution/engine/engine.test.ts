/**
 * The engine (src/execution/engine): its status, the checks that keep the patches off where
 * they were not verified, the fixed order of opcode-table layers, and that a user's own
 * `createEVM()` in the same process runs the plain library after createNode().
 */
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import v8 from 'node:v8'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { createEVM, Message } from '@ethereumjs/evm'
import { describe, expect, it } from 'vitest'
import { createNode, engineStatus } from '../../../src/index.js'
import { createEngineEVM, isFast, layerOpcodeTable, refusal, VERIFIED_HARDFORKS } from '../../../src/execution/engine/index.js'
import { versionRefusal } from '../../../src/execution/engine/gate.js'
import { EVM_MEMBERS, MESSAGE_MEMBERS, missingMembers, RUN_CALL_HEADER_MEMBERS, RUN_CALL_MEMBERS, RUN_CALL_TX_MEMBERS } from '../../../src/execution/engine/internals.js'
import { isPatched, patchOpcodeTable } from '../../../src/execution/engine/fast-opcodes.js'
import { SUPPORTED_HARDFORKS } from '../../../src/chain/common.js'
import { CallGuard } from '../../../src/execution/timeout.js'
import { GasWatch } from '../../../src/execution/gas-watch.js'
import { systemClock } from '../../../src/clock.js'
import { TraceHooks } from '../../../src/execution/tracers/hooks.js'
import { TransferTracer } from '../../../src/execution/transfer-tracer.js'

const run = promisify(execFile)
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..')

// PUSH1 4, JUMP, INVALID, JUMPDEST, MSTORE 42 at 0, RETURN 32 bytes: a jump, so the analysis runs.
const CODE = Uint8Array.from([0x60, 0x04, 0x56, 0xfe, 0x5b, 0x60, 0x2a, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3])
const prague = () => new Common({ chain: Mainnet, hardfork: Hardfork.Prague })
const table = (evm: object) => (evm as { _opcodeMap: object })._opcodeMap

describe('engineStatus()', () => {
  it('behavior: after createNode() names the library version and every patch on', async () => {
    const node = await createNode()
    try {
      const status = engineStatus()
      expect(status).toMatchObject({ library: '@ethereumjs/evm', version: '10.1.3', bundled: false, reason: undefined })
      expect(status.patches).toEqual({ jumpCache: true, fastOpcodes: true, fastInterpreter: true, leanEnv: true, fastCall: true, runCall: true, runTx: true })
      expect(status.verifiedVersions).toContain(status.version)
      // Every verified fork is a supported one, which the differential test runs.
      expect([...SUPPORTED_HARDFORKS]).toEqual(expect.arrayContaining([...status.verifiedHardforks]))
    } finally {
      await node.close()
    }
  })

  it('behavior: FINALITY_ENGINE=plain runs the plain library, says why, and the node still works', async () => {
    const script = [
      "const { createNode, engineStatus } = await import('./src/index.ts')",
      'const node = await createNode()',
      "const [from] = await node.request({ method: 'eth_accounts' })",
      "const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from, to: '0x000000000000000000000000000000000000dEaD', value: '0x1' }] })",
      "const receipt = await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })",
      'await node.close()',
      'console.log(JSON.stringify({ status: engineStatus(), receipt: receipt.status }))',
    ].join('\n')
    const env: NodeJS.ProcessEnv = { ...process.env, FINALITY_ENGINE: 'plain' }
    delete env.NODE_OPTIONS
    const { stdout } = await run(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['--input-type=module', '-e', script], { cwd: ROOT, env })
    const out = JSON.parse(stdout.trim().split('\n').pop()!) as { status: ReturnType<typeof engineStatus>; receipt: string }
    expect(out.receipt).toBe('0x1')
    expect(Object.values(out.status.patches).some(Boolean)).toBe(false)
    expect(out.status.reason).toBe('turned off by FINALITY_ENGINE=plain')
    expect(out.status.version).toBe('10.1.3')
  }, 60_000)
})

describe('the checks that keep the patches off', () => {
  it('refuses a library version the patches were not verified against, an unreadable one, and an unknown setting', () => {
    expect(refusal(undefined, '10.1.3')).toBeUndefined()
    expect(refusal('fast', '10.1.3')).toBeUndefined()
    expect(refusal(undefined, '10.2.0')).toBe('@ethereumjs/evm 10.2.0 is not a version the patches were verified against (10.1.3)')
    expect(refusal(undefined, undefined)).toBe('the version of @ethereumjs/evm could not be read')
    expect(refusal('turbo', '10.1.3')).toBe("FINALITY_ENGINE=turbo is not 'plain' or 'fast'; the plain library runs")
  })

  it('gates each library the engine reaches inside of by its own version', () => {
    expect(refusal(undefined, '10.2.0', '@ethereumjs/common')).toBe('@ethereumjs/common 10.2.0 is not a version the patches were verified against (10.1.3)')
    expect(refusal(undefined, undefined, '@ethereumjs/tx')).toBe('the version of @ethereumjs/tx could not be read')
    expect(versionRefusal('10.1.3', '@ethereumjs/block')).toBeUndefined()
    // FINALITY_ENGINE=plain turns the fast paths off, never what has no public path.
    expect(versionRefusal('10.1.3', '@ethereumjs/evm')).toBeUndefined()
    const status = engineStatus()
    expect(Object.keys(status.libraries)).toEqual(['@ethereumjs/evm', '@ethereumjs/common', '@ethereumjs/tx', '@ethereumjs/block', '@ethereumjs/vm'])
    for (const gate of Object.values(status.libraries)) expect(gate).toEqual({ version: '10.1.3', verified: true, fast: true, reason: undefined })
  })

  it('after a call, the EVM has the fields runCall sets that the node\'s own precompiles read (_block, _tx)', async () => {
    const evm = await createEVM({ common: prague() })
    await evm.runCall({ gasLimit: 100_000n, data: new Uint8Array(0) })
    const inner = evm as unknown as { _block?: { header?: unknown }; _tx?: unknown }
    expect(missingMembers('EVM', evm, RUN_CALL_MEMBERS)).toEqual([])
    expect(missingMembers('EVM._block.header', inner._block?.header, RUN_CALL_HEADER_MEMBERS)).toEqual([])
    expect(missingMembers('EVM._tx', inner._tx, RUN_CALL_TX_MEMBERS)).toEqual([])
  })

  it('every private EVM member precompiles.ts reaches is in the inventory', async () => {
    const source = await readFile(path.join(ROOT, 'src/execution/engine/precompiles.ts'), 'utf8')
    const shape = /interface MessageEvm \{\n([\s\S]*?)\n\}/.exec(source)?.[1]
    expect(shape).toBeDefined()
    const members = [...shape!.matchAll(/^ {2}(\w+)[?(:]/gm)].map((m) => m[1])
    expect(members).toEqual(['_executeCall', '_block', '_tx', 'stateManager'])
    const inventory = new Set([...EVM_MEMBERS, ...RUN_CALL_MEMBERS].map((m) => m.name))
    expect(members.filter((m) => !inventory.has(m!))).toEqual([])
    expect(EVM_MEMBERS.find((m) => m.name === '_executeCall')?.usedBy).toMatch(/precompiles\.ts/)
  })

  it('a Message still has the private field the transfer logs read', () => {
    expect(missingMembers('Message', new Message({ gasLimit: 0n }), MESSAGE_MEMBERS)).toEqual([])
    expect(missingMembers('Message', {}, MESSAGE_MEMBERS)).toEqual(['Message._codeAddress'])
  })

  it('names each private member that is missing or of another kind', async () => {
    const evm = await createEVM({ common: prague() })
    expect(missingMembers('EVM', evm, EVM_MEMBERS)).toEqual([])
    const renamed = Object.create(evm) as Record<string, unknown>
    renamed._executeCall = undefined
    renamed._opcodeMap = 'table'
    expect(missingMembers('EVM', renamed, EVM_MEMBERS)).toEqual(['EVM._executeCall', 'EVM._opcodeMap'])
    expect(missingMembers('EVM', undefined, EVM_MEMBERS)).toEqual(['EVM (not found)'])
  })

  it('behavior: an EVM of a hardfork the patches were not verified on runs the plain library', async () => {
    expect(VERIFIED_HARDFORKS).not.toContain(Hardfork.Berlin)
    const berlin = await createEngineEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Berlin }) })
    const result = await berlin.runCode({ code: CODE, gasLimit: 100_000n })
    expect(result.exceptionError).toBeUndefined()
    expect(isFast(berlin)).toBe(false)
    expect(isPatched(table(berlin))).toBe(false)
    const ours = await createEngineEVM({ common: prague() })
    await ours.runCode({ code: CODE, gasLimit: 100_000n })
    expect(isFast(ours)).toBe(true)
    expect(isPatched(table(ours))).toBe(true)
  })
})

describe("a user's own createEVM() in the same process", () => {
  it('behavior: runs the plain library after createNode() has run transactions', async () => {
    const node = await createNode()
    try {
      const [from] = await node.request({ method: 'eth_accounts' })
      await node.request({ method: 'eth_sendTransaction', params: [{ from, to: '0x000000000000000000000000000000000000dEaD', value: '0x1' }] })
    } finally {
      await node.close()
    }
    const pristine = await createEVM({ common: prague() })
    const theirs = await createEVM({ common: prague() })
    const result = await theirs.runCode({ code: CODE, gasLimit: 100_000n })
    expect(BigInt(`0x${Buffer.from(result.returnValue).toString('hex')}`)).toBe(42n)
    expect(isFast(theirs)).toBe(false)
    // Its opcode table still holds the library's own handlers after code with a jump ran.
    expect(isPatched(table(theirs))).toBe(false)
    const handlers = (evm: object) => (table(evm) as Array<{ opHandler: unknown; gasHandler: unknown } | undefined>).map((e) => [e?.opHandler, e?.gasHandler])
    expect(handlers(theirs)).toEqual(handlers(pristine))
    // Its run states are the library's own (the fast loop hands over a dozen fields only).
    const runState = (result as unknown as { runState: Record<string, unknown> }).runState
    expect(runState.interpreter).toBeDefined()
  })
})

/** V8's `%HaveSameMap`: whether two objects have one hidden class. */
function sameHiddenClass(a: object, b: object): boolean {
  v8.setFlagsFromString('--allow-natives-syntax')
  return (new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean)(a, b)
}

describe('opcode-table layers', () => {
  it('are added inside out, each once: fast handlers, time-out guard, gas watch, tracers, transfer logs', async () => {
    const evm = await createEngineEVM({ common: prague() })
    const order: string[] = []
    layerOpcodeTable(evm, 'timeout', () => order.push('timeout'))
    expect(isPatched(table(evm))).toBe(true)
    layerOpcodeTable(evm, 'transfers', () => order.push('transfers'))
    expect(() => layerOpcodeTable(evm, 'tracer', () => order.push('tracer'))).toThrow(
      "opcode layer 'tracer' added after 'transfers': the order is fast, timeout, gaswatch, tracer, transfers, each once",
    )
    expect(() => layerOpcodeTable(evm, 'transfers', () => order.push('again'))).toThrow(/each once/)
    expect(order).toEqual(['timeout', 'transfers'])
  })

  it("behavior: every layer's entries keep the library's entry and opcode classes", async () => {
    const evm = await createEngineEVM({ common: prague() })
    const entries = table(evm) as Array<{ opcodeInfo: Record<string, unknown>; opHandler: unknown; gasHandler: unknown }>
    patchOpcodeTable(entries)
    const before = entries.slice()
    new CallGuard(systemClock).install(evm)
    new GasWatch().install(evm)
    new TraceHooks(evm as never)
    new TransferTracer(evm)
    // JUMP, JUMPI and the frames (the guard), SSTORE, GAS and the frames (the watch), the calls,
    // LOGs and SELFDESTRUCT (the tracer), the LOGs and SELFDESTRUCT (the transfer logs).
    const guarded = [0x56, 0x57, 0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa]
    const wrapped = [...guarded, 0x55, 0x5a, 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xff]
    for (let op = 0; op < 256; op++) {
      const entry = entries[op]!
      const original = before[op]!
      expect(entry !== original, `opcode ${op} wrapped`).toBe(wrapped.includes(op))
      // The library's hidden class (a spread copy or another field order is another one).
      expect(Object.keys(entry)).toEqual(Object.keys(original))
      expect(sameHiddenClass(entry, original), `opcode ${op}'s entry`).toBe(true)
      const info = entry.opcodeInfo
      expect(sameHiddenClass(info, original.opcodeInfo), `opcode ${op}'s information`).toBe(true)
      expect(Object.isFrozen(info)).toBe(true)
      expect({ ...info }).toEqual({ ...original.opcodeInfo, isAsync: guarded.includes(op) ? true : original.opcodeInfo.isAsync })
      expect(entry.gasHandler).toBe(op === 0x55 ? entry.gasHandler : original.gasHandler)
    }
    expect(entries[0x55]!.gasHandler).not.toBe(before[0x55]!.gasHandler)
  })

  it("leave a plain EVM's handlers the library's own under the wrappers", async () => {
    const evm = await createEVM({ common: prague() })
    layerOpcodeTable(evm, 'tracer', () => {})
    expect(isPatched(table(evm))).toBe(false)
  })
})
