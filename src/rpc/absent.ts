/**
 * Methods other nodes serve that have no meaning on this chain, with the reason. They stay absent
 * (geth's -32601 `the method … does not exist/is not available`, so clients that test the code
 * behave as with geth), and the text says why and, where there is one, what to call instead.
 * docs/interface.md lists them against the interface spec.
 */

const NO_POW = 'there is no proof-of-work mining here: blocks come from the BFT block producer'
const NO_P2P = 'there is no peer-to-peer network here: the validators run inside the node'
const NO_HW_WALLET = 'hardware and smartcard wallets are not supported: accounts live in the node\'s in-memory keystore'

/** Reasons by exact method name. */
const BY_NAME: Readonly<Record<string, string>> = {
  eth_getWork: NO_POW,
  eth_submitWork: NO_POW,
  eth_submitHashrate: NO_POW,
  miner_getHashrate: NO_POW,
  miner_setRecommitInterval: `${NO_POW} (blocks are not re-sealed)`,
  debug_seedHash: `${NO_POW} (no ethash seed)`,
  eth_getCompilers: 'compilers are not part of the node (geth dropped them too): compile with solc and send the bytecode',
  eth_compileLLL: 'compilers are not part of the node (geth dropped them too): compile with solc and send the bytecode',
  eth_compileSolidity: 'compilers are not part of the node (geth dropped them too): compile with solc and send the bytecode',
  eth_compileSerpent: 'compilers are not part of the node (geth dropped them too): compile with solc and send the bytecode',
  admin_addPeer: NO_P2P,
  admin_removePeer: NO_P2P,
  admin_addTrustedPeer: NO_P2P,
  admin_removeTrustedPeer: NO_P2P,
  admin_clearPeerBanList: NO_P2P,
  admin_listPeerBanList: NO_P2P,
  admin_sleepBlocks: 'a console helper of geth (it waits in the console), not a JSON-RPC method: subscribe to newHeads or poll eth_blockNumber',
  personal_initializeWallet: NO_HW_WALLET,
  personal_unpair: NO_HW_WALLET,
  personal_openWallet: NO_HW_WALLET,
  personal_deriveAccount: NO_HW_WALLET,
  personal_signAndSendTransaction: 'the former name of personal_sendTransaction: call personal_sendTransaction',
  debug_backtraceAt: "Go's log backtraces have no Node.js analogue: debug_verbosity sets the node's log level",
  anvil_reorg: 'a committed block is final here (BFT consensus): the chain cannot be reorganised; evm_snapshot / evm_revert (test controls) go back',
  anvil_rollback: 'a committed block is final here (BFT consensus): the chain cannot be rolled back; evm_snapshot / evm_revert (test controls) go back',
  debug_setHead: 'committed blocks are final here and cannot be rewound: evm_snapshot / evm_revert (test controls) go back',
  debug_chaindbProperty: "LevelDB's internal statistics have no counterpart in this node's store",
  debug_chaindbCompact: "LevelDB's compaction has no counterpart in this node's store",
  debug_traceChain: 'debug_traceChain is a subscription: call debug_subscribe("traceChain", start, end, config) over WebSocket',
}

/** Reasons by namespace. */
const BY_NAMESPACE: Readonly<Record<string, string>> = {
  db: 'the db namespace (a node-local key-value store) was removed from Ethereum clients: keep such data in the application',
  shh: 'Whisper (shh) is not part of this node: there is no peer-to-peer network',
  clique: 'consensus is BFT, not clique: finality_getValidators and finality_getCommitCertificate describe the validators',
  les: 'there are no light clients (LES) here',
  engine: 'there is no beacon chain driving this node: the post-merge engine API is absent (blocks come from the BFT producer)',
}

/** Why `name` is absent here, when it is a method other nodes serve that has no meaning on this chain. */
export function absentReason(name: string): string | undefined {
  if (Object.hasOwn(BY_NAME, name)) return BY_NAME[name]
  const namespace = name.slice(0, Math.max(0, name.indexOf('_')))
  return Object.hasOwn(BY_NAMESPACE, namespace) ? BY_NAMESPACE[namespace] : undefined
}
