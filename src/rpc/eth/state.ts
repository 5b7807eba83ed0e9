/** eth methods that read account state at a block (EIP-1898 block params). */
import { data, quantity, word, keyOf } from '../../hex.js'
import type { Services } from '../../services.js'
import { stateBlock } from '../blocks.js'
import { address, blockSelector, optional, storageSlot, type BlockSelector } from '../codecs.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'

import type { HistoryPorts } from '../../services.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'chain' | 'pool'> & HistoryPorts
const method = methodsOf<keyof Here>()

const LATEST: BlockSelector = { kind: 'tag', tag: 'latest' }

async function read<T>(s: Here, selector: BlockSelector, fn: (state: ReturnType<Services['chain']['stateAt']>) => Promise<T>): Promise<T> {
  const state = s.chain.stateAt(await stateBlock(s, selector))
  try {
    return await fn(state)
  } finally {
    state.close()
  }
}

export const state: MethodTable = {
  eth_getBalance: method({
    params: [address, optional(blockSelector, LATEST)],
    run: (s, [addr, at]) => read(s, at, async (st) => quantity((await st.getAccount(keyOf(addr)))?.balance ?? 0n)),
  }),
  eth_getTransactionCount: method({
    params: [address, optional(blockSelector, LATEST)],
    run: async (s, [addr, at]) => {
      const key = keyOf(addr)
      // geth answers `pending` with the pool's next nonce over the head state; no pending block needs building.
      const pending = at.kind === 'tag' && at.tag === 'pending'
      const nonce = await read(s, pending ? LATEST : at, async (st) => (await st.getAccount(key))?.nonce ?? 0n)
      return quantity(pending ? s.pool.pendingNonce(key, nonce) : nonce)
    },
  }),
  eth_getCode: method({
    params: [address, optional(blockSelector, LATEST)],
    run: (s, [addr, at]) => read(s, at, async (st) => data(await st.getCode(keyOf(addr)))),
  }),
  /**
   * Anvil's (and reth's) account in one request: balance, nonce and code. Foundry's fork backend
   * asks it first and, where it is missing, falls back to three requests per account.
   */
  eth_getAccountInfo: method({
    params: [address, optional(blockSelector, LATEST)],
    run: (s, [addr, at]) =>
      read(s, at, async (st) => {
        const key = keyOf(addr)
        const account = await st.getAccount(key)
        return { balance: quantity(account?.balance ?? 0n), nonce: quantity(account?.nonce ?? 0n), code: data(await st.getCode(key)) }
      }),
  }),
  eth_getStorageAt: method({
    params: [address, storageSlot, optional(blockSelector, LATEST)],
    run: (s, [addr, slot, at]) =>
      read(s, at, async (st) => {
        const value = await st.getStorage(keyOf(addr), keyOf(word(slot)))
        const out = new Uint8Array(32)
        out.set(value, 32 - value.length)
        return data(out)
      }),
  }),
}
