/**
 * The real `forge` (npm `@foundry-rs/forge` 1.7.1) deploying to the `finality` CLI and to Anvil
 * 1.7.1: `forge create` and `forge script --broadcast` of a small project, compared. The project
 * compiles with the npm `solc` package (`test/helpers/foundry-project.ts`).
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type RunningAnvil } from '../helpers/anvil.js'
import { EPHEMERAL, startCli, type RunningCli } from '../helpers/cli.js'
import { createFoundryProject, type FoundryProject } from '../helpers/foundry-project.js'
import { foundryTool, runTool } from '../helpers/foundry-tools.js'

// Account 1 of both (the same mnemonic), unused by anything else here: the same nonces.
const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'

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

// A contract created with a salt: forge script sends it through the CREATE2 deployer at 0x4e59…956C.
const SALTED = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
import {Counter} from "../src/Counter.sol";
interface Vm { function startBroadcast(uint256) external; function stopBroadcast() external; }
contract DeploySalted {
    Vm constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
    function run() external {
        vm.startBroadcast(${KEY});
        new Counter{salt: bytes32(uint256(7))}();
        vm.stopBroadcast();
    }
}
`

let forge: string
let cast: string
let anvil: RunningAnvil
let cli: RunningCli
let created: FoundryProject
let project: string

beforeAll(async () => {
  created = createFoundryProject('finality-forge-', { 'src/Counter.sol': COUNTER, 'script/Deploy.s.sol': SCRIPT, 'script/DeploySalted.s.sol': SALTED })
  project = created.root
  ;[forge, cast, anvil, cli] = await Promise.all([foundryTool('forge'), foundryTool('cast'), startAnvil(['--hardfork', 'prague']), startCli([...EPHEMERAL, '--hardfork', 'prague', '--quiet'])])
  const built = await inProject(forge, ['build'])
  expect(built.code, built.stderr).toBe(0)
}, 240_000)

afterAll(async () => {
  await cli?.stop()
  await anvil?.stop()
  created?.remove()
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

  it('forge script --broadcast of a contract created with a salt: through the CREATE2 deployer, at the same address', async () => {
    const deployed: string[] = []
    for (const url of [anvil.http, cli.http]) {
      const run = await inProject(forge, ['script', `${path.join(project, 'script', 'DeploySalted.s.sol')}:DeploySalted`, '--rpc-url', url, '--broadcast'])
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0)
      const broadcast = JSON.parse(readFileSync(path.join(project, 'broadcast', 'DeploySalted.s.sol', '31337', 'run-latest.json'), 'utf8')) as { receipts: { status: string }[]; transactions: { contractAddress: string; transaction: { to: string } }[] }
      expect(broadcast.receipts.map((r) => r.status)).toEqual(['0x1'])
      expect(broadcast.transactions[0]!.transaction.to.toLowerCase()).toBe('0x4e59b44847b379578588920ca78fbf26c0b4956c')
      const address = broadcast.transactions[0]!.contractAddress
      expect((await runTool(cast, ['code', address, '--rpc-url', url])).stdout).not.toBe('0x')
      deployed.push(address.toLowerCase())
    }
    expect(deployed[1]).toBe(deployed[0])
  }, 180_000)
})
