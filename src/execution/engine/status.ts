/** What the engine runs: which patches of @ethereumjs/evm are on, and why any is off. */
import type { LibraryGate } from './gate.js'
import type { EngineLibrary } from './version.js'

/** The engine's patches of @ethereumjs/evm (see docs/architecture.md, "The engine"). */
export const PATCHES = ['jumpCache', 'fastOpcodes', 'fastInterpreter', 'leanEnv', 'fastCall', 'runCall', 'runTx'] as const

/** One of the engine's patches. */
export type EnginePatch = (typeof PATCHES)[number]

/** What {@link engineStatus} reports. */
export interface EngineStatus {
  /** The library the engine is: `@ethereumjs/evm`. */
  library: '@ethereumjs/evm'
  /** Its version (undefined if it could not be read, which turns the patches off). */
  version: string | undefined
  /** True when the library is this package's own bundled copy (the build), false when it is the installed package (run from the sources). */
  bundled: boolean
  /** The library versions the patches were verified against. */
  verifiedVersions: readonly string[]
  /** The hardforks the patches were verified on; EVMs of other forks run the plain library. */
  verifiedHardforks: readonly string[]
  /** Each patch and whether it is on. */
  patches: Record<EnginePatch, boolean>
  /** Each @ethereumjs library the engine reaches inside of: its version and whether its fast paths run (gate.ts). */
  libraries: Record<EngineLibrary, LibraryGate>
  /** Why the patches are off; undefined when they are on, or before the first node started. */
  reason: string | undefined
}
