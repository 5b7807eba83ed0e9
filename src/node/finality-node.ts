/** The node object's type: what createNode() answers. */
import type { Server } from 'node:http'
import type { ArtifactSources } from '../metadata/registry.js'
import type { CertificateWithSetJson } from '../consensus/certificate.js'
import type { MiningMode } from '../producer/producer.js'
import type { Fault } from '../consensus/tendermint/faults.js'
import type { ValidatorStatus } from '../consensus/validator.js'
import type { StateDump } from '../controls/state-dump.js'
import type { Eip1193Provider } from '../adapters/eip1193.js'
import type { HttpHandler, HttpOptions } from '../adapters/http.js'
import type { ListenOptions, Listening } from '../adapters/listen.js'
import type { WsEndpoint, WsOptions } from '../adapters/ws.js'
import type { ExplorerHandler, ExplorerOptions } from '../explorer/serve.js'
import type { Hex } from '../hex.js'
import type { Quantity } from '../node-helpers.js'
import type { RpcResponse } from '../rpc/dispatcher.js'
import type { RpcRequestArgs, RpcResult } from '../rpc-types.js'

/** A running in-process node. */
export interface FinalityNode {
  /** The chain id. */
  readonly chainId: bigint
  /** The prefunded accounts the node holds keys for; addresses EIP-55 checksummed. */
  readonly accounts: ReadonlyArray<{ address: Hex; privateKey: Hex }>
  /** The EIP-1193 provider (viem `custom()`, ethers `BrowserProvider`). */
  readonly provider: Eip1193Provider
  /**
   * Calls one JSON-RPC method; rejects with an {@link RpcError} carrying `code` and `data`. A
   * method the node serves, named by its literal, is typed ({@link RpcMethodTypes}): its params
   * must have their types (wrong ones do not compile) and it resolves to its wire type. Any other
   * name (a method of a newer release) or a plain `string` takes any params and resolves to
   * `unknown`: the node checks those params at run time (-32602).
   */
  request<M extends string>(args: RpcRequestArgs<M>): Promise<RpcResult<M>>
  /** Answers a whole JSON-RPC payload (one request or a batch), as transports do. */
  handle(payload: unknown): Promise<RpcResponse | RpcResponse[] | undefined>
  /** Produces one block now with the pending transactions (any mining mode); `timestamp` after the parent's. */
  mine(options?: { timestamp?: Quantity }): Promise<{ number: bigint; hash: Hex } | undefined>
  /** Changes the mining mode. */
  setMining(mode: MiningMode): void
  /** The validators and their status. */
  readonly validators: ReadonlyArray<ValidatorStatus>
  /** Takes a validator offline or back online; with too few online, the chain halts. */
  setValidatorOnline(address: Hex, online: boolean): void
  /**
   * Gives a validator faults (replacing its previous ones): `offline`, `silent` (never proposes),
   * `nil` (votes nil), `equivocate` (signs two proposals and two votes per round), `delay` (ms).
   * With more than 1/3 of the power faulty the chain halts until healed.
   */
  setValidatorFault(address: Hex, fault: Fault): void
  /** Heals one validator, or every validator and the partition; a halted chain resumes. */
  healValidators(address?: Hex): void
  /** Splits the validators into groups that cannot reach each other (the ones not listed form one more). */
  partitionValidators(groups: Hex[][]): void
  /**
   * Requests validator-set changes (a power of 0 removes; `index` adds the validator of that key
   * index of the mnemonic); they take effect two heights after the head. Answers that height.
   */
  changeValidators(changes: Array<{ address?: Hex; index?: number; power: bigint | number }>): bigint
  /**
   * With the `cosmos` option: sets a delegation to `amount` tokens (the bonded pool minted or
   * burned, the delegator's balance untouched). Answers the height the validator's new power
   * takes effect at (the next block's EndBlock reports it; consensus applies it two heights on).
   */
  setDelegation(delegator: Hex, validator: Hex, amount: Quantity): Promise<bigint>
  /** With the `cosmos` option: every unbonding entry completes in the next block. Answers that block's number. */
  completeUnbonding(): Promise<bigint>
  /** With the `cosmos` option: jails a validator for `blocks` blocks, without a slash. Answers the height it leaves the set at. */
  jailValidator(validator: Hex, blocks?: Quantity): Promise<bigint>
  /** With the `cosmos` option: unjails a validator, even a tombstoned one. Answers the height it is back at. */
  unjailValidator(validator: Hex): Promise<bigint>
  /**
   * The commit certificate of block `number` (a quantity, or a tag such as `latest`; undefined for
   * genesis or a block not yet made), and whether it verifies.
   */
  commitCertificate(number: Quantity | 'latest' | 'earliest' | 'safe' | 'finalized'): Promise<(CertificateWithSetJson & { valid: boolean }) | undefined>
  /** The head state as a versioned JSON dump (the format of docs/controls.md, which Anvil loads too). */
  dumpState(): StateDump
  /**
   * Replaces accounts with a dump's (`anvil_loadState`): ours (object or RPC hex), or Anvil's
   * (its `anvil_dumpState` hex, or its `--dump-state` file parsed).
   */
  loadState(dump: StateDump | Hex | Record<string, unknown>): Promise<void>
  /** Remembers the chain, pool and time (`evm_snapshot`); returns the id for {@link revert}. */
  snapshot(): Promise<Hex>
  /** Back to a snapshot (`evm_revert`); false for an unknown or used-up id. */
  revert(id: Quantity): Promise<boolean>
  /** Mines `count` blocks, `interval` seconds apart (`hardhat_mine`). */
  mineBlocks(count: Quantity, interval?: Quantity): Promise<void>
  /** Moves the clock of later blocks forward (`evm_increaseTime`); returns the total offset. */
  increaseTime(seconds: Quantity): Promise<bigint>
  /** The exact timestamp of the next block (`evm_setNextBlockTimestamp`). */
  setNextBlockTimestamp(timestamp: Quantity): Promise<void>
  /** Automine on or off (`evm_setAutomine`). */
  setAutomine(on: boolean): Promise<void>
  /**
   * State writes without a block (`hardhat_setBalance`, `setCode`, `setNonce`, `setStorageAt`).
   * Every helper takes what its RPC method takes (a quantity also as a bigint or a safe integer)
   * and refuses the rest with -32602 naming the helper and the argument.
   */
  setBalance(address: Hex, wei: Quantity): Promise<void>
  setCode(address: Hex, code: Hex): Promise<void>
  setNonce(address: Hex, nonce: Quantity): Promise<void>
  setStorageAt(address: Hex, slot: Quantity, value: Hex): Promise<void>
  /** Sends for an address without its key (`hardhat_impersonateAccount`), and stops. */
  impersonate(address: Hex): Promise<void>
  stopImpersonating(address: Hex): Promise<void>
  /**
   * Adds contract metadata (what `createNode({ artifacts })` takes: build-info, solc output,
   * artifact objects, or paths of artifact folders and files), so failures of those contracts are
   * named in Hardhat mode; answers how many contracts were read. A bad source throws an
   * `ArtifactError` naming it and adds nothing.
   */
  addArtifacts(sources: ArtifactSources): number
  /** Back to genesis (`hardhat_reset`). */
  reset(): Promise<void>
  /**
   * Imports an exported chain (concatenated RLP blocks) on top of the head, executing and
   * checking each block; refuses a bad block and keeps nothing of it. Returns the count imported.
   */
  importBlocks(bytes: Uint8Array): Promise<{ imported: number }>
  /**
   * A `(req, res, next?)` handler for `http.createServer(handler)` or Express
   * (`app.use('/rpc', node.http())`). Namespaces `eth, web3, net, rpc` unless `api` says otherwise.
   */
  http(options?: HttpOptions): HttpHandler
  /** Attaches the WebSocket transport (subscriptions included) to the caller's `http.Server`. */
  ws(server: Server, options?: WsOptions): WsEndpoint
  /**
   * The explorer page (docs/explorer.md) as a `(req, res, next?)` handler for GET, beside the
   * transports on the caller's server (`app.get('/', node.explorer({ rpc: '/rpc', ws: '/ws' }))`).
   * The page reaches the node only through those transports; it is read from the package at the
   * first request.
   */
  explorer(options?: ExplorerOptions): ExplorerHandler
  /** Serves HTTP and WebSocket on their own servers (127.0.0.1:8545 / 8546 by default, port 0 = ephemeral). */
  listen(options?: ListenOptions): Promise<Listening>
  /**
   * Closes the node: lets the blocks already under way finish (a send in flight settles with its
   * receipt or NodeClosedError), then stops block production, closes the node's servers and
   * WebSocket endpoints and the database, and disconnects the provider. From the moment it is
   * called every other member rejects (or throws) NodeClosedError (code 4900), including handlers
   * made by `http()` before. Calling it again returns the same promise.
   */
  close(): Promise<void>
}
