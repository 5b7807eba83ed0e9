/** The `web3` and `net` namespaces. */
import { keccak256 as keccak_256 } from '../crypto/keccak.js'
import { data } from '../hex.js'
import { bytes } from './codecs.js'
import { method, type MethodTable } from './method.js'
import { VERSION } from '../version.js'

/** `finality/<version>/<os>-<arch>/node-<version>`, geth's `<name>/<version>/<os>/<runtime>` form. */
export function clientVersion(): string {
  return `finality/v${VERSION}/${process.platform}-${process.arch}/node-${process.version}`
}

export const web3: MethodTable = {
  web3_clientVersion: method({ params: [], run: () => clientVersion() }),
  web3_sha3: method({ params: [bytes], run: (_s, [input]) => data(keccak_256(input)) }),
}

export const net: MethodTable = {
  net_version: method({ params: [], run: ({ chainId }) => chainId.toString(10) }),
  net_listening: method({ params: [], run: () => true }),
  net_peerCount: method({ params: [], run: () => '0x0' }),
}
