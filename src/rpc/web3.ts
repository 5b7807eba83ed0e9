/** The `web3` and `net` namespaces. */
import { keccak256 as keccak_256 } from '../crypto/keccak.js'
import { data } from '../hex.js'
import { bytes } from './codecs.js'
import { type MethodTable, methodsOf, type Ports } from './method.js'
import { VERSION } from '../version.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'chainId' | 'clientVersion'>
const method = methodsOf<keyof Here>()

/**
 * `finality/<version>/<os>-<arch>/node-<version>`, geth's `<name>/<version>/<os>/<runtime>` form.
 * With Hardhat compatibility on, the same string behind `HardhatNetwork/`: Hardhat's network
 * helpers accept a node whose version starts with `hardhatnetwork` (Hardhat 2) or `hardhat`
 * (Hardhat 3), and OpenZeppelin's upgrades-core takes a first segment of exactly
 * `HardhatNetwork` for a development network; the rest still names this node (docs/hardhat.md).
 */
export function clientVersion(hardhatCompat = false): string {
  const own = `finality/v${VERSION}/${process.platform}-${process.arch}/node-${process.version}`
  return hardhatCompat ? `HardhatNetwork/${own}` : own
}

export const web3: MethodTable = {
  web3_clientVersion: method({ params: [], run: (s) => s.clientVersion }),
  web3_sha3: method({ params: [bytes], run: (_s, [input]) => data(keccak_256(input)) }),
}

export const net: MethodTable = {
  net_version: method({ params: [], run: ({ chainId }) => chainId.toString(10) }),
  net_listening: method({ params: [], run: () => true }),
  net_peerCount: method({ params: [], run: () => '0x0' }),
}
