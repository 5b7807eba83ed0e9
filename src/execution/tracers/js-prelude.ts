/**
 * The JavaScript that runs inside the tracer sandbox before the tracer's own code: geth's tracer
 * environment (`bigInt`, `toHex`, `toWord`, `toAddress`, `toContract`, `toContract2`,
 * `isPrecompiled`, `slice`, and the `log` / `db` / frame objects handed to the tracer). Byte
 * arrays are `Uint8Array`s and big numbers `bigInt` objects (geth ships the big-integer library;
 * here a class over the engine's native BigInt with the same methods). The host side
 * (`js-tracer.ts`) passes a `__host` object of functions, which the prelude takes and removes
 * from the global scope, and receives the `__tracer` entry points back.
 */
export const PRELUDE = String.raw`
(function () {
  'use strict'
  const host = globalThis.__host
  delete globalThis.__host
  const HEX = []
  for (let i = 0; i < 256; i++) HEX.push((i < 16 ? '0' : '') + i.toString(16))
  function bytesToHex(b) {
    let s = '0x'
    for (let i = 0; i < b.length; i++) s += HEX[b[i] & 255]
    return s
  }
  function hexToBytes(h) {
    if (h.startsWith('0x') || h.startsWith('0X')) h = h.slice(2)
    if (h.length % 2 === 1) h = '0' + h
    const out = new Uint8Array(h.length / 2)
    for (let i = 0; i < out.length; i++) {
      const v = parseInt(h.substr(2 * i, 2), 16)
      out[i] = v === v ? v : 0
    }
    return out
  }
  function fromBuf(v, allowString) {
    if (typeof v === 'string' || v instanceof String) {
      if (allowString) return hexToBytes(String(v))
    } else if (v instanceof Uint8Array) {
      return v
    } else if (Array.isArray(v)) {
      return Uint8Array.from(v)
    }
    throw new TypeError('invalid buffer type')
  }
  function fixed(b, n) {
    const out = new Uint8Array(n)
    if (b.length >= n) out.set(b.subarray(b.length - n))
    else out.set(b, n - b.length)
    return out
  }

  // geth's bigInt (the big-integer library's API) over native BigInt.
  const PREFIX = { 2: '0b', 8: '0o', 16: '0x' }
  function parse(text, base) {
    let s = String(text).trim()
    let negative = false
    if (s[0] === '-' || s[0] === '+') {
      negative = s[0] === '-'
      s = s.slice(1)
    }
    if (s === '' || !/^[0-9a-zA-Z]+$/.test(s)) throw new Error('Invalid integer: ' + text)
    let value
    if (base === undefined || base === 10) {
      if (!/^[0-9]+$/.test(s)) throw new Error('Invalid integer: ' + text)
      value = BigInt(s)
    } else if (PREFIX[base] !== undefined) {
      value = BigInt(PREFIX[base] + s)
    } else {
      value = 0n
      const b = BigInt(base)
      for (const c of s.toLowerCase()) {
        const d = parseInt(c, 36)
        if (!(d < base)) throw new Error('Invalid integer: ' + text)
        value = value * b + BigInt(d)
      }
    }
    return negative ? -value : value
  }
  function raw(v) {
    if (v instanceof Big) return v.value
    if (typeof v === 'bigint') return v
    if (typeof v === 'number') return BigInt(Math.trunc(v))
    if (typeof v === 'string') return parse(v)
    return BigInt(v)
  }
  class Big {
    constructor(value) { this.value = value }
    add(o) { return new Big(this.value + raw(o)) }
    subtract(o) { return new Big(this.value - raw(o)) }
    multiply(o) { return new Big(this.value * raw(o)) }
    divide(o) { return new Big(this.value / raw(o)) }
    mod(o) { return new Big(this.value % raw(o)) }
    pow(o) { return new Big(this.value ** raw(o)) }
    modPow(e, m) {
      let base = this.value % raw(m), exp = raw(e), mod = raw(m), out = 1n
      while (exp > 0n) { if (exp & 1n) out = (out * base) % mod; base = (base * base) % mod; exp >>= 1n }
      return new Big(out)
    }
    divmod(o) { const d = raw(o); return { quotient: new Big(this.value / d), remainder: new Big(this.value % d) } }
    negate() { return new Big(-this.value) }
    abs() { return new Big(this.value < 0n ? -this.value : this.value) }
    square() { return new Big(this.value * this.value) }
    next() { return new Big(this.value + 1n) }
    prev() { return new Big(this.value - 1n) }
    and(o) { return new Big(this.value & raw(o)) }
    or(o) { return new Big(this.value | raw(o)) }
    xor(o) { return new Big(this.value ^ raw(o)) }
    not() { return new Big(~this.value) }
    shiftLeft(n) { return new Big(this.value << raw(n)) }
    shiftRight(n) { return new Big(this.value >> raw(n)) }
    compare(o) { const v = raw(o); return this.value === v ? 0 : this.value > v ? 1 : -1 }
    compareAbs(o) { const a = this.value < 0n ? -this.value : this.value; let b = raw(o); if (b < 0n) b = -b; return a === b ? 0 : a > b ? 1 : -1 }
    equals(o) { return this.value === raw(o) }
    notEquals(o) { return this.value !== raw(o) }
    greater(o) { return this.value > raw(o) }
    greaterOrEquals(o) { return this.value >= raw(o) }
    lesser(o) { return this.value < raw(o) }
    lesserOrEquals(o) { return this.value <= raw(o) }
    isZero() { return this.value === 0n }
    isNegative() { return this.value < 0n }
    isPositive() { return this.value > 0n }
    isEven() { return (this.value & 1n) === 0n }
    isOdd() { return (this.value & 1n) === 1n }
    isUnit() { return this.value === 1n || this.value === -1n }
    bitLength() { let v = this.value < 0n ? -this.value : this.value; let n = 0; while (v > 0n) { v >>= 1n; n++ } return new Big(BigInt(n)) }
    toString(radix) { return this.value.toString(radix === undefined ? 10 : radix) }
    toJSNumber() { return Number(this.value) }
    valueOf() { return Number(this.value) }
    toJSON() { return this.value.toString() }
  }
  const aliases = { plus: 'add', minus: 'subtract', sub: 'subtract', times: 'multiply', over: 'divide', eq: 'equals', neq: 'notEquals',
    gt: 'greater', geq: 'greaterOrEquals', lt: 'lesser', leq: 'lesserOrEquals', compareTo: 'compare', remainder: 'mod' }
  for (const a in aliases) Big.prototype[a] = Big.prototype[aliases[a]]
  function bigInt(v, base) {
    if (v === undefined) return new Big(0n)
    if (base !== undefined) return new Big(parse(v, base))
    return v instanceof Big ? v : new Big(raw(v))
  }
  bigInt.isInstance = (v) => v instanceof Big
  bigInt.zero = new Big(0n)
  bigInt.one = new Big(1n)
  bigInt.minusOne = new Big(-1n)
  const big = (hex) => new Big(BigInt(hex))

  let precompiles = new Set()
  const g = globalThis
  g.bigInt = bigInt
  g.toHex = (v) => bytesToHex(fromBuf(v, false))
  g.toWord = (v) => fixed(fromBuf(v, true), 32)
  g.toAddress = (v) => fixed(fromBuf(v, true), 20)
  g.toContract = (from, nonce) => hexToBytes(host.create(bytesToHex(fixed(fromBuf(from, true), 20)), Number(nonce)))
  g.toContract2 = (from, salt, code) =>
    hexToBytes(host.create2(bytesToHex(fixed(fromBuf(from, true), 20)), bytesToHex(fixed(hexToBytes(String(salt)), 32)), bytesToHex(fromBuf(code, true))))
  g.isPrecompiled = (v) => precompiles.has(bytesToHex(fixed(fromBuf(v, true), 20)))
  g.slice = (v, start, end) => {
    const b = fromBuf(v, false)
    if (start < 0 || start > end || end > b.length) {
      throw new RangeError('Tracer accessed out of bound memory: available ' + b.length + ', offset ' + start + ', size ' + (end - start))
    }
    return b.slice(start, end)
  }

  let step = { pc: 0, op: 0, gas: 0, cost: 0, depth: 0, refund: 0, error: undefined }
  const log = {
    op: {
      toNumber: () => step.op,
      toString: () => host.opName(step.op),
      isPush: () => step.op >= 0x5f && step.op <= 0x7f,
    },
    stack: { peek: (i) => big(host.stackPeek(Number(i))), length: () => host.stackLength() },
    memory: {
      slice: (begin, end) => new Uint8Array(host.memorySlice(Number(begin), Number(end))),
      getUint: (offset) => big(host.memoryUint(Number(offset))),
      length: () => host.memoryLength(),
    },
    contract: {
      getCaller: () => hexToBytes(host.contract(0)),
      getAddress: () => hexToBytes(host.contract(1)),
      getValue: () => big(host.contract(2)),
      getInput: () => new Uint8Array(host.contractInput()),
    },
    getPC: () => step.pc,
    getGas: () => step.gas,
    getCost: () => step.cost,
    getDepth: () => step.depth,
    getRefund: () => step.refund,
    getError: () => step.error,
  }
  const address = (v) => bytesToHex(fixed(fromBuf(v, false), 20))
  const db = {
    getBalance: (a) => big(host.balance(address(a))),
    getNonce: (a) => host.nonce(address(a)),
    getCode: (a) => new Uint8Array(host.code(address(a))),
    getState: (a, slot) => hexToBytes(host.storage(address(a), bytesToHex(fixed(fromBuf(slot, false), 32)))),
    exists: (a) => host.exists(address(a)),
  }
  let frameData
  const frame = {
    getType: () => frameData.type,
    getFrom: () => hexToBytes(frameData.from),
    getTo: () => hexToBytes(frameData.to),
    getInput: () => frameData.input,
    getGas: () => frameData.gas,
    getValue: () => (frameData.value === undefined ? undefined : big(frameData.value)),
  }
  let exitData
  const frameResult = {
    getGasUsed: () => exitData.gasUsed,
    getOutput: () => exitData.output,
    getError: () => exitData.error,
  }

  let t
  g.__tracer = {
    init(code, config) {
      t = (0, eval)('(' + code + '\n)')
      if (t === null || (typeof t !== 'object' && typeof t !== 'function')) throw new TypeError('tracer is not an object')
      if (typeof t.result !== 'function') return 'trace object must expose a function result()'
      if (typeof t.fault !== 'function') return 'trace object must expose a function fault()'
      if ((typeof t.enter === 'function') !== (typeof t.exit === 'function')) return 'trace object must expose either both or none of enter() and exit()'
      if (typeof t.setup === 'function') t.setup(config)
      return (typeof t.step === 'function' ? 1 : 0) | (typeof t.enter === 'function' ? 2 : 0) | (typeof t.step === 'function' && t.step.length >= 2 ? 4 : 0)
    },
    precompiles(list) { precompiles = new Set(list) },
    step(pc, op, gas, cost, depth, refund, error) {
      step.pc = pc; step.op = op; step.gas = gas; step.cost = cost; step.depth = depth; step.refund = refund; step.error = error
      t.step(log, db)
    },
    fault(error) {
      step.error = error
      t.fault(log, db)
    },
    enter(type, from, to, input, gas, value) {
      frameData = { type, from, to, input: new Uint8Array(input), gas, value }
      t.enter(frame)
    },
    exit(gasUsed, output, error) {
      exitData = { gasUsed, output: new Uint8Array(output), error }
      t.exit(frameResult)
    },
    result(json) {
      const c = JSON.parse(json)
      for (const k of ['from', 'to', 'input', 'output', 'blockHash', 'txHash']) if (c[k] !== undefined) c[k] = hexToBytes(c[k])
      for (const k of ['value', 'gasPrice']) if (c[k] !== undefined) c[k] = big(c[k])
      const out = JSON.stringify(t.result(c, db))
      return out === undefined ? 'null' : out
    },
  }
})()
`
