/**
 * A Hardhat 2 project as its users set one up (hardhat-ethers, chai matchers, network helpers),
 * pointed at finality in the ways docs/hardhat.md describes:
 *
 * - `hardhat`, Hardhat's own network: `require('finality-evm/hardhat')` makes it a finality node
 *   configured from `networks.hardhat`, inside Hardhat's process (`hardhat test`), or served over
 *   HTTP and WebSocket by `hardhat node`.
 * - `localhost` (or any name, `finality` below): a node over HTTP (`npx finality --hardhat`, or
 *   `hardhat node`). FINALITY_URL overrides the address (the repository's test starts the node on
 *   an ephemeral port).
 *
 * Contracts compile with the `solc` npm package (solcjs) through a local compiler override:
 * Hardhat neither downloads a compiler nor fetches the compiler list.
 */
require('@nomicfoundation/hardhat-ethers')
require('@nomicfoundation/hardhat-chai-matchers')
// A project that installed finality requires 'finality-evm/hardhat'; this repository's own run loads
// the plugin's sources (FINALITY_HARDHAT, under tsx) or its build, and `none` leaves Hardhat's own
// network in place (the reference the repository's test compares gas figures with).
const plugin = process.env.FINALITY_HARDHAT ?? 'finality-evm/hardhat'
if (plugin !== 'none') require(plugin)
// hardhat-gas-reporter, when the repository's test has installed it (FINALITY_GAS_REPORTER: its
// folder; test/hardhat/project.test.ts installs it from npm into .cache/, git-ignored).
const gasReporter = process.env.FINALITY_GAS_REPORTER
if (gasReporter !== undefined) require(gasReporter)
const { subtask } = require('hardhat/config')
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require('hardhat/builtin-tasks/task-names')

const SOLC_VERSION = '0.8.37'

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async ({ solcVersion }) => {
  const solc = require('solc')
  if (solcVersion !== SOLC_VERSION || !solc.version().startsWith(`${SOLC_VERSION}+`)) {
    throw new Error(`this project compiles with the solc npm package ${SOLC_VERSION} only; asked for ${solcVersion}, installed ${solc.version()}`)
  }
  return { compilerPath: require.resolve('solc/soljson.js'), isSolcJs: true, version: solcVersion, longVersion: solc.version() }
})

/** Mocha's JSON report, written to a file, when the repository's test asks for one. */
const report = process.env.FINALITY_MOCHA_JSON

/** @type {import('hardhat/config').HardhatUserConfig} */
module.exports = {
  // The repository's test of `hardhat node` in a project whose default network is another.
  ...(process.env.FINALITY_DEFAULT_NETWORK === undefined ? {} : { defaultNetwork: process.env.FINALITY_DEFAULT_NETWORK }),
  solidity: { version: SOLC_VERSION, settings: { evmVersion: 'prague', optimizer: { enabled: true, runs: 200 } } },
  networks: {
    // Hardhat's own network, a finality node (the 25 KB contract needs the size limit lifted).
    hardhat: { allowUnlimitedContractSize: true },
    localhost: { url: process.env.FINALITY_URL ?? 'http://127.0.0.1:8545' },
    // The same node under another name: hardhat-ethers then estimates every send first.
    finality: { url: process.env.FINALITY_URL ?? 'http://127.0.0.1:8545' },
  },
  // Offline: no price look-ups; the JSON report is what the repository's test reads.
  gasReporter: {
    enabled: gasReporter !== undefined,
    offline: true,
    outputJSON: true,
    outputJSONFile: process.env.FINALITY_GAS_REPORT ?? 'gas-report.json',
    noColors: true,
  },
  mocha: {
    timeout: 120_000,
    ...(report === undefined ? {} : { reporter: 'json', reporterOption: { output: report } }),
  },
}
