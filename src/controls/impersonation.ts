/**
 * The addresses the node sends for without their key (hardhat_impersonateAccount,
 * anvil_autoImpersonateAccount). The controls change it; sends (execution/transactions.ts) read it.
 */
export class Impersonation {
  /** Impersonated addresses (hex, no 0x). */
  readonly addresses = new Set<string>()
  /** Every address is impersonated (anvil_autoImpersonateAccount). */
  auto = false

  /** Whether the node sends for `address` (hex, no 0x) without a key. */
  has(address: string): boolean {
    return this.auto || this.addresses.has(address)
  }
}
