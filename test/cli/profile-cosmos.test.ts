/** `--profile cosmos-evm` and its `cosmos.*` settings, as the command line reads them. */
import { describe, expect, it } from 'vitest'
import { parseCli } from '../../src/cli/config.js'

describe('--profile cosmos-evm', () => {
  it('default: off', () => {
    expect(parseCli([]).cosmos).toBeUndefined()
  })

  it('turns the cosmos option on, with its settings', () => {
    expect(parseCli(['--profile', 'cosmos-evm']).cosmos).toEqual({})
    expect(parseCli(['--profile', 'cosmos-evm', '--cosmos.unbonding-blocks', '5', '--cosmos.bech32-prefix', 'evmos']).cosmos).toEqual({ unbondingBlocks: 5, bech32Prefix: 'evmos' })
  })

  it('the downtime settings: x/slashing\'s window, share, jail and slash fraction', () => {
    const argv = ['--profile', 'cosmos-evm', '--cosmos.signed-blocks-window', '20', '--cosmos.min-signed-per-window', '0.75', '--cosmos.downtime-jail-blocks', '7', '--cosmos.slash-fraction-downtime', '.05']
    expect(parseCli(argv).cosmos).toEqual({ signedBlocksWindow: 20, minSignedPerWindow: 0.75, downtimeJailBlocks: 7, slashFractionDowntime: 0.05 })
    // At the limits: a window of one block, shares of 0 and 1.
    expect(parseCli(['--profile', 'cosmos-evm', '--cosmos.signed-blocks-window', '1', '--cosmos.min-signed-per-window', '1', '--cosmos.slash-fraction-downtime', '0']).cosmos).toEqual({ signedBlocksWindow: 1, minSignedPerWindow: 1, slashFractionDowntime: 0 })
  })

  it('error: a downtime setting out of its range names the flag', () => {
    const bad = (flag: string, value: string) => () => parseCli(['--profile', 'cosmos-evm', `--cosmos.${flag}`, value])
    expect(bad('signed-blocks-window', '0')).toThrow(/cosmos.signed-blocks-window: want an integer >= 1, got 0/)
    expect(bad('downtime-jail-blocks', 'x')).toThrow(/cosmos.downtime-jail-blocks: want an integer >= 1, got x/)
    expect(bad('min-signed-per-window', '1.5')).toThrow(/cosmos.min-signed-per-window: want a share from 0 to 1 \(such as 0.05\), got 1.5/)
    expect(bad('slash-fraction-downtime', '2')).toThrow(/cosmos.slash-fraction-downtime: want a share from 0 to 1/)
    expect(() => parseCli(['--cosmos.slash-fraction-downtime', '0.1'])).toThrow(/--cosmos.slash-fraction-downtime needs --profile cosmos-evm/)
  })

  it('error: another profile, or a cosmos setting without the profile', () => {
    expect(() => parseCli(['--profile', 'cosmos'])).toThrow(/the one profile is cosmos-evm, got "cosmos"/)
    expect(() => parseCli(['--cosmos.unbonding-blocks', '5'])).toThrow(/--cosmos.unbonding-blocks needs --profile cosmos-evm/)
  })
})
