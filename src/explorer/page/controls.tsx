/** Test controls as buttons: the evm_ and finality_ methods a user would call by hand. */
import { useState } from 'preact/hooks'
import { short } from './format.js'
import { useStore } from './hooks.js'
import { call, explain } from './rpc.js'
import { refreshValidators, reloadBlocks, serves, type Hex } from './store.js'

export function Controls() {
  const s = useStore()
  const [said, say] = useState('')
  const [snapshot, setSnapshot] = useState<Hex>()
  const run = (label: string, method: string, params: unknown[] = [], after?: (r: unknown) => void) => async () => {
    try {
      const r = await call(method, params)
      after?.(r)
      say(`${label}: ${JSON.stringify(r)}`)
    } catch (e) {
      say(`${label}: ${explain(e)}`)
    }
    void refreshValidators()
  }
  const send = async () => {
    try {
      const [from, to] = await call<Hex[]>('eth_accounts')
      if (from === undefined) return say('send: the node has no accounts to send from')
      const hash = await call<Hex>('eth_sendTransaction', [{ from, to: to ?? from, value: '0x2386f26fc10000' }])
      say(`send: ${hash}`)
    } catch (e) {
      say(`send: ${explain(e)}`)
    }
  }
  const off = ['evm', 'finality'].filter((n) => !serves(n))
  const half = s.validators.slice(0, Math.floor(s.validators.length / 2)).map((v) => v.address)
  return (
    <section id="controls">
      <h2>Controls</h2>
      {off.length > 0 && <p class="error">the {off.join(' and ')} namespace{off.length > 1 ? 's are' : ' is'} off on this server: these buttons need {off.length > 1 ? 'them' : 'it'} (CLI: --json-rpc.api)</p>}
      <div class="buttons">
        <button onClick={() => void send()}>Send 0.01 ETH</button>
        <button onClick={run('mine', 'evm_mine')}>Mine a block</button>
        <button onClick={run('increase time', 'evm_increaseTime', [3600])}>+1 hour</button>
        <button onClick={run('snapshot', 'evm_snapshot', [], (id) => setSnapshot(id as Hex))}>Snapshot</button>
        <button disabled={snapshot === undefined} onClick={run('revert', 'evm_revert', [snapshot], () => {
          setSnapshot(undefined)
          void reloadBlocks()
        })}>Revert{snapshot === undefined ? '' : ` to ${snapshot}`}</button>
        <button onClick={run('heal', 'finality_heal')}>Heal all</button>
        {half.length > 0 && <button onClick={run('partition', 'finality_partition', [[half]])}>Partition in two</button>}
      </div>
      <table>
        <tbody>
          {s.validators.map((v) => (
            <tr key={v.address}>
              <td class="mono">{short(v.address)}</td>
              <td class="row-buttons">
                <button data-offline={v.address} onClick={run(`offline ${short(v.address)}`, 'finality_setFault', [v.address, { offline: true }])}>Take offline</button>
                <button onClick={run(`silent ${short(v.address)}`, 'finality_setFault', [v.address, { silent: true }])}>Silence</button>
                <button data-equivocate={v.address} onClick={run(`equivocate ${short(v.address)}`, 'finality_setFault', [v.address, { equivocate: true }])}>Equivocate</button>
                <button onClick={run(`heal ${short(v.address)}`, 'finality_heal', [v.address])}>Heal</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p id="control-result" class="mono">{said}</p>
    </section>
  )
}
