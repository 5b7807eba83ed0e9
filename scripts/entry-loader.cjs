'use strict'
// The package's entry (dist/index.cjs; dist/index.js re-exports it): loads the bundle,
// dist/finality.cjs, through V8's code cache. Compiling the 1.1 MB bundle from its source is
// ~20-40 ms of every fresh process; from the cache, which also holds the bytecode of the
// functions the first node ran, ~5. Node 22's `module.enableCompileCache()` does the same for
// every module of a process; Node 20 has no such cache, so the package keeps one for its bundle.
// The cache is a file in `<tmpdir>/finality-compile-cache-<uid>` (`FINALITY_COMPILE_CACHE=<dir>`;
// `FINALITY_COMPILE_CACHE=0` or Node's `NODE_DISABLE_COMPILE_CACHE=1` turns it off), named by
// the build, the bundle's path (each install its own: V8 keeps the file name a cache was made
// under, and stack traces would name the writer's install), V8's version, the architecture and
// the process's flags, written by a process that
// found none (or found one V8 refused) once its first `createNode()` has resolved, and again, with
// what its transactions compiled since, once its first block is stored and once the first block
// after contract code ran is stored (a deployment, usually), or when it closes a node before
// either; a later process that ran more than the cache's writer had writes it once more. Written
// later, after hundreds more transactions, the cache served the first deployment of the next
// processes worse. V8 checks a cache
// against the source and its flags before it uses it; anything that goes wrong with the file
// (unwritable folder, a refused or unreadable cache) only costs the compile the cache saves; a
// file another user owns is not read (its bytecode would run in this process).
const fs = require('node:fs')
const path = require('node:path')
const vm = require('node:vm')
const Module = require('node:module')

const BUILD_ID = '__FINALITY_BUILD_ID__'
const BUNDLE = path.join(__dirname, 'finality.cjs')
/** The bundle calls this with 1 when a node has started, 2 at its first block (or close), 3 once a block after contract code is stored. */
const READY = Symbol.for('finality.compileCache.ready')

/** A short hash (FNV-1a, 32 bits) for a file name. */
function shortHash(text) {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
  return h.toString(16)
}

/** A short hash of the flags that can change V8's code (V8 refuses a cache made under others). */
function flagsKey() {
  return shortHash(`${process.execArgv.join(' ')}\0${process.env.NODE_OPTIONS ?? ''}`)
}

function cachePath() {
  const setting = process.env.FINALITY_COMPILE_CACHE
  if (setting === '0' || setting === 'false' || (process.env.NODE_DISABLE_COMPILE_CACHE ?? '') !== '') return undefined
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined
  const dir = setting !== undefined && setting !== '' ? path.resolve(setting) : path.join(require('node:os').tmpdir(), `finality-compile-cache${uid === undefined ? '' : `-${uid}`}`)
  // Keyed by this install's bundle path too: V8 keeps the script name a cache was made under, so
  // another install of the same build (or a deleted temporary one) would name its own path in
  // this install's stack traces.
  return path.join(dir, `${BUILD_ID}-${shortHash(BUNDLE)}-${process.versions.v8}-${process.arch}-${flagsKey()}.bin`)
}

/**
 * A cache file: this header (three bytes, then how much the writer had run: 1 a node started,
 * 2 a block stored or a node closed, 3 a block stored after contract code ran), then V8's data.
 */
const MAGIC = Buffer.from('fcc')

function writeCache(file, script, level) {
  try {
    const data = script.createCachedData()
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
    // Written whole under another name, then renamed: a process starting meanwhile reads either
    // no cache or a complete one.
    const partial = `${file}.${process.pid}.${Date.now()}.tmp`
    fs.writeFileSync(partial, Buffer.concat([MAGIC, Buffer.of(level), data]))
    fs.renameSync(partial, file)
  } catch {
    // No cache: the next process compiles from the source, as without one.
  }
}

function load() {
  let source
  try {
    source = fs.readFileSync(BUNDLE, 'utf8')
  } catch {
    return require('./finality.cjs')
  }
  const file = cachePath()
  let cachedData
  let cachedLevel = 0
  if (file !== undefined) {
    try {
      // Only a cache this user wrote: V8 runs the bytecode it holds.
      const fd = fs.openSync(file, 'r')
      try {
        const uid = typeof process.getuid === 'function' ? process.getuid() : undefined
        if (uid === undefined || fs.fstatSync(fd).uid === uid) {
          const bytes = fs.readFileSync(fd)
          if (bytes.length > MAGIC.length + 1 && bytes.subarray(0, MAGIC.length).equals(MAGIC)) {
            cachedLevel = bytes[MAGIC.length]
            cachedData = bytes.subarray(MAGIC.length + 1)
          }
        }
      } finally {
        fs.closeSync(fd)
      }
    } catch {
      // none yet
    }
  }
  const script = new vm.Script(Module.wrap(source), {
    filename: BUNDLE,
    cachedData,
  })
  const bundle = new Module(BUNDLE, module)
  bundle.filename = BUNDLE
  bundle.paths = Module._nodeModulePaths(__dirname)
  if (file !== undefined) {
    // What the cache holds: nothing when V8 refused it. A process that runs more than the cache's
    // writer had (a node closed; contract code run) writes it again, with its own bytecode too.
    let written = cachedData === undefined || script.cachedDataRejected === true ? 0 : cachedLevel
    globalThis[READY] = (level) => {
      if (level <= written) return
      written = level
      if (written >= 3) delete globalThis[READY]
      writeCache(file, script, level)
    }
  }
  script.runInThisContext()(bundle.exports, Module.createRequire(BUNDLE), bundle, BUNDLE, __dirname)
  bundle.loaded = true
  return bundle.exports
}

module.exports = load()
