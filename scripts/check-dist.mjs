// Refuses an unbuilt or partly built package: every file package.json points at (exports,
// main, module, types, bin) must exist in dist/ and not be empty. Runs after each build, so
// `npm pack`, `npm publish` and an install from a git URL (all run `prepare`) stop here
// instead of shipping a package that cannot be imported. Usage: node scripts/check-dist.mjs [packageDir]
import { readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

const targets = new Set()
const collect = (value) => {
  if (typeof value === 'string') {
    if (value.startsWith('./dist/') || value.startsWith('dist/')) targets.add(value)
  } else if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) collect(inner)
  }
}
collect(pkg.exports)
collect([pkg.main, pkg.module, pkg.types])
collect(pkg.bin)
// The bundle the entries load (scripts/entry-loader.cjs), which package.json does not name.
if (pkg.name === 'finality-evm') targets.add('./dist/finality.cjs')
// The explorer page, read by the CLI and node.explorer() at their first page request (src/explorer/serve.ts).
if (pkg.name === 'finality-evm') targets.add('./dist/explorer.html')

const missing = []
for (const target of targets) {
  try {
    if (statSync(join(root, target)).size === 0) missing.push(`${target} (empty)`)
  } catch {
    missing.push(target)
  }
}
for (const bin of Object.values(pkg.bin ?? {})) {
  try {
    if (!readFileSync(join(root, bin), 'utf8').startsWith('#!')) missing.push(`${bin} (no #! line)`)
  } catch {
    // already listed as missing
  }
}
// The entry runs the bundle as a vm.Script (the compile cache); an import() there would need
// --experimental-vm-modules, so packages loaded late are required (src/lazy-module.ts).
if (pkg.name === 'finality-evm') {
  try {
    const bundle = readFileSync(join(root, 'dist/finality.cjs'), 'utf8')
    const at = bundle.search(/(?<![\w$.])import\(/)
    if (at >= 0) missing.push(`dist/finality.cjs (holds a dynamic import: ${JSON.stringify(bundle.slice(Math.max(0, at - 40), at + 60))}; load it with requireLater)`)
  } catch {
    // already listed as missing
  }
}
if (missing.length > 0) {
  console.error(`finality: the package is not built: ${missing.join(', ')}. Run \`npm run build\`.`)
  process.exit(1)
}
