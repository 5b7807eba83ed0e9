/** The `@ethereumjs/common` configuration of a finality chain. */
import { Common, Hardfork, Mainnet, createCustomCommon } from '@ethereumjs/common'
import { customCrypto } from '../crypto/secp256k1.js'

/** Hardforks the engine supports fully, oldest first; the default is the newest. */
export const SUPPORTED_HARDFORKS = [
  Hardfork.London,
  Hardfork.Paris,
  Hardfork.Shanghai,
  Hardfork.Cancun,
  Hardfork.Prague,
] as const

/** A hardfork name a node can run. */
export type HardforkName = (typeof SUPPORTED_HARDFORKS)[number]

/** The default hardfork: the newest the engine supports fully. */
export const DEFAULT_HARDFORK: HardforkName = Hardfork.Prague

/** A Common fixed at one hardfork from genesis on, with the fast crypto hooks. */
export function createChainCommon(chainId: bigint, hardfork: HardforkName): Common {
  return createCustomCommon(
    { chainId: Number(chainId), name: 'finality' },
    Mainnet,
    { hardfork, customCrypto: customCrypto() },
  )
}
