/**
 * The hard case in the accounts' trie: a transaction touches an empty account the remote holds
 * (EIP-161 deletes it), which leaves its branch one child, a leaf no proof brought. The fork finds
 * a key under that leaf's path, fetches its proof, and the block's root is the remote's.
 */
import { verifyMerkleProof } from '@ethereumjs/mpt'
import { hexToBytes, keccak256, toHex, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { SYSTEM_CONTRACTS } from '../../src/chain/system-contracts.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
const nibble = (address: Address, i: number): number => {
  const byte = hexToBytes(keccak256(address))[i >> 1] as number
  return i % 2 === 0 ? byte >> 4 : byte & 15
}
/** The first key from `seed` whose address passes `ok`. */
function keyWhere(seed: string, ok: (address: Address) => boolean): { key: Hex; address: Address } {
  for (let i = 0; ; i++) {
    const key = keccak256(toHex(`${seed} ${i}`))
    const address = privateKeyToAccount(key).address
    if (ok(address)) return { key, address }
  }
}

describe('a fork deletes an account the remote holds', () => {
  it('fetches the sibling leaf the deletion merges and gets the remote\'s root', async () => {
    // The accounts the remote will hold besides ours: the system contracts and the fee recipient.
    const probe = await newNode({ accountCount: 0 })
    await probe.request({ method: 'evm_mine', params: [] })
    const coinbase = ((await probe.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { miner: Address }).miner
    const taken = new Set([...SYSTEM_CONTRACTS.map((c) => nibble(c.address as Address, 0)), nibble(coinbase, 0)])
    // The funder alone under its first nibble; the sender elsewhere; the empty account beside the funder.
    const funder = keyWhere('collapse funder', (a) => !taken.has(nibble(a, 0)))
    const sender = keyWhere('collapse sender', (a) => !taken.has(nibble(a, 0)) && nibble(a, 0) !== nibble(funder.address, 0))
    const empty = keyWhere('collapse empty', (a) => nibble(a, 0) === nibble(funder.address, 0) && nibble(a, 1) !== nibble(funder.address, 1)).address

    const remote = await newNode({ accounts: [{ privateKey: funder.key, balance: 10n ** 21n }] })
    await remote.request({ method: 'eth_sendTransaction', params: [{ from: funder.address, to: sender.address, value: '0xde0b6b3a7640000' }] })
    await remote.request({ method: 'hardhat_setBalance', params: [empty, '0x0'] })
    await remote.request({ method: 'evm_mine', params: [] })
    const head = (await remote.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { stateRoot: Hex; timestamp: Hex }
    // The empty account is in the remote's trie.
    const proof = (await remote.request({ method: 'eth_getProof', params: [empty, [], 'latest'] })) as { accountProof: Hex[] }
    expect(await verifyMerkleProof(hexToBytes(empty), proof.accountProof.map((h) => hexToBytes(h)), { root: hexToBytes(head.stateRoot), useKeyHashing: true })).not.toBeNull()

    const fork = await newNode({ fork: { provider: remote.provider }, accountCount: 0 })
    const raw = await privateKeyToAccount(sender.key).signTransaction({
      chainId: Number(remote.chainId), nonce: 0, to: empty, value: 0n, gas: 30_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n, type: 'eip1559',
    })
    const timestamp: Hex = `0x${(BigInt(head.timestamp) + 30n).toString(16)}`
    const roots: Hex[] = []
    for (const node of [fork, remote]) {
      await node.request({ method: 'evm_setNextBlockTimestamp', params: [timestamp] })
      await node.request({ method: 'eth_sendRawTransaction', params: [raw] })
      roots.push(((await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { stateRoot: Hex }).stateRoot)
    }
    expect(roots[0]).toBe(roots[1])
    const status = (await fork.request({ method: 'finality_forkStatus', params: [] })) as { loaded: { searched: number } }
    expect(status.loaded.searched).toBeGreaterThanOrEqual(1)
    // The empty account is gone on both.
    const after = (await fork.request({ method: 'eth_getProof', params: [empty, [], 'latest'] })) as { accountProof: Hex[] }
    expect(await verifyMerkleProof(hexToBytes(empty), after.accountProof.map((h) => hexToBytes(h)), { root: hexToBytes(roots[0]!), useKeyHashing: true })).toBeNull()
  })
})
