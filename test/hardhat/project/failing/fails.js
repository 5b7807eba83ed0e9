/**
 * A test that fails on purpose, outside test/ so the project's own run skips it: the repository's
 * test runs it alone (`hardhat test failing/fails.js`) to see that a failing test makes
 * `hardhat test` fail on the finality network.
 */
const { expect } = require('chai')
const { ethers } = require('hardhat')

describe('a failing test', function () {
  it('expects a block the chain does not have', async function () {
    expect(await ethers.provider.getBlockNumber()).to.equal(1_000_000)
  })
})
