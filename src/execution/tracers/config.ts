/**
 * The trace config of the debug_trace* methods (geth's `TraceConfig`) and the tracer it names.
 * geth builds the tracer and parses `timeout` inside the trace, so their failures are -32000
 * errors with geth's words, not param errors.
 */
import { Refused } from '../../domain-errors.js'
import { CallTracer, type CallTracerConfig } from './call-tracer.js'
import { FourByteTracer } from './four-byte-tracer.js'
import { JsTracer, prepareSandbox, type JsTracerLimits } from './js-tracer.js'
import { NoopTracer } from './noop-tracer.js'
import { ObjectTracer, isTracerObject, type TracerObject } from './object-tracer.js'
import { OpcodeTracer } from './opcode-tracer.js'
import { PrestateTracer, type PrestateTracerConfig } from './prestate-tracer.js'
import { GETH_FORM, HARDHAT_FORM, type StructLoggerConfig } from './struct-log-forms.js'
import { StructLogger, type TraceBudget } from './struct-logger.js'

export type { TraceBudget }
import type { Tracer } from './types.js'

/** geth's default time a trace may run (`defaultTraceTimeout`). */
export const DEFAULT_TRACE_TIMEOUT_MS = 5_000

/** A decoded trace config. */
export interface TraceConfig {
  /**
   * The named tracer, or a JavaScript tracer's code; undefined or empty = the struct logger.
   * In process, also a {@link TracerObject}.
   */
  tracer?: string | TracerObject | undefined
  /** The tracer's own options, as JSON. */
  tracerConfig?: Record<string, unknown> | undefined
  /** A Go duration (`5s`, `300ms`, `1m`); geth's default is 5s. */
  timeout?: string | undefined
  /** The struct logger's options. */
  logger?: StructLoggerConfig
}

/** The tracers this node has, by geth's names. */
export const TRACERS = ['callTracer', 'prestateTracer', '4byteTracer', 'noopTracer', 'opcodeTracer'] as const

const JS_IDENTIFIER = /^[A-Za-z_$][\w$]*$/

function goKind(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'object') return 'object'
  return typeof v === 'boolean' ? 'bool' : typeof v
}

/** The booleans of a tracerConfig object, with Go's `json.Unmarshal` wording for a wrong type. */
function booleans<K extends string>(raw: Record<string, unknown> | undefined, struct: string, keys: readonly K[]): Partial<Record<K, boolean>> {
  const out: Partial<Record<K, boolean>> = {}
  if (raw === undefined) return out
  for (const key of keys) {
    if (!Object.hasOwn(raw, key) || raw[key] === null) continue
    const v = raw[key]
    if (typeof v !== 'boolean') throw new Refused(`json: cannot unmarshal ${goKind(v)} into Go struct field ${struct}.${key} of type bool`)
    out[key] = v
  }
  return out
}


/**
 * Gets what {@link createTracer} needs for this config ready: the JavaScript engine, loaded on
 * the first JavaScript trace only.
 */
export async function prepareTracer(config: TraceConfig): Promise<void> {
  if (isJavaScript(config.tracer)) await prepareSandbox()
}

/**
 * The tracer a config names, ready for one transaction (after {@link prepareTracer}). `hardhat`:
 * the default tracer writes Hardhat's struct-log form (Hardhat mode), not geth's.
 */
export function createTracer(config: TraceConfig, budget: TraceBudget, js?: Readonly<JsTracerLimits>, hardhat = false): Tracer {
  const name = config.tracer ?? ''
  const raw = config.tracerConfig
  if (isTracerObject(name)) return new ObjectTracer(name, raw)
  switch (name) {
    case '':
      return new StructLogger(config.logger, budget, hardhat ? HARDHAT_FORM : GETH_FORM)
    case 'callTracer':
      return new CallTracer(booleans(raw, 'callTracerConfig', ['onlyTopCall', 'withLog']) as CallTracerConfig)
    case 'prestateTracer':
      return new PrestateTracer(
        booleans(raw, 'prestateTracerConfig', ['diffMode', 'disableCode', 'disableStorage', 'includeEmpty']) as PrestateTracerConfig,
      )
    case '4byteTracer':
      return new FourByteTracer()
    case 'noopTracer':
      return new NoopTracer()
    case 'opcodeTracer':
      return new OpcodeTracer()
  }
  // geth evaluates any other name as JavaScript tracer code (goja): a bare name is an undefined
  // variable there (this node has none of geth's JavaScript tracers by name).
  if (JS_IDENTIFIER.test(name)) throw new Refused(`ReferenceError: ${name} is not defined at <eval>:1:2(0)`)
  return new JsTracer(name, raw, traceTimeout(config), js)
}

/** True when the tracer is JavaScript code (it fails per transaction in a block trace, as in geth). */
export function isJavaScript(tracer: TraceConfig['tracer']): tracer is string {
  return typeof tracer === 'string' && tracer !== '' && !(TRACERS as readonly string[]).includes(tracer)
}

const UNITS = new Map<string, number>([
  ['ns', 1e-6],
  ['us', 1e-3],
  ['µs', 1e-3],
  ['μs', 1e-3],
  ['ms', 1],
  ['s', 1_000],
  ['m', 60_000],
  ['h', 3_600_000],
])

/** Go's `time.ParseDuration`, in milliseconds, with Go's error texts. */
export function parseGoDuration(text: string): number {
  const quoted = JSON.stringify(text)
  let s = text
  let sign = 1
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1
    s = s.slice(1)
  }
  if (s === '0') return 0
  if (s === '') throw new Refused(`time: invalid duration ${quoted}`)
  let total = 0
  while (s !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(s)
    const whole = number?.[1] ?? ''
    const fraction = number?.[2]
    if (whole === '' && (fraction === undefined || fraction === '')) throw new Refused(`time: invalid duration ${quoted}`)
    s = s.slice(number?.[0].length ?? 0)
    const unit = /^[^\d.]*/.exec(s)?.[0] ?? ''
    if (unit === '') throw new Refused(`time: missing unit in duration ${quoted}`)
    const scale = UNITS.get(unit)
    if (scale === undefined) throw new Refused(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`)
    s = s.slice(unit.length)
    total += Number(`${whole === '' ? '0' : whole}.${fraction ?? ''}0`) * scale
  }
  return sign * total
}

/** The time a trace may run, in milliseconds. */
export function traceTimeout(config: TraceConfig): number {
  return config.timeout === undefined ? DEFAULT_TRACE_TIMEOUT_MS : parseGoDuration(config.timeout)
}
