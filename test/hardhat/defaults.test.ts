/**
 * Hardhat mode's defaults are Hardhat Network's: each request goes to finality with
 * `hardhatCompat: true` and to Hardhat's own provider (Hardhat 2.29, EDR, as `hardhat node` answers),
 * and the answers are compared; without Hardhat mode geth's defaults stay.
 */
import { describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../src/index.js'
import { HARDHAT_DEFAULTS } from '../../src/options.js'
import { answer, hardhatNetwork, type WireProvider } from '../helpers/hardhat-network.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
const A = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const B = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

/** Both providers, Hardhat's first; Hardhat's own default hardfork (osaka) on both. */
async function pair(options: Parameters<typeof newNode>[0] = {}, config: Record<string, unknown> = {}): Promise<[WireProvider, FinalityNode]> {
  return [await hardhatNetwork(config), await newNode({ hardhatCompat: true, hardfork: 'osaka', ...options })]
}

/** The same request's answer from both (an error as `{ error }`). */
async function both(providers: [WireProvider, FinalityNode], method: string, params: unknown[] = []): Promise<[unknown, unknown]> {
  return [await answer(providers[0], method, params), await answer(providers[1], method, params)]
}

/**
 * Arachnid's deterministic-deployment proxy (the CREATE2 factory): a pre-EIP-155 legacy
 * transaction signed by no one's key, 100,000 gas at 100 gwei, from 0x3fab…5362.
 */
const CREATE2_FACTORY_TX =
  '0xf8a58085174876e800830186a08080b853604580600e600039806000f350fe7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf31ba02222222222222222222222222222222222222222222222222222222222222222a02222222222222222222222222222222222222222222222222222222222222222'
const CREATE2_FACTORY_SIGNER = '0x3fab184622dc19b6109349b94811493bf2a45362'
const CREATE2_FACTORY = '0x4e59b44847b379578588920ca78fbf26c0b4956c'

describe('Hardhat mode: the same answers as Hardhat Network', () => {
  it('chain id, accounts, coinbase, gas price, priority fee, block gas limit and base fee of the first blocks', async () => {
    const providers = await pair()
    for (const method of ['eth_chainId', 'net_version', 'eth_accounts', 'eth_coinbase', 'eth_gasPrice', 'eth_maxPriorityFeePerGas', 'eth_mining']) {
      const [h, f] = await both(providers, method)
      expect(f, method).toEqual(h)
    }
    for (const tag of ['latest', 'pending']) {
      const [h, f] = (await both(providers, 'eth_getBlockByNumber', [tag, false])) as Array<Record<string, unknown>>
      for (const field of ['gasLimit', 'baseFeePerGas', 'gasUsed']) expect(f?.[field], `${tag} ${field}`).toBe(h?.[field])
    }
    const [, pendingOfFinality] = (await both(providers, 'eth_getBlockByNumber', ['pending', false])) as Array<Record<string, unknown>>
    expect(pendingOfFinality?.miner).toBe(HARDHAT_DEFAULTS.coinbase)
    expect(pendingOfFinality?.gasLimit).toBe('0x3938700')
  })

  it('the coinbase: hardhat_setCoinbase changes it, hardhat_reset brings back the default; mined blocks carry it', async () => {
    const providers = await pair()
    const other = '0x00000000000000000000000000000000000000c0'
    for (const [method, params] of [
      ['eth_sendTransaction', [{ from: A, to: B, value: '0x1' }]],
      ['hardhat_setCoinbase', [other]],
      ['eth_coinbase', []],
      ['hardhat_reset', []],
      ['eth_coinbase', []],
    ] as const) {
      const [h, f] = await both(providers, method, [...params])
      if (method !== 'eth_sendTransaction') expect(f, method).toEqual(h)
      if (method === 'eth_sendTransaction') {
        const [hb, fb] = (await both(providers, 'eth_getBlockByNumber', ['latest', false])) as Array<{ miner: string }>
        expect(fb?.miner).toBe(hb?.miner)
      }
    }
  })

  it('no fee cap on sends: 2^24 gas at 100 gwei (1.68 ether) is sent; an explicit txFeeCap still applies; geth\'s 1 ether cap without Hardhat mode', async () => {
    const providers = await pair()
    const send = { from: A, to: B, gas: '0x1000000', gasPrice: '0x174876e800' }
    const [h, f] = await both(providers, 'eth_sendTransaction', [send])
    expect(h).toMatch(/^0x[0-9a-f]{64}$/)
    expect(f).toBe(h)
    const capped = await newNode({ hardhatCompat: true, hardfork: 'osaka', limits: { txFeeCap: 10n ** 18n } })
    expect(await answer(capped, 'eth_sendTransaction', [send])).toEqual({ error: { code: -32000, message: 'tx fee (1.68 ether) exceeds the configured cap (1.00 ether)' } })
    const geth = await newNode({ hardfork: 'osaka' })
    expect(await answer(geth, 'eth_sendTransaction', [send])).toEqual({ error: { code: -32000, message: 'tx fee (1.68 ether) exceeds the configured cap (1.00 ether)' } })
  })

  it('unprotected legacy transactions are taken: the keyless CREATE2 factory deployment', async () => {
    const providers = await pair()
    await both(providers, 'hardhat_setBalance', [CREATE2_FACTORY_SIGNER, '0x16345785d8a0000'])
    const [h, f] = await both(providers, 'eth_sendRawTransaction', [CREATE2_FACTORY_TX])
    expect(h).toMatch(/^0x[0-9a-f]{64}$/)
    expect(f).toBe(h)
    const [hc, fc] = await both(providers, 'eth_getCode', [CREATE2_FACTORY, 'latest'])
    expect((hc as string).length).toBeGreaterThan(2)
    expect(fc).toBe(hc)
    // Explicitly off, and geth's default without Hardhat mode.
    for (const options of [{ hardhatCompat: true, allowUnprotectedTxs: false }, {}]) {
      const node = await newNode(options)
      await node.setBalance(CREATE2_FACTORY_SIGNER, 10n ** 17n)
      expect(await answer(node, 'eth_sendRawTransaction', [CREATE2_FACTORY_TX])).toEqual({
        error: { code: -32000, message: 'only replay-protected (EIP-155) transactions allowed over RPC' },
      })
    }
  })

  it('blocks have every field Hardhat writes (totalDifficulty 0x0 included)', async () => {
    const providers = await pair()
    await both(providers, 'eth_sendTransaction', [{ from: A, to: B, value: '0x1' }])
    const [h, f] = (await both(providers, 'eth_getBlockByNumber', ['latest', false])) as Array<Record<string, unknown>>
    expect(Object.keys(f ?? {}).sort()).toEqual(Object.keys(h ?? {}).sort())
    expect(f?.totalDifficulty).toBe(h?.totalDifficulty)
  })

  it('the pending block: no number, mixHash or nonce, its transactions in no block yet', async () => {
    const providers = await pair()
    for (const p of providers) {
      await p.request({ method: 'evm_setAutomine', params: [false] })
      await p.request({ method: 'eth_sendTransaction', params: [{ from: A, to: B, value: '0x1' }] })
    }
    const [h, f] = (await both(providers, 'eth_getBlockByNumber', ['pending', true])) as Array<Record<string, unknown> & { transactions: Array<Record<string, unknown>> }>
    for (const field of ['number', 'mixHash', 'nonce', 'miner', 'gasUsed', 'gasLimit', 'baseFeePerGas', 'transactionsRoot', 'receiptsRoot']) expect(f?.[field], field).toEqual(h?.[field])
    for (const field of ['hash', 'blockHash', 'blockNumber', 'transactionIndex', 'gas', 'maxFeePerGas']) expect(f?.transactions[0]?.[field], field).toEqual(h?.transactions[0]?.[field])
    // geth's form without Hardhat mode: the next number.
    const node = await newNode({ mining: { mode: 'manual' } })
    expect(((await node.request({ method: 'eth_getBlockByNumber', params: ['pending', false] })) as { number: string }).number).toBe('0x1')
  })

  it('without Hardhat mode: geth\'s defaults (30M block gas limit, the proposer\'s coinbase)', async () => {
    const node = await newNode()
    const block = (await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { gasLimit: string }
    expect(block.gasLimit).toBe('0x1c9c380')
    expect(await node.request({ method: 'eth_coinbase' })).not.toBe(HARDHAT_DEFAULTS.coinbase)
  })

  it('explicit options win: blockGasLimit', async () => {
    const node = await newNode({ hardhatCompat: true, blockGasLimit: 30_000_000n })
    const block = (await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { gasLimit: string }
    expect(block.gasLimit).toBe('0x1c9c380')
  })
})

describe('evm_setBlockGasLimit and anvil_setBlockGasLimit apply to the next transaction at once', () => {
  it('Hardhat mode: raised, a send above the old limit goes; lowered, one above the new limit is refused in Hardhat\'s words', async () => {
    const providers = await pair({ hardfork: 'prague' }, { hardfork: 'prague' })
    const steps: Array<[string, unknown[]]> = [
      ['evm_setBlockGasLimit', ['0x5f5e100']],
      ['eth_sendTransaction', [{ from: A, to: B, gas: '0x4c4b400' }]],
      ['evm_setBlockGasLimit', ['0x1000000']],
      ['eth_sendTransaction', [{ from: A, to: B, gas: '0x1000001' }]],
      ['eth_sendTransaction', [{ from: A, to: B, gas: '0x1000000' }]],
    ]
    for (const [method, params] of steps) {
      const [h, f] = await both(providers, method, params)
      if (typeof h === 'object' && h !== null) {
        const { code, message } = (h as { error: { code: number; message: string } }).error
        expect(f, method).toEqual({ error: { code, message } })
      } else expect(f, `${method} ${JSON.stringify(params)}`).toEqual(h)
    }
    const [hb, fb] = (await both(providers, 'eth_getBlockByNumber', ['latest', false])) as Array<{ gasLimit: string }>
    expect(fb?.gasLimit).toBe(hb?.gasLimit)
  })

  it('without Hardhat mode: the same timing with geth\'s words, for both methods (Anvil applies its own at once too)', async () => {
    for (const method of ['evm_setBlockGasLimit', 'anvil_setBlockGasLimit']) {
      const node = await newNode()
      await node.request({ method, params: ['0x2faf080'] })
      expect(await answer(node, 'eth_sendTransaction', [{ from: A, to: B, gas: '0x2625a00' }])).toMatch(/^0x[0-9a-f]{64}$/)
      await node.request({ method, params: ['0x1000000'] })
      expect(await answer(node, 'eth_sendTransaction', [{ from: A, to: B, gas: '0x1000001' }])).toEqual({ error: { code: -32000, message: 'exceeds block gas limit' } })
      const block = (await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { gasLimit: string; number: string }
      expect([block.number, block.gasLimit]).toEqual(['0x1', '0x2faf080'])
      await node.request({ method: 'evm_mine' })
      const next = (await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { gasLimit: string }
      expect(next.gasLimit).toBe('0x1000000')
    }
  })
})
