/**
 * The CREATE2 deployer Anvil places at genesis: Arachnid's deterministic-deployment proxy, at the
 * address its keyless deployment gives on every chain. `forge script` deploys a contract created
 * with a salt (`new C{salt: s}()`) by a call to it, and stops with `missing CREATE2 deployer`
 * where it has no code; so does a forge test with `always_use_create_2_factory`.
 */
import type { GenesisAccount } from '../options.js'
import type { CliConfig } from './config.js'

/** The proxy's address (`0x4e59b44847b379578588920cA78FbF26c0B4956C`). */
export const CREATE2_DEPLOYER = '0x4e59b44847b379578588920ca78fbf26c0b4956c'

/** Its runtime code: the salt is the calldata's first word, the init code the rest. */
export const CREATE2_DEPLOYER_CODE =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3'

/**
 * The genesis account of the deployer, when the chain gets one: as Anvil, unless
 * `--disable-default-create2-deployer` or a fork (Anvil places none on a fork: the remote's state
 * is the fork's). Nor with `--hardhat` (Hardhat Network has none: deployments send the proxy's
 * keyless transaction) or `--genesis` (the genesis is exactly the file's, its hash geth's).
 */
export function create2DeployerAlloc(c: Pick<CliConfig, 'disableDefaultCreate2Deployer' | 'forkUrl' | 'hardhat' | 'genesis'>): Record<`0x${string}`, GenesisAccount> | undefined {
  if (c.disableDefaultCreate2Deployer || c.forkUrl !== undefined || c.hardhat || c.genesis !== undefined) return undefined
  return { [CREATE2_DEPLOYER]: { code: CREATE2_DEPLOYER_CODE } }
}
