/**
 * Contract metadata read from disk: a Foundry `out/` folder, a Hardhat `artifacts/` folder (its
 * `build-info/` files first, which carry source maps and sources), or one JSON file. A folder's
 * JSON files of no known shape (Hardhat's `.dbg.json`, Foundry's cache) are passed over; a file
 * named alone must be one of the shapes.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { ArtifactError, FORMAT, readArtifacts, type ArtifactInput, type ContractMetadata } from './artifacts.js'

const MAX_FILES = 100_000

function jsonFiles(dir: string, out: string[]): void {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name === 'build-info' ? -1 : b.name === 'build-info' ? 1 : a.name.localeCompare(b.name)))
  for (const e of entries) {
    if (out.length > MAX_FILES) throw new ArtifactError(dir, `holds more than ${MAX_FILES} JSON files`)
    const path = join(dir, e.name)
    if (e.isDirectory()) jsonFiles(path, out)
    else if (e.isFile() && e.name.endsWith('.json') && !e.name.endsWith('.dbg.json')) out.push(path)
  }
}

function parse(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new ArtifactError(path, `cannot be read as JSON: ${(error as Error).message.split('\n')[0]}`)
  }
}

/** Foundry's artifact names neither contract nor source; its metadata's compilation target does. */
function named(file: string, json: unknown): unknown {
  if (typeof json !== 'object' || json === null || 'contractName' in json || !('abi' in json)) return json
  const target = (json as { metadata?: { settings?: { compilationTarget?: Record<string, string> } } }).metadata?.settings?.compilationTarget
  const [sourceName, name] = Object.entries(target ?? {})[0] ?? []
  return { ...json, contractName: name ?? basename(file, '.json'), ...(sourceName !== undefined && { sourceName }) }
}

/** The contracts of a folder or a file (see the module comment). */
export function readArtifactPath(path: string): ContractMetadata[] {
  let isDirectory: boolean
  try {
    isDirectory = statSync(path).isDirectory()
  } catch {
    throw new ArtifactError(path, 'does not exist')
  }
  if (!isDirectory) return readArtifacts(named(path, parse(path)) as ArtifactInput, path)
  const files: string[] = []
  jsonFiles(path, files)
  // Hardhat 3's build-info comes as an input file and an output file: both go in one call.
  const inputs: ArtifactInput[] = []
  const out: ContractMetadata[] = []
  for (const file of files) {
    const json = named(file, parse(file))
    if (typeof json !== 'object' || json === null || Array.isArray(json)) continue
    const item = json as ArtifactInput
    if (item[FORMAT] === 'hh3-sol-build-info-1' || item[FORMAT] === 'hh3-sol-build-info-output-1') {
      inputs.push(item)
      continue
    }
    try {
      out.push(...readArtifacts(item, file))
    } catch (error) {
      if (!(error instanceof ArtifactError)) throw error
    }
  }
  if (inputs.length > 0) out.unshift(...readArtifacts(inputs, path))
  return out
}
