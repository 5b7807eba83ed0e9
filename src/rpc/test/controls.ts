/**
 * The test-chain controls under the three names users know: `evm_` (Ganache and Hardhat),
 * `hardhat_` and `anvil_`. Each family answers with its own conventions (Hardhat returns
 * `true`, Anvil `null`); the work is the same, in src/controls.
 */
import { data, quantity } from '../../hex.js'
import { formatBlock } from '../format.js'
import type { Services } from '../../services.js'
import { address, boolean, bytes, hash, optional, quantity as qty, storageSlot } from '../codecs.js'
import { type Method, type MethodTable, methodsOf, type Ports } from '../method.js'
import { mineParam, numberOrQuantity } from './params.js'
import { compilation } from './compilation.js'
import { callRequest } from '../objects.js'
import { InvalidParamsError, ServerError } from '../../errors.js'
import { dumpState, encodeDump, parseDump } from '../../controls/state-dump.js'
import type { ForkRequest } from '../../controls/controls.js'
import { stateRootsNote } from '../../fork/fork.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'chain' | 'chainId' | 'clientVersion' | 'common' | 'controls' | 'filters' | 'fork' | 'hardhatCompat' | 'producer' | 'transactions'>
const method = methodsOf<keyof Here>()

/**
 * The options of hardhat_reset / anvil_reset: `{ forking?: { jsonRpcUrl?, blockNumber? } }`.
 * Without `forking` the chain goes back to its genesis (a fork: to its fork block). With a
 * `jsonRpcUrl` it forks that remote at `blockNumber` (its head when absent). viem's
 * testClient.reset() always sends `forking`, with `jsonRpcUrl` left out and `blockNumber` NaN
 * (null once serialized) when not given: without a URL a fork goes back to its remote at
 * `blockNumber` (its fork block when none) and a node that forks nothing back to genesis.
 */
function resetOptions(v: unknown): ForkRequest | undefined {
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'object' || Array.isArray(v)) throw new InvalidParamsError('invalid argument 0: want an object { forking?: { jsonRpcUrl?, blockNumber? } }')
  const forking = (v as { forking?: unknown }).forking
  if (forking === undefined || forking === null) return undefined
  if (typeof forking !== 'object' || Array.isArray(forking)) throw new InvalidParamsError('invalid argument 0: forking must be an object { jsonRpcUrl?, blockNumber? }')
  const { jsonRpcUrl: url, blockNumber: number } = forking as { jsonRpcUrl?: unknown; blockNumber?: unknown }
  if (url !== undefined && url !== null && typeof url !== 'string') throw new InvalidParamsError('invalid argument 0: forking.jsonRpcUrl must be a string')
  if (typeof url === 'string' && !/^(https?|wss?):\/\/./.test(url)) throw new InvalidParamsError(`invalid argument 0: forking.jsonRpcUrl must be an http(s):// or ws(s):// URL, got ${JSON.stringify(url.slice(0, 60))}`)
  let blockNumber: bigint | undefined
  if (typeof number === 'number' && !Number.isNaN(number)) {
    if (!Number.isSafeInteger(number) || number < 0) throw new InvalidParamsError(`invalid argument 0: forking.blockNumber must be a block number, got ${number}`)
    blockNumber = BigInt(number)
  } else if (typeof number === 'string' && /^0x[0-9a-fA-F]+$/.test(number)) {
    blockNumber = BigInt(number)
  } else if (typeof number === 'bigint' && number >= 0n) {
    blockNumber = number
  } else if (number !== undefined && number !== null && !(typeof number === 'number' && Number.isNaN(number))) {
    throw new InvalidParamsError(`invalid argument 0: forking.blockNumber must be a block number, got ${JSON.stringify(number)}`)
  }
  return { url: typeof url === 'string' ? url : undefined, blockNumber }
}

function rpcUrl(v: unknown): string {
  if (typeof v !== 'string' || !/^https?:\/\/./.test(v)) throw new InvalidParamsError(`invalid argument 0: want an http(s):// URL, got ${JSON.stringify(v)?.slice(0, 60)}`)
  return v
}

/** `evm_mine_detailed`: the mined blocks as eth_getBlockByNumber(…, true) answers them. */
async function mineDetailed(s: Here, p: { blocks?: bigint; timestamp?: bigint } | undefined): Promise<unknown[]> {
  const mined = await s.controls.mine(p?.blocks ?? 1n, { interval: s.controls.mineInterval('anvil', undefined), first: p?.timestamp, keep: true })
  return Promise.all(mined.map(async (block) => formatBlock(block, true, await s.chain.receipts(block.hash()))))
}

/** Hardhat and Anvil refuse a minimum gas price on EIP-1559 chains, which every finality chain is. */
function minGasPrice(prefix: 'hardhat' | 'anvil'): Method {
  return method({
    params: [qty],
    run: (s) => {
      const message = `${prefix}_setMinGasPrice is not supported when EIP-1559 is active`
      // Hardhat refuses with -32000.
      throw prefix === 'hardhat' && s.hardhatCompat ? new ServerError(message) : new InvalidParamsError(message)
    },
  })
}

/** The methods both Hardhat and Anvil have, with each family's result convention. */
function family(prefix: 'hardhat' | 'anvil', ok: true | null): Record<string, Method> {
  const t = <T>(run: (s: Here, p: T) => Promise<unknown> | unknown) => async (s: Here, p: T) => {
    await run(s, p)
    return ok
  }
  return {
    [`${prefix}_mine`]: method({
      params: [optional(numberOrQuantity, 1n), optional(numberOrQuantity, undefined)],
      run: t((s, [count, interval]: readonly [bigint, bigint | undefined]) => s.controls.mine(count, { interval: s.controls.mineInterval(prefix, interval), hardhat: prefix === 'hardhat' })),
    }),
    [`${prefix}_getAutomine`]: method({ params: [], run: (s) => s.producer.mode.mode === 'auto' }),
    [`${prefix}_impersonateAccount`]: method({ params: [address], run: t((s, [a]: readonly [Uint8Array]) => s.controls.impersonate(a)) }),
    // Hardhat mode answers whether the account was impersonated, as Hardhat does; Anvil answers null.
    [`${prefix}_stopImpersonatingAccount`]: method({
      params: [address],
      run: (s, [a]: readonly [Uint8Array]) => {
        const was = s.controls.stopImpersonating(a)
        return ok === null ? null : s.hardhatCompat ? was : ok
      },
    }),
    [`${prefix}_setBalance`]: method({ params: [address, qty], run: t((s, [a, v]: readonly [Uint8Array, bigint]) => s.controls.setBalance(a, v)) }),
    [`${prefix}_setCode`]: method({ params: [address, bytes], run: t((s, [a, c]: readonly [Uint8Array, Uint8Array]) => s.controls.setCode(a, c)) }),
    // In Hardhat mode hardhat_setNonce never lowers a nonce (Hardhat's refusal); anvil_setNonce takes any.
    [`${prefix}_setNonce`]: method({ params: [address, qty], run: t((s, [a, n]: readonly [Uint8Array, bigint]) => s.controls.setNonce(a, n, prefix === 'hardhat' && s.hardhatCompat)) }),
    [`${prefix}_setStorageAt`]: method({
      params: [address, storageSlot, bytes],
      run: t((s, [a, k, v]: readonly [Uint8Array, bigint, Uint8Array]) => s.controls.setStorageAt(a, k, v)),
    }),
    [`${prefix}_setNextBlockBaseFeePerGas`]: method({
      params: [qty],
      run: t((s, [fee]: readonly [bigint]) => {
        s.controls.mining.setNextBaseFee(fee)
      }),
    }),
    [`${prefix}_setCoinbase`]: method({
      params: [address],
      run: t((s, [a]: readonly [Uint8Array]) => {
        s.controls.mining.setCoinbase(data(a))
      }),
    }),
    [`${prefix}_setPrevRandao`]: method({
      params: [hash],
      run: t((s, [r]: readonly [Uint8Array]) => {
        s.controls.mining.setPrevRandao(r)
      }),
    }),
    [`${prefix}_reset`]: method({
      params: [{ name: 'options', optional: true, decode: resetOptions }],
      run: async (s, [fork]: readonly [ForkRequest | undefined]) => {
        await s.controls.reset(fork)
        // Hardhat's reset is a new provider: the polling filters are gone with the old one.
        if (s.hardhatCompat) s.filters.clear()
        return ok
      },
    }),
    [`${prefix}_setLoggingEnabled`]: method({
      params: [boolean],
      run: t((s, [on]: readonly [boolean]) => {
        s.controls.setLogging(on)
      }),
    }),
    [`${prefix}_setMinGasPrice`]: minGasPrice(prefix),
    [`${prefix}_dropTransaction`]: method({
      params: [hash],
      run: (s, [h]) => {
        const removed = s.controls.mining.dropTransaction(Buffer.from(h).toString('hex'))
        return ok === null ? null : removed
      },
    }),
  }
}

export const evm: MethodTable = {
  evm_snapshot: method({ params: [], run: (s) => quantity(s.controls.snapshot()) }),
  evm_revert: method({ params: [qty], run: (s, [id]) => s.controls.revert(id) }),
  evm_mine: method({
    params: [mineParam],
    run: async (s, [p]) => {
      const head = s.chain.head.header.timestamp
      // Hardhat's words for a timestamp before the head's (the producer's geth-like ones otherwise).
      if (s.hardhatCompat && p?.timestamp !== undefined && p.timestamp < head) throw new ServerError(`Timestamp ${p.timestamp} is lower than the previous block's timestamp ${head}`)
      await s.controls.mine(p?.blocks ?? 1n, { interval: 1n, first: p?.timestamp })
      // Ganache's answer; Hardhat's is the decimal "0".
      return s.hardhatCompat ? '0' : '0x0'
    },
  }),
  evm_mine_detailed: method({ params: [mineParam], run: (s, [p]) => mineDetailed(s, p) }),
  evm_increaseTime: method({ params: [numberOrQuantity], run: (s, [sec]) => s.controls.increaseTime(sec).toString(10) }),
  // Hardhat answers the timestamp as a decimal string (as evm_increaseTime's offset); Anvil's own name answers null.
  evm_setNextBlockTimestamp: method({
    params: [numberOrQuantity],
    run: (s, [ts]) => {
      s.controls.setNextBlockTimestamp(ts)
      return ts.toString(10)
    },
  }),
  evm_setTime: method({ params: [numberOrQuantity], run: (s, [ts]) => s.controls.setTime(ts).toString(10) }),
  evm_setAutomine: method({
    params: [boolean],
    run: (s, [on]) => {
      s.controls.mining.setMode(on ? { mode: 'auto' } : { mode: 'manual' })
      return true
    },
  }),
  evm_setIntervalMining: method({
    params: [numberOrQuantity],
    run: (s, [ms]) => {
      // Hardhat's automine is separate from interval mining: in Hardhat mode, turning interval
      // mining off leaves automine on when it is.
      if (ms === 0n && s.hardhatCompat && s.producer.mode.mode === 'auto') return true
      s.controls.mining.setMode(ms === 0n ? { mode: 'manual' } : { mode: 'interval', blockTime: Number(ms) })
      return true
    },
  }),
  evm_setBlockGasLimit: method({ params: [qty], run: (s, [limit]) => (s.controls.mining.setGasLimit(limit), true) }),
  evm_setAccountBalance: method({ params: [address, qty], run: async (s, [a, v]) => (await s.controls.setBalance(a, v), true) }),
  evm_setAccountCode: method({ params: [address, bytes], run: async (s, [a, c]) => (await s.controls.setCode(a, c), true) }),
  evm_setAccountNonce: method({ params: [address, qty], run: async (s, [a, n]) => (await s.controls.setNonce(a, n), true) }),
  evm_setAccountStorageAt: method({
    params: [address, storageSlot, bytes],
    run: async (s, [a, k, v]) => (await s.controls.setStorageAt(a, k, v), true),
  }),
}

/**
 * The node's identity and head, as hardhat_metadata answers it (anvil_metadata adds to it);
 * a fork adds `forkedNetwork` (Hardhat's and Anvil's field: the remote's chain id, the fork block;
 * and `stateRoots`, whether the fork's roots are the remote's).
 */
function metadata({ chain, chainId, clientVersion, controls, fork }: Here) {
  return {
    clientVersion,
    chainId: Number(chainId),
    instanceId: data(controls.instanceId()),
    latestBlockNumber: Number(chain.height),
    latestBlockHash: data(chain.head.hash()),
    ...(fork === undefined ? {} : { forkedNetwork: forkedNetwork(fork) }),
  }
}

function forkedNetwork(fork: NonNullable<Services['fork']>) {
  return { chainId: Number(fork.chainId), forkBlockNumber: Number(fork.blockNumber), forkBlockHash: data(fork.blockHash), stateRoots: stateRootsNote(fork.proofs) }
}

export const hardhat: MethodTable = {
  ...family('hardhat', true),
  hardhat_metadata: method({ params: [], run: metadata }),
  ...compilation,
}

export const anvil: MethodTable = {
  ...family('anvil', null),
  anvil_mine_detailed: method({ params: [mineParam], run: (s, [p]) => mineDetailed(s, p) }),
  // Anvil's name, but a test control: gated by the `anvil` namespace, not `eth`.
  eth_sendUnsignedTransaction: method({
    namespace: 'anvil',
    params: [callRequest],
    run: async (s, [req]) => data(await s.transactions.submitUnsigned(req)),
  }),
  anvil_setBlockTimestampInterval: method({ params: [numberOrQuantity], run: (s, [seconds]) => (s.controls.mining.setTimestampInterval(seconds), null) }),
  anvil_removeBlockTimestampInterval: method({ params: [], run: (s) => s.controls.mining.removeTimestampInterval() }),
  anvil_increaseTime: method({ params: [numberOrQuantity], run: (s, [sec]) => Number(s.controls.increaseTime(sec)) }),
  anvil_setNextBlockTimestamp: method({
    params: [numberOrQuantity],
    run: (s, [ts]) => {
      s.controls.setNextBlockTimestamp(ts)
      return null
    },
  }),
  anvil_dropAllTransactions: method({
    params: [],
    run: (s) => {
      s.controls.mining.dropAllTransactions()
      return null
    },
  }),
  anvil_removePoolTransactions: method({
    params: [address],
    run: (s, [a]) => {
      s.controls.mining.dropTransactionsOf(Buffer.from(a).toString('hex'))
      return null
    },
  }),
  anvil_setRpcUrl: method({
    params: [{ name: 'url', optional: false, decode: rpcUrl }],
    run: async (s, [url]: readonly [string]) => {
      if (s.fork === undefined) throw new ServerError('anvil_setRpcUrl: this node forks nothing; fork with anvil_reset { forking: { jsonRpcUrl } }')
      await s.fork.setRpcUrl(url)
      return null
    },
  }),
  anvil_metadata: method({
    params: [],
    run: (s) => ({ forkedNetwork: null, ...metadata(s), forkConfig: null, snapshots: s.controls.snapshotIds() }),
  }),
  anvil_dumpState: method({ params: [], run: (s) => encodeDump(dumpState(s.chain, s.chainId)) }),
  anvil_loadState: method({
    params: [{ name: 'state', optional: false, decode: (v: unknown) => parseDump(v) }],
    run: async (s, [dump]) => (await s.controls.loadState(dump), true),
  }),
  anvil_setChainId: method({
    params: [numberOrQuantity],
    run: (s, [id]) => {
      if (id === 0n) throw new InvalidParamsError('invalid argument 0: the chain id must be positive')
      s.controls.setChainId(id)
      return null
    },
  }),
  anvil_addBalance: method({ params: [address, qty], run: async (s, [a, v]) => (await s.controls.addBalance(a, v), null) }),
  anvil_autoImpersonateAccount: method({
    params: [boolean],
    run: (s, [on]) => {
      s.controls.setAutoImpersonate(on)
      return null
    },
  }),
  anvil_setAutomine: method({
    params: [boolean],
    run: (s, [on]) => (s.controls.mining.setMode(on ? { mode: 'auto' } : { mode: 'manual' }), null),
  }),
  anvil_setIntervalMining: method({
    params: [numberOrQuantity],
    run: (s, [sec]) => (s.controls.mining.setMode(sec === 0n ? { mode: 'manual' } : { mode: 'interval', blockTime: Number(sec) * 1000 }), null),
  }),
  anvil_setTime: method({ params: [numberOrQuantity], run: (s, [ts]) => Number(s.controls.setTime(ts)) }),
  anvil_setBlockGasLimit: method({ params: [qty], run: (s, [limit]) => (s.controls.mining.setGasLimit(limit), true) }),
  // Anvil's shape (alloy's NodeInfo, what forge reads): the block number and the environment's
  // amounts as quantities, the timestamp and chain id as numbers, the hardfork by Anvil's name.
  anvil_nodeInfo: method({
    params: [],
    run: ({ chain, chainId, common, producer, fork }) => ({
      currentBlockNumber: quantity(chain.height),
      currentBlockTimestamp: Number(chain.head.header.timestamp),
      currentBlockHash: data(chain.head.hash()),
      hardFork: common.hardfork().charAt(0).toUpperCase() + common.hardfork().slice(1),
      transactionOrder: 'fees',
      environment: {
        baseFee: quantity(chain.head.header.calcNextBaseFee()),
        chainId: Number(chainId),
        gasLimit: quantity(producer.settings.current.gasLimit ?? chain.head.header.gasLimit),
        gasPrice: quantity(chain.head.header.calcNextBaseFee() + 1_000_000_000n),
      },
      // Anvil's fields (null when there is no fork; a provider has no URL to name; the remote
      // client's retries have no single back-off to report), and ours, stateRoots.
      forkConfig:
        fork === undefined
          ? { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null }
          : { forkUrl: fork.url === undefined ? null : fork.remote, forkBlockNumber: Number(fork.blockNumber), forkRetryBackoff: null, stateRoots: stateRootsNote(fork.proofs) },
    }),
  }),
}
