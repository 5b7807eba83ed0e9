/**
 * The Solidity stack trace on the wire: over HTTP and WebSocket (a node's `http()` handler and
 * `ws()` on one node:http server on 127.0.0.1), a failed eth_call, eth_estimateGas or send of a node
 * in Hardhat mode with contract metadata answers its frames as `error.solidityTrace`, beside an
 * unchanged `data`; viem and ethers over HTTP decode the revert as they do without it.
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Contract, JsonRpcProvider } from 'ethers'
import { BaseError, ContractFunctionRevertedError, createPublicClient, encodeDeployData, encodeFunctionData, http, type Abi, type Hex } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, describe, expect, it } from 'vitest'
import { onLoopback, rpc, WsClient } from '../helpers/loopback.js'
import { trackNodes } from '../helpers/nodes.js'
import { vaultBuildInfo, VAULT_SOURCE } from './vault-build.js'

const newNode = trackNodes()
const build = vaultBuildInfo()
type Compiled = { abi: Abi; evm: { bytecode: { object: string } } }
const Vault = build.output.contracts[VAULT_SOURCE]!.Vault as unknown as Compiled
const User = build.output.contracts[VAULT_SOURCE]!.VaultUser as unknown as Compiled
const A = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
/** VaultUser's ABI with Vault's errors, which a client needs to decode the errors Vault raises under it. */
const USER_AND_ERRORS = [...User.abi, ...Vault.abi.filter((x) => x.type === 'error')] as Abi
const SOURCE_LINES = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'contracts', 'Vault.sol'), 'utf8').split('\n')

/** The 1-based line of the fixture that holds `text` (once). */
function lineOf(text: string): number {
  const lines = SOURCE_LINES.flatMap((l, i) => (l.includes(text) ? [i + 1] : []))
  expect(lines, text).toHaveLength(1)
  return lines[0]!
}

type Provider = { request(args: { method: string; params?: unknown }): Promise<unknown> }

async function deploy(p: Provider, c: Compiled, args: unknown[]): Promise<Hex> {
  const hash = await p.request({ method: 'eth_sendTransaction', params: [{ from: A, data: encodeDeployData({ abi: c.abi, bytecode: `0x${c.evm.bytecode.object}`, args } as never) }] })
  return ((await p.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Hex }).contractAddress
}

/** A node served over HTTP (its `http()` handler) and WebSocket (`ws()` on the same server), with a Vault and a VaultUser. */
async function served(options: Parameters<typeof newNode>[0]) {
  const node = await newNode(options)
  const vault = await deploy(node, Vault, [4_000_000_000n])
  const user = await deploy(node, User, [vault])
  const server = createServer(node.http())
  const ws = node.ws(server)
  const port = await onLoopback(server)
  const client = await WsClient.connect(`ws://127.0.0.1:${port}`)
  closing.push(async () => {
    client.close()
    await ws.close()
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return { node, vault, user, url: `http://127.0.0.1:${port}`, ws: client }
}
const closing: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of closing.splice(0)) await close()
})

type Served = Awaited<ReturnType<typeof served>>
/** One request over HTTP and the same over the WebSocket; both answers. */
async function both(s: Served, method: string, params: unknown[]): Promise<any[]> {
  return [await rpc(s.url, method, params), await s.ws.call(method, params)]
}

const withdrawFrom = encodeFunctionData({ abi: User.abi, functionName: 'withdrawFrom' })
const addThrough = encodeFunctionData({ abi: User.abi, functionName: 'addThrough', args: [2n ** 256n - 1n, 1n] })

describe('the Solidity stack trace over HTTP and WebSocket', () => {
  it('a revert two frames deep: each frame\'s kind, contract, function, file and line, innermost first, for a call, an estimate and a send', { timeout: 60_000 }, async () => {
    const s = await served({ hardhatCompat: true, artifacts: build as never })
    const expected = [
      { kind: 'error', contract: 'Vault', function: 'withdraw', file: VAULT_SOURCE, line: lineOf('revert TooEarly(block.timestamp, unlockTime)') },
      { kind: 'call', contract: 'VaultUser', function: 'withdrawFrom', file: VAULT_SOURCE, line: lineOf('vault.withdraw();') },
    ]
    for (const method of ['eth_call', 'eth_estimateGas', 'eth_sendTransaction']) {
      for (const [i, response] of (await both(s, method, [{ from: A, to: s.user, data: withdrawFrom, gas: '0x100000' }])).entries()) {
        const at = `${method} over ${i === 0 ? 'HTTP' : 'WebSocket'}`
        expect(response.error.solidityTrace, at).toEqual(expected)
        // Hardhat's members first and as Hardhat sends them; the trace after them.
        expect(Object.keys(response.error), at).toEqual(['code', 'message', 'data', 'solidityTrace'])
        expect(response.error.code, at).toBe(-32603)
        expect(response.error.message, at).toMatch(/^Error: VM Exception while processing transaction: reverted with custom error 'TooEarly\(\d+, 4000000000\)'$/)
        expect(response.error.data.data, at).toMatch(/^0xe58369d1/)
        expect(Object.keys(response.error.data), at).toEqual(method === 'eth_sendTransaction' ? ['message', 'txHash', 'data'] : ['message', 'data'])
      }
    }
    // A panic in the callee: the innermost frame is the addition, the outer one the call to it.
    const [h, w] = await both(s, 'eth_call', [{ from: A, to: s.user, data: addThrough }])
    expect(h.error.solidityTrace).toEqual([
      { kind: 'error', contract: 'Vault', function: 'add', file: VAULT_SOURCE, line: lineOf('return a + b;') },
      { kind: 'call', contract: 'VaultUser', function: 'addThrough', file: VAULT_SOURCE, line: lineOf('return vault.add(a, b);') },
    ])
    expect(w).toEqual({ ...h, id: w.id })
  })

  it('the in-process error carries the same frames as data (`solidityTrace`, not enumerable) beside its stack', async () => {
    const s = await served({ hardhatCompat: true, artifacts: build as never })
    const [wire] = await both(s, 'eth_call', [{ from: A, to: s.user, data: withdrawFrom }])
    for (const request of [s.node.request.bind(s.node), s.node.provider.request.bind(s.node.provider)]) {
      const error = (await request({ method: 'eth_call', params: [{ from: A, to: s.user, data: withdrawFrom }] } as never).catch((e: unknown) => e)) as { solidityTrace: unknown; stack: string }
      expect(error.solidityTrace).toEqual(wire.error.solidityTrace)
      expect(Object.keys(error)).not.toContain('solidityTrace')
      expect(error.stack).toContain(`    at Vault.withdraw (${VAULT_SOURCE}:${lineOf('revert TooEarly(block.timestamp, unlockTime)')})\n    at VaultUser.withdrawFrom (${VAULT_SOURCE}:${lineOf('vault.withdraw();')})`)
    }
  })

  it('without metadata: no member, the answer as before', async () => {
    for (const options of [{ hardhatCompat: true }, {}]) {
      const s = await served(options)
      for (const response of await both(s, 'eth_call', [{ from: A, to: s.user, data: withdrawFrom }])) {
        expect(Object.keys(response.error), JSON.stringify(options)).toEqual(['code', 'message', 'data'])
      }
    }
  })

  it("geth's answers (the default mode) with metadata: the same code, message and data, the frames beside them, for a call and an estimate", { timeout: 30_000 }, async () => {
    const traced = await served({ artifacts: build as never })
    const plain = await served({})
    const frames = [
      { kind: 'error', contract: 'Vault', function: 'withdraw', file: VAULT_SOURCE, line: lineOf('revert TooEarly(block.timestamp, unlockTime)') },
      { kind: 'call', contract: 'VaultUser', function: 'withdrawFrom', file: VAULT_SOURCE, line: lineOf('vault.withdraw();') },
    ]
    for (const method of ['eth_call', 'eth_estimateGas']) {
      const without = (await both(plain, method, [{ from: A, to: plain.user, data: withdrawFrom }]))[0].error
      expect(without).toMatchObject({ code: 3, message: 'execution reverted' })
      for (const response of await both(traced, method, [{ from: A, to: traced.user, data: withdrawFrom }])) {
        const { solidityTrace, ...rest } = response.error
        expect(Object.keys(response.error), method).toEqual(['code', 'message', 'data', 'solidityTrace'])
        // The revert's arguments hold the block's timestamp: only the selector and the unlock time are compared.
        expect({ ...rest, data: rest.data.slice(0, 10) + rest.data.slice(-64) }, method).toEqual({ ...without, data: without.data.slice(0, 10) + without.data.slice(-64) })
        expect(solidityTrace, method).toEqual(frames)
      }
    }
    // A revert with a reason string: geth's words, unchanged, and the frame of the `require`.
    const vault = createPublicClient({ chain: foundry, transport: http(traced.url, { retryCount: 0 }) })
    const take = encodeFunctionData({ abi: Vault.abi, functionName: 'take', args: [5n] })
    const vaultAddress = (await vault.readContract({ address: traced.user, abi: User.abi, functionName: 'vault' } as never)) as Hex
    const [answer] = await both(traced, 'eth_call', [{ from: A, to: vaultAddress, data: take }])
    expect(answer.error).toMatchObject({ code: 3, message: 'execution reverted: Vault: insufficient balance' })
    expect(answer.error.solidityTrace).toEqual([{ kind: 'error', contract: 'Vault', function: 'take', file: VAULT_SOURCE, line: expect.any(Number) }])
    // In-process, the stack holds the frames as in Hardhat mode.
    const error = (await traced.node.request({ method: 'eth_call', params: [{ from: A, to: traced.user, data: withdrawFrom }] }).catch((e: unknown) => e)) as { stack: string; code: number }
    expect(error.code).toBe(3)
    expect(error.stack).toContain(`    at Vault.withdraw (${VAULT_SOURCE}:${lineOf('revert TooEarly(block.timestamp, unlockTime)')})\n    at VaultUser.withdrawFrom (${VAULT_SOURCE}:${lineOf('vault.withdraw();')})`)
  })

  it('viem over HTTP: the custom error and the panic decoded as from a node without the trace', { timeout: 30_000 }, async () => {
    const traced = await served({ hardhatCompat: true, artifacts: build as never })
    const plain = await served({ hardhatCompat: true })
    const decoded = async (s: Served, functionName: 'withdrawFrom' | 'addThrough', args: unknown[]) => {
      const client = createPublicClient({ chain: foundry, transport: http(s.url, { retryCount: 0 }) })
      const error = await client.readContract({ address: s.user, abi: USER_AND_ERRORS, functionName, args } as never).catch((e: unknown) => e)
      const reverted = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError
      expect(reverted).toBeInstanceOf(ContractFunctionRevertedError)
      return { errorName: reverted.data?.errorName, args: reverted.data?.args?.map(String).slice(1), reason: reverted.reason, raw: reverted.raw?.slice(0, 10) }
    }
    const withdraw = await decoded(traced, 'withdrawFrom', [])
    expect(withdraw).toEqual({ errorName: 'TooEarly', args: ['4000000000'], reason: undefined, raw: '0xe58369d1' })
    expect(await decoded(plain, 'withdrawFrom', [])).toEqual(withdraw)
    const panic = await decoded(traced, 'addThrough', [2n ** 256n - 1n, 1n])
    expect(panic).toMatchObject({ errorName: 'Panic', reason: 'Arithmetic operation resulted in underflow or overflow.' })
    expect(await decoded(plain, 'addThrough', [2n ** 256n - 1n, 1n])).toEqual(panic)
  })

  it('ethers over HTTP: CALL_EXCEPTION with the custom error and the reason as from a node without the trace', { timeout: 30_000 }, async () => {
    const traced = await served({ hardhatCompat: true, artifacts: build as never })
    const plain = await served({ hardhatCompat: true })
    const decoded = async (s: Served) => {
      const provider = new JsonRpcProvider(s.url, 31337, { staticNetwork: true, batchMaxCount: 1 })
      try {
        const user = new Contract(s.user, USER_AND_ERRORS as never, provider)
        const vault = new Contract(await user.getFunction('vault').staticCall(), Vault.abi as never, provider)
        const errors = [
          await user.getFunction('withdrawFrom').staticCall({ from: A }).catch((e: unknown) => e),
          await vault.getFunction('take').staticCall(5n, { from: A }).catch((e: unknown) => e),
          await user.getFunction('withdrawFrom').estimateGas({ from: A }).catch((e: unknown) => e),
        ] as { code: string; reason: string | null; revert: { name: string; args: unknown[] } | null; data: string }[]
        return errors.map((e) => ({ code: e.code, reason: e.reason, revert: e.revert === null ? null : { name: e.revert.name, args: e.revert.args.map(String).slice(1) }, selector: e.data?.slice(0, 10) }))
      } finally {
        provider.destroy()
      }
    }
    const answers = await decoded(traced)
    // ethers' own reading: a Contract's static call decodes with its ABI; an estimate keeps the data only.
    expect(answers).toEqual([
      { code: 'CALL_EXCEPTION', reason: 'TooEarly(uint256,uint256)', revert: { name: 'TooEarly', args: ['4000000000'] }, selector: '0xe58369d1' },
      { code: 'CALL_EXCEPTION', reason: 'Vault: insufficient balance', revert: { name: 'Error', args: [] }, selector: '0x08c379a0' },
      { code: 'CALL_EXCEPTION', reason: null, revert: null, selector: '0xe58369d1' },
    ])
    expect(await decoded(plain)).toEqual(answers)
  })
})
