/**
 * The check of `createNode(options)`: one table with a rule for every option, run before anything
 * is built, so an unknown name, a wrong type or an out-of-range value throws an
 * {@link InvalidOptionError} that names the option instead of being ignored or failing deep inside.
 */
import { statSync } from 'node:fs'
import { SUPPORTED_HARDFORKS } from './chain/common.js'
import { DEFAULT_LIMITS, type Limits } from './limits.js'
import type { NodeOptions } from './options.js'
import {
  arrayOf,
  bigint,
  boolean,
  chainIdRule,
  checkOptions,
  describe,
  func,
  hexBytes,
  integer,
  integerOrBigint,
  object,
  oneOf,
  string,
  type Rule,
} from './option-rules.js'
import { NAMESPACES } from './rpc/registry.js'
import { forkRule } from './fork/options.js'
import { CONSENSUS_TIMES } from './consensus/tendermint/timeouts.js'
import { ArtifactError } from './metadata/artifacts.js'
import { readSources, type ArtifactSources } from './metadata/registry.js'

/** secp256k1's group order: a private key is in [1, n). */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

const privateKey: Rule = (v, fail) => {
  hexBytes(32)(v, fail, '')
  const k = BigInt(v as string)
  if (k === 0n || k >= SECP256K1_N) fail('is not a valid secp256k1 private key (0 or not below the curve order)')
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const WORD = /^0x[0-9a-fA-F]{1,64}$/

const storage: Rule = (v, fail, path) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail('must be an object { [slot]: value } of hex words')
  for (const [slot, value] of Object.entries(v as Record<string, unknown>)) {
    if (!WORD.test(slot)) fail(`has a bad slot ${JSON.stringify(slot)}: want 0x-prefixed hex of at most 32 bytes`, `${path}.${slot}`)
    if (typeof value !== 'string' || !WORD.test(value)) fail('must be 0x-prefixed hex of at most 32 bytes', `${path}.${slot}`)
  }
}

const genesisAccount = object(
  { balance: bigint(0n), nonce: bigint(0n), code: hexBytes(), storage },
  '{ balance?, nonce?, code?, storage? }',
)

const alloc: Rule = (v, fail, path) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail('must be an object { [address]: { balance, nonce, code, storage } }')
  for (const [address, account] of Object.entries(v as Record<string, unknown>)) {
    const at = `${path}.${address}`
    if (!ADDRESS.test(address)) fail('is not an address: keys of alloc are 0x-prefixed 20-byte hex addresses', at)
    genesisAccount(account, (reason, p) => fail(reason, p ?? at), at)
  }
}

const mining: Rule = (v, fail, path) => {
  const shape = "{ mode: 'auto' } | { mode: 'interval', blockTime } | { mode: 'manual' }"
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(`must be an object ${shape}, got ${typeof v === 'string' ? `the string '${v}' (write { mode: '${v}' })` : String(v)}`)
  const mode = (v as { mode?: unknown }).mode
  oneOf(['auto', 'interval', 'manual'])(mode, (reason) => fail(reason, `${path}.mode`), `${path}.mode`)
  if (mode === 'interval') {
    const blockTime = (v as { blockTime?: unknown }).blockTime
    if (blockTime === undefined) fail("needs blockTime (milliseconds between blocks) with mode 'interval'", `${path}.blockTime`)
    object({ mode: () => {}, blockTime: positiveMs })(v, fail, path)
  } else {
    object({ mode: () => {} })(v, fail, path)
  }
}

const positiveMs: Rule = (v, fail) => {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) fail(`must be a positive number of milliseconds, got ${typeof v === 'number' ? v : String(v)}`)
}

const limits: Rule = object(
  Object.fromEntries(
    Object.entries(DEFAULT_LIMITS).map(([name, value]) => [name, typeof value === 'bigint' ? bigint(0n) : integer(0)]),
  ) as Record<keyof Limits, Rule>,
)

const txpool = object({
  priceBump: bigint(0n),
  slotsPerSender: integer(1),
  slots: integer(1),
  order: oneOf(['fees', 'fifo']),
})

// A clock may carry more (a fake clock's `advance`); it needs these two.
const clock: Rule = (v, fail) => {
  const c = v as { now?: unknown; setTimer?: unknown } | null
  if (typeof c !== 'object' || c === null || typeof c.now !== 'function' || typeof c.setTimer !== 'function') {
    fail('must be a clock { now(): number, setTimer(fn, ms): cancel }')
  }
}

const db: Rule = (v, fail) => {
  const d = v as { open?: unknown; get?: unknown; put?: unknown } | null
  if (typeof d !== 'object' || d === null || typeof d.open !== 'function' || typeof d.get !== 'function' || typeof d.put !== 'function') {
    fail('must be an abstract-level database (memory-level, classic-level, …)')
  }
}

const accountOption = object({ privateKey, balance: bigint(0n) }, '{ privateKey, balance? }')

const accounts: Rule = (v, fail, path) => {
  arrayOf(accountOption)(v, fail, path)
  for (const [i, a] of (v as Array<{ privateKey?: unknown }>).entries()) {
    if (a.privateKey === undefined) fail('needs privateKey', `${path}[${i}].privateKey`)
  }
}

const any: Rule = () => {}
/** A number from 0 to 1 (a Cosmos decimal parameter such as a slash fraction). */
const fraction: Rule = (v, fail) => {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) fail(`must be a number from 0 to 1, got ${describe(v)}`)
}

/** A valid Date at or after 1970, or a string `new Date()` reads as one. */
const initialDate: Rule = (v, fail) => {
  const date = v instanceof Date ? v : typeof v === 'string' && v.trim() !== '' ? new Date(v) : undefined
  if (date === undefined) return fail(`must be a Date or a date string such as 2020-01-01T00:00:00Z, got ${describe(v)}`)
  if (Number.isNaN(date.getTime())) return fail(`is not a valid date: ${v instanceof Date ? 'Invalid Date' : JSON.stringify(v)}`)
  if (date.getTime() < 0) fail(`must not be before 1970-01-01, got ${date.toISOString()}`)
}

const profilingDir: Rule = (v, fail) => {
  string(v, fail, '')
  let isDir = false
  try {
    isDir = statSync(v as string).isDirectory()
  } catch {
    // Reported below.
  }
  if (!isDir) fail(`${String(v)} is not an existing directory`)
}

/**
 * Every createNode option and its rule. Options with their own parser (`state`, `genesis`) are
 * checked by it; the names of options other parts of the node read are here too.
 */
export const NODE_OPTION_RULES = {
  chainId: chainIdRule,
  hardfork: (v, fail) => {
    if (typeof v !== 'string' || !(SUPPORTED_HARDFORKS as readonly string[]).includes(v)) fail(`${String(v)} is not supported; supported: ${SUPPORTED_HARDFORKS.join(', ')}`)
  },
  blockGasLimit: bigint(1n),
  initialBaseFee: bigint(0n),
  mnemonic: string,
  accountCount: integer(0),
  balance: bigint(0n),
  accounts,
  alloc,
  state: any,
  genesis: any,
  genesisTimestamp: bigint(0n),
  initialDate,
  coinbase: hexBytes(20),
  minGasPrice: bigint(0n),
  sendTransactionGasPrice: bigint(0n),
  db,
  mining,
  api: arrayOf(oneOf(NAMESPACES)),
  validators: integer(1),
  cosmos: object(
    {
      bech32Prefix: (v, fail) => {
        if (typeof v !== 'string' || !/^[a-z][a-z0-9]{0,30}$/.test(v)) fail(`must be a lower-case bech32 prefix (letters and digits, starting with a letter), got ${describe(v)}`)
      },
      denom: (v, fail) => {
        if (typeof v !== 'string' || !/^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/.test(v)) fail(`must be a Cosmos denomination (3 to 128 characters, starting with a letter), got ${describe(v)}`)
      },
      unbondingBlocks: integer(1),
      votingBlocks: integer(1),
      nativeErc20: hexBytes(20),
      signedBlocksWindow: integer(1),
      minSignedPerWindow: fraction,
      downtimeJailBlocks: integer(0),
      slashFractionDowntime: fraction,
    },
    '{ bech32Prefix?, denom?, unbondingBlocks?, votingBlocks?, nativeErc20?, signedBlocksWindow?, minSignedPerWindow?, downtimeJailBlocks?, slashFractionDowntime? }',
  ),
  consensus: object(
    {
      timeouts: object(
        Object.fromEntries(['propose', 'proposeDelta', 'prevote', 'prevoteDelta', 'precommit', 'precommitDelta'].map((k) => [k, integer(0)])),
        '{ propose?, proposeDelta?, prevote?, prevoteDelta?, precommit?, precommitDelta? } (ms)',
      ),
      maxRounds: integer(1),
      seed: integer(0),
      time: oneOf(CONSENSUS_TIMES),
    },
    '{ timeouts?, maxRounds?, seed?, time? }',
  ),
  allowUnprotectedTxs: boolean,
  sendTransactionGas: bigint(1n),
  reusableSnapshots: boolean,
  txpool,
  limits,
  clock,
  onConsoleLog: (v, fail) => {
    if (v !== false && typeof v !== 'function') fail(`must be a function (receives each message) or false (silences them), got ${describe(v)}`)
  },
  onLog: func,
  artifacts: (v, fail) => {
    if (typeof v !== 'string' && (typeof v !== 'object' || v === null)) fail(`must be build-info, solc output or artifact objects, or paths of artifact folders or files, got ${describe(v)}`)
    try {
      readSources(v as ArtifactSources, 'artifacts')
    } catch (error) {
      // An entry of the option is named by its path; a file or folder by its own.
      if (error instanceof ArtifactError) fail(error.where.startsWith('artifacts') ? error.reason : error.message, error.where.startsWith('artifacts') ? error.where : 'artifacts')
      throw error
    }
  },
  logColor: boolean,
  throwOnTransactionFailures: boolean,
  throwOnCallFailures: boolean,
  hardhatCompat: boolean,
  allowUnlimitedContractSize: boolean,
  codeSizeLimit: integerOrBigint(1n),
  enableProfiling: boolean,
  profilingDir: profilingDir,
  fork: forkRule,
} as const satisfies Record<string, Rule>

// Every option of NodeOptions has a rule: a new option without one fails to compile here.
type Unchecked = Exclude<keyof NodeOptions, keyof typeof NODE_OPTION_RULES>
const everyOptionHasARule: [Unchecked] extends [never] ? true : Unchecked = true
void everyOptionHasARule

/** Throws an InvalidOptionError naming the first bad option of `options`. */
export function checkNodeOptions(options: unknown): void {
  checkOptions('createNode', NODE_OPTION_RULES, options)
}

/** Throws an InvalidOptionError for a bad mining mode given to `node.setMining(mode)`. */
export function checkMiningMode(mode: unknown): void {
  checkOptions('setMining', { mode: mining }, { mode })
}
