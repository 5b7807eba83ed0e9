/**
 * Hardhat Network (Hardhat 2.29, EDR) as `hardhat node` serves it, in this process: the provider
 * Hardhat makes for its `hardhat` network from a config, and each answer passed through Hardhat's
 * JSON-RPC handler, so an error has the code, message and data the node writes on the wire. The
 * reference the Hardhat-mode tests compare finality with.
 */
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)

/** A request, answered or rejected with `{ code, message, data }` as on the wire. */
export interface WireProvider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>
}

/** A JSON-RPC error as it came over the wire. */
export class WireError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
  ) {
    super(message)
  }
}

let id = 0

/** Hardhat's provider for its `hardhat` network, with `networks.hardhat` = `config` over the defaults. */
export async function hardhatNetwork(config: Record<string, unknown> = {}): Promise<WireProvider> {
  const { resolveConfig } = require('hardhat/internal/core/config/config-resolution')
  const { createProvider } = require('hardhat/internal/core/providers/construction')
  const { JsonRpcHandler } = require('hardhat/internal/hardhat-network/jsonrpc/handler')
  // The config's path only places the project (its paths are never read here).
  const resolved = resolveConfig(fileURLToPath(import.meta.url), { networks: { hardhat: { loggingEnabled: false, ...config } } })
  const provider = await createProvider(resolved, 'hardhat')
  const handler = new JsonRpcHandler(provider)
  return {
    async request({ method, params = [] }) {
      const response = await handler._handleSingleRequest({ jsonrpc: '2.0', id: ++id, method, params })
      if (response.error !== undefined) throw new WireError(response.error.code, response.error.message, response.error.data)
      return response.result
    },
  }
}

/** The answer of a request, or its error as `{ error: { code, message, data } }` (either provider). */
export async function answer(provider: { request(args: { method: string; params?: unknown }): Promise<unknown> }, method: string, params: unknown[] = []): Promise<unknown> {
  try {
    return await provider.request({ method, params })
  } catch (e) {
    const error = e as { code?: number; message: string; data?: unknown }
    return { error: error.data === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, data: error.data } }
  }
}
