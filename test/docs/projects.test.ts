/**
 * The blocks of docs/hardhat.md and docs/prool.md, checked without running Hardhat or prool
 * (test/hardhat/project.test.ts, test/hardhat/hardhat3-project.test.ts and
 * test/build/package.test.ts run them): each is held to the repository's own project it describes
 * (test/hardhat/project, test/hardhat3, test/prool-project), its
 * settings go through the plugin's own reading of a Hardhat network, its command lines through
 * the CLI's parser, and the compiler override runs.
 */
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseCli } from '../../src/cli/config.js'
import { hardhatNetworkOptions } from '../../src/hardhat/network-options.js'
import { ROOT, block, commandLines, shellWords } from './blocks.js'

const HARDHAT = path.join(ROOT, 'test', 'hardhat', 'project')
const HARDHAT3 = path.join(ROOT, 'test', 'hardhat3')
const read = (...parts: string[]) => readFileSync(path.join(...parts), 'utf8')
/** Text without the spaces, line breaks and trailing commas that differ between a page and a config. */
const flat = (text: string) => text.replace(/\s+/g, ' ').replace(/\s*([{}[\](),:])\s*/g, '$1').replace(/,([}\]])/g, '$1').trim()
/** How test/hardhat/project.test.ts runs Hardhat: the arguments it passes, as text. */
const suite = read(ROOT, 'test', 'hardhat', 'project.test.ts')

/** The `hardhat <task> …` of an `npx hardhat …` line, which the repository's suite runs too. */
function expectSuiteRuns(line: string): void {
  const words = shellWords(line).filter((w) => !/^[A-Z_]+=/.test(w))
  expect(words.slice(0, 2), line).toEqual(['npx', 'hardhat'])
  const [task, ...rest] = words.slice(2)
  expect(suite, line).toContain(`'${task}'`)
  if (rest[0] === '--network') {
    expect(suite, line).toContain(`'--network'`)
    expect(read(HARDHAT, 'hardhat.config.js'), line).toContain(`${rest[1]}: { url:`)
  }
}

describe('docs/hardhat.md: Hardhat 2', () => {
  it("the plugin's config: the project's requires, and networks.hardhat as the plugin reads it", () => {
    const text = block('hardhat.md', 1, 'js')
    const project = read(HARDHAT, 'hardhat.config.js')
    const required: string[] = []
    const module = { exports: {} as { networks?: { hardhat?: Record<string, unknown> } } }
    new Function('require', 'module', text)((id: string) => required.push(id), module)
    expect(required).toEqual(['@nomicfoundation/hardhat-ethers', '@nomicfoundation/hardhat-chai-matchers', 'finality-evm/hardhat'])
    for (const id of required) {
      // The project takes the plugin's specifier from the environment, with the package's as default.
      if (id === 'finality-evm/hardhat') expect(project).toContain("?? 'finality-evm/hardhat'")
      else expect(project).toContain(`require('${id}')`)
    }
    const hardhat = module.exports.networks?.hardhat
    expect(project).toContain(`hardhat: ${JSON.stringify(hardhat).replace(/"(\w+)":/g, '$1: ').replace(/^\{/, '{ ').replace(/\}$/, ' }')}`)
    expect(hardhatNetworkOptions(hardhat as never)).toMatchObject({ allowUnlimitedContractSize: true })
  })

  it('hardhat test and hardhat node are what the repository runs', () => {
    for (const line of commandLines(block('hardhat.md', 2, 'sh'))) expectSuiteRuns(line)
  })

  it('over HTTP: the CLI line parses into Hardhat mode on 8545, the test line is the suite\'s', () => {
    const [cli, test] = commandLines(block('hardhat.md', 3, 'sh')) as [string, string]
    const config = parseCli(shellWords(cli).slice(2))
    expect(cli).toContain('http://127.0.0.1:8545')
    expect([config.hardhat, config.hardfork, config.address]).toEqual([true, 'osaka', '127.0.0.1:8545'])
    expectSuiteRuns(test)
  })

  it("the compiler override runs: solcjs from the solc package, the version asked for, solc's long version", async () => {
    const text = block('hardhat.md', 4, 'js')
    const project = read(HARDHAT, 'hardhat.config.js')
    const requireFromProject = createRequire(path.join(HARDHAT, 'hardhat.config.js'))
    let action: ((args: { solcVersion: string }) => Promise<Record<string, unknown>>) | undefined
    const subtask = (name: string, fn: typeof action) => {
      expect(name).toBe('compile:solidity:solc:get-build')
      action = fn
    }
    new Function('subtask', 'TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD', 'require', text)(subtask, 'compile:solidity:solc:get-build', requireFromProject)
    const solc = requireFromProject('solc') as { version(): string }
    const version = solc.version().split('+')[0] as string
    const build = await action!({ solcVersion: version })
    expect(build).toEqual({ compilerPath: requireFromProject.resolve('solc/soljson.js'), isSolcJs: true, version, longVersion: solc.version() })
    expect(existsSync(build.compilerPath as string)).toBe(true)
    // The project's override answers the same fields.
    expect(project).toContain('subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async ({ solcVersion })')
    expect(project).toContain("return { compilerPath: require.resolve('solc/soljson.js'), isSolcJs: true, version: solcVersion, longVersion: solc.version() }")
  })

  it('by hand: the plugin from the sources, the CLI with its flags, the suite on localhost', () => {
    const lines = commandLines(block('hardhat.md', 5, 'sh'))
    expect(lines).toHaveLength(3)
    for (const line of [lines[0], lines[2]] as string[]) {
      const env = Object.fromEntries(shellWords(line).filter((w) => /^[A-Z_]+=/.test(w)).map((w) => w.split(/=(.*)/s).slice(0, 2)))
      expect(env.NODE_OPTIONS).toBe('--import tsx')
      expect(existsSync(path.resolve(HARDHAT, env.FINALITY_HARDHAT as string)), env.FINALITY_HARDHAT).toBe(true)
      expect(read(HARDHAT, 'hardhat.config.js')).toContain('process.env.FINALITY_HARDHAT')
      expectSuiteRuns(line)
    }
    const words = shellWords(lines[1] as string)
    expect(words.slice(0, 3)).toEqual(['npm', 'start', '--'])
    const config = parseCli(words.slice(3))
    expect([config.hardhat, config.hardfork, config.allowUnlimitedContractSize]).toEqual([true, 'osaka', true])
  })
})

describe('docs/hardhat.md: Hardhat 3', () => {
  const project = read(HARDHAT3, 'hardhat.config.ts')

  it("the plugin's config: the project's imports, plugin and network", () => {
    const text = block('hardhat.md', 6, 'ts')
    for (const line of text.split('\n').filter((l) => l.startsWith('import '))) {
      // hardhat-toolbox-viem is the user's choice of plugins; the project lists its members one by one.
      if (!line.includes('hardhat-toolbox-viem')) expect(project, line).toContain(line)
    }
    expect(/plugins: \[([^\]]*)\]/.exec(text)?.[1]?.split(',').map((p) => p.trim())).toContain('finality')
    expect(/plugins: \[([^\]]*)\]/s.exec(project)?.[1]?.split(',').map((p) => p.trim())).toContain('finality')
    const networks = /networks: \{\n([\s\S]*?)\n {2}\},\n/.exec(text)?.[1] as string
    expect(flat(project)).toContain(flat(networks))
  })

  it('over HTTP: the http network is the project\'s finalityHttp, its URL as the CLI serves it by default', () => {
    const text = block('hardhat.md', 7, 'ts')
    const line = /finalityHttp: \{[^}]*\}/.exec(text)?.[0] as string
    const own = (/finalityHttp: \{[^}]*\}/.exec(project)?.[0] as string).replace('process.env.FINALITY_URL ?? ', '')
    expect(flat(own)).toBe(flat(line))
    expect(`http://${parseCli([]).address}`).toBe(/url: "([^"]+)"/.exec(line)?.[1])
  })
})

describe('docs/prool.md', () => {
  it("the two setup files are the prool project's, as they are", () => {
    expect(block('prool.md', 1, 'ts')).toBe(read(ROOT, 'test', 'prool-project', 'test', 'setup.global.ts'))
    expect(block('prool.md', 2, 'ts')).toBe(read(ROOT, 'test', 'prool-project', 'test', 'setup.ts'))
  })
})
