/**
 * Cosmos EVM's bech32 precompile (0x…0400, `Bech32I`: hex ⇄ bech32 address conversion) and bank
 * precompile (0x…0804, `IBank`: native balances and supply by the ERC-20 address of their coin).
 */
import type { StateManagerInterface } from '@ethereumjs/common'
import { Bech32Error, fromBech32, toBech32 } from './bech32.js'
import type { CosmosSettings } from './options.js'
import { PrecompileRevert, tablePrecompile } from './precompile.js'
import { StakingState } from './staking-state.js'
import { totalSupply } from './supply.js'

/** The supply the module state records, or a revert that says why it has none. */
async function knownSupply(state: StateManagerInterface, method: string): Promise<bigint> {
  const supply = await totalSupply(state)
  if (supply === undefined) {
    throw new PrecompileRevert(
      `${method}: the total supply of this state is not known: it keeps no supply record (a state not made by this node's genesis, such as a forked remote's)`,
    )
  }
  return supply
}

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
    {
      signature: 'totalSupply()',
      outputs: ['(address,uint256)[]'],
      write: false,
      gas: 2_477n,
      async run(_, call) {
        const supply = await knownSupply(call.state, 'totalSupply')
        // x/bank's supply store holds no zero entry: Cosmos lists no coin then.
        return { values: [supply === 0n ? [] : [[token, supply]]] }
      },
    },
    {
      signature: 'supplyOf(address)',
      outputs: ['uint256'],
      write: false,
      gas: 2_477n,
      async run([erc20], call) {
        // cosmos/evm precompiles/bank/query.go SupplyOf: "If the ERC20 token doesn't have a
        // registered TokenPair, the method returns a supply of zero". The native coin is the one
        // token pair here.
        if (Buffer.compare(Buffer.from(erc20 as Uint8Array), token) !== 0) return { values: [0n] }
        return { values: [await knownSupply(call.state, 'supplyOf')] }
      },
    },
  ])
}
