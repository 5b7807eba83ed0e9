/**
 * Run as a child process by the cache tests, two at once on the same folder: stores `count`
 * answers (each slot's value derived from its index) in the fork cache under argv's folder, then
 * reads them all back and prints how many it found intact.
 */
import { openForkCache } from '../../src/fork/disk-cache.js'

const [dir, count] = process.argv.slice(2) as [string, string]
const cache = openForkCache(dir, { chainId: 1n, blockNumber: 5n })
const slot = (i: number) => `0x${i.toString(16).padStart(64, '0')}`
const value = (i: number) => `0x${(BigInt(i) * 0x1234567n).toString(16).padStart(64, '0')}`
const n = Number(count)
await Promise.all(Array.from({ length: n }, (_, i) => cache.put('eth_getStorageAt', ['0x00000000000000000000000000000000000000aa', slot(i), '0x5'], value(i))))
let intact = 0
for (let i = 0; i < n; i++) {
  const hit = await cache.get('eth_getStorageAt', ['0x00000000000000000000000000000000000000aa', slot(i), '0x5'])
  if (hit?.result === value(i)) intact++
}
console.log(JSON.stringify({ intact, ...cache.stats() }))
