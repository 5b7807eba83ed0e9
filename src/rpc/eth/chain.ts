/** eth methods about the chain and the node itself (and the uncle methods of a chain without uncles). */
import { quantity } from '../../hex.js'
import { blockTag, hash, quantity as qty } from '../codecs.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'


/** The services this namespace's handlers read and write through. */
type Here = Ports<'chain' | 'chainId' | 'keyring' | 'producer'>
const method = methodsOf<keyof Here>()

export const chain: MethodTable = {
  eth_chainId: method({ params: [], run: ({ chainId }) => quantity(chainId) }),
  // eth/68, the protocol version geth reports.
  eth_protocolVersion: method({ params: [], run: () => '0x44' }),
  eth_syncing: method({ params: [], run: () => false }),
  eth_accounts: method({ params: [], run: ({ keyring }) => keyring.addresses() }),
  // The fee recipient of the next block: miner_setEtherbase's / hardhat_setCoinbase's, else the proposer's.
  eth_coinbase: method({ params: [], run: ({ producer }) => producer.nextCoinbase() }),
  eth_mining: method({ params: [], run: () => false }),
  eth_hashrate: method({ params: [], run: () => '0x0' }),
  eth_blockNumber: method({ params: [], run: ({ chain }) => quantity(chain.height) }),
  eth_getUncleCountByBlockHash: method({ params: [hash], run: () => '0x0' }),
  eth_getUncleCountByBlockNumber: method({ params: [blockTag], run: () => '0x0' }),
  eth_getUncleByBlockHashAndIndex: method({ params: [hash, qty], run: () => null }),
  eth_getUncleByBlockNumberAndIndex: method({ params: [blockTag, qty], run: () => null }),
}
