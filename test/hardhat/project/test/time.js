/** loadFixture, time travel and mining through hardhat-network-helpers. */
const { expect } = require('chai')
const { ethers, network } = require('hardhat')
const { loadFixture, mine, time, takeSnapshot } = require('@nomicfoundation/hardhat-network-helpers')
const { deployBasics } = require('../fixtures')

describe('fixtures and time', function () {
  it('loadFixture deploys once and restores the same state for each test (a)', async function () {
    const { reverter, token, alice } = await loadFixture(deployBasics)
    expect(await reverter.count()).to.equal(0n)
    await reverter.succeed()
    expect(await reverter.count()).to.equal(1n)
    expect(await token.balanceOf(alice)).to.equal(ethers.parseEther('1000'))
  })

  it('loadFixture deploys once and restores the same state for each test (b)', async function () {
    const first = await loadFixture(deployBasics)
    expect(await first.reverter.count()).to.equal(0n)
    const again = await loadFixture(deployBasics)
    expect(await again.reverter.getAddress()).to.equal(await first.reverter.getAddress())
  })

  it('takeSnapshot and restore', async function () {
    const { reverter } = await loadFixture(deployBasics)
    const snapshot = await takeSnapshot()
    const height = await ethers.provider.getBlockNumber()
    await reverter.succeed()
    await mine(5)
    await snapshot.restore()
    expect(await ethers.provider.getBlockNumber()).to.equal(height)
    expect(await reverter.count()).to.equal(0n)
  })

  it('time.latest, time.increase, time.increaseTo', async function () {
    const start = await time.latest()
    expect(start).to.equal((await ethers.provider.getBlock('latest')).timestamp)
    expect(await time.increase(3600)).to.equal(start + 3600)
    expect(await time.latest()).to.equal(start + 3600)
    await time.increaseTo(start + 7200)
    expect(await time.latest()).to.equal(start + 7200)
  })

  it('time.setNextBlockTimestamp: the next block, and pending before it is mined', async function () {
    const latest = await ethers.provider.getBlock('latest')
    const next = latest.timestamp + 500
    await time.setNextBlockTimestamp(next)
    // Pending is the next block at the set timestamp, on the head; Hardhat gives it no number yet.
    const pending = await network.provider.send('eth_getBlockByNumber', ['pending', false])
    expect(pending.number).to.equal(null)
    expect(pending.parentHash).to.equal(latest.hash)
    expect(BigInt(pending.timestamp)).to.equal(BigInt(next))
    await mine()
    expect(await time.latest()).to.equal(next)
  })

  it('mine(n) with an interval', async function () {
    const start = await ethers.provider.getBlock('latest')
    await mine(3, { interval: 60 })
    const last = await ethers.provider.getBlock('latest')
    expect(last.number).to.equal(start.number + 3)
    expect(last.timestamp).to.equal((await ethers.provider.getBlock(start.number + 1)).timestamp + 120)
  })

  it('mine(8197): 8,197 blocks, chained by parent hash, times increasing', async function () {
    const start = await time.latestBlock()
    await mine(8197)
    expect(await time.latestBlock()).to.equal(start + 8197)
    const last = await ethers.provider.getBlock(start + 8197)
    const before = await ethers.provider.getBlock(start + 8196)
    expect(last.parentHash).to.equal(before.hash)
    expect(last.timestamp).to.be.greaterThan(before.timestamp)
  })
})
