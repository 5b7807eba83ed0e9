/**
 * The Hardhat 3 project's compilations handed to a finality network's node, as Hardhat 3 hands
 * them to EDR: every build-info the artifacts manager lists (its input file and its
 * `.output.json`) when a connection is made, and each compilation `hardhat node` adds while it
 * runs (its build-info watcher calls the provider's `addCompilationResult`). Failures then name
 * custom errors and carry Solidity frames.
 *
 * Hardhat 3 reads the files once per runtime (its contract decoder is made for the first
 * connection and shared); they are read once per runtime here too, into the contracts every
 * connection's node is given (`loadArtifacts`): the parsed files themselves are not kept.
 */
import { readFile } from 'node:fs/promises'
import type { FinalityNode } from '../node.js'
import type { LoadedArtifacts } from '../index.js'
import type { ArtifactsManager, HardhatProvider, HookContext } from './hardhat3-types.js'

type Json = Record<string, unknown>

const read = new WeakMap<ArtifactsManager, Promise<LoadedArtifacts>>()

async function readBuildInfos(artifacts: ArtifactsManager): Promise<Json[]> {
  const files: Json[] = []
  for (const id of await artifacts.getAllBuildInfoIds()) {
    const input = await artifacts.getBuildInfoPath(id)
    const output = await artifacts.getBuildInfoOutputPath(id)
    // As Hardhat: a build-info whose input or output is missing is passed over.
    if (input === undefined || output === undefined) continue
    files.push(JSON.parse(await readFile(input, 'utf8')) as Json, JSON.parse(await readFile(output, 'utf8')) as Json)
  }
  return files
}

/**
 * Adds the project's build-info to `node`. One that cannot be read is warned about and passed
 * over, as Hardhat 2 does when its stack traces engine cannot start: the network still works.
 */
export async function addProjectBuildInfos(context: HookContext, node: FinalityNode): Promise<void> {
  const artifacts = context.artifacts
  if (artifacts === undefined) return
  let contracts = read.get(artifacts)
  if (contracts === undefined) {
    contracts = readBuildInfos(artifacts).then(async (files) => (await import('../index.js')).loadArtifacts(files))
    read.set(artifacts, contracts)
  }
  try {
    const loaded = await contracts
    if (loaded.size > 0) node.addArtifacts(loaded)
  } catch (error) {
    console.warn(`finality: the build-info files could not be read, failures will not name custom errors: ${(error as Error).message}`)
  }
}

/**
 * The connection provider's `addCompilationResult` (Hardhat's EDR provider method, called by
 * `hardhat node`'s build-info watcher after a compilation) adds the compilation to the node
 * instead of the simulated network Hardhat made behind it.
 */
export function takeCompilationResults(provider: HardhatProvider, node: FinalityNode): void {
  const addCompilationResult = async (solcVersion: string, compilerInput: unknown, compilerOutput: unknown): Promise<void> => {
    node.addArtifacts({ solcVersion, input: compilerInput, output: compilerOutput } as Json)
  }
  Object.defineProperty(provider, 'addCompilationResult', { value: addCompilationResult, configurable: true, writable: true, enumerable: false })
}
