/**
 * finality's EVM engine is its own bundled copy of @ethereumjs/evm: after createNode() runs
 * transactions, the @ethereumjs/evm installed in this project (a user's own createEVM()) has
 * every method of its EVM and Interpreter classes as before.
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { EVM, createEVM } from '@ethereumjs/evm'
import { describe, expect, it } from 'vitest'

type Proto = Record<string, unknown>

function methods(proto: Proto): Map<string, unknown> {
  return new Map(Object.getOwnPropertyNames(proto).map((name) => [name, Object.getOwnPropertyDescriptor(proto, name)?.value]))
}

/** The installed library's Interpreter class (not exported), reached through a custom opcode. */
async function interpreterProto(): Promise<Proto> {
  let proto: Proto | undefined
  const evm = await createEVM({
    common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }),
    customOpcodes: [
      {
        opcode: 0x0c,
        opcodeName: 'PROBE',
        baseFee: 0,
        logicFunction: (runState) => {
          proto = Object.getPrototypeOf((runState as unknown as { interpreter: object }).interpreter) as Proto
        },
      },
    ],
  })
  await evm.runCode({ code: Uint8Array.of(0x0c), gasLimit: 1000n })
  if (proto === undefined) throw new Error('the probe opcode did not run')
  return proto
}

describe("the user's own @ethereumjs/evm", () => {
  it('is untouched by createNode() and the transactions it runs', async () => {
    const evmBefore = methods(EVM.prototype as unknown as Proto)
    const interpreter = await interpreterProto()
    const interpreterBefore = methods(interpreter)

    const { createNode, engineStatus } = await import('finality-evm')
    const node = await createNode()
    try {
      const [from] = await node.request({ method: 'eth_accounts' })
      const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from, to: '0x000000000000000000000000000000000000dEaD', value: '0x1' }] })
      expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
      const status = engineStatus()
      expect(status.bundled).toBe(true)
      expect(status.reason).toBeUndefined()
      expect(Object.values(status.patches).every(Boolean)).toBe(true)
    } finally {
      await node.close()
    }

    expect(methods(EVM.prototype as unknown as Proto)).toEqual(evmBefore)
    expect(methods(interpreter)).toEqual(interpreterBefore)
    const evm = await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }) })
    const result = await evm.runCode({ code: Uint8Array.from([0x60, 0x2a, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3]), gasLimit: 100_000n })
    expect(BigInt(`0x${Buffer.from(result.returnValue).toString('hex')}`)).toBe(42n)
  })
})
