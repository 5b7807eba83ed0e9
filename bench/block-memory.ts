/**
 * Memory a chain keeps per block: a fresh node (`createNode()`), 400 blocks, then the growth of
 * heap and array buffers (after two full GCs) over 2,000 more, per block. Blocks are one-block
 * `hardhat_mine` calls (`empty`) or ETH transfers sent with `eth_sendTransaction` (`eth`); with
 * `snapshot`, an `evm_snapshot` is taken first and stays open, as in a suite built on fixtures
 * (every block then records what it overwrote for the revert).
 *
 *   npm run build && node --expose-gc --import tsx bench/block-memory.ts empty snapshot
 *
 * `BENCH_DIST=<dir>` loads another build (inside the repository, as for bench/replay).
 */
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const [kind = 'empty', mode = ''] = process.argv.slice(2)
if (kind !== 'empty' && kind !== 'eth') throw new Error('usage: block-memory.ts <empty|eth> [snapshot]')
const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('run with node --expose-gc')
const root = fileURLToPath(new URL('..', import.meta.url))
const distDir = path.resolve(root, process.env.BENCH_DIST ?? 'dist')
const { createNode } = (await import(pathToFileURL(path.join(distDir, 'index.js')).href)) as {
  createNode(): Promise<{ request(r: unknown): Promise<unknown>; close(): Promise<void> }>
}
const node = await createNode()
if (mode === 'snapshot') await node.request({ method: 'evm_snapshot', params: [] })
const [from, to] = (await node.request({ method: 'eth_accounts' })) as string[]
const block = () =>
  kind === 'empty'
    ? node.request({ method: 'hardhat_mine', params: ['0x1'] })
    : node.request({ method: 'eth_sendTransaction', params: [{ from, to, value: '0x1' }] })
const kept = () => {
  gc()
  gc()
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}
for (let i = 0; i < 400; i++) await block()
const before = kept()
const n = 2000
for (let i = 0; i < n; i++) await block()
console.log(`${path.relative(root, distDir)} ${kind}${mode === 'snapshot' ? ' under a snapshot' : ''}: ${((kept() - before) / n / 1024).toFixed(2)} KB kept a block (heap + array buffers)`)
await node.close()
