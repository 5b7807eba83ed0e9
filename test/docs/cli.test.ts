/**
 * The command lines and the TOML file of the docs, read with the CLI's own parser (`parseCli`,
 * the TOML through `--config`, as the CLI reads it), the values each line states compared with
 * the parsed settings, and the line that binds free ports run as the CLI, as a process.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseCli, parseDuration, readConfigFile, type CliConfig } from '../../src/cli/config.js'
import { startCli } from '../helpers/cli.js'
import { rpc } from '../helpers/loopback.js'
import { ROOT, block, commandLines, shellWords } from './blocks.js'

const dir = mkdtempSync(path.join(tmpdir(), 'finality-docs-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The TOML block of docs/transports.md, saved as the file its first line names. */
function savedToml(): string {
  const toml = block('transports.md', 2, 'toml')
  const name = /^# (\S+\.toml):/.exec(toml)?.[1]
  expect(name).toBe('node.toml')
  const file = path.join(dir, name as string)
  writeFileSync(file, toml)
  return file
}

/** The arguments of an `npx finality …` line (a `--config` file read from the folder the TOML block was saved in). */
function finalityArgs(line: string): string[] {
  const words = shellWords(line)
  expect(words.slice(0, 2), line).toEqual(['npx', 'finality'])
  return words.slice(2).map((w, i, all) => (all[i - 1] === '--config' ? path.join(dir, w) : w))
}

const camel = (key: string): string => key.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())

describe('docs/transports.md', () => {
  it('the TOML file loads through --config, every setting as written', () => {
    const file = savedToml()
    const config = parseCli(['--config', file]) as unknown as Record<string, unknown>
    const raw = readConfigFile(file)
    expect(Object.keys(raw)).toHaveLength(block('transports.md', 2, 'toml').split('\n').filter((l) => /^[a-z-]+ = /.test(l)).length)
    for (const [key, value] of Object.entries(raw)) {
      const name = camel(key.replace(/^json-rpc\./, ''))
      const field = name in config ? name : `${name}Ms`
      expect(field in config, `${key}: no setting ${name}`).toBe(true)
      const got = config[field]
      if (field.endsWith('Ms')) expect(got, key).toBe(parseDuration(value, key))
      else if (typeof got === 'bigint') expect(got, key).toBe(BigInt(value as number))
      else if (Array.isArray(got) && typeof value === 'string') expect(got, key).toEqual(value.split(','))
      else expect(got, key).toEqual(value)
    }
  })

  it('pointing tools at it: the lines parse, the first serves the default endpoints', () => {
    const lines = commandLines(block('transports.md', 3, 'sh'))
    expect(lines).toHaveLength(2)
    const [plain, free] = lines.map((l) => parseCli(finalityArgs(l))) as [CliConfig, CliConfig]
    expect(lines[0]).toContain('# http://127.0.0.1:8545, ws://127.0.0.1:8546')
    expect([plain.address, plain.wsAddress]).toEqual(['127.0.0.1:8545', '127.0.0.1:8546'])
    expect([free.address, free.wsAddress]).toEqual(['127.0.0.1:0', '127.0.0.1:0'])
  })

  it('the free-ports line, run: it prints the chain id, its endpoints and 20 accounts with their keys', async () => {
    const line = commandLines(block('transports.md', 3, 'sh'))[1] as string
    const cli = await startCli(finalityArgs(line))
    try {
      const out = cli.out()
      expect(out).toMatch(/31337/)
      expect(out).toContain(cli.http)
      expect(out).toContain(cli.ws)
      expect(out.match(/0x[0-9a-fA-F]{64}\b/g)?.length).toBeGreaterThanOrEqual(20)
      expect((await rpc(cli.http, 'eth_accounts')).result).toHaveLength(20)
    } finally {
      await cli.stop()
    }
  }, 60_000)

  it('the command line: npm start is a script, the npx lines parse with the values they give', () => {
    savedToml()
    const lines = commandLines(block('transports.md', 7, 'sh'))
    expect(lines[0]).toMatch(/^npm start\b/)
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    expect(pkg.scripts.start).toMatch(/\bsrc\/cli\/bin\.ts$/)
    const npx = lines.filter((l) => l.startsWith('npx finality'))
    expect(npx).toHaveLength(3)
    const [, flags, file] = npx.map((l) => parseCli(finalityArgs(l))) as [CliConfig, CliConfig, CliConfig]
    expect([flags.address, flags.blockTime, flags.validators]).toEqual(['127.0.0.1:8545', 0.5, 4])
    expect([file.chainId, file.validators, file.cors]).toEqual([1337n, 4, ['http://localhost:5173']])
  })
})

describe('docs/forking.md', () => {
  it('the fork flags parse into the fork settings the line gives', () => {
    const [line] = commandLines(block('forking.md', 2, 'sh'))
    const config = parseCli(finalityArgs(line as string))
    expect(config.forkUrl).toBe('https://rpc.example/v2/KEY')
    expect(config.forkBlockNumber).toBe(21_000_000n)
    expect(config.forkHeaders).toEqual({ 'x-api-key': 'KEY' })
  })
})
