#!/usr/bin/env node
/**
 * Bundles EDR's stack-trace fixtures for Solidity 0.8 (and its version-independent ones) into
 * test/fixtures/edr-stack-traces/scenarios.json: one entry per scenario, its test.json and the
 * Solidity files of its folder, so the test suite carries one file instead of hundreds.
 *
 *   node scripts/edr-stack-trace-fixtures.mjs <an EDR checkout> <its commit>
 *
 * The scenarios are EDR's (MIT; test/fixtures/edr-stack-traces/LICENSE).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const [checkout, commit] = process.argv.slice(2)
if (checkout === undefined || commit === undefined) {
  console.error('usage: node scripts/edr-stack-trace-fixtures.mjs <edr checkout> <commit>')
  process.exit(2)
}
const root = path.join(checkout, 'hardhat-tests/test/internal/hardhat-network/stack-traces/test-files')
const scenarios = {}
function walk(dir) {
  const names = readdirSync(dir).sort()
  if (names.includes('test.json')) {
    const sources = {}
    for (const n of names) if (n.endsWith('.sol')) sources[n] = readFileSync(path.join(dir, n), 'utf8')
    scenarios[path.relative(root, dir)] = { test: JSON.parse(readFileSync(path.join(dir, 'test.json'), 'utf8')), sources }
  }
  for (const n of names) if (statSync(path.join(dir, n)).isDirectory()) walk(path.join(dir, n))
}
walk(path.join(root, '0_8'))
walk(path.join(root, 'version-independent'))
const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test/fixtures/edr-stack-traces/scenarios.json')
writeFileSync(out, `${JSON.stringify({ commit, scenarios })}\n`)
console.log(`${Object.keys(scenarios).length} scenarios → ${out}`)
