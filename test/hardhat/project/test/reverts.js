/**
 * The revert matchers on transactions and calls. A transaction sent with its gas given is not
 * estimated first, so only the node's answer to the send can tell the matcher why it failed:
 * Hardhat's throwOnTransactionFailures (the error carries the revert data and the hash; the
 * transaction is mined all the same).
 */
const { expect } = require('chai')
const { ethers } = require('hardhat')
const { loadFixture } = require('@nomicfoundation/hardhat-network-helpers')
const { PANIC_CODES } = require('@nomicfoundation/hardhat-chai-matchers/panic')
const { anyValue } = require('@nomicfoundation/hardhat-chai-matchers/withArgs')
const { deployBasics } = require('../fixtures')

const GAS = { gasLimit: 200_000 }

/** The failed transaction of the head block, which the send that threw must have mined. */
async function minedFailure(height) {
  expect(await ethers.provider.getBlockNumber()).to.equal(height + 1)
  const block = await ethers.provider.getBlock('latest')
  expect(block.transactions.length).to.equal(1)
  const receipt = await ethers.provider.getTransactionReceipt(block.transactions[0])
  expect(receipt.status).to.equal(0)
  return receipt
}

describe('reverts', function () {
  it('revertedWith on a send with its gas given: the send throws, the transaction is mined', async function () {
    const { reverter } = await loadFixture(deployBasics)
    const height = await ethers.provider.getBlockNumber()
    let error
    try {
      await reverter.failWithReason(GAS)
    } catch (e) {
      error = e
    }
    expect(error, 'the send must throw').to.be.an('error')
    const receipt = await minedFailure(height)
    // The error carries the transaction hash and the revert data (Error("nope")).
    const carried = JSON.stringify({ message: error.message, data: error.data, inner: error.error?.data })
    expect(carried).to.include(receipt.hash)
    expect(carried).to.include(reverter.interface.encodeErrorResult('Error', ['nope']).slice(2))
    expect(await reverter.count()).to.equal(0n)
  })

  it('revertedWith, revertedWithCustomError, revertedWithPanic, revertedWithoutReason, reverted: sends with their gas given', async function () {
    const { reverter, owner } = await loadFixture(deployBasics)
    await expect(reverter.failWithReason(GAS)).to.be.revertedWith('nope')
    await expect(reverter.failWithCustomError(7, GAS)).to.be.revertedWithCustomError(reverter, 'Unauthorized').withArgs(owner.address, 7n)
    await expect(reverter.failWithPanic(0, GAS)).to.be.revertedWithPanic(PANIC_CODES.DIVISION_BY_ZERO)
    await expect(reverter.failWithoutReason(GAS)).to.be.revertedWithoutReason()
    await expect(reverter.failWithoutReason(GAS)).to.be.reverted
    await expect(reverter.succeed(GAS)).not.to.be.reverted
    expect(await reverter.count()).to.equal(1n)
  })

  it('the same matchers on sends whose gas hardhat-ethers fills in', async function () {
    const { reverter, owner } = await loadFixture(deployBasics)
    await expect(reverter.failWithReason()).to.be.revertedWith('nope')
    await expect(reverter.failWithCustomError(3)).to.be.revertedWithCustomError(reverter, 'Unauthorized').withArgs(owner.address, anyValue)
    await expect(reverter.failWithPanic(0)).to.be.revertedWithPanic(PANIC_CODES.DIVISION_BY_ZERO)
    await expect(reverter.failWithoutReason()).to.be.reverted
  })

  it('Ownable: revertedWithCustomError with the caller', async function () {
    const { token, bob } = await loadFixture(deployBasics)
    await expect(token.connect(bob).mint(bob.address, 1n)).to.be.revertedWithCustomError(token, 'OwnableUnauthorizedAccount').withArgs(bob.address)
    await expect(token.connect(bob).mint(bob.address, 1n, GAS)).to.be.revertedWithCustomError(token, 'OwnableUnauthorizedAccount').withArgs(bob.address)
  })

  it('ERC20: revertedWithCustomError on an overdraft', async function () {
    const { token, alice, bob } = await loadFixture(deployBasics)
    const balance = await token.balanceOf(alice)
    await expect(token.connect(alice).transfer(bob, balance + 1n, GAS))
      .to.be.revertedWithCustomError(token, 'ERC20InsufficientBalance')
      .withArgs(alice.address, balance, balance + 1n)
  })

  it('calls: staticCall and view functions throw with the revert data (throwOnCallFailures)', async function () {
    const { reverter } = await loadFixture(deployBasics)
    await expect(reverter.failWithReason.staticCall()).to.be.revertedWith('nope')
    await expect(reverter.failWithPanic.staticCall(0)).to.be.revertedWithPanic(PANIC_CODES.DIVISION_BY_ZERO)
    expect(await reverter.failWithPanic.staticCall(4)).to.equal(25n)
  })

  it('emit and changeEtherBalance on a successful send', async function () {
    const { reverter, owner } = await loadFixture(deployBasics)
    await expect(reverter.pay({ value: 99n })).to.emit(reverter, 'Paid').withArgs(owner.address, 99n)
    await expect(reverter.pay({ value: 99n })).to.changeEtherBalances([owner, reverter], [-99n, 99n])
  })
})
