/** The chain's views: latest blocks and transactions, a block, a transaction, an account. */
import { useState } from 'preact/hooks'
import { ether, num, short, time } from './format.js'
import { useLoad, useStore, type Loaded } from './hooks.js'
import { call, explain } from './rpc.js'
import { serves, type Block, type Hex, type Tx } from './store.js'

export const link = (kind: string, id: string, text?: string) => <a href={`#/${kind}/${id}`}>{text ?? short(id, 4)}</a>

function Show<T>({ loaded, children }: { loaded: Loaded<T>; children: (value: T) => preact.ComponentChildren }) {
  if (loaded.state === 'loading') return <p class="muted">loading…</p>
  if (loaded.state === 'failed') return <p class="error">{loaded.error}</p>
  return <>{children(loaded.value)}</>
}

export function Latest() {
  const s = useStore()
  const txs = s.blocks.flatMap((b) => b.transactions).slice(0, 25)
  return (
    <div class="columns">
      <section>
        <h2>Latest blocks</h2>
        <table id="blocks">
          <thead><tr><th>Block</th><th>Hash</th><th>Txs</th><th>Gas used</th><th>Proposer (miner)</th></tr></thead>
          <tbody>
            {s.blocks.map((b) => (
              <tr key={b.hash} data-number={num(b.number)}>
                <td>{link('block', num(b.number), `#${num(b.number)}`)}</td><td class="mono">{short(b.hash)}</td><td>{b.transactions.length}</td><td>{num(b.gasUsed)}</td><td>{link('address', b.miner)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section>
        <h2>Latest transactions</h2>
        <table id="transactions">
          <thead><tr><th>Hash</th><th>Block</th><th>From</th><th>To</th><th>Value</th></tr></thead>
          <tbody>
            {txs.map((t) => (
              <tr key={t.hash} data-hash={t.hash}>
                <td>{link('tx', t.hash)}</td><td>{num(t.blockNumber)}</td><td>{link('address', t.from)}</td><td>{t.to === null ? 'create' : link('address', t.to)}</td><td>{ether(t.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  )
}

export function BlockView({ id }: { id: string }) {
  const tag = id.startsWith('0x') && id.length === 66 ? id : `0x${BigInt(id).toString(16)}`
  const loaded = useLoad(id, () => call<Block | null>(tag.length === 66 ? 'eth_getBlockByHash' : 'eth_getBlockByNumber', [tag, true]))
  return (
    <Show loaded={loaded}>
      {(b) => b === null ? <p class="error">no block {id}</p> : (
        <section>
          <h2>Block #{num(b.number)}</h2>
          <dl>
            <dt>Hash</dt><dd class="mono">{b.hash}</dd>
            <dt>Parent</dt><dd>{link('block', b.parentHash, b.parentHash)}</dd>
            <dt>Time</dt><dd>{time(b.timestamp)}</dd>
            <dt>Proposer (miner)</dt><dd>{link('address', b.miner, b.miner)}</dd>
            <dt>Gas</dt><dd>{num(b.gasUsed)} of {num(b.gasLimit)}</dd>
            <dt>Base fee</dt><dd>{num(b.baseFeePerGas)} wei</dd>
            <dt>Consensus</dt><dd>{link('consensus', num(b.number), 'rounds and certificate')}</dd>
          </dl>
          <h3>Transactions</h3>
          <ul>{b.transactions.map((t: Tx) => <li key={t.hash}>{link('tx', t.hash, t.hash)}</li>)}</ul>
        </section>
      )}
    </Show>
  )
}

interface Log { address: Hex; topics: Hex[]; data: Hex; logIndex: Hex }
interface Receipt { status: Hex; gasUsed: Hex; contractAddress: Hex | null; logs: Log[] }
type AbiJson = string | boolean | AbiJson[]
interface DecodedArg { name: string; type: string; indexed: boolean; value: AbiJson; hashed?: true }
/** finality_decodeLogs's answer (docs/interface.md). */
interface DecodedLogs { contractsKnown: Hex; logs: Array<{ logIndex: Hex; contract: string | null; event: { name: string; signature: string; declaredBy: string; args: DecodedArg[] } | null }> }

const argText = (v: AbiJson): string => (Array.isArray(v) ? `[${v.map(argText).join(', ')}]` : String(v))

/** The logs: by event and named arguments where the node decoded them, else topics and data. */
function Logs({ receipt, decoded }: { receipt: Receipt | null; decoded: DecodedLogs | string | undefined }) {
  if (receipt === null || receipt.logs.length === 0) return <p class="muted">none</p>
  const byIndex = new Map(typeof decoded === 'object' ? decoded.logs.map((d) => [d.logIndex, d]) : [])
  return (
    <>
      {typeof decoded === 'string' && <p class="muted" id="logs-note">{decoded}</p>}
      {typeof decoded === 'object' && BigInt(decoded.contractsKnown) === 0n && <p class="muted" id="logs-note">not decoded: the node holds no contract metadata (CLI: --artifacts; createNode: artifacts)</p>}
      <ol id="logs">
        {receipt.logs.map((l) => {
          const d = byIndex.get(l.logIndex)
          const event = d?.event ?? null
          return (
            <li key={l.logIndex} data-log-index={num(l.logIndex)}>
              {link('address', l.address)}{d === undefined || d.contract === null ? '' : ` (${d.contract})`}{' '}
              {event === null ? (
                <>topics {l.topics.map((t) => <code key={t}>{short(t)} </code>)} data <code>{short(l.data, 10)}</code></>
              ) : (
                <span class="event" title={`${event.signature}, declared by ${event.declaredBy}`}>
                  <b>{event.name}</b>(
                  {event.args.map((a, i) => (
                    <span key={i} class="arg" data-name={a.name}>
                      {i === 0 ? '' : ', '}
                      <span class="muted">{a.name}</span>: <code>{argText(a.value)}</code>{a.hashed === true ? <span class="muted"> (hash)</span> : ''}
                    </span>
                  ))}
                  )
                </span>
              )}
            </li>
          )
        })}
      </ol>
    </>
  )
}
interface Frame { type: string; from: Hex; to?: Hex; value?: Hex; gasUsed: Hex; input: Hex; output?: Hex; error?: string; revertReason?: string; calls?: Frame[] }

function Trace({ frame, depth = 0 }: { frame: Frame; depth?: number }) {
  return (
    <li>
      <span class={frame.error === undefined ? '' : 'error'}>{frame.type} {short(frame.from)} → {frame.to === undefined ? '?' : link('address', frame.to)} {frame.value === undefined ? '' : ether(frame.value)} gas {num(frame.gasUsed)} {frame.error === undefined ? '' : `(${frame.error}${frame.revertReason === undefined ? '' : `: ${frame.revertReason}`})`}</span>
      {frame.calls !== undefined && depth < 32 && <ul>{frame.calls.map((c, i) => <Trace key={i} frame={c} depth={depth + 1} />)}</ul>}
    </li>
  )
}

export function TxView({ hash }: { hash: string }) {
  const loaded = useLoad(hash, async () => {
    const [tx, receipt] = await Promise.all([call<Tx | null>('eth_getTransactionByHash', [hash]), call<Receipt | null>('eth_getTransactionReceipt', [hash])])
    let trace: Frame | string | undefined
    let decoded: DecodedLogs | string | undefined
    if (receipt !== null && receipt.logs.length > 0) {
      decoded = serves('finality') ? await call<DecodedLogs | null>('finality_decodeLogs', [hash]).then((d) => d ?? undefined, (e: unknown) => `not decoded: ${explain(e)}`) : 'not decoded: the finality namespace is off on this server, and finality_decodeLogs is in it (CLI: add finality to --json-rpc.api)'
    }
    if (receipt !== null) {
      trace = serves('debug') ? await call<Frame>('debug_traceTransaction', [hash, { tracer: 'callTracer' }]).catch((e: unknown) => explain(e)) : 'the debug namespace is off on this server: the call trace and revert reason need it (CLI: add debug to --json-rpc.api)'
    }
    return { tx, receipt, trace, decoded }
  })
  return (
    <Show loaded={loaded}>
      {({ tx, receipt, trace, decoded }) => tx === null ? <p class="error">no transaction {hash}</p> : (
        <section>
          <h2>Transaction</h2>
          <dl>
            <dt>Hash</dt><dd class="mono">{tx.hash}</dd>
            <dt>Status</dt><dd id="tx-status">{receipt === null ? 'pending' : receipt.status === '0x1' ? 'success' : 'reverted'}</dd>
            <dt>Block</dt><dd>{tx.blockNumber === null ? 'pending' : link('block', num(tx.blockNumber), `#${num(tx.blockNumber)}`)}</dd>
            <dt>From</dt><dd>{link('address', tx.from, tx.from)}</dd>
            <dt>To</dt><dd>{tx.to === null ? `create ${receipt?.contractAddress ?? ''}` : link('address', tx.to, tx.to)}</dd>
            <dt>Value</dt><dd>{ether(tx.value)}</dd>
            <dt>Nonce</dt><dd>{num(tx.nonce)}</dd>
            <dt>Gas used</dt><dd>{receipt === null ? '—' : `${num(receipt.gasUsed)} of ${num(tx.gas)}`}</dd>
            {typeof trace === 'object' && trace.revertReason !== undefined && <><dt>Revert reason</dt><dd id="revert-reason" class="error">{trace.revertReason}</dd></>}
            <dt>Input</dt><dd class="mono wrap">{tx.input}</dd>
          </dl>
          <h3>Logs</h3>
          <Logs receipt={receipt} decoded={decoded} />
          <h3>Call trace</h3>
          {trace === undefined ? <p class="muted">not mined yet</p> : typeof trace === 'string' ? <p class="error">{trace}</p> : <ul id="trace" class="trace"><Trace frame={trace} /></ul>}
        </section>
      )}
    </Show>
  )
}

export function AddressView({ address }: { address: string }) {
  const loaded = useLoad(address, async () => {
    const [balance, nonce, code] = await Promise.all([call<Hex>('eth_getBalance', [address, 'latest']), call<Hex>('eth_getTransactionCount', [address, 'latest']), call<Hex>('eth_getCode', [address, 'latest'])])
    return { balance, nonce, code }
  })
  const [slot, setSlot] = useState('0x0')
  const [value, setValue] = useState<string>()
  const read = () => call<Hex>('eth_getStorageAt', [address, slot, 'latest']).then(setValue, (e: unknown) => setValue(explain(e)))
  return (
    <Show loaded={loaded}>
      {({ balance, nonce, code }) => (
        <section>
          <h2>Account {address}</h2>
          <dl>
            <dt>Balance</dt><dd id="balance">{ether(balance)}</dd>
            <dt>Nonce</dt><dd>{num(nonce)}</dd>
            <dt>Code</dt><dd class="mono wrap">{code === '0x' ? 'none (an account without code)' : `${(code.length - 2) / 2} bytes: ${short(code, 32)}`}</dd>
          </dl>
          <h3>Storage</h3>
          <form onSubmit={(e) => { e.preventDefault(); void read() }}>
            <input value={slot} onInput={(e) => setSlot((e.target as HTMLInputElement).value)} aria-label="slot" /> <button>Read slot</button>
          </form>
          {value !== undefined && <p class="mono" id="slot-value">{value}</p>}
        </section>
      )}
    </Show>
  )
}
