/**
 * The version gate of every library internal the engine touches. Each use of a private member
 * (or a prototype, or an object made without its constructor) of @ethereumjs/common, tx or block
 * asks {@link fastPaths} or {@link verified} first:
 *
 * - {@link fastPaths}: a speed-up with a public path beside it (the Common's caches, headers and
 *   transactions made without their constructors). Off, the library's public path runs; off too
 *   under `FINALITY_ENGINE=plain`, so the differential test compares the two.
 * - {@link verified}: a feature with no public path (a call's precompile overrides). Off, the
 *   feature refuses with the reason; `FINALITY_ENGINE=plain` does not turn it off.
 *
 * @ethereumjs/evm has its own gate (install.ts), which also probes the members it uses.
 */
import { type EngineLibrary, ENGINE_LIBRARIES, libraryVersion } from './version.js'

/** The library versions the engine's uses of their internals were verified against (their tests and the differential test). */
export const VERIFIED_VERSIONS: readonly string[] = ['10.1.3']

/** Environment variable that turns the patches off (`plain`). */
export const ENGINE_ENV = 'FINALITY_ENGINE'

/**
 * Why the patches stay off for this setting of {@link ENGINE_ENV} and this library version,
 * before any internals are looked at; undefined when they may go in.
 */
export function refusal(setting: string | undefined, version: string | undefined, library: EngineLibrary = '@ethereumjs/evm'): string | undefined {
  if (setting === 'plain') return `turned off by ${ENGINE_ENV}=plain`
  if (setting !== undefined && setting !== '' && setting !== 'fast') return `${ENGINE_ENV}=${setting} is not 'plain' or 'fast'; the plain library runs`
  return versionRefusal(version, library)
}

/** Why `version` of `library` may not be reached inside; undefined when it was verified. */
export function versionRefusal(version: string | undefined, library: EngineLibrary): string | undefined {
  if (version === undefined) return `the version of ${library} could not be read`
  if (!VERIFIED_VERSIONS.includes(version)) {
    return `${library} ${version} is not a version the patches were verified against (${VERIFIED_VERSIONS.join(', ')})`
  }
  return undefined
}

/** What the gate decided for one library, once per process. */
export interface LibraryGate {
  version: string | undefined
  /** Its internals may be touched (the version is verified). */
  verified: boolean
  /** The engine's fast paths through its internals run (verified, and not turned off). */
  fast: boolean
  /** Why the fast paths are off; undefined when they run. */
  reason: string | undefined
}

const gates = new Map<EngineLibrary, LibraryGate>()

/** The gate of `library`, decided at its first use from its version and {@link ENGINE_ENV}. */
export function libraryGate(library: EngineLibrary): LibraryGate {
  let gate = gates.get(library)
  if (gate === undefined) {
    const version = libraryVersion(library)
    const reason = refusal(process.env[ENGINE_ENV], version, library)
    gate = { version, verified: versionRefusal(version, library) === undefined, fast: reason === undefined, reason }
    gates.set(library, gate)
  }
  return gate
}

/** True when the engine's fast paths through `library`'s internals run. */
export function fastPaths(library: EngineLibrary): boolean {
  return libraryGate(library).fast
}

/** True when `library`'s internals may be touched at all (a verified version). */
export function verified(library: EngineLibrary): boolean {
  return libraryGate(library).verified
}

/** Each library's gate (for `engineStatus()`). */
export function libraryGates(): Record<EngineLibrary, LibraryGate> {
  return Object.fromEntries(ENGINE_LIBRARIES.map((l) => [l, libraryGate(l)])) as Record<EngineLibrary, LibraryGate>
}
