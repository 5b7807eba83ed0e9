/**
 * An ABCI++ socket server: CometBFT connects to it (four connections: consensus, mempool, query,
 * snapshot), each carrying varint-framed protobuf `Request`s answered in order by `Response`s.
 * Requests of all connections run one at a time, as CometBFT's own socket server holds one lock
 * around its application. An application error answers an `exception` and closes the connection
 * (CometBFT then stops: a node must not go on past a block it could not execute).
 */
import { create, fromBinary, toBinary, type MessageInitShape } from '@bufbuild/protobuf'
import { createServer, type Server, type Socket } from 'node:net'
import { rmSync } from 'node:fs'
import {
  RequestSchema,
  ResponseSchema,
  type RequestCheckTx,
  type RequestFinalizeBlock,
  type RequestInfo,
  type RequestInitChain,
  type RequestPrepareProposal,
  type RequestProcessProposal,
  type RequestQuery,
  type ResponseCheckTxSchema,
  type ResponseCommitSchema,
  type ResponseFinalizeBlockSchema,
  type ResponseInfoSchema,
  type ResponseInitChainSchema,
  type ResponsePrepareProposalSchema,
  type ResponseProcessProposalSchema,
  type ResponseQuerySchema,
  ResponseOfferSnapshot_Result,
  ResponseApplySnapshotChunk_Result,
  ResponseProcessProposal_ProposalStatus,
  ResponseVerifyVoteExtension_VerifyStatus,
} from './gen/tendermint/abci/types_pb.js'
import { DEFAULT_MAX_MESSAGE_BYTES, FrameReader, checkMaxMessageBytes, frame } from './framing.js'


/** The calls an application behind CometBFT answers (the state-sync and vote-extension calls have the defaults of CometBFT's BaseApplication). */
export interface AbciApplication {
  info(req: RequestInfo): Promise<MessageInitShape<typeof ResponseInfoSchema>>
  initChain(req: RequestInitChain): Promise<MessageInitShape<typeof ResponseInitChainSchema>>
  checkTx(req: RequestCheckTx): Promise<MessageInitShape<typeof ResponseCheckTxSchema>>
  prepareProposal(req: RequestPrepareProposal): Promise<MessageInitShape<typeof ResponsePrepareProposalSchema>>
  processProposal(req: RequestProcessProposal): Promise<MessageInitShape<typeof ResponseProcessProposalSchema>>
  finalizeBlock(req: RequestFinalizeBlock): Promise<MessageInitShape<typeof ResponseFinalizeBlockSchema>>
  commit(): Promise<MessageInitShape<typeof ResponseCommitSchema>>
  query(req: RequestQuery): Promise<MessageInitShape<typeof ResponseQuerySchema>>
}

type ResponseValue = NonNullable<MessageInitShape<typeof ResponseSchema>['value']>

/** Answers one request (the application's calls; echo, flush and the unused calls here). */
async function answer(app: AbciApplication, request: ReturnType<typeof fromBinary<typeof RequestSchema>>): Promise<ResponseValue> {
  const r = request.value
  switch (r.case) {
    case 'echo': return { case: 'echo', value: { message: r.value.message } }
    case 'flush': return { case: 'flush', value: {} }
    case 'info': return { case: 'info', value: await app.info(r.value) }
    case 'initChain': return { case: 'initChain', value: await app.initChain(r.value) }
    case 'checkTx': return { case: 'checkTx', value: await app.checkTx(r.value) }
    case 'prepareProposal': return { case: 'prepareProposal', value: await app.prepareProposal(r.value) }
    case 'processProposal': return { case: 'processProposal', value: await app.processProposal(r.value) }
    case 'finalizeBlock': return { case: 'finalizeBlock', value: await app.finalizeBlock(r.value) }
    case 'commit': return { case: 'commit', value: await app.commit() }
    case 'query': return { case: 'query', value: await app.query(r.value) }
    // No state-sync snapshots are offered, none taken (a node catches up by block sync).
    case 'listSnapshots': return { case: 'listSnapshots', value: {} }
    case 'offerSnapshot': return { case: 'offerSnapshot', value: { result: ResponseOfferSnapshot_Result.REJECT } }
    case 'loadSnapshotChunk': return { case: 'loadSnapshotChunk', value: {} }
    case 'applySnapshotChunk': return { case: 'applySnapshotChunk', value: { result: ResponseApplySnapshotChunk_Result.ABORT } }
    // Vote extensions are not used (the genesis leaves them off); these are the answers CometBFT requires if asked.
    case 'extendVote': return { case: 'extendVote', value: {} }
    case 'verifyVoteExtension': return { case: 'verifyVoteExtension', value: { status: ResponseVerifyVoteExtension_VerifyStatus.ACCEPT } }
    default: throw new Error('ABCI: an empty or unknown request')
  }
}

/** ProcessProposal's statuses, for the application. */
export const ProposalStatus = ResponseProcessProposal_ProposalStatus

/** Where the server listens: `tcp://host:port` or `unix:///path`. */
export function parseAbciAddress(address: string): { host: string; port: number } | { path: string } {
  const tcp = /^tcp:\/\/([^:/]+):(\d+)$/.exec(address)
  if (tcp !== null) return { host: tcp[1] as string, port: Number(tcp[2]) }
  const unix = /^unix:\/\/(\/.+)$/.exec(address)
  if (unix !== null) return { path: unix[1] as string }
  throw new Error(`ABCI address ${JSON.stringify(address)} is neither tcp://host:port nor unix:///path`)
}

/** A running ABCI server. */
export interface AbciServer {
  /** The address CometBFT's `proxy_app` names (`tcp://127.0.0.1:<port>` when port 0 was asked). */
  readonly address: string
  close(): Promise<void>
}

/** Settings of {@link serveAbci}. */
export interface AbciServerOptions {
  /** The largest message read, in bytes (default 64 MiB); a longer one closes the connection. */
  maxMessageBytes?: number
}

/** Serves `app` at `address` (tcp://host:port, port 0 for any; or unix:///path). */
export async function serveAbci(app: AbciApplication, address: string, onError: (error: Error) => void = () => {}, options: AbciServerOptions = {}): Promise<AbciServer> {
  const maxMessageBytes = checkMaxMessageBytes(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES)
  const where = parseAbciAddress(address)
  let turn: Promise<unknown> = Promise.resolve()
  const sockets = new Set<Socket>()
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    const reader = new FrameReader(maxMessageBytes)
    // The answers of this connection, in the order of its requests.
    let written: Promise<unknown> = Promise.resolve()
    socket.on('data', (chunk: Buffer) => {
      let messages: Uint8Array[]
      try {
        messages = reader.push(chunk)
      } catch (error) {
        onError(error as Error)
        socket.destroy()
        return
      }
      for (const bytes of messages) {
        const answered: Promise<ResponseValue> = turn.then(async (): Promise<ResponseValue> => {
          try {
            return await answer(app, fromBinary(RequestSchema, bytes))
          } catch (error) {
            onError(error as Error)
            return { case: 'exception', value: { error: (error as Error).message } }
          }
        })
        turn = answered
        written = Promise.all([written, answered]).then(([, value]: [unknown, ResponseValue]) => {
          if (socket.destroyed) return
          socket.write(frame(toBinary(ResponseSchema, create(ResponseSchema, { value }))))
          if (value.case === 'exception') socket.end()
        })
      }
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    if ('path' in where) {
      rmSync(where.path, { force: true })
      server.listen(where.path, resolve)
    } else server.listen(where.port, where.host, resolve)
  })
  const bound = server.address()
  const actual = 'path' in where || bound === null || typeof bound === 'string' ? address : `tcp://${where.host}:${bound.port}`
  return {
    address: actual,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
