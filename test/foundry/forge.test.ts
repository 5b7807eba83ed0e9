/**
 * The real `forge` (npm `@foundry-rs/forge` 1.7.1) deploying to the `finality` CLI and to Anvil
 * 1.7.1: `forge create` and `forge script --broadcast` of a small project, compared. forge fetches
 * native solc builds from the network, which tests cannot reach, so the project names a `solc`
 * command made of the npm `solc` package (solc-js), which answers forge's `--version` and
 * `--standard-json` calls.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type RunningAnvil } from '../helpers/anvil.js'
import { EPHEMERAL, startCli, type RunningCli } from '../helpers/cli.js'
import { foundryTool, runTool } from '../helpers/foundry-tools.js'

// Account 1 of both (the same mnemonic), unused by anything else here: the same nonces.
const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'

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

const COUNTER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Counter {
    uint256 public count;
    function increment() external { count += 1; }
}
`

const SCRIPT = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
import {Counter} from "../src/Counter.sol";
interface Vm { function startBroadcast(uint256) external; function stopBroadcast() external; }
contract Deploy {
    Vm constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
    function run() external {
        vm.startBroadcast(${KEY});
        Counter c = new Counter();
        c.increment();
        vm.stopBroadcast();
    }
}
`

let forge: string
let cast: string
let anvil: RunningAnvil
let cli: RunningCli
let project: string

beforeAll(async () => {
  project = mkdtempSync(path.join(tmpdir(), 'finality-forge-'))
  mkdirSync(path.join(project, 'src'))
  mkdirSync(path.join(project, 'script'))
  writeFileSync(path.join(project, 'solc.cjs'), SOLC, { mode: 0o755 })
  writeFileSync(path.join(project, 'src', 'Counter.sol'), COUNTER)
  writeFileSync(path.join(project, 'script', 'Deploy.s.sol'), SCRIPT)
  writeFileSync(path.join(project, 'foundry.toml'), `[profile.default]\nsrc = "src"\nout = "out"\nsolc = ${JSON.stringify(path.join(project, 'solc.cjs'))}\noffline = true\n`)
  ;[forge, cast, anvil, cli] = await Promise.all([foundryTool('forge'), foundryTool('cast'), startAnvil(['--hardfork', 'prague']), startCli([...EPHEMERAL, '--hardfork', 'prague', '--quiet'])])
  const built = await inProject(forge, ['build'])
  expect(built.code, built.stderr).toBe(0)
}, 240_000)

afterAll(async () => {
  await cli?.stop()
  await anvil?.stop()
  if (project !== undefined) rmSync(project, { recursive: true, force: true })
})

/** `forge <command> --root <project> …`. */
function inProject(bin: string, [command, ...args]: readonly string[]) {
  return runTool(bin, [command as string, '--root', project, ...args])
}

describe('forge against finality, as against Anvil', () => {
  it('forge create --broadcast: the same contract at the same address', async () => {
    const out: Record<string, string>[] = []
    for (const url of [anvil.http, cli.http]) {
      const run = await inProject(forge, ['create', 'src/Counter.sol:Counter', '--rpc-url', url, '--private-key', KEY, '--broadcast', '--json'])
      expect(run.code, run.stderr).toBe(0)
      out.push(JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as Record<string, string>)
    }
    expect(out[1]!.deployedTo).toBe(out[0]!.deployedTo)
    expect(out[1]!.deployer).toBe(out[0]!.deployer)
  }, 120_000)

  it('forge script --broadcast: simulated, sent, mined; the deployed counter was incremented', async () => {
    const counts: string[] = []
    for (const url of [anvil.http, cli.http]) {
      const run = await inProject(forge, ['script', `${path.join(project, 'script', 'Deploy.s.sol')}:Deploy`, '--rpc-url', url, '--broadcast'])
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout).toContain('ONCHAIN EXECUTION COMPLETE & SUCCESSFUL.')
      const broadcast = JSON.parse(readFileSync(path.join(project, 'broadcast', 'Deploy.s.sol', '31337', 'run-latest.json'), 'utf8')) as { receipts: { status: string }[]; transactions: { contractAddress?: string }[] }
      expect(broadcast.receipts.map((r) => r.status)).toEqual(['0x1', '0x1'])
      const deployed = broadcast.transactions[0]!.contractAddress as string
      counts.push((await runTool(cast, ['call', deployed, 'count()(uint256)', '--rpc-url', url])).stdout)
    }
    expect(counts).toEqual(['1', '1'])
  }, 180_000)
})
