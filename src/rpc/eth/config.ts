/**
 * eth_config (EIP-7910) and eth_capabilities: what the node runs and what history it keeps.
 */
import type { Common } from '@ethereumjs/common'
import { Mainnet } from '@ethereumjs/common'
import { data, quantity } from '../../hex.js'
import { SYSTEM_CONTRACTS } from '../../chain/system-contracts.js'
import { depositContractAddress } from '../../execution/engine/common.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'chain' | 'chainId' | 'producer'>
const method = methodsOf<keyof Here>()

const at = (n: number) => `0x${n.toString(16).padStart(40, '0')}`

/** EIP-7910's precompile names, with the EIP that brings each in. */
const PRECOMPILES: Array<[name: string, address: number, active: (c: Common) => boolean]> = [
  ['ECREC', 1, () => true],
  ['SHA256', 2, () => true],
  ['RIPEMD160', 3, () => true],
  ['ID', 4, () => true],
  ['MODEXP', 5, (c) => c.gteHardfork('byzantium')],
  ['BN254_ADD', 6, (c) => c.gteHardfork('byzantium')],
  ['BN254_MUL', 7, (c) => c.gteHardfork('byzantium')],
  ['BN254_PAIRING', 8, (c) => c.gteHardfork('byzantium')],
  ['BLAKE2F', 9, (c) => c.gteHardfork('istanbul')],
  ['KZG_POINT_EVALUATION', 10, (c) => c.isActivatedEIP(4844)],
  ['BLS12_G1ADD', 11, (c) => c.isActivatedEIP(2537)],
  ['BLS12_G1MSM', 12, (c) => c.isActivatedEIP(2537)],
  ['BLS12_G2ADD', 13, (c) => c.isActivatedEIP(2537)],
  ['BLS12_G2MSM', 14, (c) => c.isActivatedEIP(2537)],
  ['BLS12_PAIRING_CHECK', 15, (c) => c.isActivatedEIP(2537)],
  ['BLS12_MAP_FP_TO_G1', 16, (c) => c.isActivatedEIP(2537)],
  ['BLS12_MAP_FP2_TO_G2', 17, (c) => c.isActivatedEIP(2537)],
  ['P256VERIFY', 0x100, (c) => c.isActivatedEIP(7951)],
]

function systemContracts(c: Common): Record<string, string> {
  const address = (name: string) => SYSTEM_CONTRACTS.find((s) => s.name === name)?.address as string
  const out: Record<string, string> = {}
  if (c.isActivatedEIP(4788)) out.BEACON_ROOTS_ADDRESS = address('BEACON_ROOTS')
  if (c.isActivatedEIP(2935)) out.HISTORY_STORAGE_ADDRESS = address('HISTORY_STORAGE')
  if (c.isActivatedEIP(7002)) out.WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS = address('WITHDRAWAL_REQUESTS')
  if (c.isActivatedEIP(7251)) out.CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS = address('CONSOLIDATION_REQUESTS')
  if (c.isActivatedEIP(6110)) {
    out.DEPOSIT_CONTRACT_ADDRESS = (depositContractAddress(c) ?? Mainnet.depositContractAddress ?? at(0)).toLowerCase()
  }
  return out
}

function forkConfig(s: Here, name: string, activationTime: bigint): Record<string, unknown> {
  const c = s.chain.forks.named(name)
  const out: Record<string, unknown> = { activationTime: Number(activationTime) }
  if (c.isActivatedEIP(4844)) {
    const schedule = c.getBlobGasSchedule()
    const perBlob = c.param('blobGasPerBlob')
    out.blobSchedule = {
      target: Number(schedule.targetBlobGasPerBlock / perBlob),
      max: Number(schedule.maxBlobGasPerBlock / perBlob),
      baseFeeUpdateFraction: Number(schedule.blobGasPriceUpdateFraction),
    }
  }
  out.chainId = quantity(s.chainId)
  out.forkId = s.chain.forks.forkId(name, s.chain.genesisHash)
  out.precompiles = Object.fromEntries(PRECOMPILES.filter(([, , active]) => active(c)).map(([n, a]) => [n, at(a)]))
  out.systemContracts = systemContracts(c)
  return out
}

export const config: MethodTable = {
  eth_config: method({
    params: [],
    run: (s) => {
      const timed = s.chain.forks.timed()
      if (timed.length === 0) {
        return { current: forkConfig(s, s.chain.forks.head.hardfork(), 0n), next: null, last: null }
      }
      const now = s.producer.now()
      const activeIndex = timed.reduce((found, f, i) => (f.timestamp <= now ? i : found), -1)
      const current = activeIndex >= 0 ? timed[activeIndex]! : { name: s.chain.forks.head.hardfork(), timestamp: 0n }
      const next = timed[activeIndex + 1]
      const last = timed[timed.length - 1]
      return {
        current: forkConfig(s, current.name, current.timestamp),
        next: next === undefined ? null : forkConfig(s, next.name, next.timestamp),
        last: last === undefined || last === current || last === next ? null : forkConfig(s, last.name, last.timestamp),
      }
    },
  }),
  eth_capabilities: method({
    params: [],
    run: ({ chain }) => {
      // Every block's state, transactions, logs and receipts are kept from genesis on.
      const kept = { disabled: false, oldestBlock: '0x0' }
      return {
        head: { number: quantity(chain.height), hash: data(chain.head.hash()) },
        state: kept,
        tx: kept,
        logs: { ...kept, deleteStrategy: { type: 'none' } },
        receipts: kept,
        blocks: kept,
        stateproofs: kept,
      }
    },
  }),
}
