/**
 * The CommonJS build, as the README describes it: require('finality-evm') and require('finality-evm/viem').
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

describe('require("finality-evm")', () => {
  it('starts a node and builds viem settings from CommonJS', () => {
    const script = `
      const { createNode } = require('finality-evm')
      const { clientConfig } = require('finality-evm/viem')
      createNode().then(async (node) => {
        const chainId = await node.request({ method: 'eth_chainId' })
        process.stdout.write(JSON.stringify({ chainId, viemChain: clientConfig(node).chain.id }))
        await node.close()
      })
    `
    const out = execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' })
    expect(JSON.parse(out)).toEqual({ chainId: '0x7a69', viemChain: 31337 })
  })
})
