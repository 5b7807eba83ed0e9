/** The `txpool` namespace, with geth's shapes: sender → nonce → transaction. */
import { keccak256 } from '../crypto/keccak.js'
import type { PoolEntry } from '../txpool/pool.js'
import { address } from './codecs.js'
import { effectiveGasPrice, formatTransaction } from './format.js'
import { type MethodTable, methodsOf, type Ports } from './method.js'
import { quantity } from '../hex.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'chain' | 'pool'>
const method = methodsOf<keyof Here>()

/** EIP-55 mixed-case form of an unprefixed lower-case address, as geth keys these maps. */
export function checksum(address: string): string {
  const hash = Buffer.from(keccak256(new TextEncoder().encode(address))).toString('hex')
  let out = '0x'
  for (let i = 0; i < address.length; i++) {
    const c = address[i] as string
    out += parseInt(hash[i] as string, 16) >= 8 ? c.toUpperCase() : c
  }
  return out
}

type Group = Record<string, Record<string, unknown>>

function grouped(entries: PoolEntry[], render: (e: PoolEntry) => unknown): Group {
  const out: Group = {}
  for (const e of [...entries].sort((a, b) => (a.nonce < b.nonce ? -1 : 1))) {
    const key = checksum(e.sender)
    const bySender = (out[key] ??= {})
    bySender[e.nonce.toString(10)] = render(e)
  }
  return out
}

function split(s: Here) {
  return s.pool.partition((sender) => s.chain.nonce(sender))
}

const full = (e: PoolEntry) => formatTransaction(e.tx, Buffer.from(e.sender, 'hex'))

function summary(s: Here) {
  const base = s.chain.head.header.calcNextBaseFee()
  return (e: PoolEntry) => {
    const to = e.tx.to === undefined ? 'contract creation' : checksum(e.tx.to.toString().slice(2))
    return `${to}: ${e.tx.value} wei + ${e.tx.gasLimit} gas × ${effectiveGasPrice(e.tx, base)} wei`
  }
}

export const txpool: MethodTable = {
  txpool_content: method({
    params: [],
    run: (s) => {
      const { pending, queued } = split(s)
      return { pending: grouped(pending, full), queued: grouped(queued, full) }
    },
  }),
  txpool_contentFrom: method({
    params: [address],
    run: (s, [from]) => {
      const sender = Buffer.from(from).toString('hex')
      const { pending, queued } = split(s)
      const mine = (list: PoolEntry[]) => grouped(list.filter((e) => e.sender === sender), full)[checksum(sender)] ?? {}
      return { pending: mine(pending), queued: mine(queued) }
    },
  }),
  txpool_inspect: method({
    params: [],
    run: (s) => {
      const { pending, queued } = split(s)
      const render = summary(s)
      return { pending: grouped(pending, render), queued: grouped(queued, render) }
    },
  }),
  txpool_status: method({
    params: [],
    run: (s) => {
      const { pending, queued } = split(s)
      return { pending: quantity(pending.length), queued: quantity(queued.length) }
    },
  }),
}
