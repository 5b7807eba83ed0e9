/** Fixtures the suite loads with `loadFixture` (outside test/, so mocha does not load it as a test file). */
const { ethers } = require('hardhat')

/** One hour: the timelock's minimum delay. */
const MIN_DELAY = 3600

/** A Reverter and a votes token, with the first three signers named. */
async function deployBasics() {
  const [owner, alice, bob] = await ethers.getSigners()
  const reverter = await ethers.deployContract('Reverter')
  const token = await ethers.deployContract('Token', [owner.address])
  await token.mint(alice.address, ethers.parseEther('1000'))
  return { owner, alice, bob, reverter, token }
}

/**
 * OpenZeppelin's governance as its docs set it up: the token, a TimelockController that anyone
 * may execute on and whose proposer and canceller is the Governor, and a Box the timelock owns;
 * the voter holds every token and delegated to itself.
 */
async function deployGovernance() {
  const [owner, voter] = await ethers.getSigners()
  const token = await ethers.deployContract('Token', [owner.address])
  const timelock = await ethers.deployContract('Timelock', [MIN_DELAY, [], [ethers.ZeroAddress], owner.address])
  const governor = await ethers.deployContract('FinalityGovernor', [token, timelock])
  await timelock.grantRole(await timelock.PROPOSER_ROLE(), governor)
  await timelock.grantRole(await timelock.CANCELLER_ROLE(), governor)
  const box = await ethers.deployContract('Box', [timelock])
  await token.mint(voter.address, ethers.parseEther('1000'))
  await token.connect(voter).delegate(voter.address)
  return { owner, voter, token, timelock, governor, box }
}

module.exports = { MIN_DELAY, deployBasics, deployGovernance }
