/**
 * The one formatter of log entries: the lines the CLI prints and `onLog` receives. Colours (ANSI
 * SGR codes) only when asked for; the CLI asks when stdout is a terminal and NO_COLOR is unset.
 */
import type { Failure, LogEntry, TransactionEntry } from './entries.js'

type Paint = (code: number, text: string) => string

const plain: Paint = (_code, text) => text
const ansi: Paint = (code, text) => `\x1b[${code}m${text}\x1b[0m`

const RED = 31
const GREEN = 32
const YELLOW = 33
const CYAN = 36
const DIM = 2

/** Wei as ETH, without trailing zeros. */
export function formatEther(wei: bigint): string {
  const whole = wei / 10n ** 18n
  const frac = (wei % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '')
  return frac === '' ? whole.toString() : `${whole}.${frac}`
}

/** A failure in Hardhat's words (its node prints `reverted with reason string '…'`). */
export function describeFailure(f: Failure): string {
  switch (f.kind) {
    case 'reason':
      return `reverted with reason string '${f.reason}'`
    case 'panic':
      return `reverted with panic code 0x${f.code.toString(16)} (${f.description})`
    case 'custom':
      if (f.name !== undefined) return `reverted with custom error '${f.name}'`
      return `reverted with custom error ${f.selector}${f.data === '0x' ? '' : ` (arguments ${f.data})`}`
    case 'empty':
      return 'reverted without a reason'
    case 'evm':
      return f.error
  }
}

function row(label: string, value: string): string {
  return `  ${`${label}:`.padEnd(18)}${value}`
}

function consoleLines(paint: Paint, messages: string[]): string[] {
  if (messages.length === 0) return []
  return ['  console.log:', ...messages.map((m) => paint(DIM, `    ${m}`))]
}

function transaction(e: TransactionEntry, paint: Paint): string[] {
  return [
    row('Transaction', paint(CYAN, e.hash)),
    ...(e.contractAddress === undefined ? [] : [row('Contract created', e.contractAddress)]),
    row('From', e.from),
    ...(e.to === undefined ? [] : [row('To', e.to)]),
    row('Value', `${formatEther(e.value)} ETH`),
    row('Gas used', `${e.gasUsed} of ${e.gasLimit}`),
    row(`Block #${e.blockNumber}`, e.blockHash),
    row('Status', e.status === 'success' ? paint(GREEN, 'success') : paint(RED, 'reverted')),
    ...(e.failure === undefined ? [] : [row('Error', paint(RED, describeFailure(e.failure)))]),
    ...consoleLines(paint, e.consoleLogs),
    ...(e.events === undefined || e.events.length === 0 ? [] : ['  events:', ...e.events.map((m) => paint(DIM, `    ${m}`))]),
  ]
}

/** The line(s) of one entry, joined by newlines, without a newline at the end. */
export function formatEntry(e: LogEntry, color = false): string {
  const paint = color ? ansi : plain
  switch (e.type) {
    case 'request': {
      // A failed request's method in red, as Hardhat's node shows it.
      const lines = [`${e.error === undefined ? e.method : paint(RED, e.method)} ${paint(DIM, `${e.ms.toFixed(1)}ms`)}`]
      if (e.error !== undefined) {
        // Hardhat's messages start with `Error: ` themselves: the row says it once.
        lines.push(row('Error', paint(RED, e.error.failure === undefined ? e.error.message.replace(/^Error: /, '') : describeFailure(e.error.failure))))
        // Its Solidity frames under it, as Hardhat's node prints an error's stack.
        for (const frame of e.error.stack) lines.push(paint(DIM, `      at ${frame}`))
      }
      lines.push(...consoleLines(paint, e.consoleLogs))
      return lines.join('\n')
    }
    case 'transaction':
      return transaction(e, paint).join('\n')
    case 'block':
      return paint(GREEN, `Mined block #${e.number} ${e.hash} (${e.transactions} transaction${e.transactions === 1 ? '' : 's'}, ${e.gasUsed} gas)`)
    case 'blocks':
      return paint(GREEN, `Mined empty blocks #${e.first} to #${e.last} (${e.last - e.first + 1n} blocks, last ${e.lastHash})`)
    case 'console':
      return `console.log: ${e.message}`
    case 'consensus':
      switch (e.event) {
        case 'round':
          return paint(YELLOW, `Consensus: height ${e.height} moved to round ${e.round} (proposer ${e.proposer})`)
        case 'timeout':
          return paint(YELLOW, `Consensus: height ${e.height} round ${e.round} ${e.step} time-out`)
        case 'halt':
          return paint(RED, `Consensus: halted at height ${e.height}: not enough validators online for a commit (transactions stay pending)`)
        case 'resume':
          return paint(GREEN, `Consensus: resumed, block #${e.height} committed`)
        case 'evidence':
          return paint(RED, `Consensus: evidence of a double ${e.step} by ${e.validator} at height ${e.height} round ${e.round}`)
      }
  }
}
