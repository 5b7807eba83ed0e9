/**
 * The EIP-1193 provider: `request` resolves to the result or rejects with an error carrying
 * `code`, `message` and `data`; events `connect`, `disconnect`, `chainChanged`, `message`.
 * Its listener methods are node:events' (Hardhat wraps a provider as a node:events emitter and
 * calls `setMaxListeners` on it: docs/hardhat.md's in-process setup).
 */
import { EventEmitter } from 'node:events'
import { RpcError } from '../errors.js'
import { callerStack, SOLIDITY_FAILING_METHODS, solidityStackOf, solidityTraceOf, toRpcError, withSolidityStack, withSolidityTrace, type CallerStack } from '../rpc/error-map.js'
import type { Hex } from '../hex.js'
import type { RpcRequestArgs, RpcResult } from '../rpc-types.js'

/** A request as EIP-1193 shapes it. */
export interface RequestArguments {
  readonly method: string
  readonly params?: readonly unknown[] | object
}

/** The error a provider rejects with. */
export class ProviderRpcError extends Error {
  readonly code: number
  readonly data?: unknown
  constructor(code: number, message: string, data?: unknown) {
    super(message)
    this.name = 'ProviderRpcError'
    this.code = code
    if (data !== undefined) this.data = data
  }
}

/** What the provider emits (EIP-1193's events, the shapes viem's `EIP1193Provider` type has). */
export interface ProviderEvents {
  connect(info: { chainId: string }): void
  disconnect(error: ProviderRpcError): void
  chainChanged(chainId: string): void
  accountsChanged(accounts: Hex[]): void
  message(message: { type: string; data: unknown }): void
}

/** An EIP-1193 provider backed by a node's dispatcher. */
export class Eip1193Provider {
  private connected = true
  private readonly events = new EventEmitter()
  /** Requests' caller frames, by the request object (see `callerOf`). */
  private readonly callers = new WeakMap<object, CallerStack>()

  constructor(
    private readonly call: (method: string, params: unknown) => Promise<unknown>,
    chainId: string,
    private readonly solidityFrames: () => boolean = () => false,
  ) {
    // Any number of subscribers (viem, ethers, tests) without node:events' warning past ten.
    this.events.setMaxListeners(0)
    queueMicrotask(() => this.emit('connect', { chainId }))
  }

  /**
   * One JSON-RPC call. A method the node serves, named by its literal, is typed
   * ({@link RpcMethodTypes}): its params must have their types (wrong ones do not compile) and it
   * resolves to its wire type. Any other name, or a plain `string` method (as viem and ethers
   * call), takes any params and resolves to `T` (`unknown` unless the caller names it, as
   * viem's `EIP1193Provider` type does).
   */
  request<M extends string, T = unknown>(args: RpcRequestArgs<M>): Promise<RpcResult<M, T>>
  async request(args: RequestArguments): Promise<unknown> {
    if (!this.connected) throw new ProviderRpcError(4900, 'the provider is disconnected')
    if (typeof args !== 'object' || args === null || typeof args.method !== 'string') {
      throw new ProviderRpcError(-32600, 'invalid request: method must be a string')
    }
    // The caller's frames, taken before the first await: a client that calls through a promise it
    // makes itself (viem's retry wrapper) ends the async chain V8 would follow after it, so the
    // frames taken when the failure comes back would not reach the test's own line. Taken only
    // when failures can carry Solidity frames (the node has contract metadata, and the method runs
    // contract code): nothing otherwise.
    const caller: CallerStack | undefined = SOLIDITY_FAILING_METHODS.has(args.method) && this.solidityFrames() ? this.callerOf(args) : undefined
    try {
      return await this.call(args.method, args.params)
    } catch (thrown) {
      const error = toRpcError(thrown)
      if (error instanceof RpcError) throw withSolidityTrace(withSolidityStack(new ProviderRpcError(error.code, error.message, error.data), solidityStackOf(error), caller), solidityTraceOf(error))
      throw new ProviderRpcError(-32603, error instanceof Error ? error.message : String(error))
    }
  }

  /**
   * The frames of the call that first made the request `args`: a client that retries (viem retries
   * a -32603, Hardhat's code of a failed call) makes it again from a timer with the same object,
   * where no frame of the caller is left.
   */
  private callerOf(args: RequestArguments): CallerStack {
    let caller = this.callers.get(args)
    if (caller === undefined) this.callers.set(args, (caller = callerStack(this.request)))
    return caller
  }

  /** Adds a listener (EIP-1193's signature, the one viem's `EIP1193Provider` type has). */
  on<E extends keyof ProviderEvents>(event: E, listener: ProviderEvents[E]): this {
    return this.listen('on', event, listener)
  }

  addListener<E extends keyof ProviderEvents>(event: E, listener: ProviderEvents[E]): this {
    return this.on(event, listener)
  }

  /** Adds a listener called once. */
  once<E extends keyof ProviderEvents>(event: E, listener: ProviderEvents[E]): this {
    return this.listen('once', event, listener)
  }

  /** Removes a listener. */
  removeListener<E extends keyof ProviderEvents>(event: E, listener: ProviderEvents[E]): this {
    return this.listen('removeListener', event, listener)
  }

  off<E extends keyof ProviderEvents>(event: E, listener: ProviderEvents[E]): this {
    return this.removeListener(event, listener)
  }

  /** Removes every listener of `event`, or of all events. */
  removeAllListeners(event?: keyof ProviderEvents): this {
    this.events.removeAllListeners(event)
    return this
  }

  listenerCount(event: keyof ProviderEvents): number {
    return this.events.listenerCount(event)
  }

  prependListener<E extends keyof ProviderEvents>(event: E, listener: ProviderEvents[E]): this {
    return this.listen('prependListener', event, listener)
  }

  prependOnceListener<E extends keyof ProviderEvents>(event: E, listener: ProviderEvents[E]): this {
    return this.listen('prependOnceListener', event, listener)
  }

  listeners(event: keyof ProviderEvents): Function[] {
    return this.events.listeners(event)
  }

  rawListeners(event: keyof ProviderEvents): Function[] {
    return this.events.rawListeners(event)
  }

  eventNames(): Array<keyof ProviderEvents> {
    return this.events.eventNames() as Array<keyof ProviderEvents>
  }

  /** Hands a listener to the emitter's method `how`; the provider, for chaining. */
  private listen(how: 'on' | 'once' | 'removeListener' | 'prependListener' | 'prependOnceListener', event: keyof ProviderEvents, listener: unknown): this {
    this.events[how](event, listener as never)
    return this
  }

  /** node:events' listener limit, which Hardhat's provider wrappers set; none unless set. */
  setMaxListeners(n: number): this {
    this.events.setMaxListeners(n)
    return this
  }

  getMaxListeners(): number {
    return this.events.getMaxListeners()
  }

  /** Emits an event to the listeners (the node does, for subscriptions and chain changes). */
  emit<E extends keyof ProviderEvents>(event: E, ...args: Parameters<ProviderEvents[E]>): boolean {
    return this.events.emit(event, ...(args as unknown[]))
  }

  /**
   * Marks the provider disconnected (the node closed). EIP-1193: the `disconnect` event's error
   * carries a CloseEvent status code, 1000 (normal closure) for a clean close; requests made
   * afterwards reject with 4900.
   */
  disconnect(code = 1000, reason = 'the node closed'): void {
    if (!this.connected) return
    this.connected = false
    this.emit('disconnect', new ProviderRpcError(code, reason))
  }
}
