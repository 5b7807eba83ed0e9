/**
 * The plugin through Hardhat 3's runtime (createHardhatRuntimeEnvironment, as Hardhat's own
 * tests do): what a finality network's config becomes on the node, what it refuses, and one
 * node per connection. Run with this project's Node 22 and tsx:
 * `node --import tsx --test checks/plugin.test.ts`.
 */
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { after, describe, it } from "node:test";
import hardhatViem from "@nomicfoundation/hardhat-viem";
import finality from "finality-evm/hardhat";
import { configVariable } from "hardhat/config";
import { createHardhatRuntimeEnvironment } from "hardhat/hre";

const KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const ADDRESS = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
process.env.FINALITY_CHECK_KEY = KEY;

const hre = await createHardhatRuntimeEnvironment({
  plugins: [hardhatViem, finality],
  networks: {
    plain: { type: "edr-simulated", finality: true },
    custom: {
      type: "edr-simulated",
      finality: { validators: 4 },
      chainId: 4242,
      hardfork: "prague",
      accounts: [{ privateKey: configVariable("FINALITY_CHECK_KEY"), balance: "1000000000000000000000" }],
      initialBaseFeePerGas: 7_000_000_000n,
      allowUnlimitedContractSize: true,
      mining: { auto: false, interval: 0 },
    },
    badMining: { type: "edr-simulated", finality: true, mining: { auto: true, interval: 1000 } },
    badOption: { type: "edr-simulated", finality: { validatorz: 2 } as never },
  },
});

const open: { close(): Promise<void> }[] = [];
after(async () => {
  for (const c of open) await c.close();
});

async function connect(name: string) {
  const connection = await hre.network.create(name);
  open.push(connection);
  return connection;
}

describe("a finality network", () => {
  it("is a finality node behind Hardhat's provider, with Hardhat's defaults where the config is silent", async () => {
    const { provider } = await connect("plain");
    assert.match(String(await provider.request({ method: "web3_clientVersion" })), /^HardhatNetwork\/finality\//);
    assert.equal(await provider.request({ method: "eth_chainId" }), "0x7a69");
    const accounts = (await provider.request({ method: "eth_accounts" })) as string[];
    assert.equal(accounts.length, 20);
    assert.equal(accounts[0], "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266");
  });

  it("takes chainId, hardfork, accounts, initialBaseFeePerGas, mining and its own validators from the config", async () => {
    const { provider } = await connect("custom");
    assert.equal(await provider.request({ method: "eth_chainId" }), "0x1092");
    assert.deepEqual(await provider.request({ method: "eth_accounts" }), [ADDRESS]);
    const genesis = (await provider.request({ method: "eth_getBlockByNumber", params: ["0x0", false] })) as Record<string, string>;
    assert.equal(genesis.baseFeePerGas, "0x1a13b8600");
    // prague: no Osaka-only block fields; the blob schedule's fields are there.
    assert.equal(typeof genesis.excessBlobGas, "string");
    // mining.auto false: a send waits in the pool until a block is mined.
    const hash = await provider.request({ method: "eth_sendTransaction", params: [{ from: ADDRESS, to: ADDRESS, value: "0x1" }] });
    assert.equal(await provider.request({ method: "eth_getTransactionReceipt", params: [hash] }), null);
    await provider.request({ method: "evm_mine" });
    const receipt = (await provider.request({ method: "eth_getTransactionReceipt", params: [hash] })) as Record<string, string>;
    assert.equal(receipt.status, "0x1");
    const certificate = (await provider.request({ method: "finality_getCommitCertificate", params: ["0x1"] })) as { precommits: unknown[] };
    assert.ok(certificate.precommits.length >= 3, `4 validators: a quorum of 3 or more precommits, got ${certificate.precommits.length}`);
  });

  it("gives each connection a node of its own", async () => {
    const a = await connect("plain");
    const b = await connect("plain");
    await a.provider.request({ method: "evm_mine" });
    await a.provider.request({ method: "evm_mine" });
    assert.equal(await a.provider.request({ method: "eth_blockNumber" }), "0x2");
    assert.equal(await b.provider.request({ method: "eth_blockNumber" }), "0x0");
  });

  it("closes the node with the connection", async () => {
    const connection = await hre.network.create("plain");
    await connection.close();
    await assert.rejects(connection.provider.request({ method: "eth_blockNumber" }), /disconnected/);
  });

  it("serves viem's clients (hardhat-viem)", async () => {
    const { viem } = await connect("plain");
    const client = await viem.getPublicClient();
    const [wallet] = await viem.getWalletClients();
    const hash = await wallet!.sendTransaction({ to: ADDRESS, value: 1n });
    const receipt = await client.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, "success");
    assert.equal(await client.getBalance({ address: ADDRESS }), 10n ** 22n + 1n);
  });

  it("emits eth_subscribe's notifications on the connection's provider", async () => {
    const { provider } = await connect("plain");
    const messages: { type: string; data: { subscription: string; result: { number: string } } }[] = [];
    const notifications: unknown[] = [];
    const emitter = provider as unknown as NodeJS.EventEmitter;
    emitter.on("message", (m) => messages.push(m));
    emitter.on("notification", (n) => notifications.push(n));
    const id = await provider.request({ method: "eth_subscribe", params: ["newHeads"] });
    await provider.request({ method: "evm_mine" });
    for (let i = 0; i < 50 && messages.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(messages.length, 1);
    assert.equal(messages[0]?.type, "eth_subscription");
    assert.equal(messages[0]?.data.subscription, id);
    assert.equal(messages[0]?.data.result.number, "0x1");
    assert.deepEqual(notifications, [messages[0]?.data]);
  });

  it("forks the network's forking URL (here another finality node, over HTTP on loopback)", async () => {
    const { createNode } = await import("../../../src/index.ts");
    const holder = "0x000000000000000000000000000000000000f0c5";
    const remote = await createNode({ alloc: { [holder]: { balance: 123_456n } } });
    const served = await remote.listen({ address: "127.0.0.1:0" });
    try {
      const forked = await createHardhatRuntimeEnvironment({
        plugins: [finality],
        networks: { forked: { type: "edr-simulated", finality: true, forking: { url: served.http! } } },
      });
      const connection = await forked.network.create("forked");
      try {
        assert.equal(await connection.provider.request({ method: "eth_getBalance", params: [holder, "latest"] }), "0x1e240");
        // Hardhat's own simulated network behind the connection is not given the fork.
        assert.equal((connection.networkConfig as { forking?: unknown }).forking, undefined);
      } finally {
        await connection.close();
      }
    } finally {
      await served.close();
      await remote.close();
    }
  });

  it("refuses a setting it cannot honour, naming it", async () => {
    await assert.rejects(hre.network.create("badMining"), /mining\.interval/);
  });

  it("refuses an unknown createNode option, naming it", async () => {
    await assert.rejects(hre.network.create("badOption"), /validatorz/);
  });
});

describe("the plugin's place", () => {
  it("serves hardhat-viem listed after it, and Hardhat's default network made a finality network", async () => {
    const first = await createHardhatRuntimeEnvironment({
      plugins: [finality, hardhatViem],
      networks: { default: { type: "edr-simulated", finality: true } },
    });
    const connection = await first.network.create();
    open.push(connection);
    const client = await connection.viem.getPublicClient();
    assert.match(await client.request({ method: "web3_clientVersion" }), /^HardhatNetwork\/finality\//);
    const [wallet] = await connection.viem.getWalletClients();
    const hash = await wallet!.sendTransaction({ to: ADDRESS, value: 1n });
    assert.equal((await client.waitForTransactionReceipt({ hash })).status, "success");
  });
});

describe("compilations", () => {
  it("takes a compilation through the provider's addCompilationResult (hardhat node's watcher): a later failure names its custom error", async () => {
    const solc = createRequire(import.meta.url)("solc") as { version(): string; compile(input: string): string };
    const content = "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.24;\ncontract Guard {\n    error Nope(uint256 code);\n    function check() external pure { revert Nope(7); }\n}\n";
    const input = {
      language: "Solidity",
      sources: { "contracts/Guard.sol": { content } },
      settings: { outputSelection: { "*": { "*": ["abi", "evm.bytecode", "evm.deployedBytecode"], "": ["ast"] } } },
    };
    const output = JSON.parse(solc.compile(JSON.stringify(input)));
    const { provider } = await connect("plain");
    const [from] = (await provider.request({ method: "eth_accounts" })) as string[];
    const hash = await provider.request({ method: "eth_sendTransaction", params: [{ from, data: `0x${output.contracts["contracts/Guard.sol"].Guard.evm.bytecode.object}` }] });
    const { contractAddress } = (await provider.request({ method: "eth_getTransactionReceipt", params: [hash] })) as { contractAddress: string };
    // check(): the selector of keccak256("check()").
    const call = () => provider.request({ method: "eth_call", params: [{ from, to: contractAddress, data: "0x919840ad" }] });
    await assert.rejects(call(), /unrecognized custom error/);
    await (provider as unknown as { addCompilationResult(v: string, i: unknown, o: unknown): Promise<void> }).addCompilationResult(solc.version().split("+")[0]!, input, output);
    await assert.rejects(call(), /reverted with custom error 'Nope\(7\)'/);
  });
});

describe("the config", () => {
  it("refuses finality on an http network and a network setting written inside finality", async () => {
    await assert.rejects(
      createHardhatRuntimeEnvironment({
        plugins: [finality],
        networks: {
          remote: { type: "http", url: "http://127.0.0.1:1", finality: true } as never,
          twice: { type: "edr-simulated", finality: { chainId: 5 } as never },
        },
      }),
      (error: Error) => {
        assert.match(error.message, /networks\.remote\.finality.*edr-simulated/s);
        assert.match(error.message, /networks\.twice\.finality\.chainId.*write chainId on network "twice"/s);
        return true;
      },
    );
  });
});
