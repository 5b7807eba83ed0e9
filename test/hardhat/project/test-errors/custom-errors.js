/**
 * Run alone by test/metadata/hardhat2-plugin.test.ts (not part of the project's suite): with the
 * plugin, the build-info Hardhat compiled reaches the node, so a failed call names its custom
 * error and its error's stack carries the Solidity frame, as on Hardhat's own network.
 */
const { expect } = require('chai')
const { ethers } = require('hardhat')

describe('custom errors by name', function () {
  it('a reverted call names Unauthorized(caller, code) and its Solidity frame', async function () {
    const reverter = await ethers.deployContract('Reverter')
    const [signer] = await ethers.getSigners()
    let error
    try {
      await ethers.provider.send('eth_call', [{ from: signer.address, to: await reverter.getAddress(), data: reverter.interface.encodeFunctionData('failWithCustomError', [7]) }])
    } catch (e) {
      error = e
    }
    expect(error, 'the call must throw').to.be.an('error')
    expect(error.message).to.include(`reverted with custom error 'Unauthorized("${signer.address}", 7)'`)
    expect(error.stack).to.match(/at Reverter\.failWithCustomError \(contracts\/Reverter\.sol:\d+\)/)
  })
})
