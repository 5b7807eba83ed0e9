/**
 * hardhatNetworkOptions: a Hardhat network config as createNode options. Configs are resolved by
 * Hardhat 2.29.1's own resolver (what `hre.config.networks.hardhat` holds), and the nodes made
 * from them are compared with what Hardhat says the network has (its accounts' keys).
 */
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { hardhatNetworkOptions, HardhatNetworkSettingError, type HardhatNetworkContext, type HardhatNetworkSettings } from '../../src/hardhat/network-options.js'
import { trackNodes } from '../helpers/nodes.js'

const require = createRequire(import.meta.url)
const { resolveConfig } = require('hardhat/internal/core/config/config-resolution.js') as {
  resolveConfig: (path: string, user: unknown) => { networks: { hardhat: HardhatNetworkSettings } }
}
const { normalizeHardhatNetworkAccountsConfig } = require('hardhat/internal/core/providers/util.js') as {
  normalizeHardhatNetworkAccountsConfig: (accounts: unknown) => { privateKey: string; balance: string }[]
}

const newNode = trackNodes()
/** The path Hardhat resolves a project's folders from: the repository's Hardhat project. */
const CONFIG_PATH = fileURLToPath(new URL('./project/hardhat.config.js', import.meta.url))
const ETH = 10n ** 18n

/** `networks.hardhat` as Hardhat 2 resolves the user's settings. */
function resolved(hardhat: Record<string, unknown> = {}): HardhatNetworkSettings {
  return resolveConfig(CONFIG_PATH, { networks: { hardhat } }).networks.hardhat
}

/** What the Hardhat 2 plugin passes: the user's own settings, and Hardhat's key derivation. */
function context(user: Record<string, unknown> = {}): HardhatNetworkContext {
  return { userSet: (setting) => user[setting] !== undefined, deriveAccounts: (hd) => normalizeHardhatNetworkAccountsConfig(hd) }
}

function options(user: Record<string, unknown> = {}) {
  return hardhatNetworkOptions(resolved(user), context(user))
}

function refusal(user: Record<string, unknown>, ctx: HardhatNetworkContext = context(user)): HardhatNetworkSettingError {
  try {
    hardhatNetworkOptions(resolved(user), ctx)
  } catch (error) {
    expect(error).toBeInstanceOf(HardhatNetworkSettingError)
    return error as HardhatNetworkSettingError
  }
  throw new Error('not refused')
}

describe('hardhatNetworkOptions', () => {
  it("default: Hardhat 2.29.1's network (osaka, chain 31337, 60M gas, the test mnemonic's 20 accounts of 10,000 ETH, automine, fee order)", () => {
    expect(options()).toEqual({
      hardhatCompat: true,
      chainId: 31337n,
      hardfork: 'osaka',
      mnemonic: 'test test test test test test test test test test test junk',
      accountCount: 20,
      balance: 10_000n * ETH,
      allowUnlimitedContractSize: false,
      mining: { mode: 'auto' },
      txpool: { order: 'fees' },
      blockGasLimit: 60_000_000n,
      throwOnTransactionFailures: true,
      throwOnCallFailures: true,
    })
  })

  it('default: the node has the accounts, chain id and gas limit Hardhat configures', async () => {
    const node = await newNode(options())
    const keys = normalizeHardhatNetworkAccountsConfig(resolved().accounts)
    expect(node.accounts.map((a) => a.privateKey)).toEqual(keys.map((k) => k.privateKey))
    expect(await node.request({ method: 'eth_chainId' })).toBe('0x7a69')
    const block = (await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { gasLimit: string }
    expect(BigInt(block.gasLimit)).toBe(60_000_000n)
    expect(await node.request({ method: 'hardhat_getStackTraceFailuresCount' })).toBe(0)
  })

  it('accounts: [{ privateKey, balance }] as given', async () => {
    const key = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
    const mapped = options({ accounts: [{ privateKey: key, balance: '123' }] })
    expect(mapped.accounts).toEqual([{ privateKey: key, balance: 123n }])
    const node = await newNode(mapped)
    expect(await node.request({ method: 'eth_getBalance', params: [node.accounts[0]!.address, 'latest'] })).toBe('0x7b')
  })

  it('accounts: a mnemonic with count and accountsBalance; with initialIndex, path or passphrase, the keys Hardhat derives', async () => {
    expect(options({ accounts: { mnemonic: 'test test test test test test test test test test test junk', count: 3, accountsBalance: '5' } })).toMatchObject({ accountCount: 3, balance: 5n })
    const hd = { mnemonic: 'test test test test test test test test test test test junk', count: 2, initialIndex: 5, accountsBalance: '7' }
    const mapped = options({ accounts: hd })
    const keys = normalizeHardhatNetworkAccountsConfig(resolved({ accounts: hd }).accounts)
    expect(mapped.accounts).toEqual(keys.map((k) => ({ privateKey: k.privateKey, balance: 7n })))
    const node = await newNode(mapped)
    expect(node.accounts.map((a) => a.privateKey)).toEqual(keys.map((k) => k.privateKey))
  })

  it('accounts: a path of its own without a derivation to call: refused, naming the setting', () => {
    const error = refusal({ accounts: { mnemonic: 'test test test test test test test test test test test junk', path: "m/44'/60'/1'/0" } }, {})
    expect(error.setting).toBe('accounts')
    expect(error.message).toMatch(/^finality-evm\/hardhat: networks\.hardhat\.accounts with a path/)
  })

  it('hardfork: Hardhat\'s names (merge is paris); older forks refused with the list', () => {
    expect(options({ hardfork: 'merge' }).hardfork).toBe('paris')
    expect(options({ hardfork: 'cancun' }).hardfork).toBe('cancun')
    expect(refusal({ hardfork: 'berlin' }).message).toBe('finality-evm/hardhat: networks.hardhat.hardfork "berlin" is not a hardfork finality runs: it runs london, merge, shanghai, cancun, prague, osaka (Hardhat\'s names)')
  })

  it('mining: auto off with an interval, manual, fifo order; automine with an interval and a random range refused', () => {
    expect(options({ mining: { auto: false, interval: 1000, mempool: { order: 'fifo' } } })).toMatchObject({ mining: { mode: 'interval', blockTime: 1000 }, txpool: { order: 'fifo' } })
    expect(options({ mining: { auto: false } }).mining).toEqual({ mode: 'manual' })
    expect(refusal({ mining: { auto: true, interval: 1000 } }).setting).toBe('mining.interval')
    expect(refusal({ mining: { auto: false, interval: [1000, 2000] } }).message).toMatch(/\[min, max\] range/)
  })

  it('base fee, gas limit, the throw settings and the size limit', () => {
    expect(options({ initialBaseFeePerGas: 7, blockGasLimit: 40_000_000, throwOnTransactionFailures: false, throwOnCallFailures: false, allowUnlimitedContractSize: true })).toMatchObject({
      initialBaseFee: 7n,
      blockGasLimit: 40_000_000n,
      throwOnTransactionFailures: false,
      throwOnCallFailures: false,
      allowUnlimitedContractSize: true,
    })
  })

  it('forking: url, blockNumber and httpHeaders as the fork option; enabled: false forks nothing', () => {
    expect(options({ forking: { url: 'http://127.0.0.1:1', blockNumber: 12, httpHeaders: { 'x-key': 'k' } } }).fork).toEqual({ url: 'http://127.0.0.1:1', blockNumber: 12n, headers: { 'x-key': 'k' } })
    expect(options({ forking: { url: 'http://127.0.0.1:1' } }).fork).toEqual({ url: 'http://127.0.0.1:1' })
    expect(options({ forking: { url: 'http://127.0.0.1:1', enabled: false } }).fork).toBeUndefined()
  })

  it("Hardhat's values of the moment (initialDate: now, its chains table) are not the user's: accepted; the user's own date is the node's, its own chains table refused", () => {
    expect(options().initialDate).toBeUndefined()
    expect(options({ initialDate: '2020-01-01T00:00:00Z' }).initialDate).toBe('2020-01-01T00:00:00Z')
    expect(refusal({ chains: { 1: { hardforkHistory: { london: 0 } } } }).setting).toBe('chains')
  })

  it('coinbase and minGasPrice: the same options', () => {
    expect(options({ coinbase: '0x00000000000000000000000000000000000000c0' }).coinbase).toBe('0x00000000000000000000000000000000000000c0')
    expect(options({ minGasPrice: 1 }).minGasPrice).toBe(1n)
  })

  it('settings without a counterpart here are refused, each saying why', () => {
    expect(refusal({ allowBlocksWithSameTimestamp: true }).message).toMatch(/allowBlocksWithSameTimestamp has no counterpart: every finality block/)
    expect(refusal({ hardfork: 'prague', enableRip7212: true }).setting).toBe('enableRip7212')
    expect(refusal({ hardfork: 'shanghai', enableTransientStorage: true }).setting).toBe('enableTransientStorage')
    // On forks that already have them, the switches change nothing and are accepted.
    expect(() => options({ hardfork: 'osaka', enableRip7212: true, enableTransientStorage: true })).not.toThrow()
  })
})
