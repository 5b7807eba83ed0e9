/**
 * Code that depends on block.number and block.timestamp, estimated where Hardhat estimates: on
 * `pending`, the next block (number + 1, the next timestamp).
 */
const { expect } = require('chai')
const { ethers } = require('hardhat')
const { loadFixture, mine, time } = require('@nomicfoundation/hardhat-network-helpers')
const { MIN_DELAY, deployGovernance } = require('../fixtures')

const PENDING = 0n
const ACTIVE = 1n
const SUCCEEDED = 4n
const QUEUED = 5n
const EXECUTED = 7n

describe('governance and time locks', function () {
  it('a proposal through Governor and TimelockController: vote estimated on the block it lands in', async function () {
    const { voter, governor, timelock, box } = await loadFixture(deployGovernance)
    const targets = [await box.getAddress()]
    const calldatas = [box.interface.encodeFunctionData('store', [42])]
    const description = 'Store 42 in the box'
    const descriptionHash = ethers.id(description)
    await expect(governor.connect(voter).propose(targets, [0], calldatas, description)).to.emit(governor, 'ProposalCreated')
    const id = await governor.hashProposal(targets, [0], calldatas, descriptionHash)
    await mine(await governor.votingDelay())
    // The head is the snapshot block: at `latest` the proposal is still Pending; the vote lands
    // in the next block, where it is Active, and that is where Hardhat estimates it.
    expect(await governor.state(id)).to.equal(PENDING)
    expect(await governor.state(id, { blockTag: 'pending' })).to.equal(ACTIVE)
    expect(await governor.connect(voter).castVote.estimateGas(id, 1)).to.be.greaterThan(21_000n)
    await expect(governor.connect(voter).castVote(id, 1)).to.emit(governor, 'VoteCast')
    await mine(await governor.votingPeriod())
    expect(await governor.state(id)).to.equal(SUCCEEDED)
    await governor.queue(targets, [0], calldatas, descriptionHash)
    expect(await governor.state(id)).to.equal(QUEUED)
    await expect(governor.execute(targets, [0], calldatas, descriptionHash)).to.be.revertedWithCustomError(timelock, 'TimelockUnexpectedOperationState')
    await time.increase(MIN_DELAY)
    await expect(governor.execute(targets, [0], calldatas, descriptionHash)).to.emit(box, 'ValueChanged').withArgs(42n)
    expect(await governor.state(id)).to.equal(EXECUTED)
    expect(await box.retrieve()).to.equal(42n)
  })

  it('Lock: withdraw estimated at the timestamp set for the next block', async function () {
    const [owner] = await ethers.getSigners()
    const unlockTime = (await time.latest()) + 3600
    const lock = await ethers.deployContract('Lock', [unlockTime], { value: 1000n })
    await expect(lock.withdraw()).to.be.revertedWith("You can't withdraw yet")
    await time.setNextBlockTimestamp(unlockTime)
    expect(await lock.withdraw.estimateGas()).to.be.greaterThan(21_000n)
    await expect(lock.withdraw()).to.changeEtherBalances([owner, lock], [1000n, -1000n])
    const block = await ethers.provider.getBlock('latest')
    expect(block.timestamp).to.equal(unlockTime)
  })

  it('Lock: emits Withdrawal with the block time after time.increaseTo', async function () {
    const unlockTime = (await time.latest()) + 600
    const lock = await ethers.deployContract('Lock', [unlockTime], { value: 1n })
    await time.increaseTo(unlockTime)
    await expect(lock.withdraw()).to.emit(lock, 'Withdrawal').withArgs(1n, unlockTime + 1)
  })
})
