/**
 * Which namespaces a server serves when its caller names none: the command line's defaults, and
 * those of the prool instances (`finality-evm/prool`). Data only, so the entries that run beside
 * the package's main module can take it without the engine.
 */

/** The spec's public namespaces: what a node bound beyond loopback serves unless told otherwise. */
export const PUBLIC_API: readonly string[] = Object.freeze(['eth', 'web3', 'net', 'rpc'])

/** On loopback the test controls are on too, as on Hardhat's and Anvil's nodes. */
export const LOOPBACK_API: readonly string[] = Object.freeze([...PUBLIC_API, 'evm', 'hardhat', 'anvil', 'txpool', 'finality'])

/**
 * What Hardhat compatibility adds on loopback, as `npx hardhat node` answers them: hardhat-ethers'
 * signMessage (personal_sign) and debug_traceTransaction.
 */
export const HARDHAT_EXTRA_API: readonly string[] = Object.freeze(['debug', 'personal'])

/**
 * What Anvil compatibility (the CLI's `--anvil`) adds on loopback, as `anvil` serves them: debug_*
 * and trace_* (`cast run`, `cast trace`) and personal_sign.
 */
export const ANVIL_EXTRA_API: readonly string[] = Object.freeze(['debug', 'trace', 'personal'])

/** The namespaces of a server on loopback: the test controls, and Hardhat's or Anvil's extras when asked. */
export function loopbackApi(hardhat = false, anvil = false): string[] {
  return [...LOOPBACK_API, ...new Set([...(hardhat ? HARDHAT_EXTRA_API : []), ...(anvil ? ANVIL_EXTRA_API : [])])]
}
