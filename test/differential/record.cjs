/**
 * Records the JSON-RPC stream a Hardhat project sends to Hardhat Network's own provider, for the
 * differential corpus (test/differential/README in docs/hardhat.md). Preloaded with
 * `node -r ./record.cjs …/hardhat test --network hardhat`; FINALITY_RECORD names the JSON-lines
 * file written: one `{ method, params, result?, error? }` per request, in order (of an answer,
 * only what a replay needs).
 *
 * The chain is pinned so a replay can rebuild it: the genesis date (FINALITY_RECORD_DATE, ISO) and
 * unlimited contract size (the project deploys a contract past EIP-170, as its in-process network
 * allows), set on the provider's configuration before Hardhat creates it.
 */
const { appendFileSync, writeFileSync } = require('node:fs')
const provider = require('hardhat/internal/hardhat-network/provider/provider')

const file = process.env.FINALITY_RECORD
if (file === undefined) throw new Error('record.cjs: FINALITY_RECORD (the output file) is not set')
const date = new Date(process.env.FINALITY_RECORD_DATE ?? '2025-01-01T00:00:00Z')
writeFileSync(file, '')

const create = provider.EdrProviderWrapper.create
provider.EdrProviderWrapper.create = function (config, ...rest) {
  return create.call(this, { ...config, initialDate: date, allowUnlimitedContractSize: true }, ...rest)
}

/**
 * What a replay needs of an answer: a send's transaction hash, a snapshot's id, and each block's
 * hash with its number (a later step may name a block by hash); the rest is left out.
 */
function compact(method, result) {
  if (method === 'eth_sendTransaction' || method === 'eth_sendRawTransaction' || method === 'evm_snapshot') return result
  const blocks = []
  const walk = (v) => {
    if (Array.isArray(v)) return v.forEach(walk)
    if (v === null || typeof v !== 'object') return
    if (typeof v.hash === 'string' && typeof v.number === 'string' && 'parentHash' in v) blocks.push({ hash: v.hash, number: v.number, parentHash: v.parentHash })
    if (typeof v.blockHash === 'string' && typeof v.blockNumber === 'string') blocks.push({ blockHash: v.blockHash, blockNumber: v.blockNumber })
    Object.values(v).forEach(walk)
  }
  walk(result)
  return blocks.length === 0 ? undefined : blocks
}

const request = provider.EdrProviderWrapper.prototype.request
provider.EdrProviderWrapper.prototype.request = async function (args) {
  const entry = { method: args.method, params: args.params ?? [] }
  try {
    const result = await request.call(this, args)
    const kept = compact(args.method, result)
    appendFileSync(file, JSON.stringify(kept === undefined ? entry : { ...entry, result: kept }) + '\n')
    return result
  } catch (error) {
    const hash = error.transactionHash
    appendFileSync(file, JSON.stringify(hash === undefined ? { ...entry, error: {} } : { ...entry, error: { transactionHash: hash } }) + '\n')
    throw error
  }
}
