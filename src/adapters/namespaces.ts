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

/** The namespaces of a server on loopback: the test controls, and Hardhat's extras when asked. */
export function loopbackApi(hardhat = false): string[] {
  return hardhat ? [...LOOPBACK_API, ...HARDHAT_EXTRA_API] : [...LOOPBACK_API]
}
