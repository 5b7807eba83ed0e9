/**
 * The interface spec (`json-rpc-interface.md`) walked row by row against the node: every method
 * row, every listed behaviour, param and result shape, verbatim message and error code. Each
 * check runs over node.request, HTTP and WebSocket (the answers must agree) unless the row is
 * about one transport. Where the node differs from the spec on purpose (a real answer where the
 * spec's system has a stub, an error that says why where a method has no meaning here), the check
 * asserts the node's behaviour and docs/interface.md says why. The number of checks is printed.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hashMessage, hashTypedData, hexToBytes, keccak256, recoverAddress, toHex, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseCli } from '../../src/cli/config.js'
import type { FinalityNode, Listening, RpcTransactionRequest } from '../../src/index.js'
import type { RpcStateOverrides } from '../../src/rpc-types.js'
import { absentReason } from '../../src/rpc/absent.js'
import { artifact, calldata, deploy } from '../helpers/execution.js'
import { trackNodes } from '../helpers/nodes.js'
import { rpc, WsClient } from '../helpers/loopback.js'

const newNode = trackNodes()
const GENESIS_TIME = 1_700_000_000n
const ALL = ['eth', 'web3', 'net', 'rpc', 'txpool', 'debug', 'personal', 'admin', 'miner']

const QTY = /^0x(0|[1-9a-f][0-9a-f]*)$/
const DATA = /^0x([0-9a-f]{2})*$/
const ADDR = /^0x[0-9a-fA-F]{40}$/
const HASH = /^0x[0-9a-f]{64}$/
const ID16 = /^0x[0-9a-f]{32}$/
const HASH_ZERO = `0x${'0'.repeat(64)}`

let node: FinalityNode
let served: Listening
let ws: WsClient
let dir: string
let from: Hex
let counter: Hex
let emitter: Hex
let txHash: Hex
let block: { hash: Hex; number: Hex }
let checks = 0

type Outcome = { result?: unknown; error?: { code: number; message: string } }

/** One request over node.request, HTTP and WebSocket; the three answers must agree when `same`. */
async function call(method: string, params: unknown[] = [], same = true): Promise<Outcome> {
  checks++
  let direct: Outcome
  try {
    direct = { result: await node.request({ method, params }) }
  } catch (e) {
    const x = e as { code: number; message: string }
    direct = { error: { code: x.code, message: x.message } }
  }
  const http = (await rpc(served.http!, method, params)) as Outcome & { data?: unknown }
  const overWs = (await ws.call(method, params)) as Outcome
  const strip = (o: Outcome): Outcome => (o.error === undefined ? { result: o.result ?? null } : { error: { code: o.error.code, message: o.error.message } })
  if (same) {
    expect(strip(http), `${method} over HTTP`).toEqual(strip({ ...direct, result: direct.result ?? null }))
    expect(strip(overWs), `${method} over WebSocket`).toEqual(strip({ ...direct, result: direct.result ?? null }))
  } else {
    expect(http.error === undefined, `${method} over HTTP: ${JSON.stringify(http.error)}`).toBe(direct.error === undefined)
    expect(overWs.error === undefined, `${method} over WebSocket: ${JSON.stringify(overWs.error)}`).toBe(direct.error === undefined)
  }
  return direct
}

async function ok<T = unknown>(method: string, params: unknown[] = [], same = true): Promise<T> {
  const out = await call(method, params, same)
  expect(out.error, `${method} ${JSON.stringify(params)}`).toBeUndefined()
  return out.result as T
}

async function fails(method: string, params: unknown[], code: number, message: string | RegExp): Promise<void> {
  const out = await call(method, params)
  expect(out.error?.code, `${method} code`).toBe(code)
  if (typeof message === 'string') expect(out.error?.message).toBe(message)
  else expect(out.error?.message).toMatch(message)
}

/** A method with no meaning here: -32601 with geth's text and the reason. */
async function absentWithReason(method: string): Promise<void> {
  const reason = absentReason(method)
  expect(reason, `${method} has a reason`).toBeTruthy()
  await fails(method, [], -32601, `the method ${method} does not exist/is not available: ${reason}`)
}

async function send(tx: Record<string, unknown>): Promise<Hex> {
  return (await node.request({ method: 'eth_sendTransaction', params: [{ from, ...tx }] })) as Hex
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'finality-spec-'))
  node = await newNode({ enableProfiling: true, profilingDir: dir, genesisTimestamp: GENESIS_TIME })
  served = await node.listen({ address: '127.0.0.1:0', wsAddress: '127.0.0.1:0', api: ALL })
  ws = await WsClient.connect(served.ws!)
  from = node.accounts[0]!.address
  counter = await deploy(node, 'Counter')
  emitter = await deploy(node, 'Emitter')
  txHash = await send({ to: counter, data: calldata('Counter', 'increment') })
  const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [txHash] })) as { blockHash: Hex; blockNumber: Hex }
  block = { hash: receipt.blockHash, number: receipt.blockNumber }
})

afterAll(async () => {
  ws.close()
  await served.close()
  rmSync(dir, { recursive: true, force: true })
  console.log(`spec coverage: ${checks} checks`)
})

describe('What the service does', () => {
  it('JSON-RPC 2.0 over HTTP POST with Content-Type application/json; the envelope echoes the id', async () => {
    const res = await fetch(served.http!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] }) })
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 7, result: expect.stringMatching(QTY) })
    checks++
  })

  it('the error envelope: {jsonrpc, id, error: {code, message}}', async () => {
    const res = await fetch(served.http!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'eth_getBalance', params: [] }) })
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 8, error: { code: -32602, message: 'missing value for required argument 0' } })
    checks++
  })

  it('a body that is not application/json is refused (415), as geth', async () => {
    const res = await fetch(served.http!, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) })
    expect(res.status).toBe(415)
    checks++
  })

  it('WebSocket: every other method is callable there too', async () => {
    expect((await ws.call('eth_blockNumber')).result).toMatch(QTY)
    expect((await ws.call('web3_sha3', ['0x'])).result).toBe(keccak256('0x'))
    checks++
  })

  it('subscriptions exist only on WebSocket', async () => {
    expect((await rpc(served.http!, 'eth_subscribe', ['newHeads'])).error).toEqual({ code: -32601, message: 'notifications not supported' })
    await expect(node.request({ method: 'eth_subscribe', params: ['newHeads'] })).rejects.toMatchObject({ code: -32601 })
    const sub = await ws.call('eth_subscribe', ['newHeads'])
    expect(sub.result).toMatch(ID16)
    expect((await ws.call('eth_unsubscribe', [sub.result])).result).toBe(true)
    checks++
  })

  it('namespaces are enabled one by one: eth, web3, net by default; txpool, debug, personal, admin, miner only when listed', async () => {
    const plain = await node.listen({ address: '127.0.0.1:0', wsAddress: false })
    try {
      for (const m of ['eth_chainId', 'web3_clientVersion', 'net_version']) expect((await rpc(plain.http!, m)).result).toBeDefined()
      for (const m of ['txpool_status', 'debug_memStats', 'personal_listAccounts', 'admin_nodeInfo', 'miner_stop']) {
        expect((await rpc(plain.http!, m)).error).toMatchObject({ code: -32601, message: expect.stringContaining('namespace is off here') })
      }
    } finally {
      await plain.close()
    }
    checks += 2
  })

  it('consensus: eth_mining is false and eth_hashrate 0x0', async () => {
    expect(await ok('eth_mining')).toBe(false)
    expect(await ok('eth_hashrate')).toBe('0x0')
  })

  it('consensus: no uncles (counts 0x0, lookups null)', async () => {
    expect(await ok('eth_getUncleCountByBlockHash', [block.hash])).toBe('0x0')
    expect(await ok('eth_getUncleCountByBlockNumber', [block.number])).toBe('0x0')
    expect(await ok('eth_getUncleByBlockHashAndIndex', [block.hash, '0x0'])).toBeNull()
    expect(await ok('eth_getUncleByBlockNumberAndIndex', [block.number, '0x0'])).toBeNull()
  })

  it('consensus: the engine API is absent, and says why', async () => {
    await absentWithReason('engine_newPayloadV3')
  })
})

describe('Encoding rules', () => {
  it('QTY: 0x prefix, at least one digit, no leading zeros; zero is 0x0 (wrong: 0x, 0x0400, ff)', async () => {
    expect(await ok('eth_getBlockByNumber', ['0x0', false])).toMatchObject({ number: '0x0' })
    await fails('eth_getBlockByNumber', ['0x', false], -32602, 'invalid argument 0: hex string "0x"')
    await fails('eth_getBlockByNumber', ['0x0400', false], -32602, 'invalid argument 0: hex number with leading zero digits')
    await fails('eth_getBlockByNumber', ['ff', false], -32602, 'invalid argument 0: hex string without 0x prefix')
  })
  it('DATA: 0x prefix, two digits a byte; 0x is empty (wrong: 0xf0f0f, 004200)', async () => {
    expect(await ok('web3_sha3', ['0x'])).toBe(keccak256('0x'))
    await fails('web3_sha3', ['0xf0f0f'], -32602, 'invalid argument 0: hex string of odd length')
    await fails('web3_sha3', ['004200'], -32602, 'invalid argument 0: hex string without 0x prefix')
  })
  it('BLK: a number, latest, pending, earliest, and an EIP-1898 hash where marked', async () => {
    for (const tag of ['latest', 'pending', 'earliest', '0x0']) expect(await ok<{ number: Hex }>('eth_getBlockByNumber', [tag, false])).toMatchObject({ number: expect.stringMatching(QTY) })
    expect(await ok('eth_getCode', [counter, { blockHash: block.hash }])).toMatch(DATA)
    expect(await ok('eth_getCode', [counter, { blockNumber: block.number }])).toMatch(DATA)
    await fails('eth_getBlockByNumber', ['safest', false], -32602, /^invalid argument 0: /)
  })
})

describe('Node settings', () => {
  it('json-rpc enable / address / ws-address / api / max-open-connections / rpc-gas-cap / rpc-evm-timeout, as flags and in the [json-rpc] section', () => {
    const flags = parseCli([
      '--json-rpc.enable', 'true', '--json-rpc.address', '0.0.0.0:8545', '--json-rpc.ws-address', '0.0.0.0:8546',
      '--json-rpc.api', 'eth,web3,net,txpool,debug,personal', '--json-rpc.max-open-connections', '0', '--json-rpc.rpc-gas-cap', '0', '--json-rpc.rpc-evm-timeout', '10s',
    ])
    expect(flags).toMatchObject({ enable: true, address: '0.0.0.0:8545', wsAddress: '0.0.0.0:8546', api: ['eth', 'web3', 'net', 'txpool', 'debug', 'personal'], maxOpenConnections: 0, rpcGasCap: 0n, rpcEvmTimeoutMs: 10_000 })
    const file = join(dir, 'node.toml')
    writeFileSync(file, '[json-rpc]\nenable = true\naddress = "127.0.0.1:8545"\nws-address = "127.0.0.1:8546"\napi = "eth,web3,net,txpool"\nmax-open-connections = 0\nrpc-gas-cap = 0\nrpc-evm-timeout = "10s"\n')
    expect(parseCli(['--config', file])).toMatchObject({ enable: true, address: '127.0.0.1:8545', wsAddress: '127.0.0.1:8546', api: ['eth', 'web3', 'net', 'txpool'], rpcEvmTimeoutMs: 10_000 })
    expect(parseCli([])).toMatchObject({ enable: true, rpcGasCap: 0n, rpcEvmTimeoutMs: 10_000, maxOpenConnections: 0 })
    checks += 3
  })

  it('max-open-connections: past it a connection is refused; 0 means no limit', async () => {
    const limited = await newNode({ limits: { maxOpenConnections: 1 } })
    const listening = await limited.listen({ address: '127.0.0.1:0', wsAddress: '127.0.0.1:0' })
    const first = await WsClient.connect(listening.ws!)
    try {
      await expect(WsClient.connect(listening.ws!)).rejects.toThrow()
      expect((await first.call('eth_chainId')).result).toBe('0x7a69')
    } finally {
      first.close()
      await listening.close()
    }
    const many = await Promise.all([1, 2, 3].map(() => WsClient.connect(served.ws!)))
    for (const c of many) c.close()
    checks += 2
  })

  it('rpc-evm-timeout: an eth_call past it is aborted with geth\'s message', async () => {
    const slow = await newNode({ limits: { rpcEvmTimeoutMs: 200 } })
    const loop: RpcTransactionRequest = { from: slow.accounts[0]!.address, to: '0x00000000000000000000000000000000000000cc', gas: '0x3b9aca00' }
    await expect(slow.request({ method: 'eth_call', params: [loop, 'latest', { '0x00000000000000000000000000000000000000cc': { code: '0x5b600056' } }] })).rejects.toMatchObject({
      code: -32000,
      message: 'execution aborted (timeout = 200ms)',
    })
    checks++
  })

  it('rpc-gas-cap caps eth_call and eth_estimateGas gas; 0 means none', async () => {
    const capped = await newNode({ limits: { rpcGasCap: 30_000n } })
    const loop: RpcTransactionRequest = { from: capped.accounts[0]!.address, to: '0x00000000000000000000000000000000000000cc', gas: '0x989680' }
    const overrides: RpcStateOverrides = { '0x00000000000000000000000000000000000000cc': { code: '0x5b600056' } }
    await expect(capped.request({ method: 'eth_call', params: [loop, 'latest', overrides] })).rejects.toMatchObject({ message: expect.stringContaining('out of gas') })
    const gasUsed = (await capped.request({ method: 'debug_traceCall', params: [loop, 'latest', { tracer: 'callTracer', stateOverrides: overrides }] })) as { gas: Hex }
    expect(BigInt(gasUsed.gas)).toBeLessThanOrEqual(30_000n)
    await expect(capped.request({ method: 'eth_estimateGas', params: [loop, 'latest', overrides] })).rejects.toMatchObject({ code: -32000, message: 'gas required exceeds allowance (30000)' })
    checks += 3
  })
})

describe('Web3, net and eth methods', () => {
  it('web3_clientVersion: <name>/<version>/<os>/<runtime version>', async () => {
    expect(await ok('web3_clientVersion')).toMatch(/^[^/]+\/[^/]+\/[^/]+\/[^/]+$/)
  })
  it('web3_sha3: Keccak-256 of the input (not SHA3-256); the input is required', async () => {
    expect(await ok('web3_sha3', ['0x68656c6c6f'])).toBe(keccak256('0x68656c6c6f'))
    await fails('web3_sha3', [], -32602, 'missing value for required argument 0')
  })
  it('net_version: the network id as a string; net_peerCount 0x0; net_listening true', async () => {
    expect(await ok('net_version')).toBe(String(Number(await ok<Hex>('eth_chainId'))))
    expect(await ok('net_peerCount')).toBe('0x0')
    expect(await ok('net_listening')).toBe(true)
  })
  it('eth_protocolVersion: QTY; eth_syncing: false', async () => {
    expect(await ok('eth_protocolVersion')).toMatch(QTY)
    expect(await ok('eth_syncing')).toBe(false)
  })
  it('eth_gasPrice and eth_maxPriorityFeePerGas: QTY (the real fee market, not the stub 0x0)', async () => {
    expect(await ok('eth_gasPrice')).toMatch(QTY)
    expect(await ok('eth_maxPriorityFeePerGas')).toMatch(QTY)
  })
  it('eth_accounts: array of ADDR; eth_coinbase: ADDR; eth_chainId: QTY; eth_blockNumber: the height', async () => {
    const accounts = await ok<string[]>('eth_accounts')
    expect(accounts.length).toBeGreaterThan(0)
    for (const a of accounts) expect(a).toMatch(ADDR)
    expect(await ok('eth_coinbase')).toMatch(ADDR)
    expect(await ok('eth_chainId')).toMatch(QTY)
    expect(BigInt(await ok<Hex>('eth_blockNumber'))).toBeGreaterThanOrEqual(BigInt(block.number))
  })
  it('eth_getBalance: ADDR and BLK (number, latest, pending, earliest, EIP-1898 hash)', async () => {
    for (const tag of [block.number, 'latest', 'pending', 'earliest', { blockHash: block.hash }]) expect(await ok('eth_getBalance', [from, tag])).toMatch(QTY)
    await fails('eth_getBalance', ['0x12', 'latest'], -32602, /^invalid argument 0: /)
  })
  it('eth_getStorageAt: ADDR, position, BLK → 32-byte DATA (the position in hex, as geth reads it)', async () => {
    const slot = await ok<Hex>('eth_getStorageAt', [counter, '0x0', 'latest'])
    expect(slot).toMatch(/^0x[0-9a-f]{64}$/)
    expect(BigInt(slot)).toBe(1n)
    expect(await ok('eth_getStorageAt', [counter, HASH_ZERO, block.number])).toBe(slot)
    await fails('eth_getStorageAt', [counter, 0, 'latest'], -32602, 'invalid argument 1: json: cannot unmarshal number into Go value of type common.Hash')
  })
  it('eth_getTransactionCount: QTY', async () => {
    expect(Number(await ok<Hex>('eth_getTransactionCount', [from, 'latest']))).toBeGreaterThanOrEqual(3)
  })
  it('eth_getBlockTransactionCountByNumber / ByHash: the real count as QTY (not the stub 0x0)', async () => {
    expect(await ok('eth_getBlockTransactionCountByNumber', [block.number])).toBe('0x1')
    expect(await ok('eth_getBlockTransactionCountByHash', [block.hash])).toBe('0x1')
  })
  it('eth_getCode: the deployed code as DATA (not the stub 0x)', async () => {
    const code = await ok<Hex>('eth_getCode', [counter, 'latest'])
    expect(code).toMatch(DATA)
    expect(code.length).toBeGreaterThan(2)
  })
  it('eth_sign: 65 bytes over 0x19 "Ethereum Signed Message:\\n" + length + message, by an unlocked managed account', async () => {
    const sig = await ok<Hex>('eth_sign', [from, '0x68656c6c6f'])
    expect(sig).toMatch(/^0x[0-9a-f]{130}$/)
    expect((await recoverAddress({ hash: hashMessage({ raw: '0x68656c6c6f' }), signature: sig })).toLowerCase()).toBe(from.toLowerCase())
    await fails('eth_sign', ['0x0000000000000000000000000000000000000001', '0x00'], -32000, 'unknown account')
  })
  it('eth_signTypedData (EIP-712): a signature; `domain` is required (verbatim message)', async () => {
    const typed = { types: { EIP712Domain: [{ name: 'name', type: 'string' }], Mail: [{ name: 'text', type: 'string' }] }, primaryType: 'Mail', domain: { name: 'spec' }, message: { text: 'hi' } }
    const sig = await ok<Hex>('eth_signTypedData', [from, typed])
    const hash = hashTypedData({ types: { Mail: [{ name: 'text', type: 'string' }] }, primaryType: 'Mail', domain: { name: 'spec' }, message: { text: 'hi' } })
    expect((await recoverAddress({ hash, signature: sig })).toLowerCase()).toBe(from.toLowerCase())
    const { domain: _d, ...noDomain } = typed
    await fails('eth_signTypedData', [from, noDomain], -32000, 'domain is undefined')
  })
  it('eth_signTypedData_v3 / _v4: served (the spec lists them N), same signature as eth_signTypedData', async () => {
    const typed = { types: { EIP712Domain: [{ name: 'name', type: 'string' }], Mail: [{ name: 'text', type: 'string' }] }, primaryType: 'Mail', domain: { name: 'spec' }, message: { text: 'hi' } }
    const sig = await ok('eth_signTypedData', [from, typed])
    expect(await ok('eth_signTypedData_v4', [from, JSON.stringify(typed)])).toBe(sig)
    expect(await ok('eth_signTypedData_v3', [from, JSON.stringify(typed)])).toBe(sig)
  })
  it('eth_sendTransaction: served (the spec lists it N): a HASH; without gas the node estimates', async () => {
    const hash = await ok<Hex>('eth_sendTransaction', [{ from, to: counter, data: calldata('Counter', 'increment') }], false)
    expect(hash).toMatch(HASH)
    const tx = (await node.request({ method: 'eth_getTransactionByHash', params: [hash] })) as { gas: Hex }
    expect(BigInt(tx.gas)).toBeGreaterThan(21_000n)
  })
  it('eth_sendTransaction: the sample\'s `gasLimit` is taken as `gas`', async () => {
    const hash = await ok<Hex>('eth_sendTransaction', [{ from, to: counter, data: calldata('Counter', 'increment'), gasLimit: '0x7a120' }], false)
    expect(await node.request({ method: 'eth_getTransactionByHash', params: [hash] })).toMatchObject({ gas: '0x7a120' })
  })
  it('eth_sendRawTransaction: signed DATA → HASH', async () => {
    // One signed transaction per transport (a second send of the same bytes is refused as known).
    const sign = async () => (await node.request({ method: 'eth_signTransaction', params: [{ from, to: counter, data: calldata('Counter', 'increment'), gas: '0x30000' }] })) as Hex
    let raw = await sign()
    expect(await node.request({ method: 'eth_sendRawTransaction', params: [raw] })).toBe(keccak256(raw))
    raw = await sign()
    expect((await rpc(served.http!, 'eth_sendRawTransaction', [raw])).result).toBe(keccak256(raw))
    raw = await sign()
    expect((await ws.call('eth_sendRawTransaction', [raw])).result).toBe(keccak256(raw))
    await fails('eth_sendRawTransaction', ['0x1234'], -32000, /transaction/)
    checks++
  })
  it('eth_call: runs without a transaction (real result, not the stub 0x)', async () => {
    const before = await ok<Hex>('eth_getTransactionCount', [from, 'latest'])
    const out = await ok<Hex>('eth_call', [{ to: counter, data: calldata('Counter', 'count') }, 'latest'])
    expect(out).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await ok('eth_getTransactionCount', [from, 'latest'])).toBe(before)
  })
  it('eth_estimateGas: QTY, also for a creation without `to`', async () => {
    expect(await ok('eth_estimateGas', [{ from, to: counter, data: calldata('Counter', 'increment') }])).toMatch(QTY)
    expect(BigInt(await ok<Hex>('eth_estimateGas', [{ from, data: artifact('Counter').bytecode }]))).toBeGreaterThan(53_000n)
  })
  it('eth_createAccessList: {accessList, gasUsed} for number, tags and an EIP-1898 hash', async () => {
    for (const tag of ['latest', 'pending', block.number, { blockHash: block.hash }]) {
      const out = await ok<{ accessList: Array<{ address: string; storageKeys: string[] }>; gasUsed: Hex }>('eth_createAccessList', [{ from, to: counter, data: calldata('Counter', 'increment') }, tag])
      expect(out.gasUsed).toMatch(QTY)
      expect(Array.isArray(out.accessList)).toBe(true)
    }
  })
  it('eth_getBlockByNumber / ByHash: the block object (hashes or full transactions; uncles empty)', async () => {
    const b = await ok<Record<string, unknown>>('eth_getBlockByNumber', [block.number, false])
    for (const f of ['hash', 'parentHash', 'stateRoot', 'transactionsRoot']) expect(b[f]).toMatch(HASH)
    for (const f of ['number', 'timestamp', 'gasLimit', 'gasUsed', 'size']) expect(b[f]).toMatch(QTY)
    expect(b.miner).toMatch(ADDR)
    expect(b.logsBloom).toMatch(/^0x[0-9a-f]{512}$/)
    expect(b.extraData).toMatch(DATA)
    expect(b.uncles).toEqual([])
    expect(b.transactions).toEqual([txHash])
    const full = await ok<{ transactions: Array<{ hash: string }> }>('eth_getBlockByHash', [block.hash, true])
    expect(full.transactions[0]?.hash).toBe(txHash)
    expect(await ok('eth_getBlockByHash', [block.hash, false])).toEqual(b)
  })
  it('eth_getHeaderByHash / ByNumber: the header object', async () => {
    const h = await ok<Record<string, unknown>>('eth_getHeaderByNumber', [block.number])
    for (const f of ['parentHash', 'sha3Uncles', 'stateRoot', 'transactionsRoot', 'receiptsRoot', 'mixHash', 'hash']) expect(h[f]).toMatch(HASH)
    for (const f of ['difficulty', 'number', 'gasLimit', 'gasUsed', 'timestamp', 'baseFeePerGas']) expect(h[f]).toMatch(QTY)
    expect(h.miner).toMatch(ADDR)
    expect(h.nonce).toMatch(/^0x[0-9a-f]{16}$/)
    expect(await ok('eth_getHeaderByHash', [block.hash])).toEqual(h)
  })
  it('eth_getTransactionByHash / ByBlockHashAndIndex / ByBlockNumberAndIndex: the transaction object (not the stub null)', async () => {
    const tx = await ok<Record<string, unknown>>('eth_getTransactionByHash', [txHash])
    for (const f of ['blockHash', 'hash']) expect(tx[f]).toMatch(HASH)
    for (const f of ['blockNumber', 'gas', 'gasPrice', 'nonce', 'transactionIndex', 'value', 'v', 'r', 's']) expect(tx[f]).toMatch(QTY)
    for (const f of ['from', 'to']) expect(tx[f]).toMatch(ADDR)
    expect(tx.input).toMatch(DATA)
    expect(await ok('eth_getTransactionByBlockHashAndIndex', [block.hash, '0x0'])).toEqual(tx)
    expect(await ok('eth_getTransactionByBlockNumberAndIndex', [block.number, '0x0'])).toEqual(tx)
    const create = (await node.request({ method: 'eth_getTransactionByBlockNumberAndIndex', params: ['0x1', '0x0'] })) as { to: unknown }
    expect(create.to).toBeNull()
  })
  it('eth_getTransactionReceipt / eth_getBlockReceipts: the receipt object; status 0x1 success, 0x0 failure', async () => {
    const r = await ok<Record<string, unknown>>('eth_getTransactionReceipt', [txHash])
    for (const f of ['blockHash', 'transactionHash']) expect(r[f]).toMatch(HASH)
    for (const f of ['blockNumber', 'transactionIndex', 'cumulativeGasUsed', 'gasUsed']) expect(r[f]).toMatch(QTY)
    for (const f of ['from', 'to']) expect(r[f]).toMatch(ADDR)
    expect(r.logsBloom).toMatch(/^0x[0-9a-f]{512}$/)
    expect(r.status).toBe('0x1')
    expect(Array.isArray(r.logs)).toBe(true)
    expect(await ok('eth_getBlockReceipts', [block.number])).toEqual([r])
    expect(await ok('eth_getBlockReceipts', [block.hash])).toEqual([r])
    const reverter = await deploy(node, 'Reverter')
    const failed = await send({ to: reverter, data: calldata('Reverter', 'revertWithReason'), gas: '0x30000' })
    expect(await ok('eth_getTransactionReceipt', [failed])).toMatchObject({ status: '0x0', transactionHash: failed })
  })
  it('eth_getTransactionLogs: the logs of one transaction', async () => {
    const hash = await send({ to: emitter, data: calldata('Emitter', 'emitMany', [2n]) })
    const logs = await ok<Array<{ address: string; transactionHash: string; logIndex: string; removed: boolean; blockHash: string }>>('eth_getTransactionLogs', [hash])
    expect(logs.length).toBeGreaterThan(0)
    for (const l of logs) expect(l).toMatchObject({ address: emitter.toLowerCase(), transactionHash: hash, removed: false, logIndex: expect.stringMatching(QTY), blockHash: expect.stringMatching(HASH) })
  })
  it('filters: eth_newFilter / eth_newBlockFilter / eth_newPendingTransactionFilter → FILTER_ID (16 bytes)', async () => {
    expect(await ok('eth_newFilter', [{ address: emitter }], false)).toMatch(ID16)
    expect(await ok('eth_newBlockFilter', [], false)).toMatch(ID16)
    expect(await ok('eth_newPendingTransactionFilter', [], false)).toMatch(ID16)
  })
  it('eth_getFilterChanges: block hashes since the last poll (real, not the stub [])', async () => {
    const id = (await node.request({ method: 'eth_newBlockFilter', params: [] })) as Hex
    const hash = await send({ to: counter, data: calldata('Counter', 'increment') })
    const { blockHash } = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { blockHash: Hex }
    expect(await node.request({ method: 'eth_getFilterChanges', params: [id] })).toEqual([blockHash])
    expect(await ok('eth_getFilterChanges', [id])).toEqual([])
  })
  it('eth_getFilterChanges: logs for a log filter, transaction hashes for a pending-transaction filter', async () => {
    const logsId = (await node.request({ method: 'eth_newFilter', params: [{ address: emitter }] })) as Hex
    const pendingId = (await node.request({ method: 'eth_newPendingTransactionFilter', params: [] })) as Hex
    const hash = await send({ to: emitter, data: calldata('Emitter', 'emitMany', [1n]) })
    expect(await node.request({ method: 'eth_getFilterChanges', params: [logsId] })).toEqual([expect.objectContaining({ transactionHash: hash, address: emitter.toLowerCase() })])
    expect(await node.request({ method: 'eth_getFilterChanges', params: [pendingId] })).toEqual([hash])
    expect(await ok('eth_getFilterChanges', [logsId])).toEqual([])
    await fails('eth_getFilterChanges', [`0x${'1'.repeat(32)}`], -32000, 'filter not found')
  })
  it('eth_getFilterLogs: all matching logs; with a non-log filter the spec\'s -32000 message', async () => {
    const id = (await node.request({ method: 'eth_newFilter', params: [{ address: emitter, fromBlock: '0x0' }] })) as Hex
    const logs = await ok<unknown[]>('eth_getFilterLogs', [id])
    expect(logs.length).toBeGreaterThan(0)
    const blocks = (await node.request({ method: 'eth_newBlockFilter', params: [] })) as Hex
    await fails('eth_getFilterLogs', [blocks], -32000, /^filter 0x[0-9a-f]{32} doesn't have a LogsSubscription type: got \d+$/)
  })
  it('eth_uninstallFilter: true when removed, false otherwise (not the stub true)', async () => {
    const id = (await node.request({ method: 'eth_newBlockFilter', params: [] })) as Hex
    expect(await node.request({ method: 'eth_uninstallFilter', params: [id] })).toBe(true)
    expect(await ok('eth_uninstallFilter', [id])).toBe(false)
  })
  it('eth_getLogs: the filter object (fromBlock/toBlock default latest, address one or many, topics with any-of, blockhash alone)', async () => {
    const hash = await send({ to: emitter, data: calldata('Emitter', 'emitMany', [2n]) })
    const { blockHash, blockNumber, logs } = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { blockHash: Hex; blockNumber: Hex; logs: Array<{ topics: Hex[] }> }
    expect(await ok('eth_getLogs', [{ address: emitter }])).toEqual(await ok('eth_getLogs', [{ address: [emitter], fromBlock: blockNumber, toBlock: 'latest' }]))
    expect(await ok('eth_getLogs', [{ blockhash: blockHash, topics: [[logs[0]!.topics[0]!, HASH_ZERO]] }])).toHaveLength(logs.filter((l) => l.topics[0] === logs[0]!.topics[0]).length)
    await fails('eth_getLogs', [{ blockhash: blockHash, fromBlock: '0x1' }], -32602, /cannot specify both BlockHash and FromBlock\/ToBlock/)
  })
  it('eth_feeHistory: geth\'s shape (the prose says not yet implemented; the status table Y)', async () => {
    const h = await ok<{ oldestBlock: Hex; baseFeePerGas: Hex[]; gasUsedRatio: number[]; reward: Hex[][] }>('eth_feeHistory', ['0x2', 'latest', [50]])
    expect(h.oldestBlock).toMatch(QTY)
    expect(h.baseFeePerGas).toHaveLength(3)
    expect(h.reward).toHaveLength(2)
  })
  it('eth_fillTransaction: {raw, tx} with nonce, gas and fees filled', async () => {
    const out = await ok<{ raw: Hex; tx: Record<string, unknown> }>('eth_fillTransaction', [{ from, to: counter, data: calldata('Counter', 'increment') }])
    expect(out.raw).toMatch(DATA)
    for (const f of ['nonce', 'gas', 'value', 'v', 'r', 's']) expect(out.tx[f]).toMatch(QTY)
    expect(out.tx.maxFeePerGas ?? out.tx.gasPrice).toMatch(QTY)
    expect(out.tx.hash).toMatch(HASH)
    expect(out.tx.input).toMatch(DATA)
  })
  it('eth_getProof: the proof object; `latest` and any height are served (differs: the spec\'s system refuses them)', async () => {
    for (const tag of [block.number, 'latest', '0x0']) {
      const p = await ok<Record<string, unknown>>('eth_getProof', [counter, ['0x0'], tag])
      expect(p.address).toMatch(ADDR)
      expect(p.codeHash).toMatch(HASH)
      expect(p.storageHash).toMatch(HASH)
      expect(p.balance).toMatch(QTY)
      expect(p.nonce).toMatch(QTY)
      expect((p.accountProof as string[]).every((n) => DATA.test(n))).toBe(true)
      expect((p.storageProof as Array<{ key: string; value: string; proof: string[] }>)[0]).toMatchObject({ key: '0x0', value: expect.stringMatching(QTY), proof: expect.any(Array) })
    }
  })
  it('eth_getPendingTransactions / eth_pendingTransactions: arrays (nothing pending under automine)', async () => {
    expect(await ok('eth_getPendingTransactions')).toEqual([])
    expect(await ok('eth_pendingTransactions')).toEqual([])
  })
})


describe('Methods listed as not implemented', () => {
  it('eth: eth_getWork, eth_submitWork, eth_submitHashrate have no meaning (no mining) and say so', async () => {
    for (const m of ['eth_getWork', 'eth_submitWork', 'eth_submitHashrate']) await absentWithReason(m)
  })
  it('eth: eth_blobBaseFee, eth_simulateV1 and the raw-transaction lookups are served', async () => {
    expect(await ok('eth_blobBaseFee')).toMatch(QTY)
    const sim = await ok<Array<{ calls: Array<{ status: Hex }> }>>('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from, to: counter, data: calldata('Counter', 'increment') }] }] }, 'latest'])
    expect(sim[0]?.calls[0]?.status).toBe('0x1')
    const raw = await ok<Hex>('eth_getRawTransactionByHash', [txHash])
    expect(keccak256(raw)).toBe(txHash)
    expect(await ok('eth_getRawTransactionByBlockHashAndIndex', [block.hash, '0x0'])).toBe(raw)
    expect(await ok('eth_getRawTransactionByBlockNumberAndIndex', [block.number, '0x0'])).toBe(raw)
  })
  it('eth: the compilers have no place in a node and say so; eth_signTransaction is served (the signed bytes, as viem and ethers read it)', async () => {
    for (const m of ['eth_getCompilers', 'eth_compileLLL', 'eth_compileSolidity', 'eth_compileSerpent']) await absentWithReason(m)
    const raw = await ok<Hex>('eth_signTransaction', [{ from, to: counter, gas: '0x30000', nonce: '0x100', maxFeePerGas: '0x3b9aca00', maxPriorityFeePerGas: '0x1' }])
    expect(raw).toMatch(/^0x02[0-9a-f]+$/)
  })
  it('db and shh (deprecated): absent, with the reason', async () => {
    for (const m of ['db_putString', 'db_getString', 'db_putHex', 'db_getHex']) await absentWithReason(m)
    for (const m of ['shh_post', 'shh_version', 'shh_newIdentity', 'shh_hasIdentity', 'shh_newGroup', 'shh_addToGroup', 'shh_newFilter', 'shh_uninstallFilter', 'shh_getFilterChanges', 'shh_getMessages']) {
      await absentWithReason(m)
    }
  })
  it('admin: the node\'s own facts and servers are served; the peer methods have no meaning (no p2p) and say so', async () => {
    expect(await ok('admin_datadir')).toBe('')
    expect(await ok<{ name: string }>('admin_nodeInfo', [], false)).toMatchObject({ name: expect.stringMatching(/^finality\//) })
    expect(await ok('admin_peers')).toEqual([])
    for (const m of ['admin_addPeer', 'admin_removePeer', 'admin_addTrustedPeer', 'admin_removeTrustedPeer', 'admin_clearPeerBanList', 'admin_listPeerBanList', 'admin_sleepBlocks']) {
      await absentWithReason(m)
    }
  })
  it('admin: admin_startHTTP / admin_stopHTTP / admin_startWS / admin_stopWS (and the RPC aliases) on the node\'s own servers', async () => {
    const other = await newNode()
    expect(await other.request({ method: 'admin_startHTTP', params: ['127.0.0.1', 0] })).toBe(true)
    expect(await other.request({ method: 'admin_stopHTTP', params: [] })).toBe(true)
    expect(await other.request({ method: 'admin_startRPC', params: ['127.0.0.1', 0] })).toBe(true)
    expect(await other.request({ method: 'admin_stopRPC', params: [] })).toBe(true)
    expect(await other.request({ method: 'admin_startWS', params: ['127.0.0.1', 0] })).toBe(true)
    expect(await other.request({ method: 'admin_stopWS', params: [] })).toBe(true)
    checks += 6
  })
  it('admin: admin_exportChain / admin_importChain write and read RLP files', async () => {
    const file = join(dir, 'chain.rlp')
    expect(await node.request({ method: 'admin_exportChain', params: [file] })).toBe(true)
    expect(readFileSync(file).length).toBeGreaterThan(0)
    const other = await newNode({ genesisTimestamp: GENESIS_TIME, mining: { mode: 'manual' } })
    expect(await other.request({ method: 'admin_importChain', params: [file] })).toBe(true)
    expect(await other.request({ method: 'eth_getBlockByNumber', params: [block.number, false] })).toMatchObject({ hash: block.hash })
    checks += 2
  })
  it('clique and les: absent, with the reason', async () => {
    for (const m of ['clique_getSnapshot', 'clique_getSnapshotAtHash', 'clique_getSigners', 'clique_getSignersAtHash', 'clique_propose', 'clique_discard', 'clique_status', 'clique_getSigner']) await absentWithReason(m)
    for (const m of ['les_serverInfo', 'les_clientInfo', 'les_priorityClientInfo', 'les_addBalance', 'les_setClientParams', 'les_setDefaultParams', 'les_latestCheckpoint', 'les_getCheckpoint', 'les_getCheckpointContractAddress']) {
      await absentWithReason(m)
    }
  })
  it('miner: start / stop / setEtherbase / setGasPrice / setGasLimit / setExtra act on the block producer; setRecommitInterval and getHashrate say why not', async () => {
    const other = await newNode()
    const r = (method: string, params: unknown[] = []) => other.request({ method, params })
    expect(await r('miner_stop')).toBeNull()
    const before = await r('eth_blockNumber')
    await r('eth_sendTransaction', [{ from: other.accounts[0]!.address, to: other.accounts[1]!.address, value: '0x1' }]).catch(() => undefined)
    expect(await r('miner_setEtherbase', ['0x00000000000000000000000000000000000000ee'])).toBe(true)
    expect(await r('miner_setExtra', ['spec'])).toBe(true)
    expect(await r('miner_setGasLimit', ['0x1c9c380'])).toBe(true)
    expect(await r('miner_setGasPrice', ['0x1'])).toBe(true)
    expect(await r('miner_start')).toBeNull()
    expect(await r('eth_blockNumber')).not.toBe(before)
    const head = (await r('eth_getBlockByNumber', ['latest', false])) as { miner: string; extraData: Hex }
    expect(head.miner).toBe('0x00000000000000000000000000000000000000ee')
    expect(head.extraData).toBe(toHex('spec'))
    checks += 6
    for (const m of ['miner_setRecommitInterval', 'miner_getHashrate']) await absentWithReason(m)
  })
  it('trace: absent in the spec; served here in process, and off over HTTP and WebSocket unless the api setting lists it', async () => {
    const names = ['trace_callMany', 'trace_call', 'trace_rawTransaction', 'trace_replayBlockTransactions', 'trace_replayTransaction', 'trace_block', 'trace_filter', 'trace_get', 'trace_transaction']
    expect(await node.request({ method: 'trace_block', params: ['latest'] })).toEqual(expect.any(Array))
    for (const m of names) {
      checks++
      const answer = (await rpc(served.http!, m, [])) as { error?: { code: number; message: string } }
      expect(answer.error).toEqual({ code: -32601, message: `the method ${m} does not exist/is not available: the trace namespace is off here; enable it with the api option (CLI: --json-rpc.api)` })
    }
  })
  it('engine: absent, with the reason', async () => {
    for (const m of ['engine_newPayloadV1', 'engine_newPayloadV2', 'engine_newPayloadV3', 'engine_forkchoiceUpdatedV1', 'engine_forkchoiceUpdatedV2', 'engine_forkchoiceUpdatedV3', 'engine_getPayloadV1', 'engine_getPayloadV2', 'engine_getPayloadV3', 'engine_exchangeCapabilities', 'engine_exchangeTransitionConfigurationV1', 'engine_getPayloadBodiesByHashV1', 'engine_getPayloadBodiesByRangeV1', 'engine_getBlobsV1']) {
      await absentWithReason(m)
    }
  })
})

describe('Personal methods', () => {
  let account: Hex
  it('personal_newAccount: ADDR of a new encrypted key; personal_listAccounts lists it', async () => {
    account = (await node.request({ method: 'personal_newAccount', params: ['<PASSPHRASE>'] })) as Hex
    expect(account).toMatch(ADDR)
    expect(await ok<string[]>('personal_listAccounts')).toContain(account.toLowerCase())
    checks++
  })
  it('personal_importRawKey: 64 hex characters, no 0x; a 0x prefix names the offending character (verbatim)', async () => {
    const key = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318'
    expect(await node.request({ method: 'personal_importRawKey', params: [key, '<PASSPHRASE>'] })).toMatch(ADDR)
    // A second import of the same key: geth's keystore error, over every transport.
    await fails('personal_importRawKey', [key, '<PASSPHRASE>'], -32000, 'account already exists')
    await fails('personal_importRawKey', [`0x${key.slice(2)}`, '<PASSPHRASE>'], -32000, "invalid hex character 'x' in private key")
  })
  it('personal_unlockAccount / personal_lockAccount: real lock state (not the stub false); default 300 s, 0 = until exit', async () => {
    await fails('eth_sign', [account, '0x00'], -32000, 'authentication needed: password or unlock')
    expect(await ok('personal_unlockAccount', [account, '<PASSPHRASE>'])).toBe(true)
    expect(await ok('personal_unlockAccount', [account, '<PASSPHRASE>', 0])).toBe(true)
    expect(await ok('eth_sign', [account, '0x00'])).toMatch(/^0x[0-9a-f]{130}$/)
    expect(await ok('personal_lockAccount', [account])).toBe(true)
    await fails('eth_sign', [account, '0x00'], -32000, 'authentication needed: password or unlock')
    await fails('personal_unlockAccount', [account, 'wrong'], -32000, 'could not decrypt key with given password')
  })
  it('personal_sendTransaction: {from, to, value} and the passphrase → HASH (the spec lists it N)', async () => {
    await send({ to: account, value: '0xde0b6b3a7640000' })
    const hash = await ok<Hex>('personal_sendTransaction', [{ from: account, to: from, value: '0x1' }, '<PASSPHRASE>'], false)
    expect(hash).toMatch(HASH)
  })
  it('personal_sign: 65 bytes, eth_sign\'s construction; personal_ecRecover: the signer; a signature that is not 65 bytes (verbatim)', async () => {
    const sig = await ok<Hex>('personal_sign', ['0x68656c6c6f', account, '<PASSPHRASE>'])
    expect(sig).toMatch(/^0x[0-9a-f]{130}$/)
    expect(await ok('personal_ecRecover', ['0x68656c6c6f', sig])).toBe(account.toLowerCase())
    await fails('personal_ecRecover', ['0x68656c6c6f', '0x1234'], -32000, 'signature must be 65 bytes long')
  })
  it('personal_listWallets: the keystore\'s accounts and lock status (not the stub null)', async () => {
    const wallets = await ok<Array<{ url: string; status: string; accounts: Array<{ address: string }> }>>('personal_listWallets')
    const mine = wallets.find((w) => w.accounts[0]?.address.toLowerCase() === account.toLowerCase())
    expect(mine?.status).toBe('Locked')
    expect(wallets.find((w) => w.accounts[0]?.address.toLowerCase() === from.toLowerCase())?.status).toBe('Unlocked')
  })
  it('personal_signTransaction: signed with the passphrase, not sent', async () => {
    const out = await ok<{ raw: Hex; tx: { hash: Hex } }>('personal_signTransaction', [{ from: account, to: from, gas: '0x5208', nonce: '0x50', maxFeePerGas: '0x3b9aca00', maxPriorityFeePerGas: '0x1', value: '0x0' }, '<PASSPHRASE>'])
    expect(keccak256(out.raw)).toBe(out.tx.hash)
    expect(await node.request({ method: 'eth_getTransactionByHash', params: [out.tx.hash] })).toBeNull()
  })
  it('hardware-wallet methods and the old name personal_signAndSendTransaction: absent, with the reason', async () => {
    for (const m of ['personal_initializeWallet', 'personal_unpair', 'personal_openWallet', 'personal_deriveAccount', 'personal_signAndSendTransaction']) await absentWithReason(m)
  })
})

describe('Debug methods', () => {
  it('debug_traceTransaction: the struct logger, callTracer, prestateTracer, 4byteTracer, opcodeTracer and a JavaScript tracer', async () => {
    expect(await ok<{ structLogs: unknown[] }>('debug_traceTransaction', [txHash])).toMatchObject({ failed: false, structLogs: expect.any(Array) })
    expect(await ok('debug_traceTransaction', [txHash, { tracer: 'callTracer' }])).toMatchObject({ type: 'CALL', to: counter.toLowerCase() })
    expect(Object.keys(await ok<object>('debug_traceTransaction', [txHash, { tracer: 'prestateTracer' }])).length).toBeGreaterThan(0)
    expect(await ok('debug_traceTransaction', [txHash, { tracer: '4byteTracer' }])).toEqual({ [`${calldata('Counter', 'increment')}-0`]: 1 })
    expect((await ok<string[]>('debug_traceTransaction', [txHash, { tracer: 'opcodeTracer' }]))[0]).toBe('PUSH1')
    expect(await ok('debug_traceTransaction', [txHash, { tracer: '{ n: 0, step: function () { this.n++ }, fault: function () {}, result: function () { return this.n } }', timeout: '5s' }])).toBeGreaterThan(10)
  })
  it('debug_traceBlockByNumber (hex number) / ByHash / debug_traceBlock: one result per transaction (not the stub [])', async () => {
    const byNumber = await ok('debug_traceBlockByNumber', [block.number, { tracer: 'callTracer' }])
    expect(byNumber).toEqual([{ txHash, result: expect.objectContaining({ type: 'CALL' }) }])
    expect(await ok('debug_traceBlockByHash', [block.hash, { tracer: 'callTracer' }])).toEqual(byNumber)
    const rlp = (await node.request({ method: 'debug_getRawBlock', params: [block.number] })) as Hex
    expect(await ok('debug_traceBlock', [rlp, { tracer: 'callTracer' }])).toEqual(byNumber)
  })
  it('debug_traceCall: call object, BLK, config', async () => {
    expect(await ok('debug_traceCall', [{ from, to: counter, data: calldata('Counter', 'increment') }, 'latest', { tracer: 'callTracer' }])).toMatchObject({ type: 'CALL', from: from.toLowerCase() })
  })
  it('debug_freeOSMemory: null; debug_stacks: a string of all stacks', async () => {
    expect(await ok('debug_freeOSMemory')).toBeNull()
    expect(await ok<string>('debug_stacks', [], false)).toMatch(/^thread 1/)
  })
  it('debug_memStats: every listed field, numbers and booleans', async () => {
    const stats = await ok<Record<string, unknown>>('debug_memStats', [], false)
    const fields = ['Alloc', 'TotalAlloc', 'Sys', 'Lookups', 'Mallocs', 'Frees', 'HeapAlloc', 'HeapSys', 'HeapIdle', 'HeapInuse', 'HeapReleased', 'HeapObjects', 'StackInuse', 'StackSys', 'MSpanInuse', 'MSpanSys', 'MCacheInuse', 'MCacheSys', 'BuckHashSys', 'GCSys', 'OtherSys', 'NextGC', 'LastGC', 'PauseTotalNs', 'NumGC', 'NumForcedGC', 'GCCPUFraction']
    for (const f of fields) expect(typeof stats[f], f).toBe('number')
    expect(typeof stats.EnableGC).toBe('boolean')
    expect(typeof stats.DebugGC).toBe('boolean')
  })
  it('debug_gcStats: NumGC, PauseTotal, Pause and PauseEnd (arrays of numbers)', async () => {
    const stats = await ok<Record<string, unknown>>('debug_gcStats', [], false)
    expect(typeof stats.NumGC).toBe('number')
    expect(typeof stats.PauseTotal).toBe('number')
    expect(Array.isArray(stats.Pause) && Array.isArray(stats.PauseEnd)).toBe(true)
  })
  it('Go-only runtime knobs (setGCPercent, block and mutex profiles) answer an error that says Node has no analogue', async () => {
    for (const [m, params] of [['debug_setGCPercent', [100]], ['debug_setBlockProfileRate', [1]], ['debug_writeBlockProfile', ['b.prof']], ['debug_blockProfile', ['b.prof', 1]], ['debug_setMutexProfileFraction', [1]], ['debug_mutexProfile', ['m.prof', 1]], ['debug_writeMutexProfile', ['m.prof']]] as const) {
      const out = await call(m, [...params])
      expect(out.error?.code, m).toBe(-32000)
      expect(out.error?.message, m).toMatch(/Node\.js|no analogue|V8/i)
    }
  })
  it('debug_writeMemProfile, debug_cpuProfile, debug_startCPUProfile / debug_stopCPUProfile, debug_goTrace / startGoTrace / stopGoTrace: null, a file in the profiling directory', async () => {
    expect(await node.request({ method: 'debug_writeMemProfile', params: ['heap.heapsnapshot'] })).toBeNull()
    expect(await node.request({ method: 'debug_cpuProfile', params: ['cpu.cpuprofile', 1] })).toBeNull()
    expect(await node.request({ method: 'debug_startCPUProfile', params: ['cpu2.cpuprofile'] })).toBeNull()
    expect(await node.request({ method: 'debug_stopCPUProfile', params: [] })).toBeNull()
    expect(await node.request({ method: 'debug_goTrace', params: ['trace.json', 1] })).toBeNull()
    expect(await node.request({ method: 'debug_startGoTrace', params: ['trace2.json'] })).toBeNull()
    expect(await node.request({ method: 'debug_stopGoTrace', params: [] })).toBeNull()
    for (const f of ['heap.heapsnapshot', 'cpu.cpuprofile', 'cpu2.cpuprofile', 'trace.json', 'trace2.json']) expect(readFileSync(join(dir, f)).length, f).toBeGreaterThan(0)
    await fails('debug_writeMemProfile', ['../outside.heapsnapshot'], -32000, /outside the profiling directory/)
    await fails('debug_stopCPUProfile', [], -32000, 'CPU profiling not in progress')
    checks += 7
  })
  it('profiling methods depend on the profiling setting', async () => {
    const off = await newNode()
    await expect(off.request({ method: 'debug_memStats', params: [] })).rejects.toMatchObject({ code: -32000, message: expect.stringMatching(/profiling/) })
    checks++
  })
  it('debug_getHeaderRlp / debug_getBlockRlp / debug_printBlock: a uint64 JSON number; a string answers the verbatim unmarshal error', async () => {
    const n = Number(block.number)
    expect(await ok('debug_getHeaderRlp', [n])).toMatch(DATA)
    expect(await ok('debug_getBlockRlp', [n])).toBe(await node.request({ method: 'debug_getRawBlock', params: [block.number] }))
    expect(await ok<string>('debug_printBlock', [n])).toContain(block.hash)
    for (const m of ['debug_getHeaderRlp', 'debug_getBlockRlp', 'debug_printBlock']) {
      await fails(m, [block.number], -32602, 'invalid argument 0: json: cannot unmarshal string into Go value of type uint64')
    }
  })
  it('debug_intermediateRoots: an array of HASH, one per transaction', async () => {
    const roots = await ok<string[]>('debug_intermediateRoots', [block.hash])
    expect(roots).toHaveLength(1)
    expect(roots[0]).toMatch(HASH)
  })
  it('the other debug names: served (dumpBlock, standardTrace*ToFile, traceBlockFromFile, traceBadBlock, verbosity, vmodule, raw getters, getBadBlocks, storageRangeAt, getModifiedAccounts*)', async () => {
    expect(await ok<{ root: string; accounts: object }>('debug_dumpBlock', [block.number])).toMatchObject({ root: expect.stringMatching(/^[0-9a-f]{64}$/), accounts: expect.any(Object) })
    const files = (await node.request({ method: 'debug_standardTraceBlockToFile', params: [block.hash] })) as string[]
    expect(files).toHaveLength(1)
    expect(readFileSync(files[0]!, 'utf8').split('\n').length).toBeGreaterThan(2)
    await fails('debug_standardTraceBadBlockToFile', [block.hash], -32000, `bad block ${block.hash} not found`)
    await fails('debug_traceBadBlock', [block.hash], -32000, `bad block ${block.hash} not found`)
    expect(await ok('debug_verbosity', [3])).toBeNull()
    expect(await ok('debug_vmodule', ['rpc=4'])).toBeNull()
    expect(await ok('debug_getRawHeader', [block.number])).toMatch(DATA)
    expect(await ok('debug_getRawBlock', [block.number])).toMatch(DATA)
    expect(await ok<string[]>('debug_getRawReceipts', [block.number])).toHaveLength(1)
    expect(keccak256(await ok<Hex>('debug_getRawTransaction', [txHash]))).toBe(txHash)
    expect(await ok('debug_getBadBlocks')).toEqual([])
    writeFileSync(join(dir, 'block.rlp'), hexToBytes((await node.request({ method: 'debug_getRawBlock', params: [block.number] })) as Hex))
    expect(await ok('debug_traceBlockFromFile', ['block.rlp', { tracer: 'callTracer' }])).toEqual(await node.request({ method: 'debug_traceBlockByNumber', params: [block.number, { tracer: 'callTracer' }] }))
    expect(await ok('debug_storageRangeAt', [block.hash, 0, counter, HASH_ZERO, 1])).toMatchObject({ storage: expect.any(Object) })
    expect(await ok<string[]>('debug_getModifiedAccountsByNumber', [Number(block.number) - 1, Number(block.number)])).toContain(counter.toLowerCase())
    expect(await ok<string[]>('debug_getModifiedAccountsByHash', [block.hash])).toContain(counter.toLowerCase())
    checks++
  })
  it('debug_traceChain: a WebSocket subscription (debug_subscribe("traceChain", …)); the bare name says so', async () => {
    const sub = await ws.call('debug_subscribe', ['traceChain', '0x1', '0x2', { tracer: 'callTracer' }])
    expect(sub.result).toMatch(ID16)
    const traced = () => ws.messages.find((m) => m.method === 'debug_subscription' && m.params.subscription === sub.result)
    while (traced() === undefined) await ws.waitFor(ws.messages.length + 1)
    expect(traced().params.result).toMatchObject({ block: '0x2', hash: expect.stringMatching(HASH), traces: expect.any(Array) })
    checks++
    await absentWithReason('debug_traceChain')
  })
  it('debug names with no meaning here say why: backtraceAt, seedHash, setHead (and geth\'s LevelDB chaindbProperty / chaindbCompact)', async () => {
    for (const m of ['debug_backtraceAt', 'debug_seedHash', 'debug_setHead', 'debug_chaindbProperty', 'debug_chaindbCompact']) await absentWithReason(m)
  })
})

describe('Txpool methods', () => {
  it('txpool_content / contentFrom / inspect / status with a pending and a queued transaction', async () => {
    const manual = await newNode({ mining: { mode: 'manual' } })
    const served2 = await manual.listen({ address: '127.0.0.1:0', wsAddress: false, api: ['eth', 'txpool'] })
    try {
      const a = manual.accounts[0]!.address
      await manual.request({ method: 'eth_sendTransaction', params: [{ from: a, to: a, value: '0x1' }] })
      await manual.request({ method: 'eth_sendTransaction', params: [{ from: a, to: a, value: '0x1', nonce: '0x5' }] })
      const status = (await rpc(served2.http!, 'txpool_status')).result
      expect(status).toEqual({ pending: '0x1', queued: '0x1' })
      const content = (await rpc(served2.http!, 'txpool_content')).result
      expect(Object.keys(content)).toEqual(['pending', 'queued'])
      expect(content.pending[a]['0'].hash).toMatch(HASH)
      expect(content.queued[a]['5'].nonce).toBe('0x5')
      expect((await rpc(served2.http!, 'txpool_contentFrom', [a])).result).toEqual({ pending: content.pending[a], queued: content.queued[a] })
      const inspect = (await rpc(served2.http!, 'txpool_inspect')).result
      expect(inspect.pending[a]['0']).toMatch(/^0x[0-9a-fA-F]{40}: 1 wei \+ \d+ gas × \d+ wei$/)
      expect(await manual.request({ method: 'txpool_status', params: [] })).toEqual(status)
      // eth_resend: replaces the pending entry with new gas price and limit; without a nonce, the verbatim message.
      const tx = ((await manual.request({ method: 'eth_getTransactionByBlockNumberAndIndex', params: ['pending', '0x0'] })) as Record<string, Hex> | null) ?? content.pending[a]['0']
      const sendArgs: RpcTransactionRequest = { from: a, to: a, value: '0x1', nonce: tx.nonce, gas: tx.gas, maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas }
      const resent = (await manual.request({ method: 'eth_resend', params: [sendArgs, `0x${(BigInt(tx.maxFeePerGas!) * 2n).toString(16)}`, '0x7530'] })) as Hex
      expect(resent).toMatch(HASH)
      expect(resent).not.toBe(tx.hash)
      expect((await rpc(served2.http!, 'txpool_status')).result).toEqual({ pending: '0x1', queued: '0x1' })
      await expect(manual.request({ method: 'eth_resend', params: [{ from: a, to: a }, '0x1'] })).rejects.toMatchObject({ code: -32000, message: 'missing transaction nonce in transaction spec' })
      checks += 6
    } finally {
      await served2.close()
    }
  })
})

describe('Events (WebSocket)', () => {
  it('newHeads ({} and {includeTransactions: true}): one header per block with number, parentHash, timestamp; unsubscribe → true', async () => {
    const client = await WsClient.connect(served.ws!)
    try {
      const plain = (await client.call('eth_subscribe', ['newHeads', {}])).result
      const full = (await client.call('eth_subscribe', ['newHeads', { includeTransactions: true }])).result
      const hash = await send({ to: counter, data: calldata('Counter', 'increment') })
      while (client.notifications(plain).length < 1 || client.notifications(full).length < 1) await client.waitFor(client.messages.length + 1)
      const head = client.notifications(plain)[0]
      expect(head).toMatchObject({ number: expect.stringMatching(QTY), parentHash: expect.stringMatching(HASH), timestamp: expect.stringMatching(QTY) })
      expect(client.notifications(full)[0].transactions[0].hash).toBe(hash)
      expect((await client.call('eth_unsubscribe', [plain])).result).toBe(true)
      expect((await client.call('eth_unsubscribe', [full])).result).toBe(true)
      checks += 3
    } finally {
      client.close()
    }
  })
  it('logs and newPendingTransactions: events pushed as {jsonrpc, method: eth_subscription, params: {subscription, result}}', async () => {
    const client = await WsClient.connect(served.ws!)
    try {
      const logs = (await client.call('eth_subscribe', ['logs', { address: emitter }])).result
      const pending = (await client.call('eth_subscribe', ['newPendingTransactions'])).result
      const hash = await send({ to: emitter, data: calldata('Emitter', 'emitMany', [1n]) })
      while (client.notifications(logs).length < 1 || client.notifications(pending).length < 1) await client.waitFor(client.messages.length + 1)
      const note = client.messages.find((m) => m.method === 'eth_subscription' && m.params.subscription === logs)
      expect(note).toMatchObject({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: logs, result: { address: emitter.toLowerCase(), transactionHash: hash } } })
      expect(client.notifications(pending)).toContain(hash)
      checks += 2
    } finally {
      client.close()
    }
  })
  it('the polling alternative over HTTP and WebSocket: a block filter returns block hashes', async () => {
    const viaHttp = (await rpc(served.http!, 'eth_newBlockFilter')).result
    const viaWs = (await ws.call('eth_newBlockFilter')).result
    const hash = await send({ to: counter, data: calldata('Counter', 'increment') })
    const { blockHash } = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { blockHash: Hex }
    expect((await rpc(served.http!, 'eth_getFilterChanges', [viaHttp])).result).toEqual([blockHash])
    expect((await ws.call('eth_getFilterChanges', [viaWs])).result).toEqual([blockHash])
    checks += 2
  })
  it('syncing: served (as geth; the spec\'s system does not support it)', async () => {
    const sub = await ws.call('eth_subscribe', ['syncing'])
    expect(sub.result).toMatch(ID16)
    checks++
  })
})

describe('Authentication and versioning', () => {
  it('personal and debug are private: off over HTTP and WebSocket unless listed in api; public methods need no credentials', async () => {
    const pub = await node.listen({ address: '127.0.0.1:0', wsAddress: '127.0.0.1:0' })
    const client = await WsClient.connect(pub.ws!)
    try {
      for (const m of ['personal_listAccounts', 'debug_getBadBlocks']) {
        expect((await rpc(pub.http!, m)).error).toMatchObject({ code: -32601 })
        expect((await client.call(m)).error).toMatchObject({ code: -32601 })
      }
      expect((await rpc(pub.http!, 'eth_chainId')).result).toMatch(QTY)
    } finally {
      client.close()
      await pub.close()
    }
    checks += 3
  })
  it('every request carries jsonrpc "2.0": a request without it is an invalid request (-32600), as geth answers', async () => {
    const res = await fetch(served.http!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 1, method: 'eth_chainId', params: [] }) })
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32600)
    checks++
  })
})
