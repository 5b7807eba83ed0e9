/** The block-hash source the EVM's BLOCKHASH opcode reads: the chain's own blocks. */
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm'
import type { Chain } from '../chain/chain.js'

export function chainBlockhashes(chain: Chain): EVMMockBlockchainInterface {
  const source: EVMMockBlockchainInterface = {
    async getBlock(number: number) {
      const n = BigInt(number)
      // A fork's blocks below its fork block are the remote's.
      const hash = chain.hashAt(n) ?? (n < chain.firstNumber ? (await chain.blockByNumber(n))?.hash() : undefined)
      if (hash === undefined) throw new Error(`block ${number} not found`)
      return { hash: () => hash }
    },
    async putBlock() {},
    shallowCopy: () => source,
  }
  return source
}
