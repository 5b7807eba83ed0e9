/**
 * What a method handler may change, compiled by tsc: nothing here runs.
 * test/types/handler-ports.test.ts compiles it as is (every `@ts-expect-error` used) and with the
 * `@ts-expect-error` lines taken out, where each line under one must fail with the message its
 * `(tsc: …)` names. A handler reads the producer and the pool; it changes how blocks are made,
 * the pool, the logging switch and impersonation only through the controls, their one writer.
 */
import { method, methodsOf } from '../../src/rpc/method.js'
import { quantity as qty } from '../../src/rpc/codecs.js'

export const reads = method({
  params: [qty],
  run: (s, [limit]) => {
    const mode = s.producer.mode.mode
    const gas = s.producer.settings.current.gasLimit ?? s.producer.blockGasLimit
    const pooled = s.pool.size + s.pool.all().length + s.pool.entriesOf('00').length
    s.controls.mining.setGasLimit(limit)
    s.controls.setLogging(false)
    return [mode, gas, pooled, s.controls.logging]
  },
})

export const writes = method({
  params: [qty],
  run: (s, [limit]) => {
    // @ts-expect-error the producer's settings are read-only here (tsc: Property 'setGasLimit' does not exist)
    s.producer.settings.setGasLimit(limit)
    // @ts-expect-error the mining mode changes through controls.mining (tsc: Property 'setMode' does not exist)
    s.producer.setMode({ mode: 'manual' })
    // @ts-expect-error miner_stop goes through controls.mining (tsc: Property 'stop' does not exist)
    s.producer.stop()
    // @ts-expect-error the producer's serial section is its own (tsc: Property 'exclusive' does not exist)
    void s.producer.exclusive(async () => {})
    // @ts-expect-error a pooled transaction is dropped through controls.mining (tsc: Property 'remove' does not exist)
    s.pool.remove('00')
    // @ts-expect-error (tsc: Property 'replaceAll' does not exist)
    s.pool.replaceAll([])
    // @ts-expect-error (tsc: Property 'setMinTip' does not exist)
    s.pool.setMinTip(limit)
    // @ts-expect-error transactions enter through the intake's checks (tsc: Property 'add' does not exist)
    s.pool.add
    // @ts-expect-error the logging switch has a setter (tsc: Cannot assign to 'logging' because it is a read-only property)
    s.controls.logging = false
    // @ts-expect-error the impersonation set is the controls' own (tsc: Property 'impersonation' is private)
    s.controls.impersonation.addresses.clear()
    // @ts-expect-error every service is handed over read-only (tsc: Cannot assign to 'pool' because it is a read-only property)
    s.pool = s.pool
    return null
  },
})

/** A namespace's handlers see only the ports it lists (miner_ lists the controls alone). */
const minerMethod = methodsOf<'controls'>()
export const narrow = minerMethod({
  params: [qty],
  run: (s, [limit]) => {
    s.controls.mining.setGasLimit(limit)
    // @ts-expect-error the chain is not one of this namespace's ports (tsc: Property 'chain' does not exist)
    return s.chain.height
  },
})
