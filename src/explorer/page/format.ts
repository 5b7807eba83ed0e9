/** Small display helpers: short hashes, ether amounts, times. */
export const short = (hex: string | null | undefined, n = 6): string => (hex === null || hex === undefined ? '—' : hex.length <= 2 * n + 4 ? hex : `${hex.slice(0, n + 2)}…${hex.slice(-n)}`)

/** Wei as ether, with up to 6 decimals. */
export function ether(wei: string | bigint): string {
  const v = BigInt(wei)
  const whole = v / 10n ** 18n
  const frac = (v % 10n ** 18n).toString().padStart(18, '0').slice(0, 6).replace(/0+$/, '')
  return `${whole}${frac === '' ? '' : `.${frac}`} ETH`
}

export const num = (hex: string | undefined): string => (hex === undefined ? '—' : BigInt(hex).toString())

export const time = (hex: string): string => new Date(Number(BigInt(hex)) * 1000).toISOString().replace('T', ' ').replace('.000Z', ' UTC')
