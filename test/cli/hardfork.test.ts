/** The CLI's `--hardfork`: every hardfork the engine runs, Osaka included (P256VERIFY at 0x100). */
import { spawn } from 'node:child_process'
import { createSign, generateKeyPairSync, createHash } from 'node:crypto'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parseCli } from '../../src/cli/config.js'
import { rpc } from '../helpers/loopback.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
// The CLI runs under `node --import tsx`, not tsx's wrapper: the wrapper relays a signal only if
// the child reports it within 30 ms, else signals it again or kills it and exits 130, which a
// loaded machine turned into failed clean stops.
const BIN = path.join(ROOT, 'src', 'cli', 'bin.ts')

/** A valid P256VERIFY input: hash, r, s, x, y (32 bytes each). */
function p256Input(): string {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const message = Buffer.from('finality')
  const signature = createSign('sha256').update(message).sign({ key: privateKey, dsaEncoding: 'ieee-p1363' })
  const jwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string }
  const parts = [createHash('sha256').update(message).digest(), signature, Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url')]
  return `0x${Buffer.concat(parts).toString('hex')}`
}

async function callP256(hardfork: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, '--json-rpc.address', '127.0.0.1:0', '--json-rpc.ws-address', '127.0.0.1:0', '--hardfork', hardfork, '--quiet'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout?.on('data', (d) => (out += d))
  child.stderr?.on('data', (d) => (out += d))
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', () => /HTTP listening on/.test(out) && resolve())
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)))
    })
    const url = /HTTP listening on (\S+)/.exec(out)?.[1] as string
    const answer = await rpc(url, 'eth_call', [{ to: '0x0000000000000000000000000000000000000100', data: p256Input() }, 'latest'])
    return answer.result as string
  } finally {
    child.kill('SIGINT')
  }
}

describe('cli --hardfork', () => {
  it('parsing: every supported hardfork is accepted, osaka included; others are refused', () => {
    for (const name of ['london', 'paris', 'shanghai', 'cancun', 'prague', 'osaka']) expect(parseCli(['--hardfork', name]).hardfork).toBe(name)
    expect(() => parseCli(['--hardfork', 'amsterdam'])).toThrow('unknown hardfork')
  })

  it('behavior: --hardfork osaka serves a chain with the P256VERIFY precompile at 0x100; prague has none', async () => {
    expect(await callP256('osaka')).toBe(`0x${'00'.repeat(31)}01`)
    expect(await callP256('prague')).toBe('0x')
  })
})
