/** Consensus, live: the validators, each height's rounds, halts and resumes, evidence, certificates. */
import { useState } from 'preact/hooks'
import { link } from './chain.js'
import { short } from './format.js'
import { useStore } from './hooks.js'
import { call, explain } from './rpc.js'
import { type Height, type Hex, type Seat, store } from './store.js'
import { EvidenceList, Partition } from './network.js'
import { checkCertificate, type CertificateCheck, type CertificateJson } from './verify.js'

function Validators() {
  const s = useStore()
  const total = s.validators.reduce((sum, v) => sum + BigInt(v.votingPower), 0n)
  return (
    <section>
      <h2>Validators</h2>
      <table id="validators">
        <thead><tr><th>Address</th><th>Power</th><th>Status</th><th>Faults</th></tr></thead>
        <tbody>
          {s.validators.map((v) => {
            const fault = s.faults.find((f) => f.validator.toLowerCase() === v.address.toLowerCase())
            const { validator: _, ...rest } = fault ?? { validator: '' }
            return (
              <tr key={v.address}>
                <td class="mono" title={v.address}>{short(v.address)}</td><td>{BigInt(v.votingPower).toString()} of {total.toString()}</td>
                <td class={v.online ? 'ok' : 'error'}>{v.online ? 'online' : 'offline'}</td><td class="mono">{fault === undefined ? '—' : JSON.stringify(rest)}</td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </section>
  )
}

function mark(hash: Hex | null | undefined, commit: Hex | undefined): { text: string; cls: string } {
  if (hash === undefined) return { text: '·', cls: 'muted' }
  if (hash === null) return { text: 'nil', cls: 'nil' }
  return { text: short(hash, 3), cls: commit !== undefined && hash === commit ? 'ok' : 'other' }
}

function SeatCells({ seat, commit }: { seat: Seat | undefined; commit: Hex | undefined }) {
  const pv = mark(seat?.prevote, commit)
  const pc = mark(seat?.precommit, commit)
  return (
    <>
      <td class={seat?.proposed === undefined ? 'muted' : 'ok'}>{seat?.proposed === undefined ? '' : `proposed ${short(seat.proposed, 3)}`}</td>
      <td class={pv.cls}>{pv.text}{seat?.polka === true ? ' polka' : ''}</td>
      <td class={pc.cls}>{pc.text}{seat?.lock === true ? ' lock' : ''}</td>
      <td class="muted">{seat?.timeouts.join(', ')}</td>
    </>
  )
}

function HeightView({ h }: { h: Height }) {
  const validators = store.validators.map((v) => v.address)
  return (
    <div class="height" data-height={h.height.toString()}>
      <h3>
        Height {h.height.toString()}{' '}
        {h.commit !== undefined ? <span class="ok">committed in round {h.commit.round} ({short(h.commit.blockHash)}, proposer {short(h.commit.proposer)})</span> : h.halted !== undefined ? <span class="error halted">halted: {h.halted}</span> : <span class="muted">under way</span>}{' '}
        {h.commit !== undefined && link('consensus', h.height.toString(), 'certificate')}
      </h3>
      {[...h.rounds.values()].sort((a, b) => a.round - b.round).map((r) => (
        <table key={r.round} class="round">
          <caption>round {r.round}{r.proposer === undefined ? '' : `, proposer ${short(r.proposer)}`}</caption>
          <thead><tr><th>Validator</th><th>Proposal</th><th>Prevote</th><th>Precommit</th><th>Time-outs</th></tr></thead>
          <tbody>
            {(validators.length > 0 ? validators : [...r.seats.keys()]).map((v) => (
              <tr key={v}><td class="mono">{short(v)}</td><SeatCells seat={r.seats.get(v)} commit={h.commit?.blockHash} /></tr>
            ))}
          </tbody>
        </table>
      ))}
    </div>
  )
}

function Halts() {
  const s = useStore()
  return (
    <section>
      <h2>Halts and resumes</h2>
      {s.halts.length === 0 ? <p class="muted">none seen since the page opened</p> : (
        <ol id="halts">{s.halts.map((e, i) => <li key={i} class={e.type === 'halt' ? 'error' : 'ok'}>{e.at.toLocaleTimeString()}: {e.type === 'halt' ? `halted at height ${e.height}: ${e.reason}` : `resumed: block ${e.height} committed`}</li>)}</ol>
      )}
      <EvidenceList />
    </section>
  )
}

/** The certificate of one height, checked here in the browser. */
export function CertificateView({ height }: { height: string }) {
  const [result, set] = useState<{ cert: CertificateJson; check: CertificateCheck } | string>()
  const verify = async () => {
    try {
      const tag = `0x${BigInt(height).toString(16)}`
      const [cert, block] = await Promise.all([call<CertificateJson | null>('finality_getCommitCertificate', [tag]), call<{ hash: Hex } | null>('eth_getBlockByNumber', [tag, false])])
      if (cert === null || block === null) return set(`no certificate for block ${height}`)
      set({ cert, check: checkCertificate(cert, block.hash, store.chainId ?? BigInt(await call<Hex>('eth_chainId'))) })
    } catch (e) {
      set(explain(e))
    }
  }
  return (
    <section id="certificate">
      <h2>Commit certificate of block {link('block', height, `#${height}`)}</h2>
      <button onClick={() => void verify()}>Verify in this browser</button>
      {typeof result === 'string' && <p class="error">{result}</p>}
      {typeof result === 'object' && (
        <>
          <p id="certificate-result" class={result.check.ok ? 'ok' : 'error'}>
            {result.check.ok ? 'verified' : 'does not verify'}: {result.check.signatures.filter((x) => x.ok).length} of {result.cert.precommits.length} signatures (ed25519), {result.check.signedPower.toString()} of {result.check.totalPower.toString()} voting power{result.check.ok ? ', more than 2/3' : `; ${result.check.problems.join('; ')}`}
          </p>
          <table>
            <thead><tr><th>Validator</th><th>Signature</th><th>Check</th></tr></thead>
            <tbody>{result.check.signatures.map((x, i) => <tr key={x.validator}><td class="mono">{x.validator}</td><td class="mono">{short(result.cert.precommits[i]?.signature, 8)}</td><td class={x.ok ? 'ok' : 'error'}>{x.ok ? '✓' : `✗ ${x.why ?? ''}`}</td></tr>)}</tbody>
          </table>
          <p class="muted">round {BigInt(result.cert.round).toString()}, proposer {result.cert.proposer}, block {result.cert.blockHash}</p>
        </>
      )}
    </section>
  )
}

export function ConsensusView({ height }: { height?: string }) {
  const s = useStore()
  const heights = [...s.heights.values()].sort((a, b) => (a.height < b.height ? 1 : -1))
  const problem = s.problems.get('live consensus') ?? s.problems.get('finality')
  return (
    <div>
      {problem !== undefined && <p class="error">{problem}</p>}
      {height !== undefined && <CertificateView height={height} />}
      <div class="columns">
        <Validators />
        <Halts />
      </div>
      <Partition />
      <section>
        <h2>Rounds, live</h2>
        {heights.length === 0 ? <p class="muted">no height run since the page opened (with one validator and no faults blocks are decided without rounds)</p> : heights.map((h) => <HeightView key={h.height.toString()} h={h} />)}
      </section>
    </div>
  )
}
