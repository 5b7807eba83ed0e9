/**
 * Hardhat mode's debug_traceTransaction and debug_traceCall answer Hardhat Network's struct logs:
 * each trace is taken on finality (`hardhatCompat: true`) and on Hardhat's own provider (Hardhat
 * 2.29, EDR) after the same transactions, and the whole answers are compared.
 */
import { describe, expect, it } from 'vitest'
import type { FinalityNode, Hex } from '../../src/index.js'
import { answer, hardhatNetwork, type WireProvider } from '../helpers/hardhat-network.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
const A = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const X = '0x00000000000000000000000000000000000000f1'
const Y = '0x00000000000000000000000000000000000000f2'

/** X: stores 5 at slot 1, calls Y, reads slot 3, writes a byte to memory. Y: stores 7 at slot 2, reads slot 9. */
const CODES = {
  nested: `0x6005600155${'5f5f5f5f5f60f25af150'}60035450${'60615f53'}00`,
  returns: '0x602a5f555f545f5260205ff3',
  invalid: '0x6001fe',
  reverts: '0x60aa5f526001601ffd',
  outOfGas: '0x5b5f56',
} satisfies Record<string, Hex>

async function pair(): Promise<[WireProvider, FinalityNode]> {
  return [await hardhatNetwork(), await newNode({ hardhatCompat: true, hardfork: 'osaka' })]
}

/**
 * A trace as JSON with each step's storage keys sorted: EDR writes them in no fixed order (the same
 * trace taken twice differs), so only the field order and the values are compared.
 */
function canonical(trace: unknown): string {
  return JSON.stringify(trace, (key, value) =>
    key === 'storage' && typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) : value,
  )
}

/** The hash of the transaction a send mined (a failing send answers an error carrying it). */
async function sent(p: WireProvider | FinalityNode, tx: Record<string, string>): Promise<Hex> {
  const result = await answer(p, 'eth_sendTransaction', [tx])
  if (typeof result === 'string') return result as Hex
  return ((await p.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { transactions: Hex[] }).transactions[0]!
}

describe('Hardhat mode: struct logs as Hardhat Network writes them', () => {
  it('debug_traceTransaction: 64-digit stack and memory words, storage on every step, Hardhat\'s field order, returnValue, failed', async () => {
    const providers = await pair()
    for (const p of providers) await p.request({ method: 'hardhat_setCode', params: [Y, '0x60076002556009545000'] })
    for (const [name, code] of Object.entries(CODES)) {
      const hashes: Hex[] = []
      for (const p of providers) {
        await p.request({ method: 'hardhat_setCode', params: [X, code] })
        hashes.push(await sent(p, { from: A, to: X, gas: name === 'outOfGas' ? '0x5300' : '0x30000' }))
      }
      expect(hashes[1], name).toBe(hashes[0])
      const configs = name === 'nested' ? [undefined, { disableStorage: true, disableMemory: true, disableStack: true }, { disableStorage: true }, { enableMemory: true }] : [undefined]
      for (const config of configs) {
        const params = config === undefined ? [hashes[0]] : [hashes[0], config]
        const h = await answer(providers[0], 'debug_traceTransaction', params)
        const f = await answer(providers[1], 'debug_traceTransaction', params)
        expect(canonical(f), `${name} ${JSON.stringify(config)}`).toBe(canonical(h))
      }
    }
  })

  it('debug_traceCall on latest', async () => {
    const providers = await pair()
    for (const p of providers) await p.request({ method: 'hardhat_setCode', params: [X, CODES.returns] })
    const h = await answer(providers[0], 'debug_traceCall', [{ from: A, to: X }, 'latest'])
    const f = await answer(providers[1], 'debug_traceCall', [{ from: A, to: X }, 'latest'])
    expect(canonical(f)).toBe(canonical(h))
  })

  it('without Hardhat mode: geth\'s struct logs (minimal quantities, storage only on SLOAD and SSTORE)', async () => {
    const node = await newNode()
    await node.setCode(X, CODES.returns)
    const hash = await sent(node, { from: A, to: X, gas: '0x30000' })
    const trace = (await node.request({ method: 'debug_traceTransaction', params: [hash] })) as { structLogs: Array<Record<string, unknown>> }
    expect(trace.structLogs[1]).toEqual({ pc: 2, op: 'PUSH0', gas: 175605, gasCost: 2, depth: 1, stack: ['0x2a'] })
  })
})
