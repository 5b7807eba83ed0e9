/**
 * The EIP-1193 provider: `request` resolves to the result or rejects with an error carrying
 * `code`, `message` and `data`; events `connect`, `disconnect`, `chainChanged`, `message`.
 */
import { EventEmitter } from 'eventemitter3'
import { RpcError } from '../errors.js'

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

/** What the provider emits. */
export interface ProviderEvents {
  connect: (info: { chainId: string }) => void
  disconnect: (error: ProviderRpcError) => void
  chainChanged: (chainId: string) => void
  accountsChanged: (accounts: string[]) => void
  message: (message: { type: string; data: unknown }) => void
}

/** An EIP-1193 provider backed by a node's dispatcher. */
export class Eip1193Provider extends EventEmitter<ProviderEvents> {
  private connected = true

  constructor(
    private readonly call: (method: string, params: unknown) => Promise<unknown>,
    chainId: string,
  ) {
    super()
    queueMicrotask(() => this.emit('connect', { chainId }))
  }

  async request(args: RequestArguments): Promise<unknown> {
    if (!this.connected) throw new ProviderRpcError(4900, 'the provider is disconnected')
    if (typeof args !== 'object' || args === null || typeof args.method !== 'string') {
      throw new ProviderRpcError(-32600, 'invalid request: method must be a string')
    }
    try {
      return await this.call(args.method, args.params)
    } catch (error) {
      if (error instanceof RpcError) throw new ProviderRpcError(error.code, error.message, error.data)
      throw new ProviderRpcError(-32603, error instanceof Error ? error.message : String(error))
    }
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
