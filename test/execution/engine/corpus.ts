/**
 * The hand-written programs the engine's tests run (the fast interpreter's comparison with the
 * library's runStep, and the differential test of test/execution/engine/differential.test.ts).
 * TARGET runs the program; CALLEE (0x3000…0003) is the contract the `call` program calls.
 */

// The callee: SSTORE(1, CALLDATALOAD(0)); LOG1(0, 0, topic 7); RETURN 32 bytes of memory holding 0x2a.
export const CALLEE_CODE = '0x600035600155600760006000a1602a60005260206000f3'

export const PROGRAMS: Record<string, string> = {
  // MSTORE 42 at 0, RETURN 32 bytes.
  'return a word': '0x602a60005260206000f3',
  // STOP after some arithmetic.
  stop: '0x6001600201600302600a0450600060005500',
  // MSTORE then REVERT with 32 bytes of data.
  revert: '0x600160005260206000fd',
  invalid: '0x6001fe',
  // JUMP to byte 4, a STOP rather than a JUMPDEST.
  'bad jump': '0x6004565b00',
  // A loop that runs out of gas: JUMPDEST, PUSH1 0, JUMP.
  'out of gas in a loop': '0x5b600056',
  // MSTORE at offset 2^32: the memory-expansion gas cannot be paid.
  'out of gas on memory': '0x60016401000000005200',
  // KECCAK256 of 64 bytes of memory, SSTORE it, SLOAD it back, RETURN it.
  'keccak, sstore, sload': '0x602a600052604060002060005560005460005260206000f3',
  // CALL the callee with calldata 5, gas 100000, then RETURN its 32 bytes of output.
  call: '0x600560005260206000602060006000733000000000000000000000000000000000000003620186a0f15060206000f3',
  // CREATE a contract whose init code returns one byte, RETURN the new address.
  create: '0x6c600160005360016000f3000000600052600a60136000f060005260206000f3',
  // EXP and a MSTORE8, then LOG2 over 40 bytes.
  'exp, mstore8, log': '0x600260030a6000536003600460286000a200',
  // ADD and POP, then GAS into memory and RETURN it: the gas left after charges of plain opcodes.
  'gas after plain opcodes': '0x6001600201505a60005260206000f3',
  // ADD and POP, then GAS as the last opcode that costs gas (STOP costs none).
  'gas last': '0x6001600201505a00',
  // SSTORE as the last opcode that costs gas: at lower limits, its sentry or its charge fails.
  'sstore last': '0x6001600201602a60015500',
}

