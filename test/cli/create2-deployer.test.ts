/**
 * The CREATE2 deployer at genesis (Arachnid's proxy at 0x4e59…956C): the CLI places it as Anvil
 * does, and `--disable-default-create2-deployer` leaves it out, as Anvil's flag; checked against
 * Anvil 1.7.1 with the request forge's fork backend sends for it (`eth_getAccountInfo`).
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseCli, helpText } from '../../src/cli/config.js'
import { CREATE2_DEPLOYER, CREATE2_DEPLOYER_CODE, create2DeployerAlloc } from '../../src/cli/create2-deployer.js'
import { startAnvil } from '../helpers/anvil.js'
import { EPHEMERAL, startCli } from '../helpers/cli.js'
import { rpc } from '../helpers/loopback.js'

describe('the CREATE2 deployer at genesis', () => {
  it('settings: placed unless the flag, a fork, --hardhat or a genesis file says otherwise', () => {
    expect(parseCli([])).toMatchObject({ disableDefaultCreate2Deployer: false })
    expect(parseCli(['--disable-default-create2-deployer'])).toMatchObject({ disableDefaultCreate2Deployer: true })
    expect(() => parseCli(['--disable-default-create2-deployer=maybe'])).toThrow(/disable-default-create2-deployer/)
    const toml = path.join(mkdtempSync(path.join(tmpdir(), 'finality-create2-')), 'node.toml')
    writeFileSync(toml, 'disable-default-create2-deployer = true\n')
    expect(parseCli(['--config', toml])).toMatchObject({ disableDefaultCreate2Deployer: true })
    expect(helpText()).toMatch(/--disable-default-create2-deployer +place no CREATE2 deployer/)
    expect(create2DeployerAlloc(parseCli([]))).toEqual({ [CREATE2_DEPLOYER]: { code: CREATE2_DEPLOYER_CODE } })
    for (const args of [['--disable-default-create2-deployer'], ['--fork-url', 'http://127.0.0.1:1'], ['--hardhat'], ['--genesis', 'genesis.json']]) {
      expect(create2DeployerAlloc(parseCli(args)), args.join(' ')).toBeUndefined()
    }
  })

  it('the CLI answers for it what Anvil answers, with the flag and without', async () => {
    for (const flags of [[], ['--disable-default-create2-deployer']]) {
      const [anvil, cli] = await Promise.all([startAnvil(flags), startCli([...EPHEMERAL, '--quiet', ...flags])])
      try {
        const [a, f] = await Promise.all([anvil.http, cli.http].map(async (url) => (await rpc(url, 'eth_getAccountInfo', [CREATE2_DEPLOYER, 'latest'])).result))
        expect(f, flags.join(' ')).toEqual(a)
        expect((a as { code: string }).code).toBe(flags.length === 0 ? CREATE2_DEPLOYER_CODE : '0x')
      } finally {
        await Promise.all([anvil.stop(), cli.stop()])
      }
    }
  }, 60_000)
})
