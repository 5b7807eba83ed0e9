/**
 * What Hardhat's tooling asks of the node before anything else: its client version (the network
 * helpers refuse a node they do not know), hardhat_metadata (hardhat-ethers' gas choice by
 * network name), and a few answers Hardhat gives that suites rely on.
 */
const { createHash, generateKeyPairSync, sign } = require('node:crypto')
const { expect } = require('chai')
const { ethers, network } = require('hardhat')
const { loadFixture, time } = require('@nomicfoundation/hardhat-network-helpers')
const { deployBasics } = require('../fixtures')

/**
 * hardhat-ethers' fixed gas on `hardhat` (the network config's `gas`) and on `localhost` when
 * hardhat_metadata answers: min(2^24, Hardhat Network's 60M).
 */
const FIXED_GAS = 16_777_216n
/** The networks on which hardhat-ethers sends with that gas instead of estimating. */
const FIXED = network.name === 'localhost' || network.name === 'hardhat'

describe('network', function () {
  it('web3_clientVersion starts with HardhatNetwork and names finality', async function () {
    const version = await network.provider.send('web3_clientVersion')
    expect(version).to.match(/^HardhatNetwork\/finality\/v\d+\.\d+\.\d+\//)
    // The network helpers (Hardhat 2 and 3) and OpenZeppelin's upgrades-core take it for a development network.
    expect(version.toLowerCase().startsWith('hardhatnetwork')).to.equal(true)
    expect(version.split('/', 1)[0]).to.equal('HardhatNetwork')
  })

  it('hardhat_metadata: the same client version, the chain id, the head', async function () {
    const metadata = await network.provider.send('hardhat_metadata')
    expect(metadata.clientVersion).to.equal(await network.provider.send('web3_clientVersion'))
    expect(metadata.chainId).to.equal(31337)
    expect(metadata.instanceId).to.match(/^0x[0-9a-f]{64}$/)
    const head = await ethers.provider.getBlock('latest')
    expect(metadata.latestBlockNumber).to.equal(head.number)
    expect(metadata.latestBlockHash).to.equal(head.hash)
  })

  it(`a send on a network named ${network.name}: ${FIXED ? 'the fixed gas of Hardhat Network' : 'gas estimated first'}`, async function () {
    const { reverter } = await loadFixture(deployBasics)
    const estimate = await reverter.succeed.estimateGas()
    const tx = await reverter.succeed()
    // hardhat-ethers estimates first on any network but `hardhat` and `localhost` (a node
    // answering hardhat_metadata there), which get a fixed gas limit and no estimate.
    expect(tx.gasLimit).to.equal(FIXED ? FIXED_GAS : estimate)
    expect((await tx.wait()).status).to.equal(1)
    expect(await reverter.count()).to.equal(1n)
  })

  it('eth_getBlockByNumber takes a JSON number, as Hardhat does', async function () {
    await loadFixture(deployBasics)
    const block = await network.provider.send('eth_getBlockByNumber', [1, false])
    expect(block.number).to.equal('0x1')
    expect(block.hash).to.equal((await ethers.provider.getBlock(1)).hash)
  })

  it('evm_setNextBlockTimestamp answers the timestamp as a decimal string, as Hardhat does', async function () {
    const next = (await time.latest()) + 1000
    expect(await network.provider.send('evm_setNextBlockTimestamp', [next])).to.equal(String(next))
    await network.provider.send('evm_mine')
    expect(await time.latest()).to.equal(next)
  })

  it('osaka: the P-256 verifier at 0x100 (EIP-7951)', async function () {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    const message = Buffer.from('finality runs Hardhat suites')
    const signature = sign('sha256', message, { key: privateKey, dsaEncoding: 'ieee-p1363' })
    const { x, y } = publicKey.export({ format: 'jwk' })
    const input = ethers.concat([createHash('sha256').update(message).digest(), signature, Buffer.from(x, 'base64url'), Buffer.from(y, 'base64url')])
    const P256VERIFY = '0x0000000000000000000000000000000000000100'
    expect(await ethers.provider.call({ to: P256VERIFY, data: input })).to.equal(ethers.toBeHex(1, 32))
    const tampered = ethers.concat([ethers.dataSlice(input, 0, 32), ethers.toBeHex(1, 32), ethers.dataSlice(input, 64)])
    expect(await ethers.provider.call({ to: P256VERIFY, data: tampered })).to.equal('0x')
  })

  it('a call and an estimate that send value from an account without balance run, as on Hardhat', async function () {
    const { reverter } = await loadFixture(deployBasics)
    const poor = ethers.Wallet.createRandom().address
    expect(await ethers.provider.getBalance(poor)).to.equal(0n)
    const request = { from: poor, to: await reverter.getAddress(), value: ethers.parseEther('1'), data: reverter.interface.encodeFunctionData('pay') }
    expect(await ethers.provider.call(request)).to.equal('0x')
    expect(await ethers.provider.estimateGas(request)).to.be.greaterThan(21_000n)
  })
})
