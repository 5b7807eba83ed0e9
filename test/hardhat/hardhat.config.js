/**
 * A Hardhat 2 project as its users set one up (hardhat-ethers, chai matchers, network helpers),
 * pointed at finality in the two ways docs/hardhat.md describes:
 *
 * - `localhost` (or any name, `finality` below): finality's command line over HTTP
 *   (`npx finality --hardhat`). FINALITY_URL overrides the address (the repository's test starts
 *   the CLI on an ephemeral port).
 * - `inprocess`: a finality node inside Hardhat's own process; the network's provider is the
 *   node's EIP-1193 provider (the `extendProvider` below), so nothing listens on a port.
 *
 * Contracts compile with the `solc` npm package (solcjs) through a local compiler override:
 * Hardhat neither downloads a compiler nor fetches the compiler list.
 */
require('@nomicfoundation/hardhat-ethers')
require('@nomicfoundation/hardhat-chai-matchers')
const { extendProvider, subtask } = require('hardhat/config')
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require('hardhat/builtin-tasks/task-names')

const SOLC_VERSION = '0.8.37'

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async ({ solcVersion }) => {
  const solc = require('solc')
  if (solcVersion !== SOLC_VERSION || !solc.version().startsWith(`${SOLC_VERSION}+`)) {
    throw new Error(`this project compiles with the solc npm package ${SOLC_VERSION} only; asked for ${solcVersion}, installed ${solc.version()}`)
  }
  return { compilerPath: require.resolve('solc/soljson.js'), isSolcJs: true, version: solcVersion, longVersion: solc.version() }
})

// The in-process setup. A project that installed finality imports 'finality-evm'; this repository's
// own run loads its sources (FINALITY_MODULE, under tsx).
extendProvider(async (provider, _config, network) => {
  if (network !== 'inprocess') return provider
  const { createNode } = await import(process.env.FINALITY_MODULE ?? 'finality-evm')
  const node = await createNode({ hardhatCompat: true, hardfork: 'osaka', allowUnlimitedContractSize: true })
  return node.provider
})

/** Mocha's JSON report, written to a file, when the repository's test asks for one. */
const report = process.env.FINALITY_MOCHA_JSON

/** @type {import('hardhat/config').HardhatUserConfig} */
module.exports = {
  solidity: { version: SOLC_VERSION, settings: { evmVersion: 'prague', optimizer: { enabled: true, runs: 200 } } },
  networks: {
    localhost: { url: process.env.FINALITY_URL ?? 'http://127.0.0.1:8545' },
    // The same node under another name: hardhat-ethers then estimates every send first.
    finality: { url: process.env.FINALITY_URL ?? 'http://127.0.0.1:8545' },
    // Hardhat wants a URL for any network but its own; the provider above replaces this one's.
    inprocess: { url: 'http://in-process.invalid' },
  },
  mocha: {
    timeout: 120_000,
    ...(report === undefined ? {} : { reporter: 'json', reporterOption: { output: report } }),
  },
}
