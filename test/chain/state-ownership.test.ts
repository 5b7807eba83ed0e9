/**
 * The chain owns its state: a block builder prepares a state the chain adopts only when the block
 * is committed, so `pending` blocks and discarded candidates leave nothing behind; and block
 * listeners hear of a block after the producer's own bookkeeping, so one that throws cannot keep
 * the pool from being cleaned.
 */
import { Account, KECCAK256_NULL } from '@ethereumjs/util'
import { describe, expect, test } from 'vitest'
import { Chain } from '../../src/chain/chain.js'
import { createChainCommon } from '../../src/chain/common.js'
import { SYSTEM_CONTRACTS } from '../../src/chain/system-contracts.js'
import type { Clock } from '../../src/clock.js'
import { BftEngine, ValidatorSet } from '../../src/consensus/bft.js'
import { Producer } from '../../src/producer/producer.js'
import { createValidator } from '../../src/consensus/keys.js'
import { keccak256 } from '../../src/crypto/keccak.js'
import { BlockBuilder } from '../../src/execution/builder.js'
import { EvmApplication } from '../../src/app/application.js'
import { fromHex, keyOf } from '../../src/hex.js'
import { emptyDiff } from '../../src/state/types.js'
import { DEFAULT_POOL_OPTIONS, TxPool } from '../../src/txpool/pool.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()

/** A chain with the system contracts (so every empty block writes the beacon and history rings), and its producer on a clock the test moves. */
async function producerOnChain(): Promise<{ chain: Chain; producer: Producer; clock: { ms: number } }> {
  const common = createChainCommon(31337n, 'prague')
  const chain = new Chain(common, undefined)
  const diff = emptyDiff()
  for (const c of SYSTEM_CONTRACTS) {
    const code = fromHex(c.code)
    const key = c.address.toLowerCase().replace(/^0x/, '')
    diff.accounts.set(key, new Account(1n, 0n, undefined, code.length > 0 ? keccak256(code) : KECCAK256_NULL))
    diff.code.set(key, code)
  }
  const time = { ms: 1_700_000_000_000 }
  const clock: Clock = { now: () => time.ms, setTimer: () => () => {} }
  await chain.initGenesis(diff, { gasLimit: 30_000_000n, timestamp: BigInt(time.ms / 1000), baseFeePerGas: 1_000_000_000n })
  const bft = new BftEngine(31337n, new ValidatorSet([createValidator(keccak256(new TextEncoder().encode('state-ownership')))]))
  const pool = new TxPool({ ...DEFAULT_POOL_OPTIONS })
  const builder = await BlockBuilder.create(chain, common)
  const producer = new Producer(chain, pool, new EvmApplication(chain, builder), bft, clock, { mode: 'manual' }, () => 30_000_000n)
  return { chain, producer, clock: time }
}

describe('prepared states', () => {
  test('many pending blocks, each with its own state, keep no trie root; a committed block keeps its own', async () => {
    const { chain, producer, clock } = await producerOnChain()
    const before = chain.trieRoots
    const roots = new Set<string>()
    for (let i = 0; i < 50; i++) {
      clock.ms += 1000
      const { block } = await producer.pending()
      roots.add(keyOf(block.header.stateRoot))
    }
    // Each pending block wrote a new timestamp into the beacon-root ring: 50 states.
    expect(roots.size).toBe(50)
    expect(chain.trieRoots.kept).toBe(before.kept)
    // Only the current pending block's state is held (its root and the storage roots it changed).
    expect(chain.trieRoots.held).toBeLessThanOrEqual(3)
    expect(chain.trieRoots.held).toBeGreaterThan(0)
    // The head state did not move: the chain still reads at its own root.
    expect(chain.stateRoot).toEqual(chain.head.header.stateRoot)

    const mined = await producer.mine()
    expect(mined).toBeDefined()
    expect(chain.stateRoot).toEqual(mined!.header.stateRoot)
    const after = chain.trieRoots.kept
    expect(after).toBeGreaterThan(before.kept)
    expect(after - before.kept).toBeLessThanOrEqual(3)
    await producer.close()
  })

  test('the pending block state stays readable while it is pending or read, and is forgotten once replaced and closed', async () => {
    const { chain, producer, clock } = await producerOnChain()
    clock.ms += 1000
    const first = (await producer.pending()).block
    const beacon = SYSTEM_CONTRACTS[0]!.address.toLowerCase().replace(/^0x/, '')
    const reading = chain.stateAt(first)
    expect(await reading.getAccount(beacon)).toBeDefined()
    const held = chain.trieRoots.held
    clock.ms += 1000
    const second = (await producer.pending()).block
    expect(second.header.stateRoot).not.toEqual(first.header.stateRoot)
    // A reader still open on the replaced pending block keeps its state until it closes.
    expect(chain.trieRoots.held).toBeGreaterThan(held)
    expect(await reading.getAccount(beacon)).toBeDefined()
    reading.close()
    expect(chain.trieRoots.held).toBe(held)
    const next = chain.stateAt(second)
    await expect(next.getAccount(beacon)).resolves.toBeDefined()
    next.close()
    expect(chain.trieRoots.held).toBe(held)
    await producer.close()
  })
})

describe('block listeners run after the producer', () => {
  test("a provider 'message' listener that throws on a new head: the block is mined, the pool cleaned, the next send works", async () => {
    const node = await newNode({ mining: { mode: 'manual' } })
    const rpc = (method: string, ...params: unknown[]) => node.request({ method, params }) as Promise<any>
    const from = node.accounts[0]!.address
    const to = node.accounts[1]!.address
    const blocks = await rpc('eth_newBlockFilter')
    let thrown = 0
    node.provider.on('message', () => {
      thrown++
      throw new Error('listener failed')
    })
    await node.provider.request({ method: 'eth_subscribe', params: ['newHeads'] })
    const hash = await rpc('eth_sendTransaction', { from, to, value: '0x1' })
    expect((await rpc('txpool_status')).pending).toBe('0x1')
    await rpc('evm_mine')
    expect(thrown).toBe(1)
    expect((await rpc('eth_getTransactionReceipt', hash)).status).toBe('0x1')
    expect((await rpc('txpool_status')).pending).toBe('0x0')
    // The listeners registered after the throwing one heard of the block too.
    expect(await rpc('eth_getFilterChanges', blocks)).toHaveLength(1)

    await rpc('evm_setAutomine', true)
    const next = await rpc('eth_sendTransaction', { from, to, value: '0x1' })
    expect((await rpc('eth_getTransactionReceipt', next)).status).toBe('0x1')
    expect(thrown).toBe(2)
    expect(await rpc('eth_getTransactionCount', from, 'latest')).toBe('0x2')
  })
})

describe('validator status has one owner', () => {
  test('node.validators reads online from the validator set; only setValidatorOnline changes it', async () => {
    const node = await newNode({ validators: 4 })
    const v = node.validators[0]!
    expect(v.online).toBe(true)
    node.setValidatorOnline(v.address, false)
    expect(node.validators[0]!.online).toBe(false)
    // The listed objects are views: writing one changes nothing (and throws, being frozen).
    expect(() => {
      ;(v as { online: boolean }).online = true
    }).toThrow(TypeError)
    expect(node.validators[0]!.online).toBe(false)
    const listed = (await node.request({ method: 'finality_getValidators', params: [] })) as Array<{ address: string; online: boolean }>
    expect(listed.find((x) => x.address === v.address)!.online).toBe(false)
    node.setValidatorOnline(v.address, true)
    expect(v.online).toBe(true)
  })
})
