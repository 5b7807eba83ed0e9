/**
 * The validators' faults have one writer (ConsensusControls): the engine hands its writable plan
 * out once and everyone else reads a view with no setter; `node.setValidatorOnline` and the
 * finality_ controls go through the same writer and refuse an unknown validator with one wording.
 */
import { describe, expect, it } from 'vitest'
import { BftEngine } from '../../src/consensus/bft.js'
import { ConsensusControls, UnknownValidator } from '../../src/consensus/consensus-controls.js'
import { createValidator } from '../../src/consensus/keys.js'
import { trackNodes } from '../helpers/nodes.js'
import { manualClock } from '../helpers/manual-clock.js'

const newNode = trackNodes()
const STRANGER = `0x${'12'.repeat(20)}` as const

describe('validator faults: one writer', () => {
  it('the engine hands the writable plan out once; its faults are a read-only view', () => {
    const validators = [1, 2, 3, 4].map((i) => createValidator(new Uint8Array(32).fill(i)))
    const bft = new BftEngine(1n, validators)
    const controls = new ConsensusControls(bft, () => {}, (i) => validators[i]!, () => 0n)
    expect(() => new ConsensusControls(bft, () => {}, (i) => validators[i]!, () => 0n)).toThrow(/one writer/)
    // @ts-expect-error the view has no setter: only ConsensusControls writes the faults
    expect(bft.faults.set).toBeTypeOf('function') // the object is the plan; the type hides its writes
    const a = bft.set.validators[0]!.address
    controls.setFault(a, { nil: true })
    controls.setOnline(a, false)
    expect(bft.faults.get(a)).toEqual({ nil: true, offline: true })
    controls.setOnline(a, true)
    expect(bft.faults.get(a)).toEqual({ nil: true })
    expect(() => controls.setOnline(STRANGER, false)).toThrow(UnknownValidator)
    expect(() => controls.setFault(STRANGER, { nil: true })).toThrow(new UnknownValidator(STRANGER))
  })

  it('node.setValidatorOnline and finality_setFault refuse an unknown validator in the same words', async () => {
    const node = await newNode({ validators: 4, clock: manualClock() })
    const wire = await node.request({ method: 'finality_setFault', params: [STRANGER, { offline: true }] }).catch((e: { code: number; message: string }) => e)
    expect(wire).toMatchObject({ code: -32602, message: `unknown validator ${STRANGER}` })
    expect(() => node.setValidatorOnline(STRANGER, false)).toThrow(`node.setValidatorOnline: invalid address: unknown validator ${STRANGER}`)
    // Online and faults are one record: offline through either API reads the same.
    const [a] = node.validators.map((v) => v.address)
    await node.request({ method: 'finality_setFault', params: [a!, { silent: true }] })
    node.setValidatorOnline(a!, false)
    const state = await node.request({ method: 'finality_getConsensusState', params: [] }) as { faults: unknown[] }
    expect(state.faults).toEqual([{ validator: a, offline: true, silent: true }])
    expect(node.validators.find((v) => v.address === a)?.online).toBe(false)
  })
})
