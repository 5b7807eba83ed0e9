/**
 * Forking Anvil (its binary from the @foundry-rs/anvil npm package, on a free loopback port): a
 * remote nobody here wrote. A contract deployed on Anvil is read and used on the fork, and a block
 * built on the fork has the state root Anvil computes for the same transaction.
 */
import { decodeFunctionResult, encodeAbiParameters, encodeFunctionData, keccak256, parseEther, toHex, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../src/index.js'
import { loadArtifacts } from '../helpers/compile.js'
import { startAnvil, type RunningAnvil } from '../helpers/anvil.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
const Token = loadArtifacts().Token!
const holder = privateKeyToAccount(keccak256(toHex('fork anvil holder')))

let anvil: RunningAnvil
let url: string
let id = 0
async function call(method: string, params: unknown[] = []): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
  const body = (await res.json()) as { result?: unknown; error?: { message: string } }
  if (body.error !== undefined) throw new Error(`anvil ${method}: ${body.error.message}`)
  return body.result
}

/** Anvil mines a sent transaction just after answering the send: its receipt is polled for. */
async function receipt(hash: Hex): Promise<{ contractAddress: Address; status: Hex; blockNumber: Hex }> {
  for (let i = 0; ; i++) {
    const r = await call('eth_getTransactionReceipt', [hash])
    if (r !== null) return r
    if (i > 400) throw new Error(`anvil did not mine ${hash}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

const transfer = (to: Address, amount: bigint): Hex => encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [to, amount] })
let token: Address
let dev: Address

beforeAll(async () => {
  anvil = await startAnvil(['--hardfork', 'prague'])
  url = anvil.http
  dev = ((await call('eth_accounts')) as Address[])[0]!
  const args = encodeAbiParameters([{ type: 'string' }, { type: 'string' }, { type: 'uint256' }], ['Anvil', 'ANV', 10n ** 24n])
  const hash = await call('eth_sendTransaction', [{ from: dev, data: `${Token.bytecode}${args.slice(2)}`, gas: '0x300000' }])
  token = (await receipt(hash)).contractAddress
  await receipt(await call('eth_sendTransaction', [{ from: dev, to: holder.address, value: `0x${parseEther('2').toString(16)}` }]))
  await receipt(await call('eth_sendTransaction', [{ from: dev, to: token, data: transfer(holder.address, 4242n) }]))
}, 120_000)

afterAll(async () => {
  await anvil.stop()
})

async function tokenBalance(node: FinalityNode, who: Address): Promise<bigint> {
  const out = (await node.request({ method: 'eth_call', params: [{ to: token, data: encodeFunctionData({ abi: Token.abi, functionName: 'balanceOf', args: [who] }) }, 'latest'] })) as Hex
  return decodeFunctionResult({ abi: Token.abi, functionName: 'balanceOf', data: out }) as bigint
}

describe('a fork of Anvil', () => {
  it('starts at Anvil\'s head block and reads its state, verified', async () => {
    const fork = await newNode({ fork: { url } })
    const head = await call('eth_getBlockByNumber', ['latest', false])
    expect(((await fork.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { hash: Hex }).hash).toBe(head.hash)
    expect(fork.chainId).toBe(BigInt(await call('eth_chainId')))
    expect(await tokenBalance(fork, holder.address)).toBe(4242n)
    expect(await fork.request({ method: 'eth_getBalance', params: [holder.address, 'latest'] })).toBe(`0x${parseEther('2').toString(16)}`)
    expect(await fork.request({ method: 'eth_getCode', params: [token, 'latest'] })).toBe(await call('eth_getCode', [token, 'latest']))
    // The dev accounts keep their Anvil nonce (they deployed and sent) and get the fork's balance.
    expect(await fork.request({ method: 'eth_getTransactionCount', params: [dev, 'latest'] })).toBe(await call('eth_getTransactionCount', [dev, 'latest']))
  })

  it('a dev account writes on the fork: the nonce continues from Anvil\'s', async () => {
    const fork = await newNode({ fork: { url } })
    const hash = (await fork.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: token, data: transfer(holder.address, 1n) }] })) as Hex
    const tx = (await fork.request({ method: 'eth_getTransactionByHash', params: [hash] })) as { nonce: Hex }
    expect(tx.nonce).toBe(await call('eth_getTransactionCount', [dev, 'latest']))
    expect(await tokenBalance(fork, holder.address)).toBe(4243n)
  })

  it('a block built on the fork has the state root Anvil computes for the same transaction', async () => {
    const fork = await newNode({ fork: { url }, accountCount: 0 })
    const head = await call('eth_getBlockByNumber', ['latest', false])
    const raw = await holder.signTransaction({
      chainId: Number(fork.chainId), nonce: Number(await call('eth_getTransactionCount', [holder.address, 'latest'])), to: token, data: transfer(dev, 42n), gas: 100_000n,
      maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, type: 'eip1559',
    })
    const timestamp = Number(BigInt(head.timestamp) + 100n)
    await fork.request({ method: 'evm_setNextBlockTimestamp', params: [timestamp] })
    await fork.request({ method: 'hardhat_setCoinbase', params: [head.miner] })
    await fork.request({ method: 'eth_sendRawTransaction', params: [raw] })
    const ours = (await fork.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { stateRoot: Hex; transactions: Hex[] }
    await call('evm_setNextBlockTimestamp', [timestamp])
    const mined = await receipt(await call('eth_sendRawTransaction', [raw]))
    const theirs = await call('eth_getBlockByNumber', [mined.blockNumber, false])
    expect(ours.transactions).toEqual(theirs.transactions)
    expect(ours.stateRoot).toBe(theirs.stateRoot)
  })
})
