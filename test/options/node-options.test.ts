/**
 * createNode checks its options at the entry: an unknown name, a wrong type or an out-of-range
 * value throws an InvalidOptionError that names the option, before anything is built.
 */
import { describe, expect, test } from 'vitest'
import { createNode, InvalidOptionError, type NodeOptions } from '../../src/index.js'

/** Options a user can write in JavaScript (or through `as`), which the types would refuse. */
const refused = async (options: unknown, option: string, message: RegExp) => {
  const error = await createNode(options as NodeOptions).then(
    async (n) => {
      await n.close()
      return undefined
    },
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(InvalidOptionError)
  expect((error as InvalidOptionError).option).toBe(option)
  expect((error as Error).message).toMatch(message)
}

describe('createNode options', () => {
  test('error: an unknown name is refused, with the option it resembles', async () => {
    await refused({ chainID: 1 }, 'chainID', /^createNode: option chainID is unknown; did you mean chainId\?$/)
    await refused({ acountCount: 2 }, 'acountCount', /did you mean accountCount\?/)
    await refused({ automine: true }, 'automine', /is unknown; known: chainId, hardfork/)
    await refused({ limits: { batchItem: 5 } }, 'limits.batchItem', /did you mean limits\.batchItems\?/)
    await refused({ txpool: { ordering: 'fifo' } }, 'txpool.ordering', /is unknown/)
  })

  test('error: mining must be an object with a known mode; interval needs a positive blockTime', async () => {
    await refused({ mining: 'manual' }, 'mining', /must be an object .*got the string 'manual' \(write \{ mode: 'manual' \}\)/)
    await refused({ mining: { mode: 'interval' } }, 'mining.blockTime', /needs blockTime/)
    await refused({ mining: { mode: 'interval', blockTime: -1000 } }, 'mining.blockTime', /positive number of milliseconds, got -1000/)
    await refused({ mining: { mode: 'interval', blockTime: 0 } }, 'mining.blockTime', /positive/)
    await refused({ mining: { mode: 'interval', blockTime: '1000' } }, 'mining.blockTime', /positive/)
    await refused({ mining: { mode: 'manul' } }, 'mining.mode', /one of 'auto', 'interval', 'manual'.*did you mean 'manual'/)
    await refused({ mining: { mode: 'manual', blockTime: 5 } }, 'mining.blockTime', /is unknown/)
  })

  test('error: wrong types and ranges of numbers and bigints', async () => {
    await refused({ balance: '1000' }, 'balance', /must be a bigint, got the string "1000"/)
    await refused({ balance: 1000 }, 'balance', /must be a bigint, got the number 1000 \(write 1000n\)/)
    await refused({ balance: -1n }, 'balance', /at least 0/)
    await refused({ accountCount: -1 }, 'accountCount', /must be at least 0, got -1/)
    await refused({ accountCount: 1.5 }, 'accountCount', /integer/)
    await refused({ chainId: 0 }, 'chainId', /at least 1/)
    await refused({ chainId: '1' }, 'chainId', /integer/)
    await refused({ validators: 0 }, 'validators', /at least 1/)
    await refused({ blockGasLimit: 30_000_000 }, 'blockGasLimit', /write 30000000n/)
    await refused({ hardfork: 'pragu' }, 'hardfork', /option hardfork pragu is not supported; supported: london, paris/)
    await refused({ allowUnprotectedTxs: 'yes' }, 'allowUnprotectedTxs', /true or false/)
    await refused({ limits: { batchItems: -1 } }, 'limits.batchItems', /at least 0/)
    await refused({ limits: { rpcGasCap: 5 } }, 'limits.rpcGasCap', /bigint/)
    await refused({ onConsoleLog: 'console' }, 'onConsoleLog', /function/)
    await refused({ clock: { now: () => 0, setTimeout: () => 0 } }, 'clock', /must be a clock \{ now\(\): number, setTimer/)
  })

  test('error: alloc keys and accounts, txpool order, api namespaces, private keys', async () => {
    await refused({ alloc: { '0x12': { balance: 1n } } }, 'alloc.0x12', /not an address/)
    await refused({ alloc: { ['0x' + '11'.repeat(20)]: { balance: 1 } } }, `alloc.0x${'11'.repeat(20)}.balance`, /bigint/)
    await refused({ alloc: { ['0x' + '11'.repeat(20)]: { code: '0x6' } } }, `alloc.0x${'11'.repeat(20)}.code`, /hex bytes/)
    await refused({ alloc: { ['0x' + '11'.repeat(20)]: { balanse: 1n } } }, `alloc.0x${'11'.repeat(20)}.balanse`, /did you mean/)
    await refused({ txpool: { order: 'fifO' } }, 'txpool.order', /one of 'fees', 'fifo'/)
    await refused({ api: ['eth', 'hardhat', 'ganache'] }, 'api[2]', /must be one of 'eth'/)
    await refused({ api: 'eth' }, 'api', /array/)
    await refused({ accounts: [{ privateKey: '0x1234' }] }, 'accounts[0].privateKey', /32 bytes/)
    await refused({ accounts: [{ privateKey: `0x${'00'.repeat(32)}` }] }, 'accounts[0].privateKey', /not a valid secp256k1 private key/)
    await refused({ accounts: [{ privateKey: `0x${'ff'.repeat(32)}` }] }, 'accounts[0].privateKey', /not a valid secp256k1 private key/)
    await refused({ accounts: [{ balance: 1n }] }, 'accounts[0].privateKey', /needs privateKey/)
  })

  test('default: valid options, and undefined for any option, are accepted', async () => {
    const n = await createNode({
      chainId: 5n,
      accountCount: 2,
      balance: 10n ** 18n,
      mining: { mode: 'interval', blockTime: 60_000 },
      api: ['eth', 'evm'],
      txpool: { order: 'fifo' },
      limits: { batchItems: 10, rpcGasCap: 0n },
      alloc: { [`0x${'ab'.repeat(20)}` as const]: { balance: 1n, storage: { '0x0': '0x01' } } },
      accounts: undefined,
      hardfork: undefined,
    })
    try {
      expect(n.accounts).toHaveLength(2)
      expect(await n.request({ method: 'eth_chainId' })).toBe('0x5')
    } finally {
      await n.close()
    }
  })
})

describe('node.setMining', () => {
  test('error: a bad mode throws, naming it, and the mode stays', async () => {
    const n = await createNode({ mining: { mode: 'manual' } })
    try {
      expect(() => n.setMining('auto' as never)).toThrow(/^setMining: option mode must be an object .*write \{ mode: 'auto' \}/)
      expect(() => n.setMining({ mode: 'interval' } as never)).toThrow(/option mode\.blockTime needs blockTime/)
      await n.request({ method: 'eth_sendTransaction', params: [{ from: n.accounts[0]!.address, to: n.accounts[1]!.address, gas: '0x5208' }] })
      expect(await n.request({ method: 'eth_blockNumber' })).toBe('0x0')
    } finally {
      await n.close()
    }
  })
})
