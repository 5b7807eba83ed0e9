// Run by the build after tsup (tsup.config.ts, onSuccess): turns the CommonJS bundle into
// dist/finality.cjs, loaded through V8's code cache by a small dist/index.cjs
// (scripts/entry-loader.cjs), and makes dist/index.js an ES module that re-exports it by name.
// The ES module bundle tsup made is dropped: both entries now give the same module instance.
// Usage: node scripts/dist-entries.mjs [distDir]
import { createHash } from 'node:crypto'
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const HERE = dirname(fileURLToPath(import.meta.url))

/** The names the ES module bundle exports (its last `export { … }`). */
function exportedNames(esm) {
  const clauses = [...esm.matchAll(/\bexport\s*\{([^}]*)\}\s*;?/g)]
  const last = clauses.at(-1)
  if (last === undefined) throw new Error('dist/index.js: no export clause found')
  return last[1]
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => {
      const as = /\bas\s+([\w$]+)$/.exec(item)
      return as === null ? item : as[1]
    })
}

export function writeDistEntries(dist = join(HERE, '..', 'dist')) {
  const esm = readFileSync(join(dist, 'index.js'), 'utf8')
  const names = exportedNames(esm)
  if (names.includes('default')) throw new Error('dist/index.js: a default export is not re-exported by the entry')

  // The CommonJS bundle, renamed, with its source map comment following.
  const bundle = readFileSync(join(dist, 'index.cjs'), 'utf8').replace(/\/\/# sourceMappingURL=index\.cjs\.map\s*$/, '//# sourceMappingURL=finality.cjs.map\n')
  writeFileSync(join(dist, 'finality.cjs'), bundle)
  rmSync(join(dist, 'index.cjs'))
  renameSync(join(dist, 'index.cjs.map'), join(dist, 'finality.cjs.map'))
  rmSync(join(dist, 'index.js'))
  rmSync(join(dist, 'index.js.map'), { force: true })

  const buildId = createHash('sha256').update(bundle).digest('hex').slice(0, 16)
  const loader = readFileSync(join(HERE, 'entry-loader.cjs'), 'utf8').replace('__FINALITY_BUILD_ID__', buildId)
  if (!loader.includes(buildId)) throw new Error('scripts/entry-loader.cjs: no build id placeholder')
  writeFileSync(join(dist, 'index.cjs'), loader)
  writeFileSync(
    join(dist, 'index.js'),
    `// The package's ES module entry: the same module as require('finality-evm') (dist/index.cjs).\n` +
      `import finality from './index.cjs'\n\n` +
      `export const {\n${names.map((n) => `  ${n},\n`).join('')}} = finality\n`,
  )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeDistEntries(process.argv[2])
