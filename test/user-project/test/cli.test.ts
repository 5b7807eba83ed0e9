/**
 * The installed command line, as the README shows it: `npx finality` from the project's
 * node_modules/.bin, on ephemeral ports, used by viem over HTTP and WebSocket.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createPublicClient, createWalletClient, http, parseEther, webSocket, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.bin', 'finality')

let cli: ChildProcess
let output = ''
let httpUrl: string
let wsUrl: string

beforeAll(async () => {
  cli = spawn(BIN, ['--json-rpc.address', '127.0.0.1:0', '--json-rpc.ws-address', '127.0.0.1:0', '--quiet'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const http = /HTTP listening on (\S+)/.exec(output)?.[1]
      const ws = /WebSocket listening on (\S+)/.exec(output)?.[1]
      if (http !== undefined && ws !== undefined) {
        httpUrl = http
        wsUrl = ws
        resolve()
      }
    }
    cli.stdout!.on('data', onData)
    cli.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    cli.once('exit', (code) => reject(new Error(`finality exited with ${code}:\n${output}`)))
  })
})

afterAll(async () => {
  if (cli.exitCode === null) {
    const exited = new Promise((resolve) => cli.once('exit', resolve))
    cli.kill('SIGINT')
    await exited
  }
})

describe('npx finality', () => {
  it('prints the prefunded accounts with their keys', () => {
    expect(output.toLowerCase()).toContain('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')
    expect(output).toContain('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
  })

  it('takes a signed transfer over HTTP and a WebSocket client sees its block', async () => {
    const key = /\(1\) (0x[0-9a-f]{64})/.exec(output)![1] as Hex
    const account = privateKeyToAccount(key)
    const client = createPublicClient({ transport: http(httpUrl), pollingInterval: 50 })
    const wallet = createWalletClient({ transport: http(httpUrl), account })
    const socket = createPublicClient({ transport: webSocket(wsUrl) })
    expect(await socket.getChainId()).toBe(31337)

    let deliver: (n: Hex) => void = () => undefined
    const head = new Promise<Hex>((resolve) => (deliver = resolve))
    const { unsubscribe } = await socket.transport.subscribe({
      params: ['newHeads'],
      onData: (message: { result?: unknown }) => deliver((message.result as { number: Hex }).number),
      onError: (error: Error) => {
        throw error
      },
    })
    const to = '0x000000000000000000000000000000000000dEaD'
    const hash = await wallet.sendTransaction({ to, value: parseEther('1'), chain: null })
    const receipt = await client.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(BigInt(await head)).toBe(receipt.blockNumber)
    expect(await client.getBalance({ address: to })).toBe(parseEther('1'))
    await unsubscribe()
    await (await socket.transport.getRpcClient()).close()
  })

  it('closes cleanly on Ctrl-C', async () => {
    const exited = new Promise<number | null>((resolve) => cli.once('exit', resolve))
    cli.kill('SIGINT')
    expect(await exited).toBe(0)
  })
})
