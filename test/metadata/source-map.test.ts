/**
 * Source maps without a node: solc's compressed entries decoded, program counters to instruction
 * indexes (PUSH data skipped), and a program counter of the compiled Vault placed at its
 * `Contract.function (file:line)`; Hardhat 3's build-info pair and a Hardhat 2 artifacts folder read
 * from disk.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { instructionIndexes, lineOf, locate, parseSourceMap } from '../../src/metadata/source-map.js'
import { ContractRegistry } from '../../src/metadata/registry.js'
import { vaultBuildInfo, VAULT_SOURCE } from './vault-build.js'

describe('source maps', () => {
  it('parseSourceMap: empty fields repeat the entry before', () => {
    expect(parseSourceMap('1:2:0:-;:3;;4::1:i')).toEqual([
      { start: 1, length: 2, file: 0, jump: '-' },
      { start: 1, length: 3, file: 0, jump: '-' },
      { start: 1, length: 3, file: 0, jump: '-' },
      { start: 4, length: 3, file: 1, jump: 'i' },
    ])
  })

  it('instructionIndexes: PUSH data belongs to its PUSH', () => {
    // PUSH1 0x80, PUSH2 0x0102, STOP, PUSH32 (cut short by the end of the code)
    expect([...instructionIndexes(Uint8Array.from([0x60, 0x80, 0x61, 0x01, 0x02, 0x00, 0x7f, 0x00]))]).toEqual([0, 0, 1, 1, 1, 2, 3, 3])
  })

  it('lineOf: 1-based lines', () => {
    expect(lineOf('a\nb\nc', 0)).toBe(1)
    expect(lineOf('a\nb\nc', 4)).toBe(3)
  })

  it('locate: Vault\'s instructions placed in their functions and lines; a PC past the code is not placed', () => {
    const r = new ContractRegistry()
    r.add(vaultBuildInfo() as never)
    const hex = (vaultBuildInfo().output.contracts[VAULT_SOURCE]!.Vault!.evm.deployedBytecode as { object: string }).object
    const code = Buffer.from(hex, 'hex')
    const vault = r.match(code, true)!
    const cache = new WeakMap()
    const places = new Set<string>()
    for (let pc = 0; pc < code.length; pc++) {
      const at = locate(vault, true, code, pc, cache)
      if (at !== undefined) places.add(`${at.contract}.${at.function}:${at.line}`)
    }
    expect(places).toContain('Vault.withdraw:33')
    expect(places).toContain('Vault.take:40')
    expect(locate(vault, true, code, code.length, cache)).toBeUndefined()
  })
})

describe('artifact files', () => {
  it('a Hardhat 2 artifacts/ folder: build-info read first, .dbg.json passed over', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'finality-artifacts-'))
    mkdirSync(path.join(dir, 'build-info'))
    mkdirSync(path.join(dir, 'contracts', 'Vault.sol'), { recursive: true })
    writeFileSync(path.join(dir, 'build-info', 'abc.json'), JSON.stringify(vaultBuildInfo()))
    writeFileSync(path.join(dir, 'contracts', 'Vault.sol', 'Vault.dbg.json'), JSON.stringify({ _format: 'hh-sol-dbg-1', buildInfo: '../../build-info/abc.json' }))
    writeFileSync(path.join(dir, 'contracts', 'Vault.sol', 'notes.json'), JSON.stringify({ anything: true }))
    const r = new ContractRegistry()
    expect(r.add(dir)).toBe(4)
    expect(() => r.add(path.join(dir, 'contracts', 'Vault.sol', 'notes.json'))).toThrow('notes.json: is neither a build-info')
  })

  it('a Hardhat 3 build-info pair: the input file\'s sources joined to the output by id', () => {
    const b = vaultBuildInfo()
    const r = new ContractRegistry()
    r.add([
      { _format: 'hh3-sol-build-info-1', id: 'x1', solcVersion: b.solcVersion, solcLongVersion: b.solcLongVersion, input: b.input },
      { _format: 'hh3-sol-build-info-output-1', id: 'x1', output: b.output },
    ])
    const hex = (b.output.contracts[VAULT_SOURCE]!.Vault!.evm.deployedBytecode as { object: string }).object
    const vault = r.match(Buffer.from(hex, 'hex'), true)
    expect(vault?.sources?.get(0)?.content).toContain('contract Vault')
  })
})
