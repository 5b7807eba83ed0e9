import { expect } from "chai";
import { network } from "hardhat";

describe("Vault (ethers, mocha, chai matchers)", function () {
  // Mocha loads test files with require(), which refuses a module with top-level await.
  let connection: Awaited<ReturnType<typeof network.create>>;
  let ethers: typeof connection.ethers;
  let networkHelpers: typeof connection.networkHelpers;
  const loadFixture: typeof networkHelpers.loadFixture = (fixture) => networkHelpers.loadFixture(fixture);
  const time = { latest: () => networkHelpers.time.latest(), increaseTo: (t: number) => networkHelpers.time.increaseTo(t) };

  before(async function () {
    connection = await network.create();
    ({ ethers, networkHelpers } = connection);
  });

  after(async function () {
    await connection.close();
  });

  async function deployVault() {
    const [owner, alice, bob] = await ethers.getSigners();
    const vault = await ethers.deployContract("Vault");
    return { vault, owner, alice, bob };
  }

  it("runs on the node this run asked for", async function () {
    const version: string = await ethers.provider.send("web3_clientVersion", []);
    expect(version).to.match(new RegExp(process.env.EXPECT_CLIENT_VERSION ?? "^HardhatNetwork/"));
  });

  it("records a deposit and emits Deposited", async function () {
    const { vault, alice } = await loadFixture(deployVault);
    await expect(vault.connect(alice).deposit({ value: 100n }))
      .to.emit(vault, "Deposited")
      .withArgs(alice.address, 100n);
    expect(await vault.balanceOf(alice.address)).to.equal(100n);
  });

  it("moves ether on a deposit", async function () {
    const { vault, alice } = await loadFixture(deployVault);
    await expect(vault.connect(alice).deposit({ value: 1000n })).to.changeEtherBalances(ethers, [alice, vault], [-1000n, 1000n]);
  });

  it("reverts with a reason string", async function () {
    const { vault, alice } = await loadFixture(deployVault);
    await expect(vault.connect(alice).deposit({ value: 0n })).to.be.revertedWith("Vault: nothing sent");
  });

  it("reverts with a custom error and its arguments", async function () {
    const { vault, alice } = await loadFixture(deployVault);
    await vault.connect(alice).deposit({ value: 10n });
    await expect(vault.connect(alice).withdraw(11n))
      .to.be.revertedWithCustomError(vault, "InsufficientBalance")
      .withArgs(10n, 11n);
  });

  it("names the custom error of a failed call in the error's message (the node has the project's build-info)", async function () {
    const { vault, alice } = await loadFixture(deployVault);
    const data = vault.interface.encodeFunctionData("withdraw", [7n]);
    let error: Error | undefined;
    try {
      await ethers.provider.send("eth_call", [{ from: alice.address, to: await vault.getAddress(), data }]);
    } catch (e) {
      error = e as Error;
    }
    expect(error?.message).to.include("reverted with custom error 'InsufficientBalance(0, 7)'");
    // In-process, the error's stack carries the Solidity frame (JSON-RPC over HTTP has no place for one).
    if (process.env.EXPECT_SOLIDITY_FRAMES === "1") expect(error?.stack).to.match(/at Vault\.withdraw \((?:project\/)?contracts\/Vault\.sol:30\)/);
  });

  it("refuses a stranger with NotOwner", async function () {
    const { vault, bob } = await loadFixture(deployVault);
    await expect(vault.connect(bob).pause()).to.be.revertedWithCustomError(vault, "NotOwner").withArgs(bob.address);
  });

  it("pauses for the owner, then refuses deposits", async function () {
    const { vault, owner, alice } = await loadFixture(deployVault);
    await expect(vault.connect(owner).pause()).to.emit(vault, "Paused").withArgs(owner.address);
    await expect(vault.connect(alice).deposit({ value: 1n })).to.be.revertedWith("Vault: paused");
  });

  it("panics on a division by zero", async function () {
    const { vault } = await loadFixture(deployVault);
    await expect(vault.share(0n)).to.be.revertedWithPanic(0x12);
  });

  it("starts each test from the fixture's state", async function () {
    const { vault, alice } = await loadFixture(deployVault);
    expect(await vault.paused()).to.equal(false);
    expect(await vault.balanceOf(alice.address)).to.equal(0n);
  });

  it("withdraws with the owner impersonated", async function () {
    const { vault } = await loadFixture(deployVault);
    const stranger = ethers.getAddress("0x00000000000000000000000000000000000c0de5");
    await networkHelpers.impersonateAccount(stranger);
    await networkHelpers.setBalance(stranger, 10n ** 18n);
    const signer = await ethers.getSigner(stranger);
    await vault.connect(signer).deposit({ value: 50n });
    await expect(vault.connect(signer).withdraw(50n)).to.emit(vault, "Withdrawn").withArgs(stranger, 50n);
    await networkHelpers.stopImpersonatingAccount(stranger);
  });

  it("deploys Lock and withdraws after time travel", async function () {
    const unlockTime = (await time.latest()) + 60;
    const lock = await ethers.deployContract("Lock", [unlockTime], { value: 1000n });
    await expect(lock.withdraw()).to.be.revertedWith("You can't withdraw yet");
    await time.increaseTo(unlockTime);
    await expect(lock.withdraw()).to.emit(lock, "Withdrawal").withArgs(1000n, unlockTime + 1);
  });

  it("withdraws in a block whose timestamp was set beforehand (the send's estimate runs on pending)", async function () {
    const unlockTime = (await networkHelpers.time.latest()) + 3600;
    const lock = await ethers.deployContract("Lock", [unlockTime], { value: 1000n });
    await networkHelpers.time.setNextBlockTimestamp(unlockTime);
    await expect(lock.withdraw()).to.emit(lock, "Withdrawal").withArgs(1000n, unlockTime);
  });

  it("reads storage and snapshots by hand", async function () {
    const { vault, alice } = await loadFixture(deployVault);
    const snapshot = await networkHelpers.takeSnapshot();
    await vault.connect(alice).deposit({ value: 9n });
    expect(await vault.balanceOf(alice.address)).to.equal(9n);
    await snapshot.restore();
    expect(await vault.balanceOf(alice.address)).to.equal(0n);
  });
});
