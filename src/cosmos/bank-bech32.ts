/**
 * Cosmos EVM's bech32 precompile (0x…0400, `Bech32I`: hex ⇄ bech32 address conversion) and bank
 * precompile (0x…0804, `IBank`: native balances by the ERC-20 address of their coin).
 */
import { Bech32Error, fromBech32, toBech32 } from './bech32.js'
import type { CosmosSettings } from './options.js'
import { PrecompileRevert, refused, tablePrecompile } from './precompile.js'
import { StakingState } from './staking-state.js'

/** The bech32 precompile. */
export function bech32Precompile(settings: CosmosSettings) {
  return tablePrecompile('0000000000000000000000000000000000000400', [
    {
      signature: 'hexToBech32(address,string)',
      outputs: ['string'],
      write: false,
      gas: 6_000n,
      async run([address, prefix]) {
        if ((prefix as string).trim() === '') {
          const p = settings.bech32Prefix
          throw new PrecompileRevert(
            `invalid bech32 human readable prefix (HRP). Please provide a either an account, validator or consensus address prefix (eg: ${p}, ${p}valoper, ${p}valcons)`,
          )
        }
        try {
          return { values: [toBech32(prefix as string, address as Uint8Array)] }
        } catch (error) {
          if (error instanceof Bech32Error) throw new PrecompileRevert(error.message)
          throw error
        }
      },
    },
    {
      signature: 'bech32ToHex(string)',
      outputs: ['address'],
      write: false,
      gas: 6_000n,
      async run([text]) {
        const s = text as string
        if (s === '' || !s.includes('1')) throw new PrecompileRevert(`invalid bech32 address: ${s}`)
        try {
          const { bytes } = fromBech32(s)
          if (bytes.length !== 20 && bytes.length !== 32) throw new PrecompileRevert(`invalid address length; got: ${bytes.length}, expected 20 or 32`)
          return { values: [bytes.subarray(bytes.length - 20)] }
        } catch (error) {
          if (error instanceof Bech32Error) throw new PrecompileRevert(`decoding bech32 failed: ${error.message}`)
          throw error
        }
      },
    },
  ])
}

/** The bank precompile: the native coin is the one coin, at `settings.nativeErc20`. */
export function bankPrecompile(settings: CosmosSettings) {
  const token = Buffer.from(settings.nativeErc20.slice(2), 'hex')
  return tablePrecompile('0000000000000000000000000000000000000804', [
    {
      signature: 'balances(address)',
      outputs: ['(address,uint256)[]'],
      write: false,
      gas: 3_000n,
      async run([account], call) {
        const balance = await new StakingState(call.state).balance(account as Uint8Array)
        // Cosmos lists the coins an account holds: none for an empty account.
        return { values: [balance === 0n ? [] : [[token, balance]]] }
      },
    },
    refused('totalSupply()', ['(address,uint256)[]'], 'totalSupply: this chain keeps no record of the total supply (an Ethereum state has none)'),
    refused('supplyOf(address)', ['uint256'], 'supplyOf: this chain keeps no record of the total supply (an Ethereum state has none)'),
  ])
}
