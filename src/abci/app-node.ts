/**
 * A node behind CometBFT: the node's components (chain, pool, the EVM application, execution,
 * filters, the JSON-RPC dispatcher and transports) composed as createNode composes them, with
 * CometBFT in the producer's place. The producer stays in manual mode and never mines: blocks come
 * only from CometBFT's FinalizeBlock. Sends go to the local pool and on to CometBFT's mempool
 * (its RPC's `broadcast_tx_sync`); the methods that cannot hold on a network answer why.
 */
import { initKeccak } from '../crypto/keccak.js'
import { installEngine } from '../execution/engine/install.js'
import { Eip1193Provider } from '../adapters/eip1193.js'
import { MethodNotFoundError } from '../errors.js'
import { data, fromHex, quantity } from '../hex.js'
import type { NodeOptions } from '../options.js'
import { checkNodeOptions } from '../options-check.js'
import { Dispatcher } from '../rpc/dispatcher.js'
import { NAMESPACES, buildRegistry } from '../rpc/registry.js'
import { createComponents } from '../node/components.js'
import type { FinalityNode } from '../node/finality-node.js'
import { Lifecycle, nodeObject } from '../node/node-object.js'
import { resolveSettings } from '../node/settings.js'
import { NodeServices } from '../node/services.js'
import { VERSION } from '../version.js'
import type { GenesisValidator } from '../cosmos/module.js'
import { EvmAbciApp } from './evm-app.js'
import { cometFinalityMethods } from './finality-methods.js'
import { CometMempool, SEND_METHODS } from './mempool.js'

/** The options of a node behind CometBFT. */
export interface AbciNodeOptions {
  /** The node's options (chain id, accounts, hardfork, db, …); block production's are CometBFT's and refused here. */
  node?: NodeOptions
  /** CometBFT's genesis time in seconds: the EVM genesis block's timestamp, the same on every node. */
  genesisTime: bigint
  /** CometBFT's RPC (`http://127.0.0.1:26657`): where sends are broadcast. */
  cometRpc: string
  /**
   * CometBFT's genesis validators (`cometGenesisValidators` of the genesis file): with the `cosmos`
   * option, the validators its staking state bonds at genesis, whose power changes go back to
   * CometBFT in FinalizeBlock. Needed with `cosmos`.
   */
  validators?: readonly GenesisValidator[]
}

/** The options that belong to block production or to the in-process validators, which CometBFT replaces. */
const REFUSED_OPTIONS = ['mining', 'validators', 'consensus', 'clock', 'fork', 'hardhat', 'genesisTimestamp', 'initialDate'] as const

/** Why a method has no meaning behind CometBFT, by namespace or name. */
function whyAbsent(name: string): string | undefined {
  const ns = name.slice(0, name.indexOf('_'))
  if (['evm', 'hardhat', 'anvil', 'testing'].includes(ns)) {
    return `${name} is a test control of a one-process chain: on a CometBFT network blocks, time and state come only from consensus (no snapshots, time travel, state writes or mining on demand)`
  }
  if (ns === 'miner') return `${name}: CometBFT produces the blocks (its timeout_commit and create_empty_blocks settings), not this node`
  if (ns === 'finality') return `${name} reads the in-process validators; behind CometBFT the validators, votes and commits are CometBFT's (finality_getValidators and finality_getCommitCertificate serve them; its RPC: /consensus_state, /dump_consensus_state)`
  return undefined
}

/** The node behind CometBFT and the ABCI application serving it. */
export interface AbciNode {
  node: FinalityNode
  app: EvmAbciApp
}

/** Composes a node whose blocks CometBFT decides, and its ABCI application. */
export async function createAbciNode(options: AbciNodeOptions): Promise<AbciNode> {
  const given = options.node ?? {}
  for (const name of REFUSED_OPTIONS) {
    if (given[name as keyof NodeOptions] !== undefined) throw new Error(`option ${name} has no meaning behind CometBFT (CometBFT runs consensus and block production)`)
  }
  if (given.cosmos !== undefined && (options.validators === undefined || options.validators.length === 0)) {
    throw new Error("option cosmos behind CometBFT needs CometBFT's genesis validators (validators: cometGenesisValidators(genesis)): its staking state bonds them")
  }
  const nodeOptions: NodeOptions = { ...given, mining: { mode: 'manual' }, genesisTimestamp: options.genesisTime }
  checkNodeOptions(nodeOptions)
  await initKeccak()
  await installEngine()
  const settings = await resolveSettings(nodeOptions)
  const components = await createComponents(settings, given.cosmos === undefined ? {} : { cosmosValidators: options.validators })
  const keys = new Map((options.validators ?? []).map((v) => [v.address.toLowerCase(), v.publicKey]))
  const lifecycle = new Lifecycle()
  const methods = buildRegistry(settings.limits)
  for (const [name, m] of [...methods]) {
    const why = whyAbsent(name)
    // The method's own params (a call with its usual arguments hears why, not an arity error).
    if (why !== undefined && name !== 'finality_forkStatus') {
      methods.set(name, { ...m, run: () => { throw new MethodNotFoundError(name, why) } })
    }
  }
  // The validator set and commits are CometBFT's, read from its RPC.
  for (const [name, m] of cometFinalityMethods(options.cometRpc, methods)) methods.set(name, m)
  // Sends go through CometBFT's mempool and answer once its CheckTx took them.
  const mempool = new CometMempool(options.cometRpc)
  const sendRaw = methods.get('eth_sendRawTransaction')
  if (sendRaw === undefined) throw new Error('no eth_sendRawTransaction method to send through CometBFT')
  methods.set('eth_sendRawTransaction', { ...sendRaw, run: async (_s, [raw]) => data(await mempool.send(raw as Uint8Array)) })
  for (const name of SEND_METHODS.filter((m) => m !== 'eth_sendRawTransaction')) {
    const send = methods.get(name)
    if (send === undefined) throw new Error(`no ${name} method to send through CometBFT`)
    methods.set(name, {
      ...send,
      run: async (s, params, scope) => {
        // Signed into the local pool (filled, nonce taken), then broadcast.
        const hash = fromHex((await send.run(s, params, scope)) as string)
        const entry = components.pool.get(hash)
        if (entry === undefined) return data(hash)
        try {
          return data(await mempool.send(entry.tx.serialize(), hash))
        } catch (error) {
          components.pool.remove(entry.hash)
          throw error
        }
      },
    })
  }
  const services = new NodeServices(settings, components, lifecycle, methods)
  const { transports } = services
  const dispatcher = new Dispatcher(methods, services, settings.limits)
  const scope = { namespaces: new Set(nodeOptions.api ?? NAMESPACES) }
  const provider: Eip1193Provider = new Eip1193Provider(
    transports.providerCall((subscription, p) => provider.emit('message', { type: `${p.namespace ?? 'eth'}_subscription`, data: { subscription, result: p.value } }), scope),
    quantity(settings.chainId),
  )
  const node = nodeObject({ settings, components, services, methods, dispatcher, scope, transports, provider, lifecycle })
  const { chain, pool, producer, transactions } = components
  const app = new EvmAbciApp({
    chain,
    common: settings.common,
    pool,
    application: components.application,
    gasLimit: () => settings.blockGasLimit,
    validatorKey: (address) => keys.get(address.toLowerCase()),
    // Into the local pool (never broadcast back); a send waiting on these bytes hears the outcome.
    admit: async (raw) => {
      try {
        mempool.checked(raw, { hash: await transactions.submitRaw(raw) })
      } catch (error) {
        mempool.checked(raw, { error })
        throw error
      }
    },
    exclusive: (task) => producer.exclusive(task),
    request: (body) => node.request(body as never),
    version: VERSION,
  })
  return { node, app }
}
