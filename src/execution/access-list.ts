/**
 * eth_createAccessList: the addresses and storage slots a call touches, and the gas it uses when
 * sent with that list. As geth does, the call is re-run with the list it produced until the list
 * stops changing (a list can change the path a gas-sensitive call takes).
 *
 * As geth's access-list tracer does, the list holds every storage slot the call touches, under
 * its address, whatever the address (the recipient's own slots included); an address touched
 * without slots is left out when it is the sender, the recipient (or the created contract), a
 * precompile or an EIP-7702 authority of the call, which are warm anyway.
 */
import { getActivePrecompiles } from '@ethereumjs/evm'
import type { Block } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { bigIntToUnpaddedBytes, eoaCode7702RecoverAuthority } from '@ethereumjs/util'
import { fromHex, keyOf } from '../hex.js'
import type { AccessListEntry, Authorization, CallRequest } from './call-request.js'
import type { CallExecutor, CallOptions } from './call.js'
import { overriddenBlock } from './overrides.js'

/** The result of eth_createAccessList; `error` is set when the call failed (geth's field). */
export interface AccessListResult {
  accessList: AccessListEntry[]
  gasUsed: bigint
  error?: string
}

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
  // geth's exclusions: from, to, the active precompiles and the authorities of the call.
  const excluded = new Set<string>([keyOf(req.from ?? new Uint8Array(20))])
  if (req.to !== undefined) excluded.add(keyOf(req.to))
  for (const address of getActivePrecompiles(common).keys()) excluded.add(strip(address))
  for (const auth of req.authorizationList ?? []) {
    const authority = authorityOf(auth)
    if (authority !== undefined) excluded.add(authority)
  }
  let list: AccessListEntry[] = req.accessList ?? []
  let previous = listKey(list)
  for (let round = 0; ; round++) {
    // The first run is the call asked about; its console.log messages are delivered, once.
    const consoleLog = round === 0 ? calls.onConsoleLog : undefined
    const result = await calls.run({ ...req, accessList: list }, block, gas, { ...options, reportAccessList: true, deadline, consoleLog })
    if (result.createdAddress !== undefined) excluded.add(keyOf(result.createdAddress.bytes))
    const next = prune((result.accessList ?? []) as Reported, excluded)
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

function prune(reported: Reported, excluded: ReadonlySet<string>): AccessListEntry[] {
  const out: AccessListEntry[] = []
  for (const entry of reported) {
    const address = strip(entry.address)
    if (entry.storageKeys.length === 0 && excluded.has(address)) continue
    out.push({ address: fromHex(address), storageKeys: entry.storageKeys.map((k) => fromHex(strip(k).padStart(64, '0'))) })
  }
  return out
}

/** The signer of an EIP-7702 authorization; undefined for a signature that does not recover. */
function authorityOf(auth: Authorization): string | undefined {
  try {
    const item = [auth.chainId, auth.address, auth.nonce, auth.yParity, auth.r, auth.s].map((v) => (typeof v === 'bigint' ? bigIntToUnpaddedBytes(v) : v))
    return keyOf(eoaCode7702RecoverAuthority(item as Parameters<typeof eoaCode7702RecoverAuthority>[0]).bytes)
  } catch {
    return undefined
  }
}
