import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { RLP } from '@ethereumjs/rlp'
import { gethGenesisBlock, parseGethGenesis } from '../../src/chain/geth-genesis.js'
import { createNode, type BlockTag } from '../../src/index.js'

const dir = new URL('../fixtures/execution-apis', import.meta.url).pathname
const genesis = JSON.parse(readFileSync(`${dir}/genesis.json`, 'utf8'))

/** The parent hash of the first block in an RLP chain export. */
function firstParentHash(chain: Uint8Array): string {
  const block = RLP.decode(chain, true).data as unknown as Uint8Array[][]
  const header = block[0]!
  return Buffer.from(header[0]!).toString('hex')
}

describe('geth genesis files', () => {
  test('behavior: the execution-apis genesis hashes as geth computes it (block 1 of its chain names it as parent)', async () => {
    const block = await gethGenesisBlock(genesis)
    const chain = new Uint8Array(readFileSync(`${dir}/chain.rlp`))
    expect(Buffer.from(block.hash()).toString('hex')).toBe(firstParentHash(chain))
  })

  test('behavior: a schedule is read: the fork at genesis and the forks after it', () => {
    const spec = parseGethGenesis(genesis)
    expect(spec.chainId).toBe(3503995874084926n)
    expect(spec.hardfork).toBe('homestead')
    expect(spec.laterForks).toContain('cancun')
    expect(spec.laterForks).toContain('prague')
  })

  test('behavior: createNode({ genesis }) runs a single-fork genesis (all forks at 0), with its alloc and chain id', async () => {
    const dev = {
      config: {
        chainId: 1337, homesteadBlock: 0, eip150Block: 0, eip155Block: 0, eip158Block: 0, byzantiumBlock: 0,
        constantinopleBlock: 0, petersburgBlock: 0, istanbulBlock: 0, berlinBlock: 0, londonBlock: 0,
        mergeNetsplitBlock: 0, terminalTotalDifficulty: 0, shanghaiTime: 0, cancunTime: 0,
        blobSchedule: { cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 } },
      },
      nonce: '0x0', timestamp: '0x0', gasLimit: '0x1c9c380', difficulty: '0x0', extraData: '0x',
      alloc: {
        '0x000f3df6d732807ef1319fb7b8bb8522d0beac02': { balance: '0x0', nonce: '0x1', code: genesis.alloc['000f3df6d732807ef1319fb7b8bb8522d0beac02'].code },
        '0x1000000000000000000000000000000000000001': { balance: '0xde0b6b3a7640000' },
        '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266': { balance: '0x8ac7230489e80000' },
        '0x1000000000000000000000000000000000000002': { balance: '0x0', code: '0x60005460005260206000f3', storage: { '0x00': '0x2a' } },
      },
    }
    const node = await createNode({ genesis: dev })
    expect(await node.request({ method: 'eth_chainId' })).toBe('0x539')
    const block = (await node.request({ method: 'eth_getBlockByNumber', params: ['0x0', false] })) as { hash: string; timestamp: string }
    expect(block.hash).toBe(`0x${Buffer.from((await gethGenesisBlock(dev)).hash()).toString('hex')}`)
    expect(block.timestamp).toBe('0x0')
    expect(await node.request({ method: 'eth_getBalance', params: ['0x1000000000000000000000000000000000000001', 'latest'] })).toBe('0xde0b6b3a7640000')
    expect(await node.request({ method: 'eth_call', params: [{ to: '0x1000000000000000000000000000000000000002' }] })).toBe(`0x${'00'.repeat(31)}2a`)
    // The node's keys sign for accounts the file funds, and it mines on top of the file's genesis.
    const [a] = node.accounts
    await node.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: '0x1000000000000000000000000000000000000001', value: '0x1' }] })
    expect(await node.request({ method: 'eth_blockNumber' })).toBe('0x1')
    await node.close()
  })

  test('behavior: a genesis with a fork schedule imports the exported chain; the head is the one geth reports', async () => {
    const node = await createNode({ genesis, mining: { mode: 'manual' } })
    const chain = new Uint8Array(readFileSync(`${dir}/chain.rlp`))
    expect(await node.importBlocks(chain)).toEqual({ imported: 54 })
    const head = (await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { hash: string; number: string }
    const fcu = JSON.parse(readFileSync(`${dir}/headfcu.json`, 'utf8')) as { params: [{ headBlockHash: string }] }
    expect(head).toMatchObject({ number: '0x36', hash: fcu.params[0].headBlockHash })
    // A re-import of the same blocks is a no-op; imported blocks carry no commit certificate.
    expect(await node.importBlocks(chain)).toEqual({ imported: 0 })
    expect(await node.commitCertificate(54n)).toBeUndefined()
    await node.close()
  })

  test('behavior: a call at an old block runs under that block\'s fork (PUSH0 is invalid before Shanghai)', async () => {
    const node = await createNode({ genesis, mining: { mode: 'manual' } })
    await node.importBlocks(new Uint8Array(readFileSync(`${dir}/chain.rlp`)))
    // PUSH1 1, PUSH0, MSTORE, PUSH1 32, PUSH0, RETURN: returns the word 1 where PUSH0 exists.
    const target = '0x00000000000000000000000000000000000c0de5'
    const call = (block: BlockTag) =>
      node.request({ method: 'eth_call', params: [{ to: target }, block, { [target]: { code: '0x60015f5260205ff3' } }] })
    await expect(call('latest')).resolves.toBe(`0x${'0'.repeat(63)}1`)
    await expect(call('0x1')).rejects.toMatchObject({ code: -32000, message: 'invalid opcode' })
    // The same without PUSH0 (PUSH1 0 instead) runs at block 1, under Homestead's gas rules.
    await expect(
      node.request({ method: 'eth_call', params: [{ to: target }, '0x1', { [target]: { code: '0x600160005260206000f3' } }] }),
    ).resolves.toBe(`0x${'0'.repeat(63)}1`)
    // The head's fork is kept for calls at the head, and estimates follow the same rule.
    await expect(node.request({ method: 'eth_estimateGas', params: [{ to: target }, '0x1', { [target]: { code: '0x60015f5260205ff3' } }] })).rejects.toMatchObject({ code: -32000 })
    await node.close()
  })

  test('error: a block whose contents do not match its header is refused, and nothing of it is kept', async () => {
    const node = await createNode({ genesis, mining: { mode: 'manual' } })
    const chain = new Uint8Array(readFileSync(`${dir}/chain.rlp`))
    // Blocks 1-3 only, with block 3's gas used changed in its header (the header is re-encoded).
    const blocks: Uint8Array[] = []
    let rest: Uint8Array = chain
    for (let i = 0; i < 3; i++) {
      const { data, remainder } = RLP.decode(rest, true) as unknown as { data: Uint8Array[][]; remainder: Uint8Array }
      blocks.push(RLP.encode(data as never))
      rest = remainder
    }
    const third = RLP.decode(blocks[2]!) as unknown as Uint8Array[][]
    third[0]![10] = Uint8Array.of(1, 2, 3)
    blocks[2] = RLP.encode(third as never)
    await expect(node.importBlocks(Buffer.concat(blocks))).rejects.toThrow(/block 3 is invalid/)
    expect(await node.request({ method: 'eth_blockNumber' })).toBe('0x2')
    // Bytes that are RLP but not blocks (a text file, a list without a header) are named as such.
    const notBlock = 'import: block 1 is not a block: expected a list whose first item is a header of at least 15 byte strings'
    await expect(node.importBlocks(new TextEncoder().encode('root:x:0:0:root'))).rejects.toThrow(notBlock)
    await expect(node.importBlocks(Uint8Array.of(0xc1, 0xc0))).rejects.toThrow(notBlock)
    expect(await node.request({ method: 'eth_blockNumber' })).toBe('0x2')
    await node.close()
  })
})
