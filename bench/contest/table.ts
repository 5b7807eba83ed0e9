/** The contest's rows, their medians and ratios, printed as a Markdown table. */
import type { Contestant } from './plan.js'

export interface Row {
  label: string
  /** The figure's key in the children's results (or `vitestPerFileMs`). */
  key: string
  unit: string
  better: 'higher' | 'lower'
  digits: number
  /** Contestants the row does not apply to. */
  skip?: readonly Contestant[]
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

const fmt = (x: number, digits: number): string =>
  Number.isFinite(x) ? x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '—'

/** `a / b` with what it means for the row: "0.64× (slower)", "3.3× (more)". */
export function ratio(a: number, b: number, row: Row): string {
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return '—'
  const r = a / b
  const text = `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}×`
  if (row.unit === 'MB') return `${text} (${r > 1 ? 'more' : 'less'})`
  const faster = row.better === 'higher' ? r > 1 : r < 1
  return `${text} (${faster ? 'faster' : 'slower'})`
}

export type Samples = Record<Contestant, Record<string, number[]>>

/** The table: workload | finality | EDR | Anvil | finality / EDR | finality / Anvil (medians). */
export function renderTable(rows: readonly Row[], samples: Samples): string {
  const lines = ['| workload | finality | EDR | Anvil | finality / EDR | finality / Anvil |', '| --- | ---: | ---: | ---: | ---: | ---: |']
  for (const row of rows) {
    const m = (c: Contestant): number => (row.skip?.includes(c) ? NaN : median(samples[c][row.key] ?? []))
    const [f, e, a] = [m('finality'), m('edr'), m('anvil')]
    const cell = (x: number): string => (Number.isFinite(x) ? fmt(x, row.digits) : '—')
    const first = Number.isFinite(f) ? `${fmt(f, row.digits)} ${row.unit}` : '—'
    lines.push(`| ${row.label.trim()} | ${first} | ${cell(e)} | ${cell(a)} | ${ratio(f, e, row)} | ${ratio(f, a, row)} |`)
  }
  return lines.join('\n')
}

/** Each run's figure, for the spread under the table. */
export function renderSpread(rows: readonly Row[], samples: Samples): string {
  const out: string[] = []
  for (const row of rows) {
    const parts = (['finality', 'edr', 'anvil'] as const)
      .filter((c) => !row.skip?.includes(c))
      .map((c) => `${c} ${(samples[c][row.key] ?? []).map((x) => fmt(x, row.digits)).join(' / ')}`)
    out.push(`  ${row.label}: ${parts.join('; ')}`)
  }
  return out.join('\n')
}
