/**
 * viem against the node's EIP-1193 provider: public reads, JSON-RPC-account sends (the node
 * signs), local-account sends of every transaction type (viem signs, eth_sendRawTransaction),
 * and the node errors viem has to recognise.
 */
import {
  BlockNotFoundError,
  InsufficientFundsError,
  NonceTooLowError,
  TransactionReceiptNotFoundError,
  BaseError,
  getContractAddress,
  keccak256,
  parseEther,
  parseGwei,
  recoverTransactionAddress,
  serializeTransaction,
  toHex,
  toRlp,
  type Hex,
  type TransactionSerialized,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'
import {
  accountAt,
  publicClientOf,
  rejectionOf,
  walletClientOf,
  type TestPublicClient,
} from '../helpers/viem.js'

const TEN_THOUSAND_ETH = 10_000n * 10n ** 18n
const ONE_GWEI = 1_000_000_000n
/** keccak256(rlp('')): the root of an empty trie. */
const EMPTY_TRIE_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'
/** keccak256(rlp([])): the uncle hash of a block without uncles. */
const EMPTY_UNCLES_HASH = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347'

/** EIP-1559 next base fee (elasticity 2, denominator 8), as every execution client computes it. */
function nextBaseFee(parent: { baseFeePerGas: bigint; gasUsed: bigint; gasLimit: bigint }): bigint {
  const target = parent.gasLimit / 2n
  const base = parent.baseFeePerGas
  if (parent.gasUsed === target) return base
  if (parent.gasUsed > target) {
    const delta = (base * (parent.gasUsed - target)) / target / 8n
    return base + (delta > 1n ? delta : 1n)
  }
  return base - (base * (target - parent.gasUsed)) / target / 8n
}

/** Walks a viem error's cause chain looking for an error of class `cls`. */
function findCause<T>(error: unknown, cls: abstract new (...args: never[]) => T): T | undefined {
  if (error instanceof BaseError) {
    const found = error.walk((e) => e instanceof cls)
    return (found ?? undefined) as T | undefined
  }
  return error instanceof cls ? (error as T) : undefined
}

function messageOf(error: unknown): string {
  if (error instanceof BaseError) return `${error.shortMessage}\n${error.details}\n${error.message}`
  return error instanceof Error ? error.message : String(error)
}

describe('viem public client', () => {
  let node: FinalityNode
  let client: TestPublicClient

  beforeAll(async () => {
    node = await createNode()
    client = publicClientOf(node)
  })
  afterAll(() => node.close())

  it('getChainId is 31337', async () => {
    expect(await client.getChainId()).toBe(31337)
  })

  it('a fresh chain is at block 0 and the genesis block has the EIP-1559 and post-merge fields', async () => {
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(0n)
    const genesis = await client.getBlock({ blockNumber: 0n })
    expect(genesis.number).toBe(0n)
    expect(genesis.hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(genesis.parentHash).toBe(`0x${'0'.repeat(64)}`)
    expect(genesis.stateRoot).toMatch(/^0x[0-9a-f]{64}$/)
    expect(genesis.baseFeePerGas).toBe(ONE_GWEI)
    expect(genesis.gasLimit).toBe(30_000_000n)
    expect(genesis.gasUsed).toBe(0n)
    expect(genesis.transactions).toEqual([])
    // Proof of stake era fields: no difficulty, no uncles.
    expect(genesis.difficulty).toBe(0n)
    expect(genesis.uncles).toEqual([])
    // No transactions, receipts or uncles: the empty trie root and the empty-list hash.
    expect(genesis.transactionsRoot).toBe(EMPTY_TRIE_ROOT)
    expect(genesis.receiptsRoot).toBe(EMPTY_TRIE_ROOT)
    expect(genesis.sha3Uncles).toBe(EMPTY_UNCLES_HASH)
    expect(genesis.logsBloom).toBe(`0x${'00'.repeat(256)}`)
  })

  it('every prefunded account holds 10,000 ETH', async () => {
    expect(node.accounts).toHaveLength(20)
    for (const { address } of node.accounts) {
      expect(await client.getBalance({ address })).toBe(TEN_THOUSAND_ETH)
    }
    // An address the node knows nothing about has zero.
    expect(await client.getBalance({ address: '0x000000000000000000000000000000000000dEaD' })).toBe(0n)
  })

  it('blocks link by parentHash, carry stateRoot/miner, and the base fee follows EIP-1559', async () => {
    const [alice, bob] = [accountAt(node, 0), accountAt(node, 1)]
    const wallet = walletClientOf(node, alice.address)
    const start = await client.getBlockNumber({ cacheTime: 0 })
    for (let i = 0; i < 3; i++) {
      await wallet.sendTransaction({ to: bob.address, value: 1n })
    }
    const head = await client.getBlockNumber({ cacheTime: 0 })
    expect(head).toBe(start + 3n)

    let parent = await client.getBlock({ blockNumber: start })
    for (let n = start + 1n; n <= head; n++) {
      const block = await client.getBlock({ blockNumber: n })
      expect(block.number).toBe(n)
      expect(block.parentHash).toBe(parent.hash)
      expect(block.hash).not.toBe(parent.hash)
      expect(block.stateRoot).toMatch(/^0x[0-9a-f]{64}$/)
      // Each transfer changes balances, so the state root moves.
      expect(block.stateRoot).not.toBe(parent.stateRoot)
      expect(block.miner).toMatch(/^0x[0-9a-fA-F]{40}$/)
      expect(block.timestamp).toBeGreaterThan(parent.timestamp)
      expect(block.transactions).toHaveLength(1)
      expect(block.gasUsed).toBe(21_000n)
      expect(block.baseFeePerGas).toBe(
        nextBaseFee({ baseFeePerGas: parent.baseFeePerGas!, gasUsed: parent.gasUsed, gasLimit: parent.gasLimit }),
      )
      // Looking the block up by hash gives the same block.
      const byHash = await client.getBlock({ blockHash: block.hash })
      expect(byHash.number).toBe(n)
      expect(byHash.stateRoot).toBe(block.stateRoot)
      parent = block
    }
    // 'latest' is the head.
    const latest = await client.getBlock()
    expect(latest.number).toBe(head)
    expect(latest.hash).toBe(parent.hash)
  })

  it('getBalance at an earlier blockNumber sees the balance before later transfers', async () => {
    const from = accountAt(node, 2)
    const to = accountAt(node, 3)
    const wallet = walletClientOf(node, from.address)
    const before = await client.getBlockNumber({ cacheTime: 0 })
    const toBefore = await client.getBalance({ address: to.address })
    const fromBefore = await client.getBalance({ address: from.address })

    const hash1 = await wallet.sendTransaction({ to: to.address, value: parseEther('1') })
    const r1 = await client.getTransactionReceipt({ hash: hash1 })
    const hash2 = await wallet.sendTransaction({ to: to.address, value: parseEther('2') })
    const r2 = await client.getTransactionReceipt({ hash: hash2 })
    expect(r2.blockNumber).toBe(r1.blockNumber + 1n)

    expect(await client.getBalance({ address: to.address })).toBe(toBefore + parseEther('3'))
    expect(await client.getBalance({ address: to.address, blockNumber: before })).toBe(toBefore)
    expect(await client.getBalance({ address: to.address, blockNumber: r1.blockNumber })).toBe(toBefore + parseEther('1'))
    expect(await client.getBalance({ address: to.address, blockNumber: r2.blockNumber })).toBe(toBefore + parseEther('3'))
    // The sender paid value plus fees, block by block.
    const fee1 = r1.gasUsed * r1.effectiveGasPrice
    const fee2 = r2.gasUsed * r2.effectiveGasPrice
    expect(await client.getBalance({ address: from.address, blockNumber: before })).toBe(fromBefore)
    expect(await client.getBalance({ address: from.address, blockNumber: r1.blockNumber })).toBe(fromBefore - parseEther('1') - fee1)
    expect(await client.getBalance({ address: from.address })).toBe(fromBefore - parseEther('3') - fee1 - fee2)
    // Genesis still shows the prefunded amount.
    expect(await client.getBalance({ address: to.address, blockNumber: 0n })).toBe(TEN_THOUSAND_ETH)
  })

  it('getBlock with includeTransactions returns the transaction objects of the block', async () => {
    const wallet = walletClientOf(node, accountAt(node, 6).address)
    const hash = await wallet.sendTransaction({ to: accountAt(node, 7).address, value: 3n })
    const receipt = await client.getTransactionReceipt({ hash })
    const block = await client.getBlock({ blockNumber: receipt.blockNumber, includeTransactions: true })
    expect(block.transactions).toHaveLength(1)
    const tx = block.transactions[0]!
    expect(tx.hash).toBe(hash)
    expect(tx.blockHash).toBe(block.hash)
    expect(tx.blockNumber).toBe(block.number)
    expect(tx.transactionIndex).toBe(0)
    expect(tx.from).toBe(accountAt(node, 6).address.toLowerCase())
    expect(tx.value).toBe(3n)
    expect(await client.getBlockTransactionCount({ blockNumber: block.number })).toBe(1)
    expect(await client.getBlockTransactionCount({ blockHash: block.hash })).toBe(1)
    expect(await client.getBlockTransactionCount({ blockNumber: 0n })).toBe(0)
    expect(await client.getTransactionConfirmations({ hash })).toBe(
      (await client.getBlockNumber({ cacheTime: 0 })) - receipt.blockNumber + 1n,
    )
  })

  it('getBlock of a block past the head is BlockNotFoundError', async () => {
    const error = await rejectionOf(() => client.getBlock({ blockNumber: 10_000_000n }))
    expect(error).toBeInstanceOf(BlockNotFoundError)
    const byHash = await rejectionOf(() => client.getBlock({ blockHash: `0x${'ab'.repeat(32)}` }))
    expect(byHash).toBeInstanceOf(BlockNotFoundError)
  })

  it('getTransactionReceipt of an unknown hash is TransactionReceiptNotFoundError', async () => {
    const error = await rejectionOf(() => client.getTransactionReceipt({ hash: `0x${'12'.repeat(32)}` }))
    expect(error).toBeInstanceOf(TransactionReceiptNotFoundError)
  })

  it('estimateGas of a plain transfer is exactly 21000', async () => {
    const [a, b] = [accountAt(node, 4), accountAt(node, 5)]
    expect(await client.estimateGas({ account: a.address, to: b.address, value: parseEther('1') })).toBe(21_000n)
    // Also for a transfer to a fresh address and with no value.
    expect(await client.estimateGas({ account: a.address, to: '0x000000000000000000000000000000000000bEEF' })).toBe(21_000n)
  })

  it('calldata to an account without code pays the EIP-7623 floor (Prague), and estimateGas finds it', async () => {
    const [a, b] = [accountAt(node, 8), accountAt(node, 9)]
    // 4 non-zero bytes + 2 zero bytes = 4*4 + 2 = 18 tokens.
    const data = '0x010203040000' as const
    const tokens = 4n * 4n + 2n
    const standard = 21_000n + 4n * tokens // 21,072: calldata at 16/4 gas per byte, no execution
    const floor = 21_000n + 10n * tokens // 21,180: EIP-7623 floor, 10 gas per token
    expect(floor).toBeGreaterThan(standard)
    const estimate = await client.estimateGas({ account: a.address, to: b.address, data })
    expect(estimate).toBe(floor)
    const wallet = walletClientOf(node, a.address)
    const hash = await wallet.sendTransaction({ to: b.address, data, gas: estimate })
    const receipt = await client.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.gasUsed).toBe(floor)
    // Below the floor the transaction is invalid and refused outright.
    const error = await rejectionOf(() => wallet.sendTransaction({ to: b.address, data, gas: floor - 1n }))
    expect(messageOf(error)).toMatch(/intrinsic gas too low|floor data gas/i)
  })

  it('gas price and fee suggestions are consistent with the head block', async () => {
    const block = await client.getBlock()
    const next = nextBaseFee({ baseFeePerGas: block.baseFeePerGas!, gasUsed: block.gasUsed, gasLimit: block.gasLimit })
    const tip = await client.estimateMaxPriorityFeePerGas()
    expect(tip).toBe(ONE_GWEI)
    expect(await client.getGasPrice()).toBe(next + tip)
    const fees = await client.estimateFeesPerGas()
    expect(fees.maxPriorityFeePerGas).toBe(tip)
    expect(fees.maxFeePerGas).toBeGreaterThanOrEqual(next + tip)
  })

  it('feeHistory has one gasUsedRatio per block and one more base fee (the next block)', async () => {
    const head = await client.getBlockNumber({ cacheTime: 0 })
    expect(head).toBeGreaterThanOrEqual(4n)
    const history = await client.getFeeHistory({ blockCount: 4, rewardPercentiles: [25, 75] })
    expect(history.oldestBlock).toBe(head - 3n)
    expect(history.baseFeePerGas).toHaveLength(5)
    expect(history.gasUsedRatio).toHaveLength(4)
    expect(history.reward).toHaveLength(4)
    for (const r of history.reward!) expect(r).toHaveLength(2)
    for (let i = 0; i < 4; i++) {
      const block = await client.getBlock({ blockNumber: head - 3n + BigInt(i) })
      expect(history.baseFeePerGas[i]).toBe(block.baseFeePerGas)
      expect(history.gasUsedRatio[i]).toBeCloseTo(Number(block.gasUsed) / Number(block.gasLimit), 12)
    }
    const last = await client.getBlock({ blockNumber: head })
    expect(history.baseFeePerGas[4]).toBe(
      nextBaseFee({ baseFeePerGas: last.baseFeePerGas!, gasUsed: last.gasUsed, gasLimit: last.gasLimit }),
    )
    // Without percentiles there is no reward array (viem always sends them, so ask the provider).
    const plain = (await node.provider.request({ method: 'eth_feeHistory', params: ['0x2', 'latest'] })) as Record<string, unknown>
    expect(plain.reward).toBeUndefined()
    expect(plain.oldestBlock).toBe(`0x${(head - 1n).toString(16)}`)
    expect(plain.gasUsedRatio).toHaveLength(2)
    // Empty percentiles: one empty reward list per block.
    const emptyRewards = await client.getFeeHistory({ blockCount: 2, rewardPercentiles: [] })
    expect(emptyRewards.reward).toEqual([[], []])
    // From genesis: the range is clamped at block 0.
    const early = await client.getFeeHistory({ blockCount: 3, blockNumber: 1n, rewardPercentiles: [50] })
    expect(early.oldestBlock).toBe(0n)
    expect(early.gasUsedRatio).toHaveLength(2)
    expect(early.baseFeePerGas[0]).toBe(ONE_GWEI)
  })

  it('a block hash is keccak256 of its RLP-encoded header (every header field the node reports)', async () => {
    const wallet = walletClientOf(node, accountAt(node, 0).address)
    await wallet.sendTransaction({ to: accountAt(node, 1).address, value: 1n })
    const empty = await node.mine()
    expect(empty).toBeDefined()
    for (const number of [0n, empty!.number - 1n, empty!.number]) {
      const raw = (await node.provider.request({ method: 'eth_getBlockByNumber', params: [toHex(number), false] })) as unknown as Record<string, Hex>
      const q = (v: Hex | undefined): Hex => (v === undefined || BigInt(v) === 0n ? '0x' : toHex(BigInt(v)))
      // Header field order (Prague): the London fields, then Shanghai, Cancun and Prague additions.
      const fields: Hex[] = [
        raw.parentHash!, raw.sha3Uncles!, raw.miner!, raw.stateRoot!, raw.transactionsRoot!, raw.receiptsRoot!,
        raw.logsBloom!, q(raw.difficulty), q(raw.number), q(raw.gasLimit), q(raw.gasUsed), q(raw.timestamp),
        raw.extraData!, raw.mixHash!, raw.nonce!, q(raw.baseFeePerGas),
      ]
      if (raw.withdrawalsRoot !== undefined) fields.push(raw.withdrawalsRoot)
      if (raw.blobGasUsed !== undefined) fields.push(q(raw.blobGasUsed), q(raw.excessBlobGas))
      if (raw.parentBeaconBlockRoot !== undefined) fields.push(raw.parentBeaconBlockRoot)
      if (raw.requestsHash !== undefined) fields.push(raw.requestsHash)
      expect(keccak256(toRlp(fields)), `block ${number}`).toBe(raw.hash)
    }
    // The empty block has empty roots and zero gas, and the header of a block by hash matches.
    const block = await client.getBlock({ blockHash: empty!.hash })
    expect(block.transactions).toEqual([])
    expect(block.gasUsed).toBe(0n)
    expect(block.transactionsRoot).toBe(EMPTY_TRIE_ROOT)
    expect(block.receiptsRoot).toBe(EMPTY_TRIE_ROOT)
  })

  it('the block proposer (miner) receives the priority fees; the base fee is burned', async () => {
    const [a, b] = [accountAt(node, 13), accountAt(node, 14)]
    const wallet = walletClientOf(node, a.address)
    const head = await client.getBlock()
    const miner = head.miner
    const minerBefore = await client.getBalance({ address: miner })
    const fromBefore = await client.getBalance({ address: a.address })
    const toBefore = await client.getBalance({ address: b.address })
    const hash = await wallet.sendTransaction({
      to: b.address,
      value: 1000n,
      maxFeePerGas: parseGwei('20'),
      maxPriorityFeePerGas: parseGwei('3'),
    })
    const receipt = await client.getTransactionReceipt({ hash })
    const block = await client.getBlock({ blockNumber: receipt.blockNumber })
    expect(block.miner).toBe(miner)
    expect(receipt.effectiveGasPrice).toBe(block.baseFeePerGas! + parseGwei('3'))
    const paid = receipt.gasUsed * receipt.effectiveGasPrice
    expect(await client.getBalance({ address: a.address })).toBe(fromBefore - 1000n - paid)
    expect(await client.getBalance({ address: b.address })).toBe(toBefore + 1000n)
    expect(await client.getBalance({ address: miner })).toBe(minerBefore + receipt.gasUsed * parseGwei('3'))
  })
})

describe('viem wallet client with a JSON-RPC account (the node signs)', () => {
  let node: FinalityNode
  let client: TestPublicClient

  beforeAll(async () => {
    node = await createNode()
    client = publicClientOf(node)
  })
  afterAll(() => node.close())

  it('getAddresses lists the node accounts', async () => {
    const wallet = walletClientOf(node, accountAt(node, 0).address)
    const addresses = await wallet.getAddresses()
    expect(addresses.map((a) => a.toLowerCase())).toEqual(node.accounts.map((a) => a.address.toLowerCase()))
  })

  it('sendTransaction, then a successful receipt in the block that holds the transaction', async () => {
    const [alice, bob] = [accountAt(node, 0), accountAt(node, 1)]
    const wallet = walletClientOf(node, alice.address)
    const bobBefore = await client.getBalance({ address: bob.address })
    const aliceBefore = await client.getBalance({ address: alice.address })
    const parent = await client.getBlock()

    const hash = await wallet.sendTransaction({ to: bob.address, value: parseEther('1.5') })
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)

    // Automine: the receipt exists as soon as the send returned.
    const receipt = await client.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.transactionHash).toBe(hash)
    expect(receipt.gasUsed).toBe(21_000n)
    expect(receipt.cumulativeGasUsed).toBe(21_000n)
    expect(receipt.from.toLowerCase()).toBe(alice.address.toLowerCase())
    expect(receipt.to?.toLowerCase()).toBe(bob.address.toLowerCase())
    expect(receipt.contractAddress).toBeNull()
    expect(receipt.logs).toEqual([])
    expect(receipt.transactionIndex).toBe(0)
    expect(receipt.type).toBe('eip1559')
    expect(receipt.blockNumber).toBe(parent.number + 1n)

    const block = await client.getBlock({ blockNumber: receipt.blockNumber })
    expect(receipt.blockHash).toBe(block.hash)
    expect(block.transactions).toEqual([hash])
    // effectiveGasPrice = baseFee + tip (the tip fits under the fee cap here).
    const tx = await client.getTransaction({ hash })
    expect(tx.maxPriorityFeePerGas).toBeDefined()
    const tip = tx.maxFeePerGas! - block.baseFeePerGas! < tx.maxPriorityFeePerGas! ? tx.maxFeePerGas! - block.baseFeePerGas! : tx.maxPriorityFeePerGas!
    expect(receipt.effectiveGasPrice).toBe(block.baseFeePerGas! + tip)
    expect(receipt.effectiveGasPrice).toBeGreaterThan(block.baseFeePerGas!)

    expect(await client.getBalance({ address: bob.address })).toBe(bobBefore + parseEther('1.5'))
    expect(await client.getBalance({ address: alice.address })).toBe(
      aliceBefore - parseEther('1.5') - receipt.gasUsed * receipt.effectiveGasPrice,
    )

    // The transaction is found by block and index too.
    const byIndex = await client.getTransaction({ blockNumber: receipt.blockNumber, index: 0 })
    expect(byIndex.hash).toBe(hash)
    const byBlockHash = await client.getTransaction({ blockHash: block.hash, index: 0 })
    expect(byBlockHash.hash).toBe(hash)
  })

  it('waitForTransactionReceipt resolves for a sent transaction', async () => {
    const wallet = walletClientOf(node, accountAt(node, 2).address)
    const hash = await wallet.sendTransaction({ to: accountAt(node, 3).address, value: 5n })
    const receipt = await client.waitForTransactionReceipt({ hash, timeout: 10_000 })
    expect(receipt.status).toBe('success')
    expect(receipt.transactionHash).toBe(hash)
  })

  it('a JSON-RPC send with a legacy gasPrice gives a legacy transaction paying exactly gasPrice', async () => {
    const wallet = walletClientOf(node, accountAt(node, 4).address)
    const gasPrice = parseGwei('3')
    const hash = await wallet.sendTransaction({ to: accountAt(node, 5).address, value: 1n, gasPrice, type: 'legacy' })
    const [tx, receipt] = await Promise.all([client.getTransaction({ hash }), client.getTransactionReceipt({ hash })])
    expect(tx.type).toBe('legacy')
    expect(tx.gasPrice).toBe(gasPrice)
    expect(tx.chainId).toBe(31337)
    expect(receipt.effectiveGasPrice).toBe(gasPrice)
    expect(receipt.type).toBe('legacy')
  })

  it('sendTransaction with an explicit nonce that is already used is NonceTooLowError', async () => {
    const alice = accountAt(node, 6)
    const wallet = walletClientOf(node, alice.address)
    await wallet.sendTransaction({ to: accountAt(node, 7).address, value: 1n })
    await wallet.sendTransaction({ to: accountAt(node, 7).address, value: 1n })
    const nonce = await client.getTransactionCount({ address: alice.address })
    expect(nonce).toBeGreaterThanOrEqual(2)
    const error = await rejectionOf(() => wallet.sendTransaction({ to: accountAt(node, 7).address, value: 1n, nonce: 0 }))
    expect(findCause(error, NonceTooLowError), messageOf(error)).toBeDefined()
    expect(messageOf(error)).toMatch(/nonce too low/i)
    // Nothing was mined for it.
    expect(await client.getTransactionCount({ address: alice.address })).toBe(nonce)
  })
})

describe('viem wallet client with a local account (viem signs, eth_sendRawTransaction)', () => {
  let node: FinalityNode
  let client: TestPublicClient

  beforeAll(async () => {
    node = await createNode()
    client = publicClientOf(node)
  })
  afterAll(() => node.close())

  it('sends legacy, EIP-2930 and EIP-1559 transactions; each is mined with the right fields', async () => {
    const account = privateKeyToAccount(accountAt(node, 1).privateKey)
    expect(account.address.toLowerCase()).toBe(accountAt(node, 1).address.toLowerCase())
    const wallet = walletClientOf(node, account)
    const to = accountAt(node, 2).address
    const startNonce = await client.getTransactionCount({ address: account.address })
    expect(startNonce).toBe(0)
    const toBefore = await client.getBalance({ address: to })

    const legacy = await wallet.sendTransaction({ to, value: 1000n, type: 'legacy', gasPrice: parseGwei('2') })
    const eip2930 = await wallet.sendTransaction({
      to,
      value: 2000n,
      type: 'eip2930',
      gasPrice: parseGwei('2'),
      accessList: [{ address: to, storageKeys: [`0x${'00'.repeat(31)}01`] }],
    })
    const eip1559 = await wallet.sendTransaction({
      to,
      value: 3000n,
      type: 'eip1559',
      maxFeePerGas: parseGwei('5'),
      maxPriorityFeePerGas: parseGwei('1'),
    })

    const expected = [
      { hash: legacy, type: 'legacy', value: 1000n },
      { hash: eip2930, type: 'eip2930', value: 2000n },
      { hash: eip1559, type: 'eip1559', value: 3000n },
    ] as const
    for (const [i, e] of expected.entries()) {
      const tx = await client.getTransaction({ hash: e.hash })
      expect(tx.hash).toBe(e.hash)
      expect(tx.type).toBe(e.type)
      expect(tx.from.toLowerCase()).toBe(account.address.toLowerCase())
      expect(tx.to?.toLowerCase()).toBe(to.toLowerCase())
      expect(tx.nonce).toBe(startNonce + i)
      expect(tx.value).toBe(e.value)
      expect(tx.chainId).toBe(31337)
      expect(tx.blockNumber).not.toBeNull()
      expect(tx.transactionIndex).toBe(0)
      expect(tx.r).toMatch(/^0x[0-9a-f]+$/)
      expect(tx.s).toMatch(/^0x[0-9a-f]+$/)
      if (e.type === 'legacy') {
        // EIP-155: v = chainId * 2 + 35 + recovery bit.
        expect([31337n * 2n + 35n, 31337n * 2n + 36n]).toContain(tx.v)
      } else {
        expect([0, 1]).toContain(tx.yParity)
        expect(tx.v).toBe(BigInt(tx.yParity!))
      }
      // The signature the node reports recovers to the sender.
      const recovered = await recoverTransactionAddress({
        serializedTransaction: serializedOf(tx) as TransactionSerialized,
      })
      expect(recovered.toLowerCase()).toBe(account.address.toLowerCase())

      const receipt = await client.getTransactionReceipt({ hash: e.hash })
      expect(receipt.status).toBe('success')
      expect(receipt.type).toBe(e.type)
      expect(receipt.blockNumber).toBe(tx.blockNumber)
      expect(receipt.blockHash).toBe(tx.blockHash)
      // EIP-2930 pays for the access list: 2400 per address + 1900 per storage key.
      expect(receipt.gasUsed).toBe(e.type === 'eip2930' ? 21_000n + 2400n + 1900n : 21_000n)
    }
    const t1 = await client.getTransaction({ hash: eip2930 })
    expect(t1.accessList).toEqual([{ address: to.toLowerCase(), storageKeys: [`0x${'00'.repeat(31)}01`] }])
    const t2 = await client.getTransaction({ hash: eip1559 })
    expect(t2.maxFeePerGas).toBe(parseGwei('5'))
    expect(t2.maxPriorityFeePerGas).toBe(parseGwei('1'))
    const r2 = await client.getTransactionReceipt({ hash: eip1559 })
    const b2 = await client.getBlock({ blockNumber: r2.blockNumber })
    expect(r2.effectiveGasPrice).toBe(b2.baseFeePerGas! + parseGwei('1'))
    const r0 = await client.getTransactionReceipt({ hash: legacy })
    expect(r0.effectiveGasPrice).toBe(parseGwei('2'))

    expect(await client.getTransactionCount({ address: account.address })).toBe(startNonce + 3)
    expect(await client.getBalance({ address: to })).toBe(toBefore + 6000n)
  })

  it('the hash the node returns is keccak256 of the raw signed transaction', async () => {
    const account = privateKeyToAccount(accountAt(node, 3).privateKey)
    const wallet = walletClientOf(node, account)
    const request = await wallet.prepareTransactionRequest({ to: accountAt(node, 4).address, value: 7n })
    const raw = await wallet.signTransaction(request)
    const hash = await wallet.sendRawTransaction({ serializedTransaction: raw })
    expect(hash).toBe(keccak256(raw))
    const receipt = await client.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    // Sending the same raw transaction again is refused (already known or nonce too low). viem's
    // sendRawTransaction does not map node errors to its typed errors, so match the node's wording,
    // which viem's NonceTooLowError.nodeMessage recognises.
    const again = await rejectionOf(() => wallet.sendRawTransaction({ serializedTransaction: raw }))
    expect(messageOf(again)).toMatch(NonceTooLowError.nodeMessage)
    expect(await client.getTransactionCount({ address: account.address })).toBe(1)
  })

  it('getTransactionCount counts per block, and blockTag pending counts pool transactions', async () => {
    const manual = await createNode({ mining: { mode: 'manual' } })
    try {
      const c = publicClientOf(manual)
      const account = privateKeyToAccount(accountAt(manual, 0).privateKey)
      const wallet = walletClientOf(manual, account)
      const to = accountAt(manual, 1).address
      expect(await c.getTransactionCount({ address: account.address })).toBe(0)
      expect(await c.getTransactionCount({ address: account.address, blockTag: 'pending' })).toBe(0)

      // In manual mode sends return at once; viem picks the pending nonce for each.
      const h1 = await wallet.sendTransaction({ to, value: 1n })
      const h2 = await wallet.sendTransaction({ to, value: 2n })
      expect(await c.getTransactionCount({ address: account.address, blockTag: 'pending' })).toBe(2)
      expect(await c.getTransactionCount({ address: account.address, blockTag: 'latest' })).toBe(0)
      expect(await c.getBlockNumber({ cacheTime: 0 })).toBe(0n)
      const pending = await c.getTransaction({ hash: h2 })
      expect(pending.blockNumber).toBeNull()
      expect(pending.nonce).toBe(1)
      await expect(c.getTransactionReceipt({ hash: h1 })).rejects.toBeInstanceOf(TransactionReceiptNotFoundError)

      const mined = await manual.mine()
      expect(mined?.number).toBe(1n)
      const block = await c.getBlock({ blockNumber: 1n })
      expect(block.transactions).toEqual([h1, h2])
      expect(await c.getTransactionCount({ address: account.address })).toBe(2)
      expect(await c.getTransactionCount({ address: account.address, blockTag: 'pending' })).toBe(2)
      // At the genesis block the count is still 0.
      expect(await c.getTransactionCount({ address: account.address, blockNumber: 0n })).toBe(0)
      const [r1, r2] = await Promise.all([c.getTransactionReceipt({ hash: h1 }), c.getTransactionReceipt({ hash: h2 })])
      expect(r1.transactionIndex).toBe(0)
      expect(r2.transactionIndex).toBe(1)
      expect(r2.cumulativeGasUsed).toBe(42_000n)
    } finally {
      await manual.close()
    }
  })

  it('a nonce gap waits in the pool until the missing nonce arrives, then both are mined', async () => {
    const account = privateKeyToAccount(accountAt(node, 10).privateKey)
    const wallet = walletClientOf(node, account)
    const to = accountAt(node, 11).address
    const nonce = await client.getTransactionCount({ address: account.address })
    const later = await wallet.sendTransaction({ to, value: 2n, nonce: nonce + 1, gas: 21_000n })
    // Queued behind the gap: not mined, and the pending nonce does not skip over the gap.
    await expect(client.getTransactionReceipt({ hash: later })).rejects.toBeInstanceOf(TransactionReceiptNotFoundError)
    expect(await client.getTransactionCount({ address: account.address, blockTag: 'pending' })).toBe(nonce)
    const queued = await client.getTransaction({ hash: later })
    expect(queued.blockHash).toBeNull()
    expect(queued.nonce).toBe(nonce + 1)

    const first = await wallet.sendTransaction({ to, value: 1n, nonce, gas: 21_000n })
    const r1 = await client.getTransactionReceipt({ hash: first })
    expect(r1.status).toBe('success')
    const r2 = await client.waitForTransactionReceipt({ hash: later, timeout: 10_000 })
    expect(r2.status).toBe('success')
    expect(r2.blockNumber).toBeGreaterThanOrEqual(r1.blockNumber)
    expect(await client.getTransactionCount({ address: account.address })).toBe(nonce + 2)
  })

  it('a contract deployment from a local account (raw transaction without `to`)', async () => {
    const account = privateKeyToAccount(accountAt(node, 12).privateKey)
    const wallet = walletClientOf(node, account)
    // Init code 0x600a600c600039600a6000f3 (CODECOPY 10 bytes from offset 12, RETURN them) followed
    // by a 10-byte runtime that returns 42 as a 32-byte word.
    const runtime = '0x602a60005260206000f3' as const // returns 42 as a 32-byte word
    const initCode = `0x600a600c600039600a6000f3${runtime.slice(2)}` as const
    const nonce = await client.getTransactionCount({ address: account.address })
    const hash = await wallet.deployContract({ abi: [], bytecode: initCode })
    const receipt = await client.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.to).toBeNull()
    const expected = getContractAddress({ from: account.address, nonce: BigInt(nonce) })
    expect(receipt.contractAddress?.toLowerCase()).toBe(expected.toLowerCase())
    expect(await client.getCode({ address: expected })).toBe(runtime)
    const result = await client.call({ to: expected })
    expect(result.data).toBe(`0x${'00'.repeat(31)}2a`)
  })

  it('an explicit old nonce is NonceTooLowError', async () => {
    const account = privateKeyToAccount(accountAt(node, 5).privateKey)
    const wallet = walletClientOf(node, account)
    await wallet.sendTransaction({ to: accountAt(node, 6).address, value: 1n })
    expect(await client.getTransactionCount({ address: account.address })).toBe(1)
    const error = await rejectionOf(() => wallet.sendTransaction({ to: accountAt(node, 6).address, value: 1n, nonce: 0 }))
    expect(findCause(error, NonceTooLowError), messageOf(error)).toBeDefined()
    expect(await client.getTransactionCount({ address: account.address })).toBe(1)
  })

  it('an account without balance is InsufficientFundsError', async () => {
    const poor = privateKeyToAccount(generatePrivateKey())
    expect(await client.getBalance({ address: poor.address })).toBe(0n)
    const wallet = walletClientOf(node, poor)
    // Explicit gas and fees so the refusal comes from the node's admission, not from estimation.
    const error = await rejectionOf(() =>
      wallet.sendTransaction({
        to: accountAt(node, 0).address,
        value: 1n,
        gas: 21_000n,
        maxFeePerGas: parseGwei('10'),
        maxPriorityFeePerGas: parseGwei('1'),
      }),
    )
    expect(findCause(error, InsufficientFundsError), messageOf(error)).toBeDefined()
    expect(messageOf(error)).toMatch(/insufficient funds/i)
    // Letting viem estimate also ends in InsufficientFundsError.
    const estimated = await rejectionOf(() => wallet.sendTransaction({ to: accountAt(node, 0).address, value: parseEther('1') }))
    expect(findCause(estimated, InsufficientFundsError), messageOf(estimated)).toBeDefined()
    expect(await client.getTransactionCount({ address: poor.address })).toBe(0)
  })

  it('a transaction signed for another chain id is rejected by the node', async () => {
    const account = privateKeyToAccount(accountAt(node, 7).privateKey)
    const nonce = await client.getTransactionCount({ address: account.address })
    const to = accountAt(node, 8).address
    const toBefore = await client.getBalance({ address: to })
    for (const tx of [
      { type: 'eip1559', maxFeePerGas: parseGwei('5'), maxPriorityFeePerGas: parseGwei('1') },
      { type: 'legacy', gasPrice: parseGwei('5') },
    ] as const) {
      const raw = await account.signTransaction({ ...tx, chainId: 1, to, value: 1n, gas: 21_000n, nonce })
      const error = await rejectionOf(() => client.sendRawTransaction({ serializedTransaction: raw }))
      expect(messageOf(error)).toMatch(/chain id/i)
    }
    expect(await client.getTransactionCount({ address: account.address })).toBe(nonce)
    expect(await client.getBalance({ address: to })).toBe(toBefore)
  })

  it('a legacy transaction without EIP-155 replay protection is refused by default', async () => {
    const account = privateKeyToAccount(accountAt(node, 9).privateKey)
    const nonce = await client.getTransactionCount({ address: account.address })
    const raw = await account.signTransaction({
      type: 'legacy',
      to: accountAt(node, 8).address,
      value: 1n,
      gas: 21_000n,
      gasPrice: parseGwei('5'),
      nonce,
      // no chainId: a pre-EIP-155 signature (v = 27/28)
    })
    const error = await rejectionOf(() => client.sendRawTransaction({ serializedTransaction: raw }))
    expect(messageOf(error)).toMatch(/replay-protected|EIP-155/i)
    expect(await client.getTransactionCount({ address: account.address })).toBe(nonce)
  })
})

/** Re-serializes a mined transaction (with its signature) as viem would have sent it. */
function serializedOf(tx: Awaited<ReturnType<TestPublicClient['getTransaction']>>): Hex {
  const signature = { r: tx.r, s: tx.s, v: tx.v, ...(tx.type === 'legacy' ? {} : { yParity: tx.yParity }) }
  const common = { to: tx.to, value: tx.value, nonce: tx.nonce, gas: tx.gas, data: tx.input, chainId: tx.chainId! }
  switch (tx.type) {
    case 'legacy':
      return serializeTransaction({ ...common, type: 'legacy', gasPrice: tx.gasPrice }, signature)
    case 'eip2930':
      return serializeTransaction({ ...common, type: 'eip2930', gasPrice: tx.gasPrice, accessList: tx.accessList }, signature)
    case 'eip1559':
      return serializeTransaction(
        {
          ...common,
          type: 'eip1559',
          maxFeePerGas: tx.maxFeePerGas,
          maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
          accessList: tx.accessList,
        },
        signature,
      )
    default:
      throw new Error(`unexpected transaction type ${tx.type}`)
  }
}
