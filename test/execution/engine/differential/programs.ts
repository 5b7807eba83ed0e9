/**
 * Generated EVM programs for the engine's differential test: random sequences of opcode
 * snippets (arithmetic, memory at small and huge offsets, storage, transient storage, hashing,
 * logs, calls, creates, forward jumps, environment reads, raw random bytes), each ending in one
 * of the ways a frame ends. The same seed gives the same programs in every process.
 */

/** A small seeded PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The contract the programs call (see corpus.ts: CALLEE_CODE). */
const CALLEE = [0x73, 0x30, ...new Array<number>(18).fill(0), 0x03]
/** Init code returning one byte (0x01) of runtime code, as 32 bytes for a PUSH32. */
const INIT = [0x60, 0x01, 0x60, 0x00, 0x53, 0x60, 0x01, 0x60, 0x00, 0xf3]
const ARITH = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0a, 0x0b, 0x10, 0x11, 0x12, 0x13, 0x14, 0x16, 0x17, 0x18, 0x1a, 0x1b, 0x1c, 0x1d]
const ENV = [0x30, 0x31, 0x32, 0x33, 0x34, 0x36, 0x38, 0x3a, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x58, 0x59, 0x5a]

/** One random program, as bytes. */
export function randomProgram(random: () => number): Uint8Array {
  const int = (n: number) => Math.floor(random() * n)
  const out: number[] = []
  const push1 = (v: number) => out.push(0x60, v & 0xff)
  const push2 = (v: number) => out.push(0x61, (v >> 8) & 0xff, v & 0xff)
  const offset = () => (int(10) === 0 ? 0x8000 + int(0x7000) : int(512))
  const snippets: Array<() => void> = [
    () => {
      push1(int(256))
      push1(int(256))
      out.push(ARITH[int(ARITH.length)]!)
      if (int(2) === 0) out.push(0x50)
    },
    () => {
      out.push(0x7f, ...Array.from({ length: 32 }, () => int(256)))
      push2(offset())
      out.push(0x52)
    },
    () => {
      push1(int(256))
      push2(offset())
      out.push(0x53)
    },
    () => {
      push2(offset())
      out.push(0x51, 0x50)
    },
    () => {
      push1(int(256))
      push1(int(8))
      out.push(0x55)
    },
    () => {
      push1(int(8))
      out.push(0x54, 0x50)
    },
    () => {
      // TSTORE then TLOAD (unassigned before Cancun: an invalid opcode there).
      push1(int(256))
      push1(int(4))
      out.push(0x5d)
      push1(int(4))
      out.push(0x5c, 0x50)
    },
    () => {
      push1(int(96))
      push2(offset())
      out.push(0x20, 0x50)
    },
    () => {
      const topics = int(5)
      for (let i = 0; i < topics; i++) push1(int(256))
      push1(int(64))
      push1(int(64))
      out.push(0xa0 + topics)
    },
    () => {
      // CALL or STATICCALL or DELEGATECALL the callee with 32 bytes of input.
      const kind = [0xf1, 0xfa, 0xf4][int(3)]!
      push1(32)
      push1(0)
      push1(32)
      push1(0)
      if (kind === 0xf1) push1(int(3))
      out.push(...CALLEE)
      push2(int(4) === 0 ? int(3000) : 60000)
      out.push(kind, 0x50)
    },
    () => {
      // CREATE or CREATE2 (salt first) of INIT, stored right-aligned in the word at 0.
      out.push(0x69, ...INIT)
      push1(0)
      out.push(0x52)
      const create2 = int(2) === 0
      if (create2) push1(int(256))
      push1(INIT.length)
      push1(32 - INIT.length)
      push1(int(2))
      out.push(create2 ? 0xf5 : 0xf0, 0x50)
    },
    () => {
      // A forward JUMPI over a few junk bytes to a JUMPDEST.
      const junk = 1 + int(4)
      // Mostly taken; a jump not taken runs into the junk (an invalid opcode).
      push1(int(5) === 0 ? 0 : 1)
      const dest = out.length + 4 + junk
      push2(dest)
      out.push(0x57)
      for (let i = 0; i < junk; i++) out.push(0xfe)
      out.push(0x5b)
    },
    () => {
      out.push(ENV[int(ENV.length)]!)
      out.push(0x50)
    },
    () => {
      // MCOPY (Cancun on; invalid before).
      push1(32)
      push1(int(64))
      push1(int(64))
      out.push(0x5e)
    },
    () => {
      // Now and then a raw random byte (any opcode, or a PUSH that swallows what follows).
      if (int(4) === 0) out.push(int(256))
    },
  ]
  const length = 4 + int(20)
  for (let i = 0; i < length; i++) snippets[int(snippets.length)]!()
  switch (int(6)) {
    case 0:
      out.push(0x00)
      break
    case 1:
      push1(int(64))
      push1(int(64))
      out.push(0xf3)
      break
    case 2:
      push1(int(64))
      push1(int(64))
      out.push(0xfd)
      break
    case 3:
      out.push(0xfe)
      break
    case 4:
      out.push(...CALLEE, 0xff)
      break
    default:
      break
  }
  return Uint8Array.from(out)
}
