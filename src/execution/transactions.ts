/**
 * Transaction submission: raw signed transactions (eth_sendRawTransaction) and requests that the
 * node signs with a key it holds (eth_sendTransaction). Both go through the pool's admission and,
 * in automine, resolve once the transaction is in a committed block.
 */
import type { Block } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import {
  Capability,
  TransactionType,
  createFeeMarket1559TxFromRLP,
  createTxFromRLP,
  type TypedTransaction,
} from '@ethereumjs/tx'
import { LOCKED, UNKNOWN_ACCOUNT, type Keyring } from '../accounts/keyring.js'
import type { Chain } from '../chain/chain.js'
import { blobTransaction } from '../chain/decode.js'
import { MAX_LEGACY_CHAIN_ID } from '../chain/common.js'
import { ExecutionReverted, Refused, TransactionFailed, TxRejected } from '../domain-errors.js'
import { keccak256 } from '../crypto/keccak.js'
import { fromHex, keyOf, toBigInt } from '../hex.js'
import type { Limits } from '../limits.js'
import type { CallRequest } from './call-request.js'
import type { PoolReads, TxPool } from '../txpool/pool.js'
import type { CallExecutor } from './call.js'
import { BlobStore } from './blob-store.js'
import { splitBlobEnvelope, verifyBlobSidecar } from './blobs.js'
import { feeMarketFromValues } from './engine/fee-market-tx.js'
import { feeMarketMessage, signedBy, withEncoding, withSignature } from './engine/tx.js'
import { checkInitcodeSize, initcodeTooLarge } from './tx-fields.js'
import { requestTransaction } from './request-tx.js'
import { transactionFailedError } from './transaction-failure.js'
import type { FailureReport } from '../metadata/source-map.js'
import { hardhatRefusal, nonceTooHigh } from './hardhat-refusals.js'
import { checksumAddress } from '../crypto/checksum.js'

/** EIP-7825's per-transaction gas cap (Osaka): 2^24. */
const MAX_TX_GAS = 16_777_216n

/** A transaction over EIP-7825's cap: geth's words, or Hardhat's (EDR) in Hardhat mode. */
function gasLimitTooHigh(gasLimit: bigint, hardhat: boolean): TxRejected {
  return new TxRejected(
    hardhat
      ? `Transaction gas limit is ${gasLimit} and exceeds transaction gas cap of ${MAX_TX_GAS}`
      : `transaction gas limit too high (cap: ${MAX_TX_GAS}, tx: ${gasLimit})`,
  )
}

/** The tip the node suggests (eth_maxPriorityFeePerGas), as Hardhat and Anvil do: 1 gwei. */
export const SUGGESTED_TIP = 1_000_000_000n

/** The tip to suggest and fill in: 1 gwei, or the pool's minimum when miner_setGasPrice set more. */
export function suggestedTip(pool: PoolReads): bigint {
  return pool.minTip > SUGGESTED_TIP ? pool.minTip : SUGGESTED_TIP
}

/**
 * A transaction from an impersonated account: no key signs it, so it carries a placeholder
 * signature (r = the sender, s = 1, as Hardhat does) and names its sender directly.
 */
function impersonated(tx: TypedTransaction, from: Uint8Array): TypedTransaction {
  const r = placeholderR(from)
  const fast = withSignature(tx, 0n, r, 1n)
  if (fast !== undefined) return signedBy(fast.tx, from, fast.bytes)
  return signedBy(tx.addSignature(0n, r, 1n, true), from)
}

/**
 * `tx` signed with `key` for `from`, as `tx.sign(key)` makes it: the same hash signed by the same
 * `ecsign` hook, the same fields. An EIP-1559 transaction (what a send without `gasPrice` is)
 * gets its signature without being built and checked a second time (see {@link withSignature});
 * other types go through @ethereumjs/tx's `sign`.
 */
function signWith(tx: TypedTransaction, key: Uint8Array, from: Uint8Array): TypedTransaction {
  const ecsign = tx.common.customCrypto.ecsign
  if (tx.type !== TransactionType.FeeMarketEIP1559 || ecsign === undefined || key.length !== 32) return signedBy(tx.sign(key), from)
  const message = feeMarketMessage(tx)
  const signature = ecsign(keccak256(message), key) as unknown as Uint8Array
  const fast = withSignature(tx, BigInt(signature[0] as number), toBigInt(signature.subarray(1, 33)), toBigInt(signature.subarray(33, 65)), message)
  return fast === undefined ? signedBy(tx.sign(key), from) : signedBy(fast.tx, from, fast.bytes)
}

const placeholderR = (from: Uint8Array) => BigInt(`0x${keyOf(from)}`) || 1n

/**
 * True when `tx` carries the placeholder signature of a send for the impersonated `from`
 * (replays of committed blocks skip EIP-3607 for it, as the builder did).
 */
export function hasPlaceholderSignature(tx: TypedTransaction, from: Uint8Array): boolean {
  return tx.s === 1n && tx.r === placeholderR(from)
}

/**
 * `createFeeMarket1559TxFromRLP` without its check of the type byte (the caller read it) and with
 * the constructor's fast path ({@link feeMarketFromValues}): the same decoding, checks and errors.
 */
function feeMarketFromRLP(serialized: Uint8Array, common: Common): TypedTransaction {
  const values = RLP.decode(serialized.subarray(1))
  if (!Array.isArray(values)) return createFeeMarket1559TxFromRLP(serialized, { common, freeze: false })
  return feeMarketFromValues(values, { common, freeze: false })
}

function ether(wei: bigint): string {
  return (Number(wei) / 1e18).toFixed(2)
}

/** A request that names no fee and no type that must pay by the fee market (Hardhat's rule for its fixed gas price). */
function namesNoFee(req: CallRequest): boolean {
  return req.gasPrice === undefined && req.maxFeePerGas === undefined && req.maxPriorityFeePerGas === undefined &&
    (req.type === undefined || req.type <= 1n) && req.authorizationList === undefined && req.blobVersionedHashes === undefined
}

export interface TransactionsOptions {
  allowUnprotectedTxs: boolean
  /** Gas for eth_sendTransaction without `gas`; undefined = estimate, as geth does. */
  defaultGas: bigint | undefined
  /**
   * Gas price of an eth_sendTransaction that names no fee (no gasPrice, maxFeePerGas or
   * maxPriorityFeePerGas): it goes as a legacy transaction at this price, as Hardhat's network
   * `gasPrice` makes it; undefined = the node's fee-market fees.
   */
  defaultGasPrice?: bigint | undefined
  /**
   * Answer a send whose transaction failed in the block automine made for it with Hardhat's
   * error (the transaction stays mined); false: the hash, as geth answers.
   */
  throwOnTransactionFailures: boolean
  /**
   * The gas limit of the block the producer makes next: a transaction is admitted against it, so
   * evm_setBlockGasLimit / anvil_setBlockGasLimit apply to the next send at once, as on Hardhat
   * and Anvil (one above it is refused, never left waiting for a block that cannot hold it).
   */
  nextBlockGasLimit: () => bigint
  /**
   * Hardhat Network's refusals (`hardhatCompat`): its wording, and a nonce gap refused in automine
   * instead of queued.
   */
  hardhat: boolean
  /** True while blocks are automined (Hardhat refuses a nonce gap then). */
  automine: () => boolean
  /** Whether the node sends for an address (hex, no 0x) without its key (hardhat_impersonateAccount). */
  impersonated: (address: string) => boolean
  /** What the contract metadata says about a mined transaction that failed; asked only then. */
  explain?: ((hash: Uint8Array) => Promise<FailureReport | undefined>) | undefined
}

export class Transactions {
  constructor(
    private readonly common: Common,
    private readonly chain: Chain,
    private readonly pool: TxPool,
    private readonly keyring: Keyring,
    private readonly calls: CallExecutor,
    private readonly limits: Readonly<Limits>,
    private readonly options: TransactionsOptions,
  ) {}

  /**
   * Each sender's sends in progress, chained: a send fills its nonce only after the sender's
   * earlier sends are in the pool (in automine, mined), so concurrent sends take consecutive
   * nonces in the order they arrived, and one that fails before the pool leaves no gap.
   */
  private readonly turns = new Map<string, Promise<void>>()

  /** Runs `task` once the sender's earlier sends are done, successful or not. */
  private inTurn<T>(sender: string, task: () => Promise<T>): Promise<T> {
    const run = (this.turns.get(sender) ?? Promise.resolve()).then(task)
    const done = run.then(
      () => {},
      () => {},
    )
    this.turns.set(sender, done)
    void done.then(() => {
      if (this.turns.get(sender) === done) this.turns.delete(sender)
    })
    return run
  }

  /** eth_sendRawTransaction. */
  async submitRaw(raw: Uint8Array): Promise<Uint8Array> {
    const blobForm = raw[0] === TransactionType.BlobEIP4844
    if (raw.length > (blobForm ? this.limits.blobTransactionBytes : this.limits.rawTransactionBytes)) throw new TxRejected('oversized data')
    const envelope = blobForm ? splitBlobEnvelope(raw) : undefined
    const canonical = envelope?.canonical ?? raw
    if (canonical.length > this.limits.rawTransactionBytes) throw new TxRejected('oversized data')
    // A legacy transaction's RLP list starts at 0xc0; typed ones with their type byte.
    if (canonical[0] !== undefined && canonical[0] >= 0xc0) checkLegacyChainId(this.common.chainId())
    let tx: TypedTransaction
    try {
      // Blob transactions are built from their fields: @ethereumjs/tx wants a KZG setup for any.
      const decoded = envelope !== undefined || canonical[0] === TransactionType.BlobEIP4844
        ? blobTransaction(canonical, this.common, false)
        : canonical[0] === TransactionType.FeeMarketEIP1559
          ? feeMarketFromRLP(canonical, this.common)
          : createTxFromRLP(canonical, { common: this.common, freeze: false })
      tx = withEncoding(decoded, canonical)
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      if (/chain ID|EIP155|chainId/i.test(message)) throw new TxRejected('invalid chain id for signer')
      const capped = /^Transaction gas limit (\d+) exceeds the maximum allowed by EIP-7825/.exec(message)
      if (capped !== null) throw gasLimitTooHigh(BigInt(capped[1] as string), this.options.hardhat)
      throw initcodeTooLarge(message, true) ?? new TxRejected(`invalid transaction: ${message.split(' (')[0]}`)
    }
    if (tx.type === TransactionType.BlobEIP4844) {
      // Over RPC a blob transaction must bring its blobs; blocks carry it without them.
      if (envelope === undefined) throw new TxRejected('missing sidecar in blob transaction')
      await verifyBlobSidecar(envelope, (tx as unknown as { blobVersionedHashes: string[] }).blobVersionedHashes)
    }
    if (tx.type === TransactionType.Legacy && !tx.supports(Capability.EIP155ReplayProtection) && !this.options.allowUnprotectedTxs) {
      throw new TxRejected('only replay-protected (EIP-155) transactions allowed over RPC')
    }
    if (envelope === undefined) return this.admit(tx)
    // Kept before admission: in automine the send resolves once mined, and the blobs must be there then.
    const hashes = (tx as unknown as { blobVersionedHashes: string[] }).blobVersionedHashes.map((h) => fromHex(h.slice(2)))
    this.blobs.keep(tx.hash(), hashes, envelope.blobs)
    try {
      return await this.admit(tx)
    } catch (error) {
      if (error instanceof TxRejected) this.blobs.drop(tx.hash())
      throw error
    }
  }

  /** The blobs of accepted blob transactions (Anvil's blob readers). */
  readonly blobs = new BlobStore()

  /**
   * eth_sendTransaction: fills the missing fields, signs with the node's key, submits. The key
   * must be unlocked, or the account impersonated; with `passphrase` (personal_sendTransaction)
   * the key is decrypted for this one transaction, as geth's SignTxWithPassphrase does.
   */
  async submit(req: CallRequest, passphrase?: string): Promise<Uint8Array> {
    if (req.from === undefined) throw new TxRejected('missing from address')
    const sender = keyOf(req.from)
    // The key is taken before filling: an unlock that expires during gas estimation still signs.
    const key = passphrase !== undefined ? await this.keyring.withPassphrase(sender, passphrase) : this.keyring.unlocked(sender)
    const from = req.from
    if (key !== undefined) return this.inTurn(sender, async () => this.admit(signWith(await this.fill(req, false, true), key, from)))
    if (this.options.impersonated(sender)) return this.inTurn(sender, async () => this.admit(impersonated(await this.fill(req, false, true), from), true))
    if (!this.keyring.has(sender) && this.options.hardhat) throw new TxRejected(`Unknown account ${checksumAddress(`0x${sender}`)}`)
    throw new TxRejected(this.keyring.has(sender) ? LOCKED : UNKNOWN_ACCOUNT)
  }

  /** EIP-7825 (Osaka): no transaction may ask for more than 2^24 gas; geth's wording. */
  private checkGasCap(gasLimit: bigint): void {
    if (!this.common.isActivatedEIP(7825)) return
    if (gasLimit > MAX_TX_GAS) throw gasLimitTooHigh(gasLimit, this.options.hardhat)
  }

  /**
   * eth_sendUnsignedTransaction (Anvil): a request sent for `from` without a signature, whether
   * or not `from` is impersonated.
   */
  async submitUnsigned(req: CallRequest): Promise<Uint8Array> {
    const from = req.from
    if (from === undefined) throw new TxRejected('missing from address')
    return this.inTurn(keyOf(from), async () => this.admit(impersonated(await this.fill(req, false, true), from), true))
  }

  /**
   * Builds the unsigned transaction a request describes, filling nonce, gas and fees. `send`: it
   * is about to be sent (the caller holds the sender's turn).
   */
  async fill(req: CallRequest, freeze = true, send = false): Promise<TypedTransaction> {
    const sender = keyOf(req.from ?? new Uint8Array(20))
    const loading = this.chain.ensureLoaded(sender)
    if (loading !== undefined) await loading
    const head = this.chain.head
    const stateNonce = this.chain.nonce(sender)
    const nonce = req.nonce ?? this.pool.pendingNonce(sender, stateNonce)
    checkInitcodeSize(req, this.common)
    // Refused in the pool's (geth's) words before the estimate or the transaction library words it its own way.
    if (req.maxFeePerGas !== undefined && req.maxPriorityFeePerGas !== undefined && req.maxPriorityFeePerGas > req.maxFeePerGas) {
      throw new TxRejected(
        this.options.hardhat
          ? `maxPriorityFeePerGas (${req.maxPriorityFeePerGas}) is bigger than maxFeePerGas (${req.maxFeePerGas})`
          : `max priority fee per gas higher than max fee per gas: address 0x${sender}, maxPriorityFeePerGas: ${req.maxPriorityFeePerGas}, maxFeePerGas: ${req.maxFeePerGas}`,
      )
    }
    const gasLimit = req.gas ?? this.options.defaultGas ?? (await this.estimateGas({ ...req, nonce }, head, send))
    this.checkGasCap(gasLimit)
    if (send && this.options.defaultGasPrice !== undefined && namesNoFee(req)) req = { ...req, gasPrice: this.options.defaultGasPrice }
    const opts = { common: this.common, freeze }
    if (req.gasPrice !== undefined || req.type === 0n || req.type === 1n) {
      const gasPrice = req.gasPrice ?? head.header.calcNextBaseFee() + suggestedTip(this.pool)
      const type = req.accessList !== undefined || req.type === 1n ? TransactionType.AccessListEIP2930 : TransactionType.Legacy
      if (type === TransactionType.Legacy) checkLegacyChainId(this.common.chainId())
      return requestTransaction(req, type, nonce, gasLimit, { gasPrice }, opts)
    }
    const tip = req.maxPriorityFeePerGas ?? suggestedTip(this.pool)
    const maxFeePerGas = req.maxFeePerGas ?? head.header.calcNextBaseFee() * 2n + tip
    const fees = { maxFeePerGas, maxPriorityFeePerGas: tip < maxFeePerGas ? tip : maxFeePerGas }
    if (req.authorizationList !== undefined || req.type === 4n) {
      if (req.to === undefined) throw new TxRejected('EIP-7702 transactions cannot create contracts')
      return requestTransaction(req, TransactionType.EOACodeEIP7702, nonce, gasLimit, fees, opts)
    }
    // A blob transaction carries its blobs, which only a raw transaction brings (geth's
    // eth_sendTransaction takes no sidecar either).
    if (req.blobVersionedHashes !== undefined) throw new TxRejected('blob transactions must be sent with their blobs: use eth_sendRawTransaction')
    return requestTransaction(req, TransactionType.FeeMarketEIP1559, nonce, gasLimit, fees, opts)
  }

  /**
   * The gas of a transaction without `gas`: its estimate. A send that will fail anyway is sent
   * with the most gas a call may use when sends throw on failure, so that it is mined and fails
   * as on Hardhat (whose sends fill in a fixed gas and never estimate); otherwise the estimate's
   * error answers it, as geth and Anvil do, with the console.log messages of the failing run.
   */
  private async estimateGas(req: CallRequest, head: Block, send: boolean): Promise<bigint> {
    const minesFailures = send && this.options.throwOnTransactionFailures
    try {
      return await this.calls.estimate(req, head, { consoleLogOnFailure: send && !minesFailures })
    } catch (error) {
      const fails =
        error instanceof ExecutionReverted || error instanceof TransactionFailed || (error instanceof Refused && error.message.startsWith('gas required exceeds allowance'))
      if (!minesFailures || !fails) throw error
      return this.calls.gasCap(undefined, head)
    }
  }

  /**
   * Files `tx` in the pool and, once it is pending, waits for its inclusion event (settled by
   * block production: in automine when its block is committed, otherwise at once).
   */
  private async admit(tx: TypedTransaction, impersonated = false): Promise<Uint8Array> {
    let senderBytes: Uint8Array
    try {
      senderBytes = tx.getSenderAddress().bytes
    } catch {
      throw new TxRejected('invalid sender')
    }
    const fee = tx.gasLimit * ('maxFeePerGas' in tx ? (tx.maxFeePerGas as bigint) : (tx as unknown as { gasPrice: bigint }).gasPrice)
    const cap = this.limits.txFeeCap
    if (cap > 0n && fee > cap) throw new TxRejected(`tx fee (${ether(fee)} ether) exceeds the configured cap (${ether(cap)} ether)`)
    const sender = keyOf(senderBytes)
    const loading = this.chain.ensureLoaded(sender)
    if (loading !== undefined) await loading
    const account = this.chain.account(sender)
    const head = this.chain.head
    const blockGasLimit = this.options.nextBlockGasLimit()
    if (this.options.hardhat && tx.gasLimit > blockGasLimit) {
      throw new TxRejected(`Transaction gas limit is ${tx.gasLimit} and exceeds block gas limit of ${blockGasLimit}`)
    }
    const hash = tx.hash()
    const hashKey = keyOf(hash)
    // Registered before the pool files it: the settlement may come while it is filed.
    const inclusion = this.pool.inclusions.wait(hashKey)
    let admission
    try {
      if (this.options.hardhat && this.options.automine()) {
        const expected = this.pool.pendingNonce(sender, account?.nonce ?? 0n)
        if (tx.nonce > expected) throw nonceTooHigh(expected, tx.nonce)
      }
      admission = this.pool.add(
        tx,
        sender,
        {
          stateNonce: account?.nonce ?? 0n,
          balance: account?.balance ?? 0n,
          baseFee: head.header.calcNextBaseFee(),
          blockGasLimit,
        },
        impersonated,
        hashKey,
      )
    } catch (error) {
      inclusion.cancel()
      throw this.options.hardhat ? hardhatRefusal(error, this.options.automine()) : error
    }
    if (admission !== 'pending') {
      inclusion.cancel()
      return hash
    }
    const outcome = await inclusion.settled
    if (outcome?.error !== undefined && this.options.throwOnTransactionFailures) throw transactionFailedError(outcome, hash, await this.options.explain?.(hash), tx.to?.bytes)
    return hash
  }
}

/** Refuses a legacy transaction on a chain whose id its EIP-155 `v` cannot carry here. */
function checkLegacyChainId(chainId: bigint): void {
  if (chainId > MAX_LEGACY_CHAIN_ID) {
    throw new TxRejected(`legacy transactions need a chain id up to ${MAX_LEGACY_CHAIN_ID} (their EIP-155 v = 2 * chain id + 35 is read as a JavaScript number); this chain's is ${chainId}: send a typed transaction (EIP-1559, the default without gasPrice)`)
  }
}
