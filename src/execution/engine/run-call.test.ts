/**
 * The engine's run of a message frame (src/execution/engine/run-call.ts) ends every frame as
 * @ethereumjs/evm's own `runCall` does, with and without listeners of the EVM's `beforeMessage`
 * and `afterMessage` events: the same result, state and events, in the same order, for a top
 * frame with a block, frames a CALL opens (one that reverts after a refunded SSTORE, one that
 * succeeds), a creation and a caller given the value it lacks (`skipBalance`). Each case runs on
 * two fresh EVMs, the engine's and the library's. test/execution/engine/differential.test.ts
 * compares the two on every fork and program.
 */
import { createBlock } from '@ethereumjs/block'
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { type EVM, type EVMResult, Message, createEVM } from '@ethereumjs/evm'
import { Account, createAddressFromString, hexToBytes, type Address } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { createEngineEVM, engineStatus, installEngine } from './index.js'

const CALLER = createAddressFromString('0x1000000000000000000000000000000000000001')
const OUTER = createAddressFromString('0x2000000000000000000000000000000000000002')
const REVERTER = createAddressFromString('0x3000000000000000000000000000000000000003')
const STORER = createAddressFromString('0x4000000000000000000000000000000000000004')

// SSTORE(0, 0) (slot 0 was 1: a refund), then REVERT.
const REVERTER_CODE = '0x5f5f55' + '5f5ffd'
// SSTORE(0, 7), LOG0 of nothing, STOP.
const STORER_CODE = '0x60075f55' + '5f5fa0' + '00'
// CALL(gas, REVERTER, 0, 0, 0, 0, 0); CALL(gas, STORER, 0, 0, 0, 0, 0); RETURN 32 bytes of memory.
const call = (to: Address) => `5f5f5f5f5f73${to.toString().slice(2)}5af150`
const OUTER_CODE = `0x${call(REVERTER)}${call(STORER)}60205ff3`

async function evm(engine: boolean): Promise<EVM> {
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague })
  const e = await (engine ? createEngineEVM : createEVM)({ common })
  await e.stateManager.putAccount(CALLER, new Account(0n, 1_000_000n))
  for (const [address, code] of [
    [OUTER, OUTER_CODE],
    [REVERTER, REVERTER_CODE],
    [STORER, STORER_CODE],
  ] as const) {
    await e.stateManager.putAccount(address, new Account())
    await e.stateManager.putCode(address, hexToBytes(code as `0x${string}`))
  }
  await e.stateManager.putStorage(REVERTER, new Uint8Array(32), Uint8Array.of(1))
  return e
}

type Opts = Parameters<EVM['runCall']>[0]

/** One run on a fresh EVM: its outcome, the state after it and, if listened to, each event. */
async function run(engine: boolean, given: Opts | (() => Opts), listen: boolean) {
  const opts = typeof given === 'function' ? given() : given
  const e = await evm(engine)
  const events: unknown[] = []
  if (listen) {
    e.events.on('beforeMessage', (m: Message) => events.push(['before', m.depth, m.to?.toString(), m.value.toString()]))
    e.events.on('afterMessage', (r: EVMResult) => events.push(['after', r.execResult.exceptionError?.error, r.execResult.gasRefund?.toString()]))
  }
  const block = createBlock({ header: { number: 3n, timestamp: 5n, gasLimit: 30_000_000n } }, { common: e.common })
  if (opts.message !== undefined) {
    // A message frame runs inside a run that set the EVM's block and transaction (as a CALL's does).
    Object.assign(e, { _block: block, _tx: { gasPrice: 7n, origin: CALLER } })
  }
  const { createdAddress, execResult } = await e.runCall({ block, ...opts })
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')
  const account = async (a: Address | undefined) => {
    const got = a === undefined ? undefined : await e.stateManager.getAccount(a)
    return got === undefined ? undefined : { nonce: got.nonce, balance: got.balance, codeHash: hex(got.codeHash) }
  }
  return {
    created: createdAddress?.toString(),
    gasUsed: execResult.executionGasUsed,
    returnValue: hex(execResult.returnValue),
    error: execResult.exceptionError?.error,
    gasRefund: execResult.gasRefund,
    logs: execResult.logs?.length,
    selfdestruct: execResult.selfdestruct?.size,
    createdAddresses: execResult.createdAddresses?.size,
    caller: await account(CALLER),
    createdAccount: await account(createdAddress),
    reverterSlot: hex(await e.stateManager.getStorage(REVERTER, new Uint8Array(32))),
    storerSlot: hex(await e.stateManager.getStorage(STORER, new Uint8Array(32))),
    events,
  }
}

/** A frame given as a message (as the interpreter's CALL gives one), made afresh for each run. */
const messageFrame = (to: Address, extra: Partial<Opts> = {}) => (): Opts => ({
  message: new Message({ caller: CALLER, to, gasLimit: 100_000n, depth: 0 }),
  ...extra,
})

const cases: Array<[string, Opts | (() => Opts)]> = [
  ['a call whose inner frames revert and succeed', { caller: CALLER, to: OUTER, gasLimit: 200_000n }],
  ['a frame that reverts with a refund', { caller: CALLER, to: REVERTER, gasLimit: 100_000n }],
  ['a frame that runs out of gas', { caller: CALLER, to: OUTER, gasLimit: 4_000n }],
  ['a creation', { caller: CALLER, data: hexToBytes('0x60015f5360015ff3'), gasLimit: 100_000n }],
  ['a caller given the value it lacks', { caller: CALLER, to: STORER, value: 10n ** 18n, skipBalance: true, gasLimit: 100_000n }],
  ['a frame without the nonce increment', { caller: CALLER, to: STORER, skipNonceIncrement: true, gasLimit: 100_000n }],
  ['a top frame given as a message', messageFrame(STORER)],
  ['a top frame given as a message that reverts', messageFrame(REVERTER)],
  ['a top frame given as a message, without the nonce increment', messageFrame(STORER, { skipNonceIncrement: true })],
]

describe('the engine\'s run of a frame', () => {
  it('is on for the engine\'s EVMs', async () => {
    await installEngine()
    expect(engineStatus().patches.runCall).toBe(true)
  })

  for (const [name, opts] of cases) {
    for (const listen of [false, true]) {
      it(`behavior: ${name}${listen ? ', its events listened to,' : ''} ends as through @ethereumjs/evm's runCall`, async () => {
        expect(await run(true, opts, listen)).toEqual(await run(false, opts, listen))
      })
    }
  }

  it('behavior: the cases reach the outcomes they are meant to test', async () => {
    const [nested, reverts, outOfGas, creation, lacking] = await Promise.all(cases.slice(0, 5).map(([, opts]) => run(true, opts, true)))
    expect(nested!.error).toBeUndefined()
    expect(nested!.storerSlot).toBe('07')
    expect(nested!.reverterSlot).toBe('01')
    expect(nested!.events.filter((e) => (e as unknown[])[0] === 'before')).toHaveLength(3)
    expect(reverts!.error).toBe('revert')
    expect(reverts!.gasRefund).toBe(0n)
    expect(outOfGas!.error).toBe('out of gas')
    expect(creation!.created).toBeDefined()
    expect(creation!.createdAccount?.nonce).toBe(1n)
    expect(lacking!.error).toBeUndefined()
    const [message, messageReverts, messageNoNonce] = await Promise.all(cases.slice(6).map(([, opts]) => run(true, opts, false)))
    expect(message!.caller?.nonce).toBe(1n)
    expect(message!.storerSlot).toBe('07')
    expect(messageReverts!.error).toBe('revert')
    expect(messageNoNonce!.caller?.nonce).toBe(0n)
  })
})
