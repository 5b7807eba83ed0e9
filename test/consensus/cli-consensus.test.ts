/**
 * The CLI's consensus time-outs: flags (CometBFT's names, dashed) and a TOML [consensus] section
 * (CometBFT's config.toml spelling), reaching the running node (finality_getConsensusState).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseCli } from '../../src/cli/config.js'
import { EPHEMERAL, startCli } from '../helpers/cli.js'
import { rpc } from '../helpers/loopback.js'

describe('CLI consensus time-outs', () => {
  it('flags and the [consensus] section set them; bad durations are refused', () => {
    expect(parseCli(['--consensus.timeout-propose', '50ms', '--consensus.timeout-precommit-delta', '2s']).consensusTimeouts).toEqual({ propose: 50, precommitDelta: 2000 })
    expect(parseCli([]).consensusTimeouts).toEqual({})
    expect(() => parseCli(['--consensus.timeout-prevote', 'soon'])).toThrow('want a duration like 10s or 500ms')
    const dir = mkdtempSync(join(tmpdir(), 'finality-consensus-'))
    try {
      const file = join(dir, 'config.toml')
      writeFileSync(file, 'validators = 4\n[consensus]\ntimeout_propose = "100ms"\ntimeout-prevote-delta = "20ms"\n')
      const c = parseCli(['--config', file, '--consensus.timeout-propose', '70ms'])
      expect(c.validators).toBe(4)
      // Flags win over the file.
      expect(c.consensusTimeouts).toEqual({ propose: 70, prevoteDelta: 20 })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('the running node uses them: a height with an offline proposer moves to round 1', async () => {
    const cli = await startCli([...EPHEMERAL, '--validators', '4', '--consensus.timeout-propose', '40ms', '--consensus.timeout-precommit', '20ms', '--quiet'])
    try {
      const state = (await rpc(cli.http, 'finality_getConsensusState')).result
      expect(state.timeouts).toEqual({ propose: 40, proposeDelta: 500, prevote: 1000, prevoteDelta: 500, precommit: 20, precommitDelta: 500 })
      const [first] = (await rpc(cli.http, 'finality_getValidators')).result
      expect((await rpc(cli.http, 'finality_setFault', [first.address, { offline: true }])).result).toBe(true)
      const accounts = (await rpc(cli.http, 'eth_accounts')).result
      const sent = await rpc(cli.http, 'eth_sendTransaction', [{ from: accounts[0], to: accounts[1], value: '0x1' }])
      const receipt = (await rpc(cli.http, 'eth_getTransactionReceipt', [sent.result])).result
      expect(receipt.blockNumber).toBe('0x1')
      expect((await rpc(cli.http, 'finality_getCommitCertificate', ['0x1'])).result.round).toBe('0x1')
    } finally {
      await cli.stop()
    }
  }, 60_000)
})
