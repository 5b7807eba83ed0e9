import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { verifyMerkleProof } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { createAccountFromRLP, hexToBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { createPublicClient, custom, encodeDeployData, type Hex } from 'viem'
import { createNode, type BlockTag, type FinalityNode } from '../../src/index.js'
import { loadArtifacts } from '../helpers/compile.js'

const { Counter } = loadArtifacts()
let node: FinalityNode
let counter: Hex

beforeAll(async () => {
  node = await createNode()
  const [a] = node.accounts
  const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, data: encodeDeployData({ abi: Counter!.abi, bytecode: Counter!.bytecode }) }] })
  counter = ((await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Hex }).contractAddress
  for (let i = 0; i < 3; i++) {
    await node.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: counter, data: '0xd09de08a' }] })
  }
})
afterAll(() => node.close())

type Proof = {
  accountProof: Hex[]
  balance: Hex
  nonce: Hex
  codeHash: Hex
  storageHash: Hex
  storageProof: Array<{ key: Hex; value: Hex; proof: Hex[] }>
}

async function verify(address: Hex, slots: Hex[], block: BlockTag) {
  const header = (await node.request({ method: 'eth_getBlockByNumber', params: [block, false] })) as { stateRoot: Hex }
  const p = (await node.request({ method: 'eth_getProof', params: [address, slots, block] })) as Proof
  const root = hexToBytes(header.stateRoot)
  const leaf = await verifyMerkleProof(keccak_256(hexToBytes(address)), p.accountProof.map(hexToBytes), { root })
  return { p, leaf, root }
}

describe('eth_getProof', () => {
  test('behavior: account and storage proofs verify against the block stateRoot with @ethereumjs/mpt', async () => {
    const { p, leaf } = await verify(counter, ['0x0'], 'latest')
    const account = createAccountFromRLP(leaf!)
    expect(`0x${account.nonce.toString(16)}`).toBe(p.nonce)
    expect(Buffer.from(account.storageRoot).toString('hex')).toBe(p.storageHash.slice(2))
    const storage = await verifyMerkleProof(keccak_256(new Uint8Array(32)), p.storageProof[0]!.proof.map(hexToBytes), {
      root: hexToBytes(p.storageHash),
    })
    expect(RLP.decode(storage!)).toEqual(Uint8Array.of(3))
    expect(p.storageProof[0]).toMatchObject({ key: '0x0', value: '0x3' })
  })

  test('behavior: an older block proves its own state', async () => {
    const { p } = await verify(counter, ['0x0000000000000000000000000000000000000000000000000000000000000000'], '0x2')
    expect(p.storageProof[0]!.value).toBe('0x1')
  })

  test('behavior: an absent account proves its absence; viem getProof works', async () => {
    const stranger = '0x00000000000000000000000000000000000abcde' as const
    const { p, leaf } = await verify(stranger, [], 'latest')
    expect(leaf).toBeNull()
    expect(p).toMatchObject({ balance: '0x0', nonce: '0x0', storageProof: [] })
    const client = createPublicClient({ transport: custom(node.provider) })
    const proof = await client.getProof({ address: counter, storageKeys: [`0x${'00'.repeat(32)}`] })
    expect(proof.storageProof[0]!.value).toBe(3n)
  })

  test('error: bad keys, and a block past the head', async () => {
    await expect(node.request({ method: 'eth_getProof', params: [counter, [`0x${'00'.repeat(33)}`], 'latest'] })).rejects.toMatchObject({ code: -32602 })
    await expect(node.request({ method: 'eth_getProof', params: [counter, [], '0xffff'] })).rejects.toMatchObject({ code: -32000, message: 'header not found' })
  })
})
