/**
 * A Foundry project for `forge` in a temporary folder, compiled by the npm `solc` package: forge
 * fetches native solc builds from the network, which tests cannot reach, so the project names a
 * `solc` command made of solc-js, which answers forge's `--version` and `--standard-json` calls.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'

const SOLC = `#!/usr/bin/env node
// forge's solc: --version and --standard-json, by solc-js.
const fs = require('node:fs')
const path = require('node:path')
const solc = require(${JSON.stringify(path.dirname(createRequire(import.meta.url).resolve('solc/package.json')))})
const args = process.argv.slice(2)
if (args.includes('--version')) {
  process.stdout.write('solc, the solidity compiler commandline interface\\nVersion: ' + solc.version().replace('.Emscripten.clang', '') + '.Linux.g++\\n')
  process.exit(0)
}
const base = args.includes('--base-path') ? args[args.indexOf('--base-path') + 1] : process.cwd()
let input = ''
process.stdin.on('data', (d) => (input += d)).on('end', () => {
  const read = (p) => { try { return { contents: fs.readFileSync(path.resolve(base, p), 'utf8') } } catch (e) { return { error: String(e) } } }
  process.stdout.write(solc.compile(input, { import: read }))
})
`

/** A project on disk: its root, and its removal. */
export interface FoundryProject {
  root: string
  remove(): void
}

/**
 * Writes a project: `files` by path under the root (`src/Counter.sol`, `test/X.t.sol`…), a
 * `foundry.toml` whose default profile uses the solc-js command, offline, with `toml` appended
 * (more sections, such as `[rpc_endpoints]`).
 */
export function createFoundryProject(prefix: string, files: Record<string, string>, toml = ''): FoundryProject {
  const root = mkdtempSync(path.join(tmpdir(), prefix))
  writeFileSync(path.join(root, 'solc.cjs'), SOLC, { mode: 0o755 })
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), text)
  }
  const profile = `[profile.default]\nsrc = "src"\nout = "out"\nsolc = ${JSON.stringify(path.join(root, 'solc.cjs'))}\noffline = true\n`
  writeFileSync(path.join(root, 'foundry.toml'), toml === '' ? profile : `${profile}\n${toml}`)
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) }
}
