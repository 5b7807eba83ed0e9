/**
 * State setters, impersonation and balance-change matchers: writes made between blocks belong to
 * the head block, so the matchers see only the transaction's own change.
 */
const { expect } = require('chai')
const { ethers, network } = require('hardhat')
const { impersonateAccount, loadFixture, setBalance, setCode, setNonce, setStorageAt, getStorageAt, stopImpersonatingAccount } = require('@nomicfoundation/hardhat-network-helpers')
const { deployBasics } = require('../fixtures')

/** The storage slot of `balances[holder]` in OpenZeppelin's ERC20 (the mapping is its first variable). */
function balanceSlot(holder) {
  return ethers.keccak256(ethers.AbiCoder.defaultAbiCoder().encode(['address', 'uint256'], [holder, 0]))
}

describe('state', function () {
  it('setBalance, setNonce', async function () {
    const { bob } = await loadFixture(deployBasics)
    await setBalance(bob.address, 12345n)
    expect(await ethers.provider.getBalance(bob)).to.equal(12345n)
    await setNonce(bob.address, 100)
    expect(await ethers.provider.getTransactionCount(bob)).to.equal(100)
  })

  it('impersonateAccount: an address without a key sends', async function () {
    const { reverter } = await loadFixture(deployBasics)
    const stranger = ethers.Wallet.createRandom().address
    await impersonateAccount(stranger)
    await setBalance(stranger, ethers.parseEther('1'))
    const signer = await ethers.getSigner(stranger)
    await expect(reverter.connect(signer).pay({ value: 1000n })).to.emit(reverter, 'Paid').withArgs(stranger, 1000n)
    await stopImpersonatingAccount(stranger)
    await expect(reverter.connect(signer).pay({ value: 1000n })).to.be.rejected
  })

  it('getImpersonatedSigner', async function () {
    const stranger = ethers.Wallet.createRandom().address
    const signer = await ethers.getImpersonatedSigner(stranger)
    await setBalance(stranger, ethers.parseEther('1'))
    const [owner] = await ethers.getSigners()
    await expect(signer.sendTransaction({ to: owner, value: 5n })).to.changeEtherBalances([signer, owner], [-5n, 5n])
  })

  it('setCode and setStorageAt', async function () {
    const { reverter } = await loadFixture(deployBasics)
    const elsewhere = ethers.Wallet.createRandom().address
    await setCode(elsewhere, await ethers.provider.getCode(reverter))
    const copy = reverter.attach(elsewhere)
    await copy.succeed()
    expect(await copy.count()).to.equal(1n)
    await setStorageAt(elsewhere, 0, 41)
    expect(await copy.count()).to.equal(41n)
    expect(await getStorageAt(elsewhere, 0)).to.equal(ethers.toBeHex(41, 32))
  })

  it('changeEtherBalances after setBalance of the recipient', async function () {
    const { owner, bob } = await loadFixture(deployBasics)
    await setBalance(bob.address, ethers.parseEther('123'))
    await expect(owner.sendTransaction({ to: bob, value: 1000n })).to.changeEtherBalances([owner, bob], [-1000n, 1000n])
    expect(await ethers.provider.getBalance(bob)).to.equal(ethers.parseEther('123') + 1000n)
  })

  it('changeEtherBalance after setBalance of the sender, fee included', async function () {
    const { owner, bob } = await loadFixture(deployBasics)
    await setBalance(owner.address, ethers.parseEther('50'))
    const tx = owner.sendTransaction({ to: bob, value: 7n })
    await expect(tx).to.changeEtherBalance(owner, -7n)
    const receipt = await (await tx).wait()
    await expect(tx).to.changeEtherBalance(owner, -7n - receipt.fee, { includeFee: true })
  })

  it('changeTokenBalances after setStorageAt of a token balance', async function () {
    const { token, alice, bob } = await loadFixture(deployBasics)
    const address = await token.getAddress()
    const slot = balanceSlot(alice.address)
    expect(BigInt(await getStorageAt(address, slot))).to.equal(await token.balanceOf(alice))
    await setStorageAt(address, slot, 5000n)
    expect(await token.balanceOf(alice)).to.equal(5000n)
    await expect(token.connect(alice).transfer(bob, 10n)).to.changeTokenBalances(token, [alice, bob], [-10n, 10n])
    await expect(token.connect(alice).transfer(bob, 1n)).to.changeTokenBalance(token, alice, -1n)
  })

  it('debug_traceTransaction of a transaction sent by an impersonated contract', async function () {
    const { token, bob } = await loadFixture(deployBasics)
    const contract = await token.getAddress()
    await impersonateAccount(contract)
    await setBalance(contract, ethers.parseEther('1'))
    const signer = await ethers.getSigner(contract)
    const tx = await signer.sendTransaction({ to: bob, value: 1000n })
    expect((await tx.wait()).status).to.equal(1)
    // The block was built with it (EIP-3607 does not apply to impersonated senders); its replay must be too.
    const trace = await network.provider.send('debug_traceTransaction', [tx.hash])
    expect(trace.failed).to.equal(false)
    expect(trace.gas).to.equal(21_000)
    const calls = await network.provider.send('debug_traceTransaction', [tx.hash, { tracer: 'callTracer' }])
    expect(calls.from).to.equal(contract.toLowerCase())
    expect(BigInt(calls.value)).to.equal(1000n)
  })

  it('a contract past 24 KiB deploys (allowUnlimitedContractSize)', async function () {
    const big = await ethers.deployContract('Big')
    await big.waitForDeployment()
    const code = await ethers.provider.getCode(big)
    expect(ethers.dataLength(code)).to.equal(30_000)
  })
})
