/**
 * The ABCI++ socket server without CometBFT (no Go needed): varint framing over any chunking, and
 * CometBFT's calls made over a TCP connection by hand to the EVM application: Echo/Info/Flush
 * answered in order, InitChain checked against the genesis time, FinalizeBlock and Commit of a
 * signed transaction that the node's JSON-RPC then serves.
 */
import { create, fromBinary, toBinary, type MessageInitShape } from '@bufbuild/protobuf'
import { connect, type Socket } from 'node:net'
import { mnemonicToAccount } from 'viem/accounts'
import { parseGwei, type Hex } from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import { FrameReader, frame } from '../../src/abci/framing.js'
import { createAbciNode, type AbciNode } from '../../src/abci/app-node.js'
import { serveAbci, type AbciServer } from '../../src/abci/server.js'
import { RequestSchema, ResponseSchema, type Response } from '../../src/abci/gen/tendermint/abci/types_pb.js'

describe('framing', () => {
  it('reads messages back however the stream is cut, lengths over one varint byte included', () => {
    const messages = [new Uint8Array(0), new Uint8Array(5).fill(1), new Uint8Array(300).fill(2), new Uint8Array(70_000).fill(3)]
    const stream = Buffer.concat(messages.map(frame))
    expect(frame(new Uint8Array(300)).subarray(0, 2)).toEqual(new Uint8Array([0xac, 0x02]))
    for (const cut of [1, 2, 7, 1000, stream.length]) {
      const reader = new FrameReader()
      const out: Uint8Array[] = []
      for (let i = 0; i < stream.length; i += cut) out.push(...reader.push(stream.subarray(i, i + cut)))
      expect(out).toEqual(messages)
    }
  })

  it('refuses a length over the limit or a varint that never ends', () => {
    expect(() => new FrameReader().push(new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x40]))).toThrow(/over the limit/)
    expect(() => new FrameReader().push(new Uint8Array(6).fill(0xff))).toThrow(/varint too long/)
  })

  it('maxMessageBytes: a message of exactly the limit is read, one byte more refused; a bad setting fails naming it', () => {
    expect(new FrameReader(1024).push(frame(new Uint8Array(1024).fill(7)))).toEqual([new Uint8Array(1024).fill(7)])
    expect(() => new FrameReader(1024).push(frame(new Uint8Array(1025)))).toThrow('ABCI: message of 1025 bytes is over the limit of 1024 (maxMessageBytes)')
    // The default: 64 MiB, read from the length prefix before the body arrives.
    expect(new FrameReader().push(frame(new Uint8Array(0)).subarray(0, 1))).toEqual([new Uint8Array(0)])
    expect(() => new FrameReader().push(frame(new Uint8Array(64 * 1024 * 1024 + 1)).subarray(0, 4))).toThrow(/over the limit of 67108864/)
    for (const bad of [1023, 2 ** 31, 1.5, Number.NaN]) expect(() => new FrameReader(bad)).toThrow(`maxMessageBytes must be an integer from 1024 to 2147483647 (bytes), not ${bad}`)
  })
})

/** A connection speaking CometBFT's side of the protocol. */
function client(address: string): { send(...requests: Array<MessageInitShape<typeof RequestSchema>>): void; next(): Promise<Response>; closed: Promise<void>; socket: Socket } {
  const [, host, port] = /^tcp:\/\/(.+):(\d+)$/.exec(address) as RegExpExecArray
  const socket = connect(Number(port), host as string)
  const reader = new FrameReader()
  const queue: Response[] = []
  const waiting: Array<(r: Response) => void> = []
  socket.on('data', (chunk) => {
    for (const bytes of reader.push(chunk)) {
      const r = fromBinary(ResponseSchema, bytes)
      const w = waiting.shift()
      if (w !== undefined) w(r)
      else queue.push(r)
    }
  })
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  return {
    socket,
    closed,
    // One write cut in two, mid-message: the server must reassemble.
    send: (...requests) => {
      const bytes = Buffer.concat(requests.map((r) => frame(toBinary(RequestSchema, create(RequestSchema, r)))))
      const half = Math.floor(bytes.length / 2)
      socket.write(bytes.subarray(0, half))
      setTimeout(() => socket.write(bytes.subarray(half)), 5)
    },
    next: () => (queue.length > 0 ? Promise.resolve(queue.shift() as Response) : new Promise((resolve) => waiting.push(resolve))),
  }
}

describe('the ABCI server and the EVM application', () => {
  let abci: AbciNode | undefined
  let server: AbciServer | undefined
  afterEach(async () => {
    await server?.close()
    await abci?.node.close()
  })
  const genesisTime = 1_700_000_000n

  it("answers CometBFT's calls in order and runs a decided block", async () => {
    abci = await createAbciNode({ genesisTime, cometRpc: 'http://127.0.0.1:1' })
    server = await serveAbci(abci.app, 'tcp://127.0.0.1:0')
    const genesis = (await abci.node.request({ method: 'eth_getBlockByNumber', params: ['0x0', false] })) as { stateRoot: Hex; timestamp: Hex }
    expect(BigInt(genesis.timestamp)).toBe(genesisTime)

    const c = client(server.address)
    c.send({ value: { case: 'echo', value: { message: 'hi' } } }, { value: { case: 'info', value: {} } }, { value: { case: 'flush', value: {} } })
    const [echo, info, flush] = [await c.next(), await c.next(), await c.next()]
    expect(echo.value).toMatchObject({ case: 'echo', value: { message: 'hi' } })
    expect(info.value.case).toBe('info')
    if (info.value.case === 'info') {
      expect(info.value.value.lastBlockHeight).toBe(0n)
      expect(Buffer.from(info.value.value.lastBlockAppHash).toString('hex')).toBe(genesis.stateRoot.slice(2))
    }
    expect(flush.value.case).toBe('flush')

    c.send({ value: { case: 'initChain', value: { time: { seconds: genesisTime }, chainId: 'test' } } })
    const init = await c.next()
    expect(init.value.case).toBe('initChain')

    const account = mnemonicToAccount('test test test test test test test test test test test junk')
    const tx = await account.signTransaction({ chainId: 31337, nonce: 0, to: account.address, value: 1n, gas: 21000n, maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: parseGwei('1'), type: 'eip1559' })
    const raw = Buffer.from(tx.slice(2), 'hex')
    c.send({ value: { case: 'checkTx', value: { tx: raw } } }, { value: { case: 'checkTx', value: { tx: new Uint8Array([1, 2, 3]) } } })
    const [ok, bad] = [await c.next(), await c.next()]
    expect(ok.value).toMatchObject({ case: 'checkTx', value: { code: 0 } })
    expect(bad.value).toMatchObject({ case: 'checkTx', value: { code: 1 } })
    expect(await abci.node.request({ method: 'txpool_status', params: [] })).toEqual({ pending: '0x1', queued: '0x0' })

    const proposer = new Uint8Array(20).fill(0xab)
    c.send({ value: { case: 'finalizeBlock', value: { height: 1n, txs: [raw], time: { seconds: genesisTime + 5n }, proposerAddress: proposer } } })
    const finalized = await c.next()
    expect(finalized.value.case).toBe('finalizeBlock')
    c.send({ value: { case: 'commit', value: {} } })
    expect((await c.next()).value.case).toBe('commit')
    const block = (await abci.node.request({ method: 'eth_getBlockByNumber', params: ['0x1', false] })) as { stateRoot: Hex; timestamp: Hex; miner: Hex; transactions: Hex[] }
    if (finalized.value.case === 'finalizeBlock') {
      expect(finalized.value.value.txResults.map((r) => r.code)).toEqual([0])
      expect(Buffer.from(finalized.value.value.appHash).toString('hex')).toBe(block.stateRoot.slice(2))
    }
    expect(BigInt(block.timestamp)).toBe(genesisTime + 5n)
    expect(block.miner).toBe(`0x${'ab'.repeat(20)}`)
    expect(block.transactions).toHaveLength(1)
    expect(await abci.node.request({ method: 'txpool_status', params: [] })).toEqual({ pending: '0x0', queued: '0x0' })
    c.socket.destroy()
  })

  it('answers an exception and closes the connection when InitChain names another genesis time', async () => {
    abci = await createAbciNode({ genesisTime, cometRpc: 'http://127.0.0.1:1' })
    const errors: string[] = []
    server = await serveAbci(abci.app, 'tcp://127.0.0.1:0', (e) => errors.push(e.message))
    const c = client(server.address)
    c.send({ value: { case: 'initChain', value: { time: { seconds: genesisTime + 1n } } } })
    const answer = await c.next()
    expect(answer.value.case).toBe('exception')
    expect(errors[0]).toMatch(/genesis time 1700000001 is not the EVM genesis block's 1700000000/)
    await c.closed
  })

  it('maxMessageBytes: a request of exactly the limit is answered, one past it closes the connection', async () => {
    abci = await createAbciNode({ genesisTime, cometRpc: 'http://127.0.0.1:1' })
    const errors: string[] = []
    await expect(serveAbci(abci.app, 'tcp://127.0.0.1:0', undefined, { maxMessageBytes: 100 })).rejects.toThrow(/maxMessageBytes must be an integer from 1024/)
    server = await serveAbci(abci.app, 'tcp://127.0.0.1:0', (e) => errors.push(e.message), { maxMessageBytes: 1024 })
    // An Echo whose encoded request is `size` bytes.
    const echo = (size: number) => {
      for (let n = size; n > 0; n--) {
        const request = { value: { case: 'echo' as const, value: { message: 'x'.repeat(n) } } }
        if (toBinary(RequestSchema, create(RequestSchema, request)).length === size) return request
      }
      throw new Error(`no echo of ${size} bytes`)
    }
    const c = client(server.address)
    c.send(echo(1024))
    expect((await c.next()).value).toMatchObject({ case: 'echo', value: { message: 'x'.repeat(1018) } })
    c.send(echo(1025))
    await c.closed
    expect(errors).toEqual(['ABCI: message of 1025 bytes is over the limit of 1024 (maxMessageBytes)'])
  })

  it('a test control answers why it cannot hold behind CometBFT', async () => {
    abci = await createAbciNode({ genesisTime, cometRpc: 'http://127.0.0.1:1' })
    await expect(abci.node.request({ method: 'evm_increaseTime', params: [10] })).rejects.toMatchObject({ code: -32601, message: expect.stringMatching(/time and state come only from consensus/) })
    await expect(createAbciNode({ genesisTime, cometRpc: 'x', node: { mining: { mode: 'auto' } } })).rejects.toThrow(/option mining has no meaning behind CometBFT/)
    // The cosmos option bonds CometBFT's genesis validators: without them it cannot start.
    await expect(createAbciNode({ genesisTime, cometRpc: 'x', node: { cosmos: {} } })).rejects.toThrow(/option cosmos behind CometBFT needs CometBFT's genesis validators/)
  })
})
