/**
 * CREATE2 addresses computed with the node's keccak (src/execution/create-address.ts) are the
 * library's (`generateAddress2`), for random senders, salts and init codes, and a contract
 * deployed by CREATE2 on a node lands where viem computes it.
 */
import { generateAddress2 } from '@ethereumjs/util'
import { randomBytes } from 'node:crypto'
import { getContractAddress, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { createNode } from '../../src/index.js'
import { engineStatus } from '../../src/execution/engine/index.js'
import { create2Address } from '../../src/execution/create-address.js'

// The deterministic deployment proxy's runtime code: calldata is salt ‖ init code; it CREATE2s
// the init code with the salt and returns the new address (20 bytes).
const PROXY = '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3'
const PROXY_ADDRESS = '0x4e59b44847b379578588920ca78fbf26c0b4956c'

describe('CREATE2 addresses', () => {
  it("equal @ethereumjs/util's generateAddress2 for random inputs", () => {
    for (const size of [0, 1, 31, 32, 33, 135, 136, 137, 1000, 24_576]) {
      const sender = randomBytes(20)
      const salt = randomBytes(32)
      const code = randomBytes(size)
      expect(Buffer.from(create2Address(sender, salt, code)).toString('hex'), `init code of ${size} bytes`).toBe(Buffer.from(generateAddress2(sender, salt, code)).toString('hex'))
    }
  })

  it('put a contract deployed by CREATE2 where viem computes it, with the engine patches on', async () => {
    const node = await createNode({ hardhatCompat: true })
    try {
      expect(engineStatus().patches.fastCall).toBe(true)
      await node.request({ method: 'hardhat_setCode', params: [PROXY_ADDRESS, PROXY] })
      // Init code returning a one-byte runtime code 0x2a.
      const initCode: Hex = '0x602a60005360016000f3'
      const salt: Hex = `0x${'07'.repeat(32)}`
      const [from] = (await node.request({ method: 'eth_accounts' })) as Hex[]
      await node.request({ method: 'eth_sendTransaction', params: [{ from: from!, to: PROXY_ADDRESS, data: `${salt}${initCode.slice(2)}` as Hex }] })
      const expected = getContractAddress({ opcode: 'CREATE2', from: PROXY_ADDRESS, salt, bytecode: initCode })
      expect(await node.request({ method: 'eth_getCode', params: [expected, 'latest'] })).toBe('0x2a')
    } finally {
      await node.close()
    }
  })
})
