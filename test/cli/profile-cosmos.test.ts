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

  it('error: another profile, or a cosmos setting without the profile', () => {
    expect(() => parseCli(['--profile', 'cosmos'])).toThrow(/the one profile is cosmos-evm, got "cosmos"/)
    expect(() => parseCli(['--cosmos.unbonding-blocks', '5'])).toThrow(/--cosmos.unbonding-blocks needs --profile cosmos-evm/)
  })
})
