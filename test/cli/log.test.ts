/**
 * The CLI's log as a process on ephemeral ports: mined transactions (deploy, transfer, revert
 * with a reason, custom error, console.log), a range of mined blocks, a failing eth_call; --quiet;
 * no ANSI codes when stdout is not a terminal; consensus lines with four validators and faults.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { encodeFunctionData } from 'viem'
import { describe, expect, it } from 'vitest'
import { loadArtifacts } from '../helpers/compile.js'
import { EPHEMERAL, startCli, type RunningCli } from '../helpers/cli.js'
import { rpc } from '../helpers/loopback.js'

const artifacts = loadArtifacts()
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const call = (name: 'Reverter' | 'Logger', functionName: string, args: unknown[] = []) =>
  encodeFunctionData({ abi: artifacts[name]!.abi, functionName, args } as Parameters<typeof encodeFunctionData>[0])

/** Waits until the CLI's output matches (the log line follows the answer). */
async function until(cli: RunningCli, pattern: RegExp): Promise<void> {
  for (let i = 0; i < 300 && !pattern.test(cli.out()); i++) await new Promise((r) => setTimeout(r, 20))
  expect(cli.out()).toMatch(pattern)
}

async function deploy(cli: RunningCli, from: string, name: 'Reverter' | 'Logger'): Promise<{ hash: string; address: string }> {
  const hash = (await rpc(cli.http, 'eth_sendTransaction', [{ from, data: artifacts[name]!.bytecode }])).result as string
  const receipt = (await rpc(cli.http, 'eth_getTransactionReceipt', [hash])).result as { contractAddress: string }
  return { hash, address: receipt.contractAddress }
}

describe('CLI log', () => {
  it('tells each transaction, block range, failing call and console.log; plain text on a pipe', async () => {
    const cli = await startCli([...EPHEMERAL])
    try {
      const [from, other] = (await rpc(cli.http, 'eth_accounts')).result as string[]
      const reverter = await deploy(cli, from!, 'Reverter')
      await until(cli, new RegExp(`Transaction: +${reverter.hash}\\n  Contract created: +0x5FbDB2315678afecb367f032d93F642f64180aa3\\n  From: +0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\\n  Value: +0 ETH\\n  Gas used: +\\d+ of \\d+\\n  Block #1: +0x[0-9a-f]{64}\\n  Status: +success\\nMined block #1 0x[0-9a-f]{64} \\(1 transaction, \\d+ gas\\)\\neth_sendTransaction \\d+\\.\\dms`))

      const transfer = (await rpc(cli.http, 'eth_sendTransaction', [{ from, to: other, value: '0xde0b6b3a7640000' }])).result as string
      await until(cli, new RegExp(`Transaction: +${transfer}\\n  From: +0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\\n  To: +0x70997970C51812dc3A010C7d01b50e0d17dc79C8\\n  Value: +1 ETH\\n  Gas used: +21000 of 21000\\n  Block #2: `))

      const reverted = (await rpc(cli.http, 'eth_sendTransaction', [{ from, to: reverter.address, gas: '0x100000', data: call('Reverter', 'revertWithReason') }])).result as string
      await until(cli, new RegExp(`Transaction: +${reverted}\\n[^]*?Gas used: +\\d+ of 1048576\\n  Block #3: +0x[0-9a-f]{64}\\n  Status: +reverted\\n  Error: +reverted with reason string 'nope'\\n`))

      const custom = (await rpc(cli.http, 'eth_sendTransaction', [{ from, to: reverter.address, gas: '0x100000', data: call('Reverter', 'revertWithCustomError', [7n]) }])).result as string
      await until(cli, new RegExp(`Transaction: +${custom}\\n[^]*?Status: +reverted\\n  Error: +reverted with custom error 0xda472023 \\(arguments 0x0{24}f39fd6e51aad88f6f4ce6ab8827279cfffb922660{63}7\\)\\n`))

      const panic = (await rpc(cli.http, 'eth_sendTransaction', [{ from, to: reverter.address, gas: '0x100000', data: call('Reverter', 'panicAssert') }])).result as string
      await until(cli, new RegExp(`Transaction: +${panic}\\n[^]*?Error: +reverted with panic code 0x1 \\(Assertion error\\)\\n`))

      const logger = await deploy(cli, from!, 'Logger')
      const bump = (await rpc(cli.http, 'eth_sendTransaction', [{ from, to: logger.address, data: call('Logger', 'bump') }])).result as string
      await until(cli, new RegExp(`Transaction: +${bump}\\n[^]*?Status: +success\\n  console.log:\\n    count is 1\\nMined block #7 `))

      expect((await rpc(cli.http, 'hardhat_mine', ['0x5'])).result).toBe(true)
      await until(cli, /Mined empty blocks #8 to #12 \(5 blocks, last 0x[0-9a-f]{64}\)\nhardhat_mine \d+\.\dms/)
      expect((await rpc(cli.http, 'evm_mine')).result).toBe('0x0')
      await until(cli, /Mined block #13 0x[0-9a-f]{64} \(0 transactions, 0 gas\)\nevm_mine /)

      const failed = await rpc(cli.http, 'eth_call', [{ from, to: logger.address, data: call('Logger', 'failAfterLog') }])
      expect(failed.error.code).toBe(3)
      await until(cli, /eth_call \d+\.\dms\n  Error: +reverted with reason string 'failed after log'\n  console.log:\n    about to fail\n/)
      await rpc(cli.http, 'eth_estimateGas', [{ from, to: reverter.address, data: call('Reverter', 'revertWithCustomError', [1n]) }])
      await until(cli, /eth_estimateGas \d+\.\dms\n  Error: +reverted with custom error 0xda472023 /)
      // A request that is not a call: one line, its error under it.
      await rpc(cli.http, 'eth_getBalance', ['0x12'])
      await until(cli, /eth_getBalance \d+\.\dms\n  Error: +invalid argument 0/)
      // stdout is a pipe: no colours.
      expect(cli.out()).not.toMatch(/\x1b\[/)
    } finally {
      await cli.stop()
    }
  }, 120_000)

  it('--quiet: the banner and console.log lines only', async () => {
    const cli = await startCli([...EPHEMERAL, '--quiet'])
    try {
      const [from] = (await rpc(cli.http, 'eth_accounts')).result as string[]
      const logger = await deploy(cli, from!, 'Logger')
      await rpc(cli.http, 'eth_sendTransaction', [{ from, to: logger.address, data: call('Logger', 'bump') }])
      await until(cli, /console\.log: count is 1\n/)
      await rpc(cli.http, 'hardhat_mine', ['0x3'])
      const after = cli.out().slice(cli.out().indexOf('WebSocket listening'))
      expect(after).not.toMatch(/eth_|Transaction:|Mined/)
    } finally {
      await cli.stop()
    }
  }, 60_000)

  it('four validators: round changes, time-outs, a halt, a resume and evidence', async () => {
    const cli = await startCli([...EPHEMERAL, '--validators', '4', '--consensus.timeout-propose', '40ms', '--consensus.timeout-prevote', '20ms', '--consensus.timeout-precommit', '20ms'])
    try {
      const validators = (await rpc(cli.http, 'finality_getValidators')).result as Array<{ address: string }>
      const [from, to] = (await rpc(cli.http, 'eth_accounts')).result as string[]
      // Height 1's proposer offline: its propose time-out, then round 1.
      const first = validators[0]!.address
      expect((await rpc(cli.http, 'finality_setFault', [first, { offline: true }])).result).toBe(true)
      await rpc(cli.http, 'eth_sendTransaction', [{ from, to, value: '0x1' }])
      await until(cli, /Consensus: height 1 round 0 propose time-out\n/)
      await until(cli, /Consensus: height 1 moved to round 1 \(proposer 0x[0-9a-fA-F]{40}\)\n/)
      // Two of four offline: no quorum, the chain halts; healed, it resumes.
      const second = validators.find((v) => v.address.toLowerCase() !== first.toLowerCase())!.address
      expect((await rpc(cli.http, 'finality_setFault', [second, { offline: true }])).result).toBe(true)
      await rpc(cli.http, 'eth_sendTransaction', [{ from, to, value: '0x2' }])
      await until(cli, /Consensus: halted at height 2: not enough validators online/)
      expect((await rpc(cli.http, 'finality_heal', [])).result).toBe(true)
      await until(cli, /Consensus: resumed, block #2 committed\n/)
      // A Byzantine validator signs two votes per round: evidence.
      expect((await rpc(cli.http, 'finality_setFault', [first, { equivocate: true }])).result).toBe(true)
      await rpc(cli.http, 'eth_sendTransaction', [{ from, to, value: '0x3' }])
      await until(cli, /Consensus: evidence of a double (prevote|precommit) by 0x[0-9a-fA-F]{40} at height \d+ round \d+\n/)
    } finally {
      await cli.stop()
    }
  }, 120_000)
})

describe('the example in docs/transports.md', () => {
  it('is what the CLI prints (hashes and timings aside)', async () => {
    const doc = readFileSync(join(ROOT, 'docs', 'transports.md'), 'utf8')
    const block = /### The log\n[^]*?```text\n([^]*?)```/.exec(doc)?.[1]
    expect(block).toBeDefined()
    const cli = await startCli([...EPHEMERAL])
    try {
      const [from] = (await rpc(cli.http, 'eth_accounts')).result as string[]
      const logger = await deploy(cli, from!, 'Logger')
      await rpc(cli.http, 'eth_sendTransaction', [{ from, to: logger.address, data: call('Logger', 'bump') }])
      await rpc(cli.http, 'eth_call', [{ from, to: logger.address, data: call('Logger', 'failAfterLog') }])
      await rpc(cli.http, 'hardhat_mine', ['0x3'])
      await until(cli, /hardhat_mine \d+\.\dms\n/)
      const normal = (s: string) => s.replace(/0x[0-9a-f]{64}/g, '0x…').replace(/\d+\.\dms/g, '…ms')
      const printed = cli.out().slice(cli.out().indexOf('\n', cli.out().indexOf('WebSocket listening on')) + 1)
      expect(normal(printed)).toBe(normal(block as string))
    } finally {
      await cli.stop()
    }
  }, 60_000)
})
