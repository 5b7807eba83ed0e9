/**
 * A Hardhat 3 project as its users set one up: hardhat-viem with node:test, hardhat-ethers with
 * mocha and the chai matchers, the network helpers, and finality's plugin. Its networks:
 *
 * - `finality`: a finality node inside Hardhat's process, one per `network.connect()`.
 * - `finalityHttp`: finality's command line over HTTP (`npx finality --hardhat`); FINALITY_URL
 *   overrides the address (the repository's test starts the CLI on an ephemeral port).
 * - `default`: Hardhat's own simulated network, to compare with.
 *
 * Contracts compile with the `solc` npm package (solcjs) through the compiler's `path`: Hardhat
 * neither downloads a compiler nor fetches the list of compilers.
 */
import { createRequire } from "node:module";
import hardhatEthers from "@nomicfoundation/hardhat-ethers";
import hardhatEthersChaiMatchers from "@nomicfoundation/hardhat-ethers-chai-matchers";
import hardhatMocha from "@nomicfoundation/hardhat-mocha";
import hardhatNetworkHelpers from "@nomicfoundation/hardhat-network-helpers";
import hardhatNodeTestRunner from "@nomicfoundation/hardhat-node-test-runner";
import hardhatViem from "@nomicfoundation/hardhat-viem";
import hardhatViemAssertions from "@nomicfoundation/hardhat-viem-assertions";
import { defineConfig } from "hardhat/config";
// #region plugin (docs/hardhat.md holds this text verbatim)
import finality from "finality-evm/hardhat";
// #endregion plugin

const require = createRequire(import.meta.url);

/** Mocha's JSON report, written to a file, when the repository's test asks for one. */
const report = process.env.FINALITY_MOCHA_JSON;

export default defineConfig({
  plugins: [
    hardhatViem,
    hardhatViemAssertions,
    hardhatEthers,
    hardhatEthersChaiMatchers,
    hardhatNetworkHelpers,
    hardhatMocha,
    hardhatNodeTestRunner,
    finality,
  ],
  solidity: {
    version: "0.8.37",
    path: require.resolve("solc/soljson.js"),
    settings: { evmVersion: "prague", optimizer: { enabled: true, runs: 200 } },
  },
  paths: { tests: { mocha: "test/mocha", nodejs: "test/node" } },
  networks: {
    // #region networks (docs/hardhat.md holds this text verbatim)
    finality: {
      type: "edr-simulated",
      finality: true,
      hardfork: "osaka",
    },
    // #endregion networks
    finalityHttp: {
      type: "http",
      url: process.env.FINALITY_URL ?? "http://127.0.0.1:8545",
    },
  },
  test: {
    mocha: {
      timeout: 60_000,
      ...(report === undefined ? {} : { reporter: "json", reporterOptions: { output: report } }),
    },
  },
});
