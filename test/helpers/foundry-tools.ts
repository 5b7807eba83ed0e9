/**
 * Foundry's command-line tools (`cast`, `forge`) from npm, for tests that run them as users do.
 * Each ships its binary in a platform package (as `@foundry-rs/anvil` does), so an ordinary npm
 * install brings it with no download of its own. They are installed once into a git-ignored
 * folder (`.cache/foundry-tools`) by the first test that needs them, not into the project.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const DIR = path.join(ROOT, '.cache', 'foundry-tools')

/** The version compared against: Anvil's (a devDependency) is the same release. */
export const FOUNDRY_VERSION = '1.7.1'

/** The path of `tool`'s binary, installed first if it is not there yet. */
export async function foundryTool(tool: 'cast' | 'forge'): Promise<string> {
  const platform = `${process.platform === 'win32' ? 'win32' : process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`
  const bin = path.join(DIR, 'node_modules', '@foundry-rs', `${tool}-${platform}`, 'bin', tool)
  if (existsSync(bin)) return bin
  mkdirSync(DIR, { recursive: true })
  if (!existsSync(path.join(DIR, 'package.json'))) writeFileSync(path.join(DIR, 'package.json'), '{ "name": "foundry-tools", "private": true }\n')
  // The wrapper's postinstall only checks that the platform package is there; it is not needed.
  await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', `@foundry-rs/${tool}@${FOUNDRY_VERSION}`], { cwd: DIR, maxBuffer: 16 << 20 })
  if (!existsSync(bin)) throw new Error(`npm installed @foundry-rs/${tool} without ${bin}`)
  return bin
}

/**
 * Runs a Foundry tool with `env` added to this process's environment; its exit code, stdout and
 * stderr, never a throw for a non-zero exit.
 */
export async function runTool(bin: string, args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(bin, args, { maxBuffer: 16 << 20, env: { ...process.env, NO_COLOR: '1', FOUNDRY_DISABLE_NIGHTLY_WARNING: '1', ...env } })
    return { code: 0, stdout: stdout.trim(), stderr: stderr.trim() }
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: (e.stdout ?? '').trim(), stderr: (e.stderr ?? '').trim() }
  }
}
