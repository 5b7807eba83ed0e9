/**
 * rpc_discover: an OpenRPC document (spec 1.2.6) of the methods the caller's transport serves,
 * generated from the method tables: each method's name and its positional params, from their
 * codecs (name, whether required, a JSON Schema for the wire types the codecs decode). Results
 * are not declared in the tables, so each result's schema is empty (any JSON value).
 */
import type { Codec } from './codecs.js'
import type { Method } from './method.js'

const hex = (pattern: string, description: string) => ({ type: 'string', pattern, description })

const QTY = hex('^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$', 'hex-encoded unsigned integer')
const TAG = { type: 'string', enum: ['earliest', 'latest', 'pending', 'safe', 'finalized'] }

/** JSON Schemas of the codecs' wire types; other codecs are objects or unions named by `title`. */
const SCHEMAS: Readonly<Record<string, object>> = {
  QTY,
  DATA: hex('^0x([0-9a-fA-F]{2})*$', 'hex-encoded bytes'),
  ADDR: hex('^0x[0-9a-fA-F]{40}$', 'hex-encoded 20-byte address'),
  HASH: hex('^0x[0-9a-fA-F]{64}$', 'hex-encoded 32-byte hash'),
  'QTY|HASH': { oneOf: [QTY, hex('^0x[0-9a-fA-F]{64}$', 'hex-encoded 32-byte word')] },
  BLK: { oneOf: [QTY, TAG] },
  'BLK|EIP-1898': { oneOf: [QTY, TAG, hex('^0x[0-9a-fA-F]{64}$', 'block hash'), { type: 'object', description: 'EIP-1898 { blockNumber } or { blockHash, requireCanonical? }' }] },
  string: { type: 'string' },
  boolean: { type: 'boolean' },
  uint64: { type: 'integer', minimum: 0 },
  uint: { type: 'integer', minimum: 0 },
  int: { type: 'integer' },
  any: {},
}

function schemaOf(codec: Codec<unknown>): object {
  return SCHEMAS[codec.name] ?? { title: codec.name }
}

/** One OpenRPC method object. */
function describe(name: string, method: Method) {
  return {
    name,
    params: method.params.map((codec, i) => ({ name: `param${i}`, required: !codec.optional, schema: schemaOf(codec) })),
    result: { name: 'result', schema: {} },
  }
}

/**
 * The document for `served`: the methods open to the caller, in name order. rpc_discover lists
 * itself, as OpenRPC's service discovery method does.
 */
export function openRpcDocument(served: Iterable<[string, Method]>, version: string) {
  const methods = [...served].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, m]) => describe(name, m))
  return {
    openrpc: '1.2.6',
    info: { title: 'finality JSON-RPC', version },
    methods,
  }
}
