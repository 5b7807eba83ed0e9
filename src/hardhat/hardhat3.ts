/**
 * `finality-evm/hardhat` for Hardhat 3 (the package export's `import` condition): a plugin that
 * gives a Hardhat 3 project finality networks, each connection a node of its own inside
 * Hardhat's process.
 *
 * ```ts
 * import { defineConfig } from 'hardhat/config'
 * import finality from 'finality-evm/hardhat'
 *
 * export default defineConfig({
 *   plugins: [finality],
 *   networks: { finality: { type: 'edr-simulated', finality: true, hardfork: 'osaka' } },
 * })
 * ```
 *
 * A finality network is written as Hardhat's simulated network (`type: 'edr-simulated'`), with
 * the same settings, and a `finality` field: `true`, or the createNode options Hardhat's config
 * has no field for (`{ validators: 4 }`). docs/hardhat.md, "Hardhat 3".
 */
// The plugin is typed as Hardhat 3's own plugin type in a user's project, where Hardhat 3 is
// installed; this repository builds against Hardhat 2, which has no such module (any here).
// @ts-ignore
import type { HardhatPlugin } from 'hardhat/types/plugins'
import { resolveUserConfig, validateUserConfig } from './hardhat3-config.js'
import { networkHooks } from './hardhat3-network.js'
import type { FinalityNetworkConfig, FinalityNetworkUserConfig } from './hardhat3-types.js'

export type { FinalityNetworkConfig, FinalityNetworkUserConfig } from './hardhat3-types.js'

// Hardhat 3's config types, extended for a user's project (where Hardhat 3 is installed; this
// repository builds against Hardhat 2, which has no such module).
// @ts-ignore
declare module 'hardhat/types/config' {
  /** A simulated network of Hardhat 3 served by a finality node when `finality` is set. */
  interface EdrNetworkUserConfig {
    /** `true`, or createNode options the network's own settings do not cover. */
    finality?: true | FinalityNetworkUserConfig
  }
  /** The resolved simulated network; `finality` is there for a finality network. */
  interface EdrNetworkConfig {
    finality?: FinalityNetworkConfig
  }
}

/** The plugin: `plugins: [finality]` in a Hardhat 3 config. */
const finality: HardhatPlugin = {
  id: 'finality',
  npmPackage: 'finality-evm',
  hookHandlers: {
    config: async () => ({ default: async () => ({ validateUserConfig, resolveUserConfig }) }),
    network: async () => ({ default: async () => networkHooks() }),
  },
}

export default finality
