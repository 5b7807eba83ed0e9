/**
 * The node object createNode() answers: each member runs on the components through the same
 * codecs and handlers as its RPC method (node-helpers.ts), and refuses with NodeClosedError once
 * close() began.
 */
import type { Eip1193Provider } from '../adapters/eip1193.js'
import type { Transports } from '../adapters/transports.js'
import { importBlocks } from '../chain/import.js'
import { nodeClosed } from '../compile-cache.js'
import { certificateWithSetToJson } from '../consensus/certificate.js'
import { verifyCertificate } from '../consensus/bft.js'
import type { ValidatorStatus } from '../consensus/validator.js'
import { dumpState } from '../controls/state-dump.js'
import { checksumAddress } from '../crypto/checksum.js'
import { InvalidRequestError, NodeClosedError } from '../errors.js'
import { data, type Hex } from '../hex.js'
import { nodeHelpers } from '../node-helpers.js'
import { checkMiningMode } from '../options-check.js'
import type { CallScope, Dispatcher } from '../rpc/dispatcher.js'
import type { Method } from '../rpc/method.js'
import { NAMESPACES } from '../rpc/registry.js'
import type { Services } from '../services.js'
import type { Components } from './components.js'
import type { FinalityNode } from './finality-node.js'
import type { NodeSettings } from './settings.js'
import { checkExplorerOptions, createExplorerHandler } from '../explorer/serve.js'

/** Whether close() began, and the promise it answers. */
export class Lifecycle {
  private closing: Promise<void> | undefined

  get closed(): boolean {
    return this.closing !== undefined
  }

  /** Throws NodeClosedError once close() began: a closed node neither answers nor mines. */
  live(): void {
    if (this.closing !== undefined) throw new NodeClosedError()
  }

  /** `f`, refused once close() began. */
  alive<A extends unknown[], R>(f: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return async (...args: A): Promise<R> => {
      this.live()
      return f(...args)
    }
  }

  /** Runs `close` once; later calls answer the same promise. */
  close(close: () => Promise<void>): Promise<void> {
    return (this.closing ??= close())
  }
}

/** What the node object is made of. */
export interface NodeParts {
  readonly settings: NodeSettings
  readonly components: Components
  readonly services: Services
  readonly methods: ReadonlyMap<string, Method>
  readonly dispatcher: Dispatcher
  readonly scope: CallScope
  readonly transports: Transports
  readonly provider: Eip1193Provider
  readonly lifecycle: Lifecycle
}

/** The node object. */
export function nodeObject({ settings, components, services, methods, dispatcher, scope, transports, provider, lifecycle }: NodeParts): FinalityNode {
  const { chain, bft, producer, output, filters, profiling, fork } = components
  const live = () => lifecycle.live()
  const alive = <A extends unknown[], R>(f: (...args: A) => Promise<R>) => lifecycle.alive(f)
  // A transport's request log (the CLI's) follows hardhat_/anvil_setLoggingEnabled too.
  const withLogSwitch = <O extends { onRequest?: ((info: { methods: string[]; ms: number }) => void) | undefined }>(o: O | undefined): O | undefined => {
    const onRequest = o?.onRequest
    if (o === undefined || onRequest === undefined) return o
    return { ...o, onRequest: (info: { methods: string[]; ms: number }) => output.allows('rpc') && onRequest(info) }
  }
  // Every node.* helper decodes its arguments with its RPC method's codecs (node-helpers.ts).
  const helpers = nodeHelpers({
    services,
    methods,
    scope: { namespaces: new Set(NAMESPACES), methods },
    hexLimit: settings.limits.hexParamLength,
    certificate: async (block) => {
      const cert = await chain.certificate(block.hash())
      if (cert === undefined) return undefined
      return { ...certificateWithSetToJson(cert, bft.setAt(cert.height).validators), valid: verifyCertificate(cert, bft.setAt(cert.height), settings.chainId, block.hash()) }
    },
    mine: async (mineOptions) => {
      const block = await producer.mine(mineOptions)
      return block === undefined ? undefined : { number: block.header.number, hash: data(block.hash()) }
    },
    importBlocks: (bytes) => producer.exclusive(async () => ({ imported: await importBlocks(chain, bytes) })),
  })
  return {
    get chainId() {
      return chain.chainId
    },
    // EIP-55 checksummed, as viem's getAddresses and privateKeyToAccount give them.
    accounts: settings.local.map((a) => ({ address: checksumAddress(a.address) as Hex, privateKey: data(a.privateKey) })),
    provider,
    // The consensus set's order (by address), the one finality_getValidators answers in.
    // Read-only views: the validator set owns whether each is online.
    // The next height's set; read-only views whose `online` reads the fault plan.
    get validators() {
      return Object.freeze(bft.set.validators.map((v): ValidatorStatus => Object.freeze({ ...v, get online() { return bft.isOnline(v.address) } })))
    },
    // Not through `alive` (an async wrapper with rest arguments): the dispatcher's promise is
    // handed on; a closed node or a bad argument still answers with a rejected promise.
    request: ((args: { method: string; params?: unknown }) => {
      try {
        live()
        // As the provider: a call is an object with a method name (not a string, not null).
        if (typeof args !== 'object' || args === null || typeof args.method !== 'string') throw new InvalidRequestError('invalid request: node.request takes { method: string, params?: unknown[] }')
        return dispatcher.call(args.method, args.params, scope)
      } catch (error) {
        return Promise.reject(error)
      }
    }) as FinalityNode['request'],
    handle: (payload) => dispatcher.handle(payload, scope),
    http(httpOptions) {
      live()
      return transports.http(withLogSwitch(httpOptions))
    },
    ws(server, wsOptions) {
      live()
      return transports.ws(server, withLogSwitch(wsOptions))
    },
    explorer(explorerOptions) {
      live()
      checkExplorerOptions(explorerOptions)
      const settings = { ...explorerOptions }
      return createExplorerHandler(() => settings)
    },
    listen: alive((listenOptions) => transports.listen(withLogSwitch(listenOptions))),
    mine: alive(helpers.mine),
    setMining(mode) {
      live()
      checkMiningMode(mode)
      producer.setMode(mode)
    },
    setValidatorOnline(address, online) {
      live()
      helpers.setValidatorOnline(address, online)
    },
    setValidatorFault(address, fault) {
      live()
      helpers.setValidatorFault(address, fault)
    },
    healValidators(address) {
      live()
      helpers.healValidators(address)
    },
    partitionValidators(groups) {
      live()
      helpers.partitionValidators(groups)
    },
    changeValidators(changes) {
      live()
      return helpers.changeValidators(changes)
    },
    dumpState() {
      live()
      return dumpState(chain, chain.chainId)
    },
    loadState: alive(helpers.loadState),
    snapshot: alive(helpers.snapshot),
    revert: alive(helpers.revert),
    mineBlocks: alive(helpers.mineBlocks),
    increaseTime: alive(helpers.increaseTime),
    setNextBlockTimestamp: alive(helpers.setNextBlockTimestamp),
    setAutomine: alive(helpers.setAutomine),
    setBalance: alive(helpers.setBalance),
    setDelegation: alive(helpers.setDelegation),
    completeUnbonding: alive(helpers.completeUnbonding),
    jailValidator: alive(helpers.jailValidator),
    unjailValidator: alive(helpers.unjailValidator),
    setCode: alive(helpers.setCode),
    setNonce: alive(helpers.setNonce),
    setStorageAt: alive(helpers.setStorageAt),
    impersonate: alive(helpers.impersonate),
    stopImpersonating: alive(helpers.stopImpersonating),
    reset: alive(helpers.reset),
    addArtifacts(sources) {
      live()
      return components.contracts.add(sources)
    },
    importBlocks: alive(helpers.importBlocks),
    commitCertificate: alive(helpers.commitCertificate),
    close: () =>
      lifecycle.close(async () => {
        // Queued heights finish first (in-flight sends get receipts), then the servers go.
        await producer.close()
        await transports.close()
        filters.close()
        provider.disconnect()
        await profiling.close()
        await settings.db?.close()
        await fork.close()
        nodeClosed()
      }),
  }
}
