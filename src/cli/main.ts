/**
 * `finality`: starts a node and serves it over HTTP (127.0.0.1:8545) and WebSocket
 * (127.0.0.1:8546), prints the chain id, the endpoints and the prefunded accounts with their keys,
 * logs each request compactly, and closes cleanly on Ctrl-C.
 */
import { readFileSync } from 'node:fs'
import { ClassicLevel } from 'classic-level'
import { createNode, type FinalityNode } from '../node.js'
import type { Listening } from '../adapters/listen.js'
import { DEFAULT_MNEMONIC } from '../accounts/accounts.js'
import { VERSION } from '../version.js'
import { helpText, parseCli, type CliConfig } from './config.js'

function formatEther(wei: bigint): string {
  const whole = wei / 10n ** 18n
  const frac = (wei % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '')
  return frac === '' ? whole.toString() : `${whole}.${frac}`
}

function banner(node: FinalityNode, c: CliConfig, served: Listening | undefined): string {
  const lines = [
    `finality v${VERSION}`,
    '',
    `Chain id: ${node.chainId} (0x${node.chainId.toString(16)})`,
    `Mining:   ${c.blockTime > 0 ? `every ${c.blockTime}s` : 'automine'}`,
    ...(c.hardhat ? ['Hardhat:  compatible (--hardhat)'] : []),
    '',
    'Available Accounts',
    '==================',
    ...node.accounts.map((a, i) => `(${i}) ${a.address} (${formatEther(c.balance)} ETH)`),
    '',
    'Private Keys',
    '==================',
    ...node.accounts.map((a, i) => `(${i}) ${a.privateKey}`),
    '',
    'Wallet',
    '==================',
    `Mnemonic:        ${c.mnemonic ?? DEFAULT_MNEMONIC}`,
    `Derivation path: m/44'/60'/0'/0/`,
    '',
    `Namespaces: ${c.api.join(',')}`,
  ]
  if (served?.http !== undefined) lines.push(`HTTP listening on ${served.http}`)
  if (served?.ws !== undefined) lines.push(`WebSocket listening on ${served.ws}`)
  if (served === undefined) lines.push('JSON-RPC is off (--json-rpc.enable false)')
  return `${lines.join('\n')}\n`
}

function stamp(): string {
  return new Date().toISOString().slice(11, 23)
}

/** Runs the command line; resolves to a function that stops it. */
export async function main(argv: string[]): Promise<() => Promise<void>> {
  const c = parseCli(argv)
  if (c.help) {
    process.stdout.write(helpText())
    return async () => {}
  }
  const db = c.db === undefined ? undefined : new ClassicLevel<string, Uint8Array>(c.db, { keyEncoding: 'utf8', valueEncoding: 'view' })
  const node = await createNode({
    // A genesis file names its own chain id.
    ...(c.genesis === undefined ? { chainId: c.chainId } : {}),
    accountCount: c.accounts,
    balance: c.balance,
    ...(c.mnemonic === undefined ? {} : { mnemonic: c.mnemonic }),
    ...(c.hardfork === undefined ? {} : { hardfork: c.hardfork }),
    ...(c.genesis === undefined ? {} : { genesis: JSON.parse(readFileSync(c.genesis, 'utf8')) as unknown }),
    ...(db === undefined ? {} : { db }),
    ...(c.hardhat ? { hardhatCompat: true } : {}),
    ...(c.throwOnTransactionFailures === undefined ? {} : { throwOnTransactionFailures: c.throwOnTransactionFailures }),
    ...(c.throwOnCallFailures === undefined ? {} : { throwOnCallFailures: c.throwOnCallFailures }),
    ...(c.allowUnlimitedContractSize ? { allowUnlimitedContractSize: true } : {}),
    ...(c.codeSizeLimit === undefined ? {} : { codeSizeLimit: c.codeSizeLimit }),
    mining: c.blockTime > 0 ? { mode: 'interval', blockTime: c.blockTime * 1000 } : { mode: 'auto' },
    limits: { rpcGasCap: c.rpcGasCap, maxOpenConnections: c.maxOpenConnections, rpcEvmTimeoutMs: c.rpcEvmTimeoutMs },
    // Solidity console.log lines, as Hardhat prints them.
    onConsoleLog: (message) => process.stdout.write(`console.log: ${message}\n`),
  })
  let served: Listening | undefined
  try {
    if (c.enable) {
      served = await node.listen({
        address: c.address,
        wsAddress: c.wsAddress,
        api: c.api,
        ...(c.jwtSecret === undefined ? {} : { jwtSecret: c.jwtSecret }),
        ...(c.quiet
          ? {}
          : {
              onRequest: ({ methods, ms }: { methods: string[]; ms: number }) => {
                const what = methods.length === 1 ? methods[0] : `batch(${methods.length}) ${methods.slice(0, 3).join(',')}${methods.length > 3 ? ',…' : ''}`
                process.stdout.write(`${stamp()} ${what} ${ms.toFixed(1)}ms\n`)
              },
            }),
      })
    }
  } catch (error) {
    await node.close()
    throw error
  }
  process.stdout.write(banner(node, c, served))
  let stopping: Promise<void> | undefined
  return () =>
    (stopping ??= (async () => {
      await served?.close()
      await node.close()
    })())
}
