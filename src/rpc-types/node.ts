/** Params and results of the node-management namespaces: admin, miner, personal, txpool, testing. */
import type { Hex } from '../hex.js'
import type { RpcTransaction, RpcTransactionRequest, RpcWithdrawal } from './objects.js'
import type { RpcSignedTransaction } from './eth.js'

/** txpool_content's groups: by sender (checksummed), then by nonce (decimal). */
export type RpcTxpoolGroup<T> = Record<Hex, Record<string, T>>

/** The methods of admin, miner, personal, txpool and testing. */
export interface NodeMethodTypes {
  admin_datadir: { params: []; result: string }
  admin_exportChain: { params: [file: string, first?: Hex | number, last?: Hex | number]; result: boolean }
  admin_importChain: { params: [file: string]; result: boolean }
  admin_nodeInfo: { params: []; result: { id: string; name: string; enode?: string; enr?: string; ip?: string; ports?: Record<string, number>; listenAddr?: string; protocols: { eth: { network: number; genesis: Hex; config: Record<string, unknown>; head: Hex } } } }
  admin_peers: { params: []; result: [] }
  admin_startHTTP: { params: [host?: string, port?: number, cors?: string, apis?: string, vhosts?: string]; result: boolean }
  admin_startRPC: { params: [host?: string, port?: number, cors?: string, apis?: string, vhosts?: string]; result: boolean }
  admin_startWS: { params: [host?: string, port?: number, origins?: string, apis?: string]; result: boolean }
  admin_stopHTTP: { params: []; result: boolean }
  admin_stopRPC: { params: []; result: boolean }
  admin_stopWS: { params: []; result: boolean }
  miner_setEtherbase: { params: [address: Hex]; result: true }
  miner_setExtra: { params: [extra: string]; result: true }
  miner_setGasLimit: { params: [limit: Hex]; result: true }
  miner_setGasPrice: { params: [price: Hex]; result: true }
  miner_start: { params: []; result: null }
  miner_stop: { params: []; result: null }
  personal_ecRecover: { params: [message: Hex, signature: Hex]; result: Hex }
  personal_importRawKey: { params: [privateKey: string, passphrase: string]; result: Hex }
  personal_listAccounts: { params: []; result: Hex[] }
  personal_listWallets: { params: []; result: Array<{ url: string; status: 'Locked' | 'Unlocked'; accounts: Array<{ address: Hex; url: string }> }> }
  personal_lockAccount: { params: [address: Hex]; result: true }
  personal_newAccount: { params: [passphrase: string]; result: Hex }
  personal_sendTransaction: { params: [transaction: RpcTransactionRequest, passphrase: string]; result: Hex }
  personal_sign: { params: [message: Hex, address: Hex, passphrase?: string]; result: Hex }
  personal_signTransaction: { params: [transaction: RpcTransactionRequest, passphrase: string]; result: RpcSignedTransaction }
  personal_unlockAccount: { params: [address: Hex, passphrase: string, seconds?: number | Hex]; result: true }
  testing_buildBlockV1: {
    params: [parentHash: Hex, attributes: { timestamp: Hex; prevRandao: Hex; suggestedFeeRecipient: Hex; withdrawals?: RpcWithdrawal[]; parentBeaconBlockRoot?: Hex }, transactions?: Hex[] | null, extraData?: Hex]
    result: { executionPayload: Record<string, unknown>; blockValue: Hex; blobsBundle: { commitments: Hex[]; proofs: Hex[]; blobs: Hex[] }; executionRequests: Hex[] | null; shouldOverrideBuilder: false }
  }
  txpool_content: { params: []; result: { pending: RpcTxpoolGroup<RpcTransaction>; queued: RpcTxpoolGroup<RpcTransaction> } }
  txpool_contentFrom: { params: [address: Hex]; result: { pending: Record<string, RpcTransaction>; queued: Record<string, RpcTransaction> } }
  /** Each transaction summarized as `to: value wei + gas gas × price wei`. */
  txpool_inspect: { params: []; result: { pending: RpcTxpoolGroup<string>; queued: RpcTxpoolGroup<string> } }
  txpool_status: { params: []; result: { pending: Hex; queued: Hex } }
}
