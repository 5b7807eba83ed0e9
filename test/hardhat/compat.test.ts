/**
 * Hardhat compatibility (`createNode({ hardhatCompat })`, the CLI's `--hardhat`): the client
 * version Hardhat's tools accept, the Hardhat behaviours it turns on, and the namespaces the CLI
 * then serves. test/hardhat/project.test.ts runs a whole Hardhat project against it.
 */
import { EventEmitter } from 'node:events'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { isLoopback } from '../../src/adapters/auth.js'
import { LOOPBACK_API, PUBLIC_API, defaultApi, parseCli } from '../../src/cli/config.js'
import type { Hex } from '../../src/index.js'
import { VERSION } from '../../src/version.js'
import { EPHEMERAL, startCli, type RunningCli } from '../helpers/cli.js'
import { trackNodes } from '../helpers/nodes.js'
import { requestRaw } from '../helpers/raw-request.js'
import { rpc } from '../helpers/loopback.js'

const newNode = trackNodes()
const OWN = new RegExp(`^finality/v${VERSION.replaceAll('.', '\\.')}/${process.platform}-${process.arch}/node-${process.version.replaceAll('.', '\\.')}$`)
/** Runtime code that reverts with empty data: PUSH0 PUSH0 REVERT. */
const REVERTS = '0x5f5ffd'
const TARGET = '0x00000000000000000000000000000000000000aa'

async function failingSend(node: Awaited<ReturnType<typeof newNode>>): Promise<{ result?: Hex; error?: { code: number; message: string; data?: any } }> {
  await node.setCode(TARGET, REVERTS)
  const from = node.accounts[0]?.address
  try {
    return { result: await node.request({ method: 'eth_sendTransaction', params: [{ from, to: TARGET, gas: '0x186a0' }] }) }
  } catch (error) {
    return { error: error as { code: number; message: string; data?: any } }
  }
}

describe('hardhatCompat', () => {
  it('default: web3_clientVersion is the spec\'s finality/<version>/<os>/<runtime>', async () => {
    const node = await newNode()
    expect(await node.request({ method: 'web3_clientVersion' })).toMatch(OWN)
  })

  it('on: HardhatNetwork/ before the same string, which Hardhat\'s network helpers (2 and 3) and OpenZeppelin\'s upgrades-core accept', async () => {
    const node = await newNode({ hardhatCompat: true })
    const version = (await node.request({ method: 'web3_clientVersion' })) as string
    expect(version.startsWith('HardhatNetwork/')).toBe(true)
    expect(version.slice('HardhatNetwork/'.length)).toMatch(OWN)
    expect(version.toLowerCase().startsWith('hardhatnetwork')).toBe(true)
    expect(version.toLowerCase().startsWith('hardhat')).toBe(true)
    expect(version.split('/', 1)[0]).toBe('HardhatNetwork')
  })

  it('on: hardhat_metadata, anvil_metadata and admin_nodeInfo name the same client', async () => {
    const node = await newNode({ hardhatCompat: true })
    const version = await node.request({ method: 'web3_clientVersion' })
    expect(((await node.request({ method: 'hardhat_metadata' })) as { clientVersion: string }).clientVersion).toBe(version)
    expect(((await node.request({ method: 'anvil_metadata' })) as { clientVersion: string }).clientVersion).toBe(version)
    expect(((await node.request({ method: 'admin_nodeInfo' })) as { name: string }).name).toBe(version)
  })

  it("hardhat_getStackTraceFailuresCount: 0 (a JSON number, as Hardhat answers it) in Hardhat mode, where `hardhat test` asks it after the run; absent otherwise, saying why", async () => {
    const hardhat = await newNode({ hardhatCompat: true })
    expect(await hardhat.request({ method: 'hardhat_getStackTraceFailuresCount' })).toBe(0)
    await expect(requestRaw(hardhat, 'hardhat_getStackTraceFailuresCount', [1])).rejects.toMatchObject({ code: -32602 })
    const plain = await newNode()
    await expect(plain.request({ method: 'hardhat_getStackTraceFailuresCount' })).rejects.toMatchObject({
      code: -32601,
      message: expect.stringMatching(/^the method hardhat_getStackTraceFailuresCount does not exist\/is not available: it counts the failures the node could not explain in Solidity terms/),
    })
  })

  it('hardhat_metadata: instanceId stays while the chain runs and changes with each hardhat_reset, as Hardhat\'s', async () => {
    const node = await newNode()
    const id = async () => ((await node.request({ method: 'hardhat_metadata' })) as { instanceId: string }).instanceId
    const first = await id()
    expect(first).toMatch(/^0x[0-9a-f]{64}$/)
    await node.request({ method: 'evm_mine' })
    expect(await id()).toBe(first)
    expect(((await node.request({ method: 'anvil_metadata' })) as { instanceId: string }).instanceId).toBe(first)
    await node.request({ method: 'hardhat_reset' })
    const second = await id()
    expect(second).not.toBe(first)
    await node.request({ method: 'anvil_reset' })
    expect(new Set([first, second, await id()]).size).toBe(3)
  })

  it('error: a value that is not a boolean is refused', async () => {
    await expect(newNode({ hardhatCompat: 'yes' as unknown as boolean })).rejects.toThrow('createNode: option hardhatCompat must be true or false, got the string "yes"')
  })

  it('on: a send whose transaction fails throws with its hash, and the transaction is mined (throwOnTransactionFailures)', async () => {
    const node = await newNode({ hardhatCompat: true })
    const { result, error } = await failingSend(node)
    expect(result).toBeUndefined()
    const head = (await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { transactions: Hex[] }
    expect(head.transactions).toHaveLength(1)
    const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [head.transactions[0]!] })) as { status: string }
    expect(receipt.status).toBe('0x0')
    expect(JSON.stringify(error?.data)).toContain(head.transactions[0])
  })

  it('throwOnTransactionFailures: false wins over hardhatCompat; off by default (geth answers the hash)', async () => {
    for (const options of [{ hardhatCompat: true, throwOnTransactionFailures: false }, {}]) {
      const node = await newNode(options)
      const { result, error } = await failingSend(node)
      expect(error).toBeUndefined()
      const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [result!] })) as { status: string }
      expect(receipt.status).toBe('0x0')
    }
  })
})

describe('the EIP-1193 provider as Hardhat takes it', () => {
  it('node:events\' listener methods (Hardhat\'s wrappers call setMaxListeners), with no listener limit', async () => {
    const node = await newNode({ hardhatCompat: true })
    // What Hardhat's EventEmitterWrapper forwards to the provider it wraps.
    for (const name of Object.getOwnPropertyNames(EventEmitter.prototype).filter((n) => n !== 'constructor' && !n.startsWith('_'))) {
      expect(typeof (node.provider as unknown as Record<string, unknown>)[name], name).toBe('function')
    }
    expect(node.provider.getMaxListeners()).toBe(0)
    const warnings: Error[] = []
    const onWarning = (w: Error) => warnings.push(w)
    process.on('warning', onWarning)
    for (let i = 0; i < 20; i++) node.provider.on('message', () => {})
    await new Promise((resolve) => setImmediate(resolve))
    process.off('warning', onWarning)
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([])
    node.provider.setMaxListeners(50)
    expect(node.provider.getMaxListeners()).toBe(50)
  })
})

describe('cli --hardhat', () => {
  it('parses: the flag, the TOML key, the namespaces it opens unless --json-rpc.api is given', () => {
    expect(parseCli([]).hardhat).toBe(false)
    const on = parseCli(['--hardhat'])
    expect(on.hardhat).toBe(true)
    // No --json-rpc.api: the namespaces follow the address; on loopback --hardhat adds debug and personal.
    expect(on.api).toBeUndefined()
    expect(defaultApi('127.0.0.1:8545', isLoopback, true)).toEqual([...LOOPBACK_API, 'debug', 'personal'])
    expect(defaultApi('127.0.0.1:8545', isLoopback, false)).toEqual([...LOOPBACK_API])
    expect(defaultApi('0.0.0.0:8545', isLoopback, true)).toEqual([...PUBLIC_API])
    expect(parseCli(['--hardhat', '--json-rpc.api', 'eth,hardhat']).api).toEqual(['eth', 'hardhat'])
    const dir = mkdtempSync(path.join(tmpdir(), 'finality-hardhat-'))
    const file = path.join(dir, 'node.toml')
    writeFileSync(file, 'hardhat = true\n')
    expect(parseCli(['--config', file])).toMatchObject({ hardhat: true, api: undefined })
    writeFileSync(file, 'hardhat = true\n[json-rpc]\napi = "eth,evm"\n')
    expect(parseCli(['--config', file]).api).toEqual(['eth', 'evm'])
    writeFileSync(file, 'hardhat = "maybe"\n')
    expect(() => parseCli(['--config', file])).toThrow(`${file} hardhat: want true or false, got maybe`)
  })

  describe('over HTTP', () => {
    let cli: RunningCli
    afterAll(async () => {
      await cli?.stop()
    })

    it('serves what Hardhat\'s tools call: the client version, hardhat_metadata, evm_snapshot, personal_sign, debug_', async () => {
      cli = await startCli([...EPHEMERAL, '--hardhat', '--quiet', '--accounts', '2'])
      expect(cli.out()).toContain('Hardhat:  compatible (--hardhat)')
      expect((await rpc(cli.http, 'web3_clientVersion')).result).toMatch(/^HardhatNetwork\/finality\//)
      expect((await rpc(cli.http, 'hardhat_metadata')).result.chainId).toBe(31337)
      expect((await rpc(cli.http, 'evm_snapshot')).result).toBe('0x1')
      const signature = (await rpc(cli.http, 'personal_sign', ['0x68656c6c6f', '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'])).result
      expect(signature).toMatch(/^0x[0-9a-f]{130}$/)
      expect((await rpc(cli.http, 'debug_getRawHeader', ['latest'])).result).toMatch(/^0x/)
      // The loopback defaults stay on beside them (Anvil's names too); admin is not one of them.
      expect((await rpc(cli.http, 'anvil_metadata')).result.chainId).toBe(31337)
      expect((await rpc(cli.http, 'admin_nodeInfo')).error.code).toBe(-32601)
    })
  })
})
