/**
 * Bech32 (BIP-173, the checksum Cosmos addresses use; not bech32m) for 20-byte addresses:
 * `cosmos1…` for accounts, `cosmosvaloper1…` for validator operators.
 */

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'
const GENERATORS = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]

/** A bech32 string that cannot be read: its reason says why. */
export class Bech32Error extends Error {}

function polymod(values: readonly number[]): number {
  let chk = 1
  for (const v of values) {
    const top = chk >>> 25
    chk = ((chk & 0x1ffffff) << 5) ^ v
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GENERATORS[i] as number
  }
  return chk >>> 0
}

function expand(prefix: string): number[] {
  const out: number[] = []
  for (const c of prefix) out.push(c.charCodeAt(0) >> 5)
  out.push(0)
  for (const c of prefix) out.push(c.charCodeAt(0) & 31)
  return out
}

function regroup(data: readonly number[], from: number, to: number, pad: boolean): number[] {
  let acc = 0
  let bits = 0
  const out: number[] = []
  const max = (1 << to) - 1
  for (const v of data) {
    acc = (acc << from) | v
    bits += from
    while (bits >= to) {
      bits -= to
      out.push((acc >> bits) & max)
    }
  }
  if (pad) {
    if (bits > 0) out.push((acc << (to - bits)) & max)
  } else if (bits >= from || ((acc << (to - bits)) & max) !== 0) throw new Bech32Error('invalid padding')
  return out
}

/** `bytes` as bech32 under `prefix` (lower case). */
export function toBech32(prefix: string, bytes: Uint8Array): string {
  if (!/^[\x21-\x7e]{1,83}$/.test(prefix)) throw new Bech32Error(`invalid bech32 prefix "${prefix}"`)
  const hrp = prefix.toLowerCase()
  const data = regroup([...bytes], 8, 5, true)
  const mod = polymod([...expand(hrp), ...data, 0, 0, 0, 0, 0, 0]) ^ 1
  const checksum = Array.from({ length: 6 }, (_, i) => (mod >>> (5 * (5 - i))) & 31)
  return `${hrp}1${[...data, ...checksum].map((d) => CHARSET[d]).join('')}`
}

/** The prefix and bytes of a bech32 string; throws {@link Bech32Error} with the reason. */
export function fromBech32(text: string): { prefix: string; bytes: Uint8Array } {
  if (text.length > 90) throw new Bech32Error('bech32 string too long')
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) throw new Bech32Error('mixed-case bech32 string')
  const s = text.toLowerCase()
  const sep = s.lastIndexOf('1')
  if (sep < 1 || sep + 7 > s.length) throw new Bech32Error(`invalid bech32 string "${text}"`)
  const prefix = s.slice(0, sep)
  const values: number[] = []
  for (const c of s.slice(sep + 1)) {
    const v = CHARSET.indexOf(c)
    if (v < 0) throw new Bech32Error(`invalid bech32 character "${c}"`)
    values.push(v)
  }
  if (polymod([...expand(prefix), ...values]) !== 1) throw new Bech32Error(`invalid bech32 checksum in "${text}"`)
  return { prefix, bytes: Uint8Array.from(regroup(values.slice(0, -6), 5, 8, false)) }
}
