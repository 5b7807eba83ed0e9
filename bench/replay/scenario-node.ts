/**
 * A node of one build made from a recorded suite's config line, as `bench/replay/cpu.ts` and
 * `alloc.ts` (one request repeated in this process) need it: the build is `BENCH_DIST` (a `dist/`
 * inside the repository: `.scratch/`, see docs/performance.md "Measuring traps") or `dist/`.
 */
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { privateKeyToAddress } from 'viem/accounts'
import { finalityOptions, loadScenario } from './scenario.js'

export interface ScenarioNode {
  /** The repository's folder. */
  root: string
  /** The build's folder. */
  distDir: string
  node: { request(r: unknown): Promise<unknown>; close(): Promise<void> }
  /** The suite's requests, in order. */
  requests: Array<{ method: string; params?: unknown[] }>
}

export async function scenarioNode(file: string): Promise<ScenarioNode> {
  const root = fileURLToPath(new URL('../..', import.meta.url))
  const distDir = path.resolve(root, process.env.BENCH_DIST ?? 'dist')
  const { createNode } = (await import(pathToFileURL(path.join(distDir, 'index.js')).href)) as {
    createNode(o: unknown): Promise<ScenarioNode['node']>
  }
  const { config, requests } = loadScenario(file)
  const node = await createNode(finalityOptions(config, privateKeyToAddress))
  return { root, distDir, node, requests: requests as ScenarioNode['requests'] }
}
