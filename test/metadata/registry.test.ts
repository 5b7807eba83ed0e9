/**
 * The contract registry without a node: build-info, solc output and artifact inputs read into
 * contracts, deployed and creation code matched with immutables, library links and the metadata
 * hash masked, custom errors decoded and written as Hardhat writes them.
 */
import { describe, expect, it } from 'vitest'
import { encodeAbiParameters, encodeErrorResult, type Abi } from 'viem'
import { ContractRegistry, loadArtifacts } from '../../src/metadata/registry.js'
import { fullGc } from '../../src/profiling/profiling.js'
import { ArtifactError } from '../../src/metadata/artifacts.js'
import { vaultBuildInfo, VAULT_SOURCE } from './vault-build.js'

const build = vaultBuildInfo()
const vault = build.output.contracts[VAULT_SOURCE]!.Vault as unknown as {
  abi: Abi
  evm: { bytecode: { object: string }; deployedBytecode: { object: string; immutableReferences: Record<string, { start: number; length: number }[]> } }
}
const runtime = () => Buffer.from(vault.evm.deployedBytecode.object, 'hex')

describe('ContractRegistry', () => {
  it('default: a build-info gives every contract with its source names', () => {
    const r = new ContractRegistry()
    expect(r.add(build as never)).toBe(4)
    expect(r.match(runtime(), true)?.name).toBe('Vault')
    expect(r.match(runtime(), true)?.sourceName).toBe(VAULT_SOURCE)
    expect(r.match(runtime(), true)?.sources?.get(0)).toMatchObject({ name: VAULT_SOURCE, content: expect.stringContaining('contract Vault') })
  })

  it('behavior: immutables and the metadata hash are masked, other bytes are compared', () => {
    const r = new ContractRegistry()
    r.add(build.output as never)
    const code = runtime()
    const refs = Object.values(vault.evm.deployedBytecode.immutableReferences).flat()
    expect(refs.length).toBeGreaterThan(0)
    for (const { start, length } of refs) code.fill(0xab, start, start + length)
    code[code.length - 10] = code[code.length - 10]! ^ 0xff // inside the CBOR metadata
    expect(r.match(code, true)?.name).toBe('Vault')
    const other = Buffer.from(code)
    other[3] = other[3]! ^ 0xff
    expect(r.match(other, true)).toBeUndefined()
    expect(r.match(code.subarray(1), true)).toBeUndefined()
  })

  it('behavior: creation code matches with constructor arguments after it', () => {
    const r = new ContractRegistry()
    r.add({ abi: vault.abi, bytecode: `0x${vault.evm.bytecode.object}`, deployedBytecode: `0x${vault.evm.deployedBytecode.object}`, contractName: 'Vault' })
    const args = encodeAbiParameters([{ type: 'uint256' }], [123n]).slice(2)
    expect(r.match(Buffer.from(vault.evm.bytecode.object + args, 'hex'), false)?.name).toBe('Vault')
    expect(r.match(Buffer.from(vault.evm.bytecode.object.slice(0, -2), 'hex'), false)).toBeUndefined()
  })

  it('behavior: a library link placeholder is masked', () => {
    const r = new ContractRegistry()
    const hex = `73${'__$0123456789abcdef0123456789abcdef01$__'}5af4`
    r.add({ abi: [], deployedBytecode: `0x${hex}`, deployedLinkReferences: { 'L.sol': { L: [{ start: 1, length: 20 }] } }, contractName: 'UsesLib' })
    expect(r.match(Buffer.from(`73${'11'.repeat(20)}5af4`, 'hex'), true)?.name).toBe('UsesLib')
  })

  it('customError: decoded by the contract\'s ABI in Hardhat\'s words', () => {
    const r = new ContractRegistry()
    r.add(build as never)
    const c = r.match(runtime(), true)!
    const hex = (name: string, args: unknown[]) => Buffer.from(encodeErrorResult({ abi: vault.abi, errorName: name, args } as never).slice(2), 'hex')
    expect(r.customError(c, hex('TooEarly', [1795820809n, 1795824407n]))).toBe('TooEarly(1795820809, 1795824407)')
    expect(r.customError(c, hex('NotOwner', ['0x70997970c51812dc3b44e5c3e1c21d5e0e8b0d0f', 'owner only']))).toBe('NotOwner("0x70997970c51812DC3b44E5C3E1C21d5E0e8B0D0F", "owner only")')
    expect(r.customError(c, hex('Odd', [true, -3, '0x7461670000000000000000000000000000000000000000000000000000000000', '0xbeef', [7, 9], { x: 1, y: -2 }]))).toBe(
      'Odd(true, -3, "0x7461670000000000000000000000000000000000000000000000000000000000", "0xbeef", [7, 9], [1, -2])',
    )
    expect(r.customError(c, Buffer.from('deadbeef', 'hex'))).toBeUndefined()
    // The right selector over data too short for its arguments: not decoded.
    expect(r.customError(c, hex('TooEarly', [1n, 2n]).subarray(0, 40))).toBeUndefined()
  })

  it('error: an input of no known shape is refused with its place', () => {
    const r = new ContractRegistry()
    expect(() => r.add([{ nothing: 1 }] as never)).toThrow(ArtifactError)
    expect(() => r.add([build as never, { nothing: 1 }])).toThrow('artifacts[1]: is neither a build-info')
    expect(() => r.add({ abi: 'x' })).toThrow('artifacts: abi must be an array')
    expect(() => r.add({ abi: [], bytecode: '0xzz' })).toThrow('bytecode is not hex')
    expect(r.size).toBe(0)
  })

  it('loadArtifacts: read once for many registries, without keeping what they were read from', async () => {
    let parsed: object | undefined = JSON.parse(JSON.stringify(build)) as object
    const kept = new WeakRef(parsed)
    const loaded = loadArtifacts(parsed as never)
    parsed = undefined
    expect(loaded.size).toBe(4)
    const a = new ContractRegistry()
    const b = new ContractRegistry()
    expect(a.add(loaded)).toBe(4)
    expect(b.add([loaded, { abi: [] }])).toBe(5)
    expect(b.match(runtime(), true)?.name).toBe('Vault')
    expect(a.match(runtime(), true)).toBe(b.match(runtime(), true))
    // WeakRef targets stay alive to the end of the job that made them.
    await new Promise((resolve) => setTimeout(resolve, 0))
    fullGc()
    expect(kept.deref()).toBeUndefined()
    expect(() => loadArtifacts([{ nothing: 1 }] as never)).toThrow('artifacts[0]: is neither a build-info')
  })
})
