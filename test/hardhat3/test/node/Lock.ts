import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { getAddress, parseEther, parseGwei } from "viem";

const { viem, networkHelpers } = await network.create();
const { loadFixture, time } = networkHelpers;

describe("Lock (viem, node:test)", async () => {
  async function deployLock() {
    const lockedAmount = parseGwei("1");
    const unlockTime = BigInt((await time.latest()) + 365 * 24 * 60 * 60);
    const lock = await viem.deployContract("Lock", [unlockTime], { value: lockedAmount });
    const [owner, other] = await viem.getWalletClients();
    const publicClient = await viem.getPublicClient();
    return { lock, unlockTime, lockedAmount, owner, other, publicClient };
  }

  it("runs on the node this run asked for", async () => {
    const version = await (await viem.getPublicClient()).request({ method: "web3_clientVersion" });
    assert.match(version, new RegExp(process.env.EXPECT_CLIENT_VERSION ?? "^HardhatNetwork/"));
  });

  it("sets the unlock time and the owner", async () => {
    const { lock, unlockTime, owner } = await loadFixture(deployLock);
    assert.equal(await lock.read.unlockTime(), unlockTime);
    assert.equal(await lock.read.owner(), getAddress(owner.account.address));
  });

  it("holds the locked funds", async () => {
    const { lock, lockedAmount, publicClient } = await loadFixture(deployLock);
    assert.equal(await publicClient.getBalance({ address: lock.address }), lockedAmount);
  });

  it("refuses an unlock time in the past, with its reason", async () => {
    const latest = BigInt(await time.latest());
    await viem.assertions.revertWith(
      viem.deployContract("Lock", [latest], { value: 1n }),
      "Unlock time should be in the future",
    );
  });

  it("refuses a withdrawal before the unlock time", async () => {
    const { lock } = await loadFixture(deployLock);
    await viem.assertions.revertWith(lock.write.withdraw(), "You can't withdraw yet");
  });

  it("refuses another account once unlocked", async () => {
    const { lock, unlockTime, other } = await loadFixture(deployLock);
    await time.increaseTo(unlockTime);
    const asOther = await viem.getContractAt("Lock", lock.address, { client: { wallet: other } });
    await viem.assertions.revertWith(asOther.write.withdraw(), "You aren't the owner");
  });

  it("emits Withdrawal and pays the owner once unlocked", async () => {
    const { lock, unlockTime, lockedAmount, owner, publicClient } = await loadFixture(deployLock);
    await time.increaseTo(unlockTime);
    const before = await publicClient.getBalance({ address: owner.account.address });
    const hash = await lock.write.withdraw();
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, "success");
    const logs = await publicClient.getContractEvents({ address: lock.address, abi: lock.abi, eventName: "Withdrawal", fromBlock: receipt.blockNumber });
    assert.equal(logs.length, 1);
    assert.equal(logs[0]?.args.amount, lockedAmount);
    const fee = receipt.gasUsed * receipt.effectiveGasPrice;
    assert.equal(await publicClient.getBalance({ address: owner.account.address }), before + lockedAmount - fee);
  });

  it("restores the fixture's state for each test", async () => {
    const { lock, lockedAmount, publicClient } = await loadFixture(deployLock);
    assert.equal(await publicClient.getBalance({ address: lock.address }), lockedAmount);
  });

  it("moves time and mines blocks", async () => {
    const publicClient = await viem.getPublicClient();
    const start = await publicClient.getBlockNumber();
    await networkHelpers.mine(5);
    assert.equal(await publicClient.getBlockNumber(), start + 5n);
    const now = await time.latest();
    await time.increase(3600);
    assert.ok((await time.latest()) >= now + 3600);
  });

  it("sends as an impersonated account", async () => {
    const publicClient = await viem.getPublicClient();
    const whale = getAddress("0x00000000000000000000000000000000000a11ce");
    await networkHelpers.impersonateAccount(whale);
    await networkHelpers.setBalance(whale, parseEther("10"));
    const wallet = await viem.getWalletClient(whale);
    const to = getAddress("0x000000000000000000000000000000000000b0b0");
    const hash = await wallet.sendTransaction({ to, value: parseEther("1") });
    await publicClient.waitForTransactionReceipt({ hash });
    assert.equal(await publicClient.getBalance({ address: to }), parseEther("1"));
    await networkHelpers.stopImpersonatingAccount(whale);
  });

  it("emits events with their arguments", async () => {
    const vault = await viem.deployContract("Vault");
    const [owner] = await viem.getWalletClients();
    await viem.assertions.emitWithArgs(
      vault.write.deposit({ value: 5n }),
      vault,
      "Deposited",
      [getAddress(owner.account.address), 5n],
    );
  });

  it("reverts with a custom error and its arguments", async () => {
    const vault = await viem.deployContract("Vault");
    await viem.assertions.revertWithCustomErrorWithArgs(
      vault.write.withdraw([7n]),
      vault,
      "InsufficientBalance",
      [0n, 7n],
    );
  });
});
