/**
 * The hardfork each of a fork's remote blocks (at or below the fork block) is read and replayed
 * under. A chain @ethereumjs/common knows (mainnet, Sepolia, Holesky, Hoodi) gets its schedule,
 * by block number and timestamp; any other chain gets the newest hardfork its header's fields
 * show (`baseFeePerGas`: London, a zero difficulty: Paris, `withdrawalsRoot`: Shanghai,
 * `parentBeaconBlockRoot`: Cancun, `requestsHash`: Prague; none of them: Berlin, the last fork
 * of the pre-London header). A block of the node's own hardfork is read under the node's Common.
 */
import { type ChainConfig, type Common, Common as PlainCommon, Holesky, Hoodi, Mainnet, Sepolia } from '@ethereumjs/common'
import { createChainCommon } from '../chain/common.js'

/** The chains whose schedules are known, by chain id. */
const KNOWN: ReadonlyMap<bigint, ChainConfig> = new Map([Mainnet, Sepolia, Holesky, Hoodi].map((c) => [BigInt(c.chainId), c]))

const present = (v: unknown): boolean => v !== undefined && v !== null

/** The newest hardfork whose header fields a block (the remote's JSON) has. */
export function hardforkOfHeader(header: Record<string, unknown>): string {
  if (present(header.requestsHash)) return 'prague'
  if (present(header.parentBeaconBlockRoot) || present(header.blobGasUsed)) return 'cancun'
  if (present(header.withdrawalsRoot)) return 'shanghai'
  if (!present(header.baseFeePerGas)) return 'berlin'
  if (BigInt((header.difficulty as string | undefined) ?? '0x0') === 0n) return 'paris'
  return 'london'
}

/** Which header fields a Common's hardfork has, as a key: two hardforks with one key read the same header. */
function headerForm(common: Common): string {
  return [1559, 4895, 4844, 7685].map((eip) => (common.isActivatedEIP(eip) ? '1' : '0')).join('')
}

function headerFormOf(header: Record<string, unknown>): string {
  return [present(header.baseFeePerGas), present(header.withdrawalsRoot), present(header.blobGasUsed) || present(header.parentBeaconBlockRoot), present(header.requestsHash)]
    .map((b) => (b ? '1' : '0'))
    .join('')
}

/** Picks the Common of each remote block. */
export class RemoteForks {
  private readonly byName = new Map<string, Common>()
  private readonly schedule: { common: Common; config: ChainConfig } | undefined

  /**
   * @param head the node's Common (its hardfork: the fork block's, or the one given)
   * @param remoteChainId the remote's chain id, which picks a known schedule
   */
  constructor(
    readonly head: Common,
    remoteChainId: bigint,
  ) {
    this.byName.set(head.hardfork(), head)
    const config = KNOWN.get(remoteChainId)
    if (config !== undefined && BigInt(config.chainId) === head.chainId()) this.schedule = { common: new PlainCommon({ chain: config }), config }
  }

  /** The Common a remote block (its JSON) is read and replayed under. */
  at(header: Record<string, unknown>): Common {
    const number = BigInt((header.number as string | undefined) ?? '0x0')
    const timestamp = BigInt((header.timestamp as string | undefined) ?? '0x0')
    if (this.schedule !== undefined) {
      // A block the schedule has no fork for (its number and time disagree) or whose header is not
      // of its scheduled fork's form is another chain's under a known chain id: read by its fields.
      let name: string | undefined
      try {
        name = this.schedule.common.getHardforkBy({ blockNumber: number, timestamp })
      } catch {
        name = undefined
      }
      const common = name === undefined ? undefined : this.named(name, this.schedule.config)
      if (common !== undefined && headerForm(common) === headerFormOf(header)) return common
    }
    const inferred = hardforkOfHeader(header)
    // Osaka's header is Prague's: a node running a later fork than its fields show reads it under its own.
    if (inferred === this.head.hardfork() || (inferred === 'prague' && headerForm(this.head) === headerFormOf(header))) return this.head
    return this.named(inferred, undefined)
  }

  private named(name: string, config: ChainConfig | undefined): Common {
    let common = this.byName.get(name)
    if (common === undefined) {
      common = createChainCommon(this.head.chainId(), name, config)
      this.byName.set(name, common)
    }
    return common
  }
}
