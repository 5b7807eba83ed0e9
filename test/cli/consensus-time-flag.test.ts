/**
 * The CLI's `--consensus.time` (TOML `[consensus] time`): checked, and its default: consensus time,
 * except with `--block-time`, where the rounds wait on the wall clock. The running node says which
 * (finality_getConsensusState, the banner), and at CometBFT's default time-outs an offline proposer
 * costs its height a round, not a wait.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { consensusTime, parseCli } from '../../src/cli/config.js'
import { EPHEMERAL, startCli } from '../helpers/cli.js'
import { rpc } from '../helpers/loopback.js'

describe('CLI --consensus.time', () => {
  it('default: simulated, clock with --block-time (not with --no-mining); the flag and the TOML key win; other values are refused', () => {
    expect(consensusTime(parseCli([]))).toBe('simulated')
    expect(consensusTime(parseCli(['--block-time', '2']))).toBe('clock')
    expect(consensusTime(parseCli(['--no-mining']))).toBe('simulated')
    expect(consensusTime(parseCli(['--consensus.time', 'clock']))).toBe('clock')
    expect(consensusTime(parseCli(['--block-time', '2', '--consensus.time', 'simulated']))).toBe('simulated')
    expect(() => parseCli(['--consensus.time', 'wall'])).toThrow('flag consensus.time: want simulated or clock, got wall')
    const dir = mkdtempSync(join(tmpdir(), 'finality-consensus-time-'))
    try {
      const file = join(dir, 'config.toml')
      writeFileSync(file, 'validators = 4\n[consensus]\ntime = "clock"\n')
      expect(consensusTime(parseCli(['--config', file]))).toBe('clock')
      writeFileSync(file, '[consensus]\ntime = "later"\n')
      expect(() => parseCli(['--config', file])).toThrow(/consensus\.time: want simulated or clock, got later/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('the running node: automine on consensus time, an offline proposer at the default time-outs moves height 1 to round 1; --block-time on the wall clock', async () => {
    const cli = await startCli([...EPHEMERAL, '--validators', '4', '--quiet'])
    try {
      expect(cli.out()).toContain('Validators: 4 (rounds on consensus time: time-outs are not waited for)')
      const state = (await rpc(cli.http, 'finality_getConsensusState')).result
      expect(state.time).toBe('simulated')
      expect(state.timeouts).toMatchObject({ propose: 3000, precommit: 1000 })
      const [first] = (await rpc(cli.http, 'finality_getValidators')).result
      expect((await rpc(cli.http, 'finality_setFault', [first.address, { offline: true }])).result).toBe(true)
      const accounts = (await rpc(cli.http, 'eth_accounts')).result
      const sent = await rpc(cli.http, 'eth_sendTransaction', [{ from: accounts[0], to: accounts[1], value: '0x1' }])
      expect((await rpc(cli.http, 'eth_getTransactionReceipt', [sent.result])).result.status).toBe('0x1')
      expect((await rpc(cli.http, 'finality_getCommitCertificate', ['0x1'])).result.round).toBe('0x1')
    } finally {
      await cli.stop()
    }
    const interval = await startCli([...EPHEMERAL, '--validators', '4', '--block-time', '3600', '--quiet'])
    try {
      expect(interval.out()).toContain('Validators: 4 (round time-outs on the wall clock)')
      expect((await rpc(interval.http, 'finality_getConsensusState')).result.time).toBe('clock')
    } finally {
      await interval.stop()
    }
  }, 60_000)
})
