// Regenerates src/abci/gen/ (the ABCI types, @bufbuild/protobuf's TypeScript) from the .proto
// files of the CometBFT release finality speaks to (scripts/cometbft.mjs), taken from the Go module
// cache: tendermint/abci/types.proto and the files it imports, gogoproto's options among them.
// Usage: node scripts/gen-abci.mjs   (needs `go`, the devDependencies @bufbuild/buf and protoc-gen-es)
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { COMETBFT_VERSION, cometbftSource } from './cometbft.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const OUT = join(ROOT, 'src', 'abci', 'gen')
const ENTRY = 'tendermint/abci/types.proto'

const source = cometbftSource()
// gogoproto's version is the one CometBFT's go.mod requires.
const gogoVersion = /github\.com\/cosmos\/gogoproto (v[\w.-]+)/.exec(readFileSync(join(source, 'go.mod'), 'utf8'))?.[1]
if (gogoVersion === undefined) throw new Error('gogoproto not found in CometBFT go.mod')
const gogo = JSON.parse(execFileSync('go', ['mod', 'download', '-json', `github.com/cosmos/gogoproto@${gogoVersion}`], { encoding: 'utf8' })).Dir

const work = mkdtempSync(join(tmpdir(), 'finality-abci-'))
try {
  cpSync(join(source, 'proto', 'tendermint'), join(work, 'tendermint'), { recursive: true })
  cpSync(join(gogo, 'gogoproto', 'gogo.proto'), join(work, 'gogoproto', 'gogo.proto'))
  writeFileSync(join(work, 'buf.yaml'), 'version: v2\n')
  const template = {
    version: 'v2',
    plugins: [{ local: join(ROOT, 'node_modules', '.bin', 'protoc-gen-es'), out: 'gen', opt: ['target=ts', 'import_extension=js'], include_imports: true }],
  }
  execFileSync(join(ROOT, 'node_modules', '.bin', 'buf'), ['generate', '--template', JSON.stringify(template), '--path', ENTRY], { cwd: work, stdio: 'inherit' })
  rmSync(OUT, { recursive: true, force: true })
  cpSync(join(work, 'gen'), OUT, { recursive: true })
  writeFileSync(join(OUT, 'VERSION'), `CometBFT ${COMETBFT_VERSION} (${ENTRY}), gogoproto ${gogoVersion}; made by scripts/gen-abci.mjs\n`)
} finally {
  rmSync(work, { recursive: true, force: true })
}
console.log(`src/abci/gen: ${ENTRY} of CometBFT ${COMETBFT_VERSION}`)
