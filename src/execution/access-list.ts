/**
 * eth_createAccessList: the addresses and storage slots a call touches, and the gas it uses when
 * sent with that list. As geth does, the call is re-run with the list it produced until the list
 * stops changing (a list can change the path a gas-sensitive call takes).
 *
 * geth leaves out the sender, the recipient and the precompiles as bare addresses, which are warm
 * anyway. We go one step further so that the list never costs more than it saves: an entry costs
 * 2400 gas plus 1900 per slot and saves 2000 per slot (cold → warm access), so for an address
 * that is warm anyway (sender, recipient, created contract, precompiles, fee recipient) the entry
 * pays only past 24 slots; below that it is left out. For any other address it always pays.
 */
import { getActivePrecompiles } from '@ethereumjs/evm'
import type { Block } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { fromHex, keyOf } from '../hex.js'
import type { AccessListEntry, CallRequest } from '../rpc/objects.js'
import type { CallExecutor, CallOptions } from './call.js'
import { overriddenBlock } from './overrides.js'

/** The result of eth_createAccessList; `error` is set when the call failed (geth's field). */
export interface AccessListResult {
  accessList: AccessListEntry[]
  gasUsed: bigint
  error?: string
}

/** Slots from which an entry for an always-warm address starts to pay. */
const WARM_ENTRY_BREAK_EVEN = 24

const MAX_ROUNDS = 8

type Reported = Array<{ address: string; storageKeys: string[] }>

function strip(hex: string): string {
  return (hex.startsWith('0x') ? hex.slice(2) : hex).toLowerCase()
}

function listKey(list: AccessListEntry[]): string {
  return list.map((e) => `${keyOf(e.address)}:${e.storageKeys.map(keyOf).join(',')}`).join(';')
}

/** Runs the request until its access list is stable; never changes the chain. */
export async function createAccessList(
  calls: CallExecutor,
  common: Common,
  req: CallRequest,
  block: Block,
  options: CallOptions,
): Promise<AccessListResult> {
  const context = overriddenBlock(block, options.block, common)
  const gas = calls.gasCap(req.gas, context)
  const deadline = calls.deadline()
  const warm = new Set<string>([keyOf(req.from ?? new Uint8Array(20))])
  if (req.to !== undefined) warm.add(keyOf(req.to))
  for (const address of getActivePrecompiles(common).keys()) warm.add(strip(address))
  if (common.isActivatedEIP(3651)) warm.add(keyOf(context.header.coinbase.bytes))
  let list: AccessListEntry[] = req.accessList ?? []
  let previous = listKey(list)
  for (let round = 0; ; round++) {
    // The first run is the call asked about; its console.log messages are delivered, once.
    const consoleLog = round === 0 ? calls.onConsoleLog : undefined
    const result = await calls.run({ ...req, accessList: list }, block, gas, { ...options, reportAccessList: true, deadline, consoleLog })
    if (result.createdAddress !== undefined) warm.add(keyOf(result.createdAddress.bytes))
    const next = prune((result.accessList ?? []) as Reported, warm)
    const key = listKey(next)
    const failure = result.execResult.exceptionError
    if (key === previous || round + 1 >= MAX_ROUNDS) {
      const out: AccessListResult = { accessList: next, gasUsed: result.totalGasSpent }
      if (failure !== undefined) out.error = failure.error === 'revert' ? 'execution reverted' : failure.error
      if (key === previous) return out
      // The list did not settle; report the gas with the list actually returned.
      const settled = await calls.run({ ...req, accessList: next }, block, gas, { ...options, deadline })
      out.gasUsed = settled.totalGasSpent
      return out
    }
    list = next
    previous = key
  }
}

function prune(reported: Reported, warm: ReadonlySet<string>): AccessListEntry[] {
  const out: AccessListEntry[] = []
  for (const entry of reported) {
    const address = strip(entry.address)
    if (warm.has(address) && entry.storageKeys.length <= WARM_ENTRY_BREAK_EVEN) continue
    out.push({ address: fromHex(address), storageKeys: entry.storageKeys.map((k) => fromHex(strip(k).padStart(64, '0'))) })
  }
  return out
}
