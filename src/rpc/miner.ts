/**
 * The `miner` namespace: this node's block production. There is no proof of work here, so
 * "mining" means the producer (docs/controls.md, "miner and admin"); results are
 * geth's (`null` for start and stop, `true` for the setters). miner_setRecommitInterval and
 * miner_getHashrate are absent: blocks are built once per height, and nothing hashes for them.
 */
import { data } from '../hex.js'
import { address, quantity, text } from './codecs.js'
import { type MethodTable, methodsOf, type Ports } from './method.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'controls'>
const method = methodsOf<keyof Here>()

export const miner: MethodTable = {
  miner_stop: method({
    params: [],
    run: (s) => {
      s.controls.mining.stop()
      return null
    },
  }),
  miner_start: method({
    params: [],
    run: async (s) => {
      await s.controls.mining.start()
      return null
    },
  }),
  miner_setEtherbase: method({ params: [address], run: (s, [etherbase]) => (s.controls.mining.setCoinbase(data(etherbase)), true) }),
  // One floor for every setter of the block gas limit (BlockSettings.setGasLimit).
  miner_setGasLimit: method({ params: [quantity], run: (s, [limit]) => (s.controls.mining.setGasLimit(limit), true) }),
  // geth takes a string and uses its bytes (UTF-8), not hex.
  miner_setExtra: method({ params: [text], run: (s, [extra]) => (s.controls.mining.setExtraData(new TextEncoder().encode(extra)), true) }),
  // geth's txpool price limit: new transactions must tip at least this much, and pooled ones below
  // a raised limit are dropped (their waiting senders get the refusal).
  miner_setGasPrice: method({
    params: [quantity],
    run: async (s, [tip]) => {
      await s.controls.mining.setMinTip(tip)
      return true
    },
  }),
}
