/** The page: header with the chain's state and the search, the routes (`#/…`) and the controls. */
import { useEffect, useState } from 'preact/hooks'
import { AddressView, BlockView, Latest, TxView } from './chain.js'
import { ConsensusView } from './consensus.js'
import { Controls } from './controls.js'
import { useStore } from './hooks.js'
import { call, explain } from './rpc.js'
import { haltedAt } from './store.js'

function useRoute(): string[] {
  const [hash, set] = useState(location.hash)
  useEffect(() => {
    const on = () => set(location.hash)
    addEventListener('hashchange', on)
    return () => removeEventListener('hashchange', on)
  }, [])
  return hash.replace(/^#\/?/, '').split('/').filter((p) => p !== '')
}

/** A hash (transaction or block), a number or an address, to its view. */
async function searchFor(q: string): Promise<string> {
  const text = q.trim()
  if (/^\d+$/.test(text)) return `#/block/${text}`
  if (/^0x[0-9a-fA-F]{40}$/.test(text)) return `#/address/${text}`
  if (/^0x[0-9a-fA-F]{64}$/.test(text)) {
    const tx = await call('eth_getTransactionByHash', [text])
    return tx === null ? `#/block/${text}` : `#/tx/${text}`
  }
  throw new Error('search by block number, block or transaction hash (0x + 64 hex), or address (0x + 40 hex)')
}

function Header() {
  const s = useStore()
  const [q, setQ] = useState('')
  const [err, setErr] = useState('')
  const halt = haltedAt()
  const head = s.blocks[0]
  return (
    <header>
      <h1><a href="#/">finality</a></h1>
      <nav><a href="#/">Chain</a> <a href="#/consensus">Consensus</a></nav>
      <span id="status" class={halt === undefined ? 'ok' : 'error'}>
        chain {s.chainId?.toString() ?? '…'} · head #{head === undefined ? '…' : BigInt(head.number).toString()} · {s.validators.length} validator{s.validators.length === 1 ? '' : 's'} · live {s.feed}
      </span>
      <form onSubmit={(e) => {
        e.preventDefault()
        searchFor(q).then((to) => { setErr(''); location.hash = to }, (x: unknown) => setErr(explain(x)))
      }}>
        <input id="search" placeholder="block, tx hash or address" value={q} onInput={(e) => setQ((e.target as HTMLInputElement).value)} />
        <button>Search</button>
      </form>
      {err !== '' && <p class="error">{err}</p>}
      {halt !== undefined && <p id="halt-banner" class="banner error">Halted at height {halt.height.toString()}: {halt.reason}</p>}
      {[...s.problems].filter(([k]) => k !== 'live consensus' && k !== 'finality').map(([k, v]) => <p key={k} class="error">{k}: {v}</p>)}
    </header>
  )
}

export function App() {
  const [view, id] = useRoute()
  const page =
    view === 'block' && id !== undefined ? <BlockView id={id} />
    : view === 'tx' && id !== undefined ? <TxView hash={id} />
    : view === 'address' && id !== undefined ? <AddressView address={id} />
    : view === 'consensus' ? <ConsensusView {...(id === undefined ? {} : { height: id })} />
    : <Latest />
  return (
    <>
      <Header />
      <main>
        <div class="view">{page}</div>
        <aside><Controls /></aside>
      </main>
    </>
  )
}
