/**
 * The Solidity fixtures through viem over the node's EIP-1193 provider: deployment, reads,
 * writes, events and log filters, every kind of revert, CREATE2, nested calls, gas estimation
 * and calls against historical state.
 */
import {
  BaseError,
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  getContractAddress,
  keccak256,
  pad,
  parseEventLogs,
  toEventSelector,
  toHex,
  zeroAddress,
  type Abi,
  type AbiEvent,
  type Address,
  type Hash,
  type Hex,
  type Log,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'
import { loadArtifacts, type Artifact } from '../helpers/compile.js'
import {
  accountAt,
  publicClientOf,
  rejectionOf,
  walletClientOf,
  type TestPublicClient,
  type TestWalletClient,
} from '../helpers/viem.js'

const artifacts = loadArtifacts()

function artifact(name: string): Artifact {
  const a = artifacts[name]
  if (a === undefined) throw new Error(`fixture ${name} missing`)
  return a
}

const Token = artifact('Token')
const Reverter = artifact('Reverter')
const Emitter = artifact('Emitter')
const Child = artifact('Child')
const Factory = artifact('Factory')
const Callee = artifact('Callee')
const Caller = artifact('Caller')
const Counter = artifact('Counter')

function eventOf(a: Artifact, name: string): AbiEvent {
  const ev = a.abi.find((i): i is AbiEvent => i.type === 'event' && i.name === name)
  if (ev === undefined) throw new Error(`event ${name} missing`)
  return ev
}

/** The ContractFunctionRevertedError inside a viem contract error (fails the test if there is none). */
function revertedOf(error: unknown): ContractFunctionRevertedError {
  expect(error, String(error)).toBeInstanceOf(BaseError)
  const reverted = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError)
  expect(reverted, String(error)).toBeInstanceOf(ContractFunctionRevertedError)
  return reverted as ContractFunctionRevertedError
}

/** The named args of a decoded log (the fixture ABIs are not `as const`, so viem types them loosely). */
function argsOf(log: { args: unknown }): Record<string, unknown> {
  expect(log.args).toBeTypeOf('object')
  expect(Array.isArray(log.args)).toBe(false)
  return log.args as Record<string, unknown>
}

const E18 = 10n ** 18n

let node: FinalityNode
let client: TestPublicClient
let deployer: Address
let wallet: TestWalletClient

/** Deploys `a` from the JSON-RPC account; returns the address from the receipt. */
async function deploy(a: Artifact, args: readonly unknown[] = [], from: TestWalletClient = wallet): Promise<{ address: Address; hash: Hash }> {
  const hash = await from.deployContract({ abi: a.abi, bytecode: a.bytecode, args })
  const receipt = await client.getTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  expect(receipt.contractAddress).toMatch(/^0x[0-9a-fA-F]{40}$/)
  return { address: receipt.contractAddress!, hash }
}

/** writeContract from the shared JSON-RPC account, then the receipt. */
async function write(address: Address, abi: Abi, functionName: string, args: readonly unknown[] = [], extra: { gas?: bigint; value?: bigint } = {}) {
  const hash = await wallet.writeContract({ address, abi, functionName, args, ...extra })
  return client.getTransactionReceipt({ hash })
}

beforeAll(async () => {
  node = await createNode()
  client = publicClientOf(node)
  deployer = accountAt(node, 0).address
  wallet = walletClientOf(node, deployer)
})
afterAll(() => node.close())

describe('Token (OpenZeppelin ERC-20)', () => {
  const supply = 1_000_000n * E18
  let token: Address
  let deployHash: Hash
  let deployBlock: bigint

  beforeAll(async () => {
    const nonce = await client.getTransactionCount({ address: deployer })
    ;({ address: token, hash: deployHash } = await deploy(Token, ['Finality Token', 'FIN', supply]))
    deployBlock = (await client.getTransactionReceipt({ hash: deployHash })).blockNumber
    // CREATE address: keccak(rlp(sender, nonce)).
    expect(token.toLowerCase()).toBe(getContractAddress({ from: deployer, nonce: BigInt(nonce) }).toLowerCase())
  })

  it('deploys: the code at the address is the runtime bytecode, the creation tx has no `to`', async () => {
    expect(await client.getCode({ address: token })).toBe(Token.deployedBytecode)
    const tx = await client.getTransaction({ hash: deployHash })
    expect(tx.to).toBeNull()
    expect(tx.input.startsWith(Token.bytecode)).toBe(true)
    // Before the deployment block there was no code.
    expect(await client.getCode({ address: token, blockNumber: deployBlock - 1n })).toBeUndefined()
  })

  it('a failed creation is mined as reverted: no code at the address it would have had', async () => {
    const nonce = await client.getTransactionCount({ address: deployer })
    const expected = getContractAddress({ from: deployer, nonce: BigInt(nonce) })
    // Init code 0xfe: INVALID, an exceptional halt that consumes all the gas.
    const hash = await wallet.sendTransaction({ data: '0xfe', gas: 100_000n })
    const receipt = await client.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('reverted')
    expect(receipt.gasUsed).toBe(100_000n)
    expect(receipt.to).toBeNull()
    // geth reports the address the creation was for, even when it failed.
    expect(receipt.contractAddress?.toLowerCase()).toBe(expected.toLowerCase())
    expect(await client.getCode({ address: expected })).toBeUndefined()
    expect(await client.getTransactionCount({ address: deployer })).toBe(nonce + 1)
  })

  it('reads name, symbol, decimals, totalSupply and balanceOf', async () => {
    const read = (functionName: string, args: readonly unknown[] = []) => client.readContract({ address: token, abi: Token.abi, functionName, args })
    expect(await read('name')).toBe('Finality Token')
    expect(await read('symbol')).toBe('FIN')
    expect(await read('decimals')).toBe(18)
    expect(await read('totalSupply')).toBe(supply)
    expect(await read('balanceOf', [deployer])).toBe(supply)
    expect(await read('balanceOf', [accountAt(node, 1).address])).toBe(0n)
  })

  it('transfer moves balances and emits Transfer; the mint emitted one from the zero address', async () => {
    const bob = accountAt(node, 1).address
    const carol = accountAt(node, 2).address
    const r1 = await write(token, Token.abi, 'transfer', [bob, 100n * E18])
    expect(r1.status).toBe('success')
    const r2 = await write(token, Token.abi, 'transfer', [carol, 7n * E18])
    expect(r2.status).toBe('success')

    const balanceOf = (who: Address, blockNumber?: bigint) =>
      client.readContract({ address: token, abi: Token.abi, functionName: 'balanceOf', args: [who], blockNumber })
    expect(await balanceOf(bob)).toBe(100n * E18)
    expect(await balanceOf(carol)).toBe(7n * E18)
    expect(await balanceOf(deployer)).toBe(supply - 107n * E18)
    // Historical eth_call: before the second transfer carol had nothing.
    expect(await balanceOf(carol, r1.blockNumber)).toBe(0n)
    expect(await balanceOf(deployer, r1.blockNumber)).toBe(supply - 100n * E18)

    // The receipt's log decodes as Transfer(deployer, bob, 100e18).
    expect(r1.logs).toHaveLength(1)
    const [parsed] = parseEventLogs({ abi: Token.abi, logs: r1.logs, eventName: 'Transfer' })
    expect(parsed?.args).toEqual({ from: deployer, to: bob, value: 100n * E18 })
    expect(r1.logs[0]?.address.toLowerCase()).toBe(token.toLowerCase())
    expect(r1.logs[0]?.topics).toEqual([
      toEventSelector(eventOf(Token, 'Transfer')),
      pad(deployer.toLowerCase() as Hex),
      pad(bob.toLowerCase() as Hex),
    ])
    expect(r1.logs[0]?.data).toBe(toHex(100n * E18, { size: 32 }))
    expect(r1.logs[0]?.blockHash).toBe(r1.blockHash)
    expect(r1.logs[0]?.transactionHash).toBe(r1.transactionHash)
    expect(r1.logs[0]?.logIndex).toBe(0)
    expect(r1.logs[0]?.removed).toBe(false)

    // getContractEvents over the whole range: mint + two transfers, in order.
    const all = await client.getContractEvents({ address: token, abi: Token.abi, eventName: 'Transfer', fromBlock: 0n, toBlock: 'latest' })
    expect(all.map((l) => argsOf(l))).toEqual([
      { from: zeroAddress, to: deployer, value: supply },
      { from: deployer, to: bob, value: 100n * E18 },
      { from: deployer, to: carol, value: 7n * E18 },
    ])
    expect(all[0]?.blockNumber).toBe(deployBlock)
    expect(all[0]?.transactionHash).toBe(deployHash)

    // Indexed-topic filter on `to`.
    const toCarol = await client.getContractEvents({
      address: token,
      abi: Token.abi,
      eventName: 'Transfer',
      args: { to: carol },
      fromBlock: 0n,
    })
    expect(toCarol).toHaveLength(1)
    expect(toCarol[0]?.transactionHash).toBe(r2.transactionHash)
    // Indexed-topic filter with OR alternatives on `to`.
    const toEither = await client.getContractEvents({
      address: token,
      abi: Token.abi,
      eventName: 'Transfer',
      args: { to: [bob, carol] },
      fromBlock: 0n,
    })
    expect(toEither.map((l) => l.transactionHash)).toEqual([r1.transactionHash, r2.transactionHash])
    // `from` = zero address: only the mint.
    const mints = await client.getContractEvents({ address: token, abi: Token.abi, eventName: 'Transfer', args: { from: zeroAddress }, fromBlock: 0n })
    expect(mints.map((l) => l.transactionHash)).toEqual([deployHash])

    // getLogs with the event and a block range that holds only the second transfer.
    const transferEvent = eventOf(Token, 'Transfer')
    const ranged = await client.getLogs({ address: token, event: transferEvent, fromBlock: r2.blockNumber, toBlock: r2.blockNumber })
    expect(ranged.map((l) => l.transactionHash)).toEqual([r2.transactionHash])
    const firstOnly = await client.getLogs({ address: token, event: transferEvent, fromBlock: deployBlock, toBlock: r1.blockNumber })
    expect(firstOnly.map((l) => l.transactionHash)).toEqual([deployHash, r1.transactionHash])
    // By block hash.
    const byHash = await client.getLogs({ address: token, event: transferEvent, blockHash: r1.blockHash })
    expect(byHash).toHaveLength(1)
    expect(byHash[0]?.args).toEqual({ from: deployer, to: bob, value: 100n * E18 })
    expect(byHash[0]?.blockNumber).toBe(r1.blockNumber)
    // Another address: nothing.
    const elsewhere = await client.getLogs({ address: bob, event: transferEvent, fromBlock: 0n })
    expect(elsewhere).toEqual([])
    // An indexed value no log has: nothing.
    const nobody = await client.getLogs({ address: token, event: transferEvent, args: { to: accountAt(node, 9).address }, fromBlock: 0n })
    expect(nobody).toEqual([])
  })

  it('a transfer beyond the balance reverts with ERC20InsufficientBalance(sender, balance, needed)', async () => {
    const poorSender = accountAt(node, 3).address
    const error = await rejectionOf(() =>
      client.simulateContract({
        address: token,
        abi: Token.abi,
        functionName: 'transfer',
        args: [deployer, 1n],
        account: poorSender,
      }),
    )
    expect(error).toBeInstanceOf(ContractFunctionExecutionError)
    const reverted = revertedOf(error)
    expect(reverted.data?.errorName).toBe('ERC20InsufficientBalance')
    expect(reverted.data?.args).toEqual([poorSender, 0n, 1n])
  })
})

describe('Reverter', () => {
  let reverter: Address

  beforeAll(async () => {
    ;({ address: reverter } = await deploy(Reverter))
  })

  const read = (functionName: string, args: readonly unknown[] = [], account?: Address) =>
    client.readContract({ address: reverter, abi: Reverter.abi, functionName, args, account })
  const simulate = (functionName: string, args: readonly unknown[] = [], account: Address = deployer) =>
    client.simulateContract({ address: reverter, abi: Reverter.abi, functionName, args, account })

  it('the control call returns 42', async () => {
    expect(await read('ok')).toBe(42n)
    expect(await read('value')).toBe(42n)
    expect(await read('requireWithReason', [true])).toBe(true)
    expect(await read('panicDivide', [5n])).toBe(20n)
  })

  it('revertWithReason: ContractFunctionRevertedError with reason "nope" (readContract and simulateContract)', async () => {
    for (const attempt of [() => read('revertWithReason'), () => simulate('revertWithReason')]) {
      const error = await rejectionOf(attempt)
      expect(error).toBeInstanceOf(ContractFunctionExecutionError)
      const reverted = revertedOf(error)
      expect(reverted.reason).toBe('nope')
      expect(reverted.data?.errorName).toBe('Error')
      expect(reverted.data?.args).toEqual(['nope'])
    }
    const required = revertedOf(await rejectionOf(() => read('requireWithReason', [false])))
    expect(required.reason).toBe('nope')
  })

  it('the raw eth_call revert is JSON-RPC code 3 with the revert data', async () => {
    const data = encodeFunctionData({ abi: Reverter.abi, functionName: 'revertWithReason' })
    const error = await rejectionOf(() => node.provider.request({ method: 'eth_call', params: [{ to: reverter, data }, 'latest'] }))
    const e = error as { code: number; message: string; data: Hex }
    expect(e.code).toBe(3)
    expect(e.message).toBe('execution reverted: nope')
    // Error(string) selector 0x08c379a0 + abi.encode("nope").
    expect(e.data).toBe(concat(['0x08c379a0', encodeAbiParameters([{ type: 'string' }], ['nope'])]))
  })

  it('revertWithCustomError: errorName Unauthorized with (msg.sender, code)', async () => {
    const caller = accountAt(node, 4).address
    const reverted = revertedOf(await rejectionOf(() => simulate('revertWithCustomError', [7n], caller)))
    expect(reverted.data?.errorName).toBe('Unauthorized')
    expect(reverted.data?.args).toEqual([caller, 7n])
    // readContract without an account: msg.sender is the zero address.
    const anonymous = revertedOf(await rejectionOf(() => read('revertWithCustomError', [123n])))
    expect(anonymous.data?.errorName).toBe('Unauthorized')
    expect(anonymous.data?.args).toEqual([zeroAddress, 123n])
  })

  it('panics decode to Panic with their codes', async () => {
    const cases: Array<[string, readonly unknown[], bigint]> = [
      ['panicDivide', [0n], 0x12n],
      ['panicAssert', [], 0x01n],
      ['panicOverflow', [], 0x11n],
    ]
    for (const [functionName, args, code] of cases) {
      const reverted = revertedOf(await rejectionOf(() => simulate(functionName, args)))
      expect(reverted.data?.errorName, functionName).toBe('Panic')
      expect(reverted.data?.args, functionName).toEqual([code])
      expect(reverted.reason, functionName).toBeTruthy()
    }
    const raw = await rejectionOf(() =>
      node.provider.request({
        method: 'eth_call',
        params: [{ to: reverter, data: encodeFunctionData({ abi: Reverter.abi, functionName: 'panicDivide', args: [0n] }) }],
      }),
    )
    expect((raw as { code: number }).code).toBe(3)
    expect((raw as { data: Hex }).data).toBe(concat(['0x4e487b71', toHex(0x12n, { size: 32 })]))
  })

  it('bareRevert: a revert without data', async () => {
    const reverted = revertedOf(await rejectionOf(() => simulate('bareRevert')))
    expect(reverted.data).toBeUndefined()
    expect(reverted.signature).toBeUndefined()
    const raw = await rejectionOf(() =>
      node.provider.request({
        method: 'eth_call',
        params: [{ to: reverter, data: encodeFunctionData({ abi: Reverter.abi, functionName: 'bareRevert' }) }],
      }),
    )
    expect((raw as { code: number }).code).toBe(3)
    expect((raw as { message: string }).message).toBe('execution reverted')
    expect((raw as { data: Hex }).data).toBe('0x')
  })

  it('estimateGas of a reverting call fails with the revert reason', async () => {
    const error = await rejectionOf(() =>
      client.estimateContractGas({ address: reverter, abi: Reverter.abi, functionName: 'setAndRevert', args: [1n], account: deployer }),
    )
    expect(revertedOf(error).reason).toBe('set then reverted')
  })

  it('a reverting write without gas is refused before mining: the estimate fails with the reason', async () => {
    const before = await client.getTransactionCount({ address: deployer })
    const head = await client.getBlockNumber({ cacheTime: 0 })
    const error = await rejectionOf(() => write(reverter, Reverter.abi, 'setAndRevert', [5n]))
    expect(error).toBeInstanceOf(ContractFunctionExecutionError)
    expect(revertedOf(error).reason).toBe('set then reverted')
    expect(await client.getTransactionCount({ address: deployer })).toBe(before)
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(head)
    expect(await read('value')).toBe(42n)
  })

  it('ETH sent to a contract without a payable receive/fallback reverts', async () => {
    const error = await rejectionOf(() => client.estimateGas({ account: deployer, to: reverter, value: 1n }))
    expect(String(error)).toMatch(/execution reverted/)
    const hash = await wallet.sendTransaction({ to: reverter, value: 1n, gas: 100_000n })
    const receipt = await client.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('reverted')
    expect(await client.getBalance({ address: reverter })).toBe(0n)
  })

  it('a reverted write with explicit gas is mined with status reverted and leaves state unchanged', async () => {
    const before = await client.getTransactionCount({ address: deployer })
    const receipt = await write(reverter, Reverter.abi, 'setAndRevert', [99n], { gas: 200_000n })
    expect(receipt.status).toBe('reverted')
    expect(receipt.logs).toEqual([])
    expect(receipt.gasUsed).toBeGreaterThan(21_000n)
    expect(receipt.gasUsed).toBeLessThan(200_000n)
    const block = await client.getBlock({ blockNumber: receipt.blockNumber })
    expect(block.transactions).toContain(receipt.transactionHash)
    expect(block.gasUsed).toBe(receipt.gasUsed)
    // The write was rolled back; the nonce still moved and the fee was paid.
    expect(await read('value')).toBe(42n)
    expect(await client.getStorageAt({ address: reverter, slot: '0x0' })).toBe(toHex(42n, { size: 32 }))
    expect(await client.getTransactionCount({ address: deployer })).toBe(before + 1)

    // Same from a local account (raw transaction).
    const local = privateKeyToAccount(accountAt(node, 5).privateKey)
    const localWallet = walletClientOf(node, local)
    const balance = await client.getBalance({ address: local.address })
    const hash = await localWallet.writeContract({
      address: reverter,
      abi: Reverter.abi,
      functionName: 'setAndRevert',
      args: [77n],
      gas: 150_000n,
    })
    const r2 = await client.getTransactionReceipt({ hash })
    expect(r2.status).toBe('reverted')
    expect(await read('value')).toBe(42n)
    expect(await client.getBalance({ address: local.address })).toBe(balance - r2.gasUsed * r2.effectiveGasPrice)
  })
})

describe('Emitter', () => {
  let emitter: Address
  const note = eventOf(Emitter, 'Note')
  const transfer2 = eventOf(Emitter, 'Transfer2')

  beforeAll(async () => {
    ;({ address: emitter } = await deploy(Emitter))
  })

  it('emitMany(n): n Note logs with logIndex 0..n-1 and decoded args', async () => {
    const receipt = await write(emitter, Emitter.abi, 'emitMany', [5n])
    expect(receipt.status).toBe('success')
    expect(receipt.logs.map((l) => l.logIndex)).toEqual([0, 1, 2, 3, 4])
    const parsed = parseEventLogs({ abi: Emitter.abi, logs: receipt.logs })
    expect(parsed.map((l) => (l as unknown as { eventName: string }).eventName)).toEqual(Array(5).fill('Note'))
    expect(parsed.map((l) => argsOf(l))).toEqual(
      [0n, 1n, 2n, 3n, 4n].map((i) => ({ id: i, tag: toHex(i, { size: 32 }), text: 'many' })),
    )
    const logs = await client.getLogs({ address: emitter, event: note, blockHash: receipt.blockHash })
    expect(logs.map((l) => l.logIndex)).toEqual([0, 1, 2, 3, 4])
    expect(logs.every((l) => l.transactionIndex === 0 && l.transactionHash === receipt.transactionHash)).toBe(true)
    // emitMany(0) emits nothing.
    const none = await write(emitter, Emitter.abi, 'emitMany', [0n])
    expect(none.status).toBe('success')
    expect(none.logs).toEqual([])
  })

  it('logIndex runs across the whole block, over several transactions', async () => {
    node.setMining({ mode: 'manual' })
    let hashes: Hash[]
    try {
      const senders = [0, 1, 2].map((i) => walletClientOf(node, accountAt(node, i).address))
      hashes = []
      for (const [i, w] of senders.entries()) {
        hashes.push(
          await w.writeContract({
            address: emitter,
            abi: Emitter.abi,
            functionName: 'emitMany',
            args: [BigInt(i + 2)],
            gas: 200_000n,
          }),
        )
      }
      const mined = await node.mine()
      expect(mined).toBeDefined()
    } finally {
      node.setMining({ mode: 'auto' })
    }
    const receipts = await Promise.all(hashes.map((hash) => client.getTransactionReceipt({ hash })))
    const blockNumber = receipts[0]!.blockNumber
    expect(receipts.every((r) => r.blockNumber === blockNumber && r.status === 'success')).toBe(true)
    // 2 + 3 + 4 logs, numbered 0..8 through the block in transaction order.
    const byTx = [...receipts].sort((a, b) => a.transactionIndex - b.transactionIndex)
    expect(byTx.flatMap((r) => r.logs.map((l) => l.logIndex))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8])
    for (const r of byTx) for (const l of r.logs) expect(l.transactionIndex).toBe(r.transactionIndex)
    const logs = await client.getLogs({ address: emitter, fromBlock: blockNumber, toBlock: blockNumber })
    expect(logs.map((l) => l.logIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8])
    expect(logs.map((l) => l.transactionIndex)).toEqual(byTx.flatMap((r) => r.logs.map(() => r.transactionIndex)))
  })

  it('topic filters: OR alternatives per position, wildcards, event OR-filters', async () => {
    const sender = accountAt(node, 0).address
    const target = accountAt(node, 6).address
    const r1 = await write(emitter, Emitter.abi, 'emitMany', [4n])
    const r2 = await write(emitter, Emitter.abi, 'emitTransfer', [target, 55n])
    const from = r1.blockNumber
    const to = r2.blockNumber

    // Note with id ∈ {1, 3}.
    const picked = await client.getLogs({ address: emitter, event: note, args: { id: [1n, 3n] }, fromBlock: from, toBlock: to })
    expect(picked.map((l) => argsOf(l).id)).toEqual([1n, 3n])
    // Note with tag = bytes32(2) (second indexed position; first is a wildcard).
    const tagged = await client.getLogs({ address: emitter, event: note, args: { tag: toHex(2n, { size: 32 }) }, fromBlock: from, toBlock: to })
    expect(tagged.map((l) => argsOf(l).id)).toEqual([2n])
    // Either event (topic0 alternatives).
    const either = await client.getLogs({ address: emitter, events: [note, transfer2], fromBlock: from, toBlock: to })
    expect(either.map((l) => l.eventName)).toEqual(['Note', 'Note', 'Note', 'Note', 'Transfer2'])
    // The same through raw eth_getLogs topic arrays: [[Note, Transfer2], null, [tag 0, tag 3, target]].
    const raw = (await client.request({
      method: 'eth_getLogs',
      params: [
        {
          address: emitter,
          fromBlock: toHex(from),
          toBlock: toHex(to),
          topics: [
            [toEventSelector(note), toEventSelector(transfer2)],
            null,
            [toHex(0n, { size: 32 }), toHex(3n, { size: 32 }), pad(target.toLowerCase() as Hex)],
          ],
        },
      ],
    })) as Array<{ topics: Hex[]; transactionHash: Hash }>
    expect(raw.map((l) => l.topics[2])).toEqual([toHex(0n, { size: 32 }), toHex(3n, { size: 32 }), pad(target.toLowerCase() as Hex)])
    expect(raw.map((l) => l.transactionHash)).toEqual([r1.transactionHash, r1.transactionHash, r2.transactionHash])
    // Transfer2 from the sender, matched on the indexed `from`.
    const transfers = await client.getLogs({ address: emitter, event: transfer2, args: { from: sender, to: target }, fromBlock: from, toBlock: to })
    expect(transfers).toHaveLength(1)
    expect(argsOf(transfers[0]!).value).toBe(55n)
    // Several addresses: only the emitter matches.
    const multi = await client.getLogs({ address: [emitter, target], event: transfer2, fromBlock: from, toBlock: to })
    expect(multi).toHaveLength(1)
  })

  it('fire(): Transfer2, Note and an anonymous event without topics', async () => {
    const sender = accountAt(node, 0).address
    const receipt = await write(emitter, Emitter.abi, 'fire')
    expect(receipt.logs).toHaveLength(3)
    const [t, n, anon] = receipt.logs as [Log, Log, Log]
    expect(t.topics[0]).toBe(toEventSelector(transfer2))
    expect(t.topics[1]).toBe(pad(sender.toLowerCase() as Hex))
    expect(t.topics[2]).toBe(pad(emitter.toLowerCase() as Hex))
    expect(n.topics[0]).toBe(toEventSelector(note))
    expect(n.topics[2]).toBe(pad(toHex('fire'), { dir: 'right' }))
    expect(anon.topics).toEqual([])
    expect(anon.data).toBe(toHex(7n, { size: 32 }))
    expect(receipt.logs.map((l) => l.logIndex)).toEqual([0, 1, 2])

    // Unfiltered by topics, all three come back, the anonymous one too.
    const all = await client.getLogs({ address: emitter, blockHash: receipt.blockHash })
    expect(all.map((l) => l.topics.length)).toEqual([3, 3, 0])
    expect(all[2]?.data).toBe(toHex(7n, { size: 32 }))
    // A topic0 filter cannot match the anonymous log.
    const named = await client.getLogs({ address: emitter, events: [note, transfer2], blockHash: receipt.blockHash })
    expect(named.map((l) => l.eventName)).toEqual(['Transfer2', 'Note'])
  })

  it('a topic filter longer than a log\'s topics does not match it, even with wildcards (geth filterLogs)', async () => {
    const receipt = await write(emitter, Emitter.abi, 'fire')
    const getLogs = async (topics: Array<Hex | Hex[] | null>) =>
      (await client.request({
        method: 'eth_getLogs',
        params: [{ address: emitter, blockHash: receipt.blockHash, topics }],
      })) as Array<{ topics: Hex[]; logIndex: Hex }>
    // Empty topics: every log, the anonymous one included.
    expect((await getLogs([])).map((l) => l.topics.length)).toEqual([3, 3, 0])
    // geth: `if len(topics) > len(log.Topics) { continue }`, so one wildcard position already
    // needs a log with at least one topic: the anonymous log (0 topics) is excluded.
    // (Soft assertions: each case is reported on its own.)
    expect.soft((await getLogs([null])).map((l) => l.topics.length), 'topics [null]').toEqual([3, 3])
    // Four positions (topic0 + three wildcards) need four topics: Transfer2 and Note have three.
    expect.soft(await getLogs([toEventSelector(transfer2), null, null, null]), 'topics [Transfer2, null, null, null]').toEqual([])
    // Three positions match Transfer2 exactly.
    expect
      .soft((await getLogs([toEventSelector(transfer2), null, null])).map((l) => l.topics[0]), 'topics [Transfer2, null, null]')
      .toEqual([toEventSelector(transfer2)])
  })

  it('eth_getLogs rejects an inverted block range and a range past the head (geth, execution-apis)', async () => {
    const head = await client.getBlockNumber({ cacheTime: 0 })
    const inverted = await rejectionOf(() => client.getLogs({ address: emitter, fromBlock: head, toBlock: head - 1n }))
    expect(String(inverted)).toMatch(/invalid block range/)
    const future = await rejectionOf(() => client.getLogs({ address: emitter, fromBlock: head + 10n, toBlock: head + 20n }))
    expect(String(future)).toMatch(/block range extends beyond current head block/)
    const unknown = await rejectionOf(() => client.getLogs({ address: emitter, blockHash: `0x${'77'.repeat(32)}` }))
    expect(String(unknown)).toMatch(/unknown block/)
  })
})

describe('Factory (CREATE2)', () => {
  let factory: Address

  beforeAll(async () => {
    ;({ address: factory } = await deploy(Factory))
  })

  it('deploy(salt, v) puts the Child at the predicted CREATE2 address, with value and constructor state', async () => {
    const salt = keccak256(toHex('finality'))
    const v = 1234n
    const initCode = concat([Child.bytecode, encodeAbiParameters([{ type: 'uint256' }], [v])])
    const expected = getContractAddress({ opcode: 'CREATE2', from: factory, salt, bytecode: initCode })
    const predicted = (await client.readContract({ address: factory, abi: Factory.abi, functionName: 'predict', args: [salt, v] })) as Address
    expect(predicted.toLowerCase()).toBe(expected.toLowerCase())
    expect(await client.getCode({ address: expected })).toBeUndefined()

    const { result } = await client.simulateContract({
      address: factory,
      abi: Factory.abi,
      functionName: 'deploy',
      args: [salt, v],
      value: 5n,
      account: deployer,
    })
    expect((result as Address).toLowerCase()).toBe(expected.toLowerCase())
    // simulate changed nothing.
    expect(await client.getCode({ address: expected })).toBeUndefined()

    const receipt = await write(factory, Factory.abi, 'deploy', [salt, v], { value: 5n })
    expect(receipt.status).toBe('success')
    expect(receipt.contractAddress).toBeNull()
    const [deployed] = parseEventLogs({ abi: Factory.abi, logs: receipt.logs, eventName: 'Deployed' })
    expect(deployed).toBeDefined()
    const args = argsOf(deployed!) as { child: Address; salt: Hex }
    expect(args.child.toLowerCase()).toBe(expected.toLowerCase())
    expect(args.salt).toBe(salt)

    expect(await client.getCode({ address: expected })).toBe(Child.deployedBytecode)
    expect(await client.readContract({ address: expected, abi: Child.abi, functionName: 'value' })).toBe(v)
    expect(((await client.readContract({ address: expected, abi: Child.abi, functionName: 'creator' })) as Address).toLowerCase()).toBe(
      factory.toLowerCase(),
    )
    expect(await client.getBalance({ address: expected })).toBe(5n)
    // EIP-161: a new contract starts at nonce 1.
    expect(await client.getTransactionCount({ address: expected })).toBe(1)

    // The same salt and arguments again collide: the CREATE2 fails and the factory call reverts.
    const collision = await rejectionOf(() =>
      client.simulateContract({ address: factory, abi: Factory.abi, functionName: 'deploy', args: [salt, v], account: deployer }),
    )
    revertedOf(collision)
    // A different constructor argument is a different init code, so a different address.
    const other = (await client.readContract({ address: factory, abi: Factory.abi, functionName: 'predict', args: [salt, v + 1n] })) as Address
    expect(other.toLowerCase()).not.toBe(expected.toLowerCase())
  })

  it('deployPlain uses CREATE: the address follows the factory nonce', async () => {
    const nonce = await client.getTransactionCount({ address: factory })
    expect(nonce).toBeGreaterThanOrEqual(1)
    const expected = getContractAddress({ from: factory, nonce: BigInt(nonce) })
    const receipt = await write(factory, Factory.abi, 'deployPlain', [9n])
    expect(receipt.status).toBe('success')
    const [deployed] = parseEventLogs({ abi: Factory.abi, logs: receipt.logs, eventName: 'Deployed' })
    expect((argsOf(deployed!).child as Address).toLowerCase()).toBe(expected.toLowerCase())
    expect(await client.getCode({ address: expected })).toBe(Child.deployedBytecode)
    expect(await client.getTransactionCount({ address: factory })).toBe(nonce + 1)
  })
})

describe('Caller → Callee (nested calls)', () => {
  let callee: Address
  let caller: Address

  beforeAll(async () => {
    ;({ address: callee } = await deploy(Callee))
    ;({ address: caller } = await deploy(Caller))
  })

  it('callSet writes the callee (its event comes from the callee), readThrough reads it back', async () => {
    const receipt = await write(caller, Caller.abi, 'callSet', [callee, 77n])
    expect(receipt.status).toBe('success')
    expect(receipt.logs).toHaveLength(1)
    expect(receipt.logs[0]?.address.toLowerCase()).toBe(callee.toLowerCase())
    const [xSet] = parseEventLogs({ abi: Callee.abi, logs: receipt.logs, eventName: 'XSet' })
    expect(argsOf(xSet!).v).toBe(77n)
    expect(await client.readContract({ address: callee, abi: Callee.abi, functionName: 'x' })).toBe(77n)
    expect(await client.readContract({ address: caller, abi: Caller.abi, functionName: 'readThrough', args: [callee] })).toBe(77n)
    // Historical: at the block before, readThrough saw 0.
    expect(
      await client.readContract({ address: caller, abi: Caller.abi, functionName: 'readThrough', args: [callee], blockNumber: receipt.blockNumber - 1n }),
    ).toBe(0n)
  })

  it('callFail bubbles the nested "callee failed" and rolls back the attempt counter', async () => {
    const reverted = revertedOf(
      await rejectionOf(() => client.simulateContract({ address: caller, abi: Caller.abi, functionName: 'callFail', args: [callee], account: deployer })),
    )
    expect(reverted.reason).toBe('callee failed')
    const receipt = await write(caller, Caller.abi, 'callFail', [callee], { gas: 200_000n })
    expect(receipt.status).toBe('reverted')
    expect(await client.readContract({ address: caller, abi: Caller.abi, functionName: 'attempts' })).toBe(0n)
  })

  it('tryCallFail catches the revert: returns false and emits CallFailed("callee failed")', async () => {
    const { result } = await client.simulateContract({ address: caller, abi: Caller.abi, functionName: 'tryCallFail', args: [callee], account: deployer })
    expect(result).toBe(false)
    const receipt = await write(caller, Caller.abi, 'tryCallFail', [callee])
    expect(receipt.status).toBe('success')
    const logs = parseEventLogs({ abi: Caller.abi, logs: receipt.logs, eventName: 'CallFailed' })
    expect(logs).toHaveLength(1)
    expect(argsOf(logs[0]!).reason).toBe('callee failed')
    expect(logs[0]?.address.toLowerCase()).toBe(caller.toLowerCase())
  })

  it('selfCall recurses through external self-calls', async () => {
    for (const depth of [0n, 1n, 10n, 60n]) {
      const { result } = await client.simulateContract({ address: caller, abi: Caller.abi, functionName: 'selfCall', args: [depth], account: deployer })
      expect(result).toBe(depth)
    }
    const receipt = await write(caller, Caller.abi, 'selfCall', [25n])
    expect(receipt.status).toBe('success')
  })

  it('estimateGas of a deep selfCall is the least gas that succeeds (EIP-150 63/64 rule)', async () => {
    const args = [40n] as const
    const gas = await client.estimateContractGas({ address: caller, abi: Caller.abi, functionName: 'selfCall', args, account: deployer })
    const short = await write(caller, Caller.abi, 'selfCall', args, { gas: gas - 1n })
    expect(short.status).toBe('reverted')
    const exact = await write(caller, Caller.abi, 'selfCall', args, { gas })
    expect(exact.status).toBe('success')
    // Because of the 63/64 rule the limit needed is above the gas actually used.
    expect(exact.gasUsed).toBeLessThan(gas)
  })
})

describe('Counter (gas estimation and historical state)', () => {
  let counter: Address

  beforeAll(async () => {
    ;({ address: counter } = await deploy(Counter))
  })

  it('estimateGas(burn) is the least gas that succeeds: the estimate passes, one less runs out of gas', async () => {
    const loops = 20n
    const estimate = () =>
      client.estimateContractGas({ address: counter, abi: Counter.abi, functionName: 'burn', args: [loops], account: deployer })
    const gas = await estimate()
    // 20 fresh storage slots at 22,100 gas each (cold SSTORE zero → nonzero) at least.
    expect(gas).toBeGreaterThan(20n * 22_100n)

    // One less: out of gas, reverted, no state change.
    const short = await write(counter, Counter.abi, 'burn', [loops], { gas: gas - 1n })
    expect(short.status).toBe('reverted')
    expect(short.gasUsed).toBe(gas - 1n)
    expect(await client.readContract({ address: counter, abi: Counter.abi, functionName: 'sink', args: [0n] })).toBe(0n)
    // The failed run changed nothing, so the estimate is the same.
    expect(await estimate()).toBe(gas)

    // Exactly the estimate: succeeds.
    const exact = await write(counter, Counter.abi, 'burn', [loops], { gas })
    expect(exact.status).toBe('success')
    expect(exact.gasUsed).toBeLessThanOrEqual(gas)
    expect(await client.readContract({ address: counter, abi: Counter.abi, functionName: 'sink', args: [19n] })).toBe(20n)
  })

  it('estimateGas(increment) is the least gas that succeeds', async () => {
    const gas = await client.estimateContractGas({ address: counter, abi: Counter.abi, functionName: 'increment', account: deployer })
    const short = await write(counter, Counter.abi, 'increment', [], { gas: gas - 1n })
    expect(short.status).toBe('reverted')
    expect(await client.readContract({ address: counter, abi: Counter.abi, functionName: 'count' })).toBe(0n)
    const exact = await write(counter, Counter.abi, 'increment', [], { gas })
    expect(exact.status).toBe('success')
    expect(await client.readContract({ address: counter, abi: Counter.abi, functionName: 'count' })).toBe(1n)
  })

  it('gas below the intrinsic cost is refused before mining', async () => {
    const before = await client.getTransactionCount({ address: deployer })
    const error = await rejectionOf(() => write(counter, Counter.abi, 'increment', [], { gas: 21_000n }))
    expect(String(error)).toMatch(/intrinsic gas too low/i)
    expect(await client.getTransactionCount({ address: deployer })).toBe(before)
  })

  it('eth_call at an older block sees the old state', async () => {
    const start = (await client.readContract({ address: counter, abi: Counter.abi, functionName: 'count' })) as bigint
    const blocks: bigint[] = []
    for (let i = 0; i < 3; i++) {
      const receipt = await write(counter, Counter.abi, 'increment')
      expect(receipt.status).toBe('success')
      const [inc] = parseEventLogs({ abi: Counter.abi, logs: receipt.logs, eventName: 'Incremented' })
      expect(argsOf(inc!).newCount).toBe(start + BigInt(i) + 1n)
      blocks.push(receipt.blockNumber)
    }
    const countAt = (blockNumber?: bigint) => client.readContract({ address: counter, abi: Counter.abi, functionName: 'count', blockNumber })
    expect(await countAt()).toBe(start + 3n)
    expect(await countAt(blocks[0]! - 1n)).toBe(start)
    for (const [i, b] of blocks.entries()) expect(await countAt(b)).toBe(start + BigInt(i) + 1n)
    // Storage reads at a block agree (slot 0 is `count`).
    expect(await client.getStorageAt({ address: counter, slot: '0x0', blockNumber: blocks[0]! })).toBe(toHex(start + 1n, { size: 32 }))
    expect(await client.getStorageAt({ address: counter, slot: '0x0', blockNumber: blocks[0]! - 1n })).toBe(toHex(start, { size: 32 }))
    // By block hash (EIP-1898) too.
    const block = await client.getBlock({ blockNumber: blocks[1]! })
    const byHash = await client.request({
      method: 'eth_call',
      params: [{ to: counter, data: encodeFunctionData({ abi: Counter.abi, functionName: 'count' }) }, { blockHash: block.hash }],
    })
    expect(BigInt(byHash as Hex)).toBe(start + 2n)
    // A block past the head is an error, not a silent latest.
    const head = await client.getBlockNumber({ cacheTime: 0 })
    await expect(countAt(head + 100n)).rejects.toThrow(/header not found/)
  })
})
