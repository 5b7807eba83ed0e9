/**
 * ethers v6 against the node's EIP-1193 provider: network, signer transfers, contract deploy and
 * calls, revert decoding, a local Wallet's raw transactions, and block / transaction / receipt /
 * log reads.
 */
import {
  BrowserProvider,
  Contract,
  ContractFactory,
  Interface,
  Wallet,
  getAddress,
  id as eventTopic,
  isError,
  parseEther,
  zeroPadValue,
  type InterfaceAbi,
  type JsonRpcSigner,
} from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'
import { loadArtifacts, type Artifact } from '../helpers/compile.js'

const artifacts = loadArtifacts()

function artifact(name: string): Artifact {
  const a = artifacts[name]
  if (a === undefined) throw new Error(`missing fixture ${name}`)
  return a
}

function abiOf(name: string): InterfaceAbi {
  return artifact(name).abi as unknown as InterfaceAbi
}

let node: FinalityNode
let provider: BrowserProvider
let signer: JsonRpcSigner

beforeAll(async () => {
  node = await createNode()
  // cacheTimeout -1: ethers otherwise serves identical reads from a 250 ms cache, which hides
  // the state changes an automining node makes between two reads.
  provider = new BrowserProvider(node.provider, undefined, { cacheTimeout: -1 })
  signer = await provider.getSigner(0)
})

afterAll(async () => {
  provider?.destroy()
  await node?.close()
})

async function deploy(name: string, ...args: unknown[]): Promise<Contract> {
  const a = artifact(name)
  const factory = new ContractFactory(abiOf(name), a.bytecode, signer)
  const contract = await factory.deploy(...args)
  await contract.waitForDeployment()
  return contract as unknown as Contract
}

describe('ethers v6 BrowserProvider', () => {
  it('getNetwork reports chain id 31337', async () => {
    const network = await provider.getNetwork()
    expect(network.chainId).toBe(31337n)
  })

  it('getSigner(0) is the first prefunded account', async () => {
    const first = node.accounts[0]
    expect(first).toBeDefined()
    expect(await signer.getAddress()).toBe(getAddress(first!.address))
    expect(await provider.getBalance(first!.address)).toBeGreaterThan(parseEther('1000'))
  })

  it('a signer sends ETH and wait() returns a receipt with status 1', async () => {
    const to = node.accounts[1]!.address
    const before = await provider.getBalance(to)
    const tx = await signer.sendTransaction({ to, value: parseEther('1.5') })
    const receipt = await tx.wait()
    expect(receipt).not.toBeNull()
    expect(receipt!.status).toBe(1)
    expect(receipt!.hash).toBe(tx.hash)
    expect(receipt!.from).toBe(await signer.getAddress())
    expect(receipt!.to).toBe(getAddress(to))
    expect(receipt!.blockNumber).toBe(await provider.getBlockNumber())
    expect(await provider.getBalance(to)).toBe(before + parseEther('1.5'))
  })

  describe('Token contract', () => {
    let token: Contract
    const supply = parseEther('1000000')

    beforeAll(async () => {
      token = await deploy('Token', 'Finality Token', 'FIN', supply)
    })

    it('is deployed with code and the constructor arguments', async () => {
      const address = await token.getAddress()
      expect(await provider.getCode(address)).toBe(artifact('Token').deployedBytecode)
      expect(await token.getFunction('name')()).toBe('Finality Token')
      expect(await token.getFunction('symbol')()).toBe('FIN')
      expect(await token.getFunction('totalSupply')()).toBe(supply)
      expect(await token.getFunction('balanceOf')(await signer.getAddress())).toBe(supply)
    })

    it('transfer moves balances and queryFilter finds the Transfer events', async () => {
      const alice = await signer.getAddress()
      const bob = getAddress(node.accounts[3]!.address)
      const carol = getAddress(node.accounts[4]!.address)
      const tx1 = await token.getFunction('transfer')(bob, 1000n)
      const r1 = await tx1.wait()
      expect(r1.status).toBe(1)
      const tx2 = await token.getFunction('transfer')(carol, 250n)
      const r2 = await tx2.wait()
      expect(r2.status).toBe(1)
      expect(r2.blockNumber).toBeGreaterThan(r1.blockNumber)

      expect(await token.getFunction('balanceOf')(bob)).toBe(1000n)
      expect(await token.getFunction('balanceOf')(carol)).toBe(250n)
      expect(await token.getFunction('balanceOf')(alice)).toBe(supply - 1250n)

      // Every Transfer: the mint (from zero) plus the two transfers, in order.
      const all = await token.queryFilter(token.filters.Transfer!(), 0, 'latest')
      expect(all).toHaveLength(3)
      const decoded = all.map((e) => {
        if (!('args' in e)) throw new Error('event not decoded')
        return [e.args[0], e.args[1], e.args[2]]
      })
      expect(decoded).toEqual([
        ['0x0000000000000000000000000000000000000000', alice, supply],
        [alice, bob, 1000n],
        [alice, carol, 250n],
      ])
      expect(all[1]!.transactionHash).toBe(tx1.hash)
      expect(all[1]!.blockNumber).toBe(r1.blockNumber)
      expect(all[2]!.transactionHash).toBe(tx2.hash)

      // Filtered on the indexed `to`.
      const toBob = await token.queryFilter(token.filters.Transfer!(null, bob), 0, 'latest')
      expect(toBob).toHaveLength(1)
      expect(toBob[0]!.transactionHash).toBe(tx1.hash)
    })

    it('provider.getLogs filters by address and topics', async () => {
      const address = await token.getAddress()
      const transferTopic = eventTopic('Transfer(address,address,uint256)')
      const carol = node.accounts[4]!.address
      const logs = await provider.getLogs({
        address,
        fromBlock: 0,
        toBlock: 'latest',
        topics: [transferTopic, null, zeroPadValue(carol, 32)],
      })
      expect(logs).toHaveLength(1)
      const log = logs[0]!
      expect(log.address).toBe(address)
      expect(log.topics[0]).toBe(transferTopic)
      expect(log.topics[2]).toBe(zeroPadValue(carol.toLowerCase(), 32))
      expect(BigInt(log.data)).toBe(250n)

      // Alternatives at position 2: bob or carol.
      const bob = node.accounts[3]!.address
      const either = await provider.getLogs({
        address,
        fromBlock: 0,
        toBlock: 'latest',
        topics: [transferTopic, null, [zeroPadValue(bob, 32), zeroPadValue(carol, 32)]],
      })
      expect(either).toHaveLength(2)

      // A topic no log carries.
      const none = await provider.getLogs({ address, fromBlock: 0, toBlock: 'latest', topics: [eventTopic('Nope()')] })
      expect(none).toEqual([])
    })
  })

  describe('Reverter contract', () => {
    let reverter: Contract

    beforeAll(async () => {
      reverter = await deploy('Reverter')
    })

    it('a non-reverting call returns its value', async () => {
      expect(await reverter.getFunction('ok')()).toBe(42n)
    })

    it('revert("nope") rejects with CALL_EXCEPTION and reason "nope"', async () => {
      let caught: unknown
      try {
        await reverter.getFunction('revertWithReason')()
      } catch (e) {
        caught = e
      }
      expect(isError(caught, 'CALL_EXCEPTION')).toBe(true)
      if (!isError(caught, 'CALL_EXCEPTION')) return
      expect(caught.reason).toBe('nope')
      expect(caught.revert?.name).toBe('Error')
      expect(caught.revert?.args[0]).toBe('nope')
    })

    it('require(false, "nope") rejects with CALL_EXCEPTION and reason "nope"', async () => {
      await expect(reverter.getFunction('requireWithReason')(false)).rejects.toMatchObject({
        code: 'CALL_EXCEPTION',
        reason: 'nope',
      })
      expect(await reverter.getFunction('requireWithReason')(true)).toBe(true)
    })

    it('a custom error is decoded with interface.parseError(e.data)', async () => {
      const me = await signer.getAddress()
      let caught: unknown
      try {
        await reverter.getFunction('revertWithCustomError').staticCall(7n, { from: me })
      } catch (e) {
        caught = e
      }
      expect(isError(caught, 'CALL_EXCEPTION')).toBe(true)
      if (!isError(caught, 'CALL_EXCEPTION')) return
      expect(caught.data).toMatch(/^0x[0-9a-f]+$/)
      const parsed = reverter.interface.parseError(caught.data!)
      expect(parsed).not.toBeNull()
      expect(parsed!.name).toBe('Unauthorized')
      expect(parsed!.args[0]).toBe(me)
      expect(parsed!.args[1]).toBe(7n)
      // The revert data is exactly the ABI encoding of the error.
      const iface = new Interface(abiOf('Reverter'))
      expect(caught.data).toBe(iface.encodeErrorResult('Unauthorized', [me, 7n]))
    })

    it('a state-changing call that reverts is refused at estimation with its reason, and changes nothing', async () => {
      const blockBefore = await provider.getBlockNumber()
      await expect(reverter.getFunction('setAndRevert')(5n)).rejects.toMatchObject({
        code: 'CALL_EXCEPTION',
        reason: 'set then reverted',
      })
      expect(await reverter.getFunction('value')()).toBe(42n)
      expect(await provider.getBlockNumber()).toBe(blockBefore)
    })
  })

  describe('a Wallet signing locally', () => {
    it('signs and sends a raw transaction through the provider', async () => {
      const key = node.accounts[2]!.privateKey
      const wallet = new Wallet(key, provider)
      expect(wallet.address).toBe(getAddress(node.accounts[2]!.address))
      const to = Wallet.createRandom().address
      const nonceBefore = await provider.getTransactionCount(wallet.address)
      const tx = await wallet.sendTransaction({ to, value: 12345n })
      expect(tx.nonce).toBe(nonceBefore)
      const receipt = await tx.wait()
      expect(receipt!.status).toBe(1)
      expect(receipt!.from).toBe(wallet.address)
      expect(await provider.getBalance(to)).toBe(12345n)
      expect(await provider.getTransactionCount(wallet.address)).toBe(nonceBefore + 1)

      // The node saw a signed raw transaction: it recovers the same sender and the same hash.
      const fetched = await provider.getTransaction(tx.hash)
      expect(fetched).not.toBeNull()
      expect(fetched!.from).toBe(wallet.address)
      expect(fetched!.hash).toBe(tx.hash)
      expect(fetched!.type).toBe(2)
    })

    it('a legacy (EIP-155) transaction from a Wallet is mined too', async () => {
      const wallet = new Wallet(node.accounts[2]!.privateKey, provider)
      const to = Wallet.createRandom().address
      const feeData = await provider.getFeeData()
      expect(feeData.gasPrice).not.toBeNull()
      const tx = await wallet.sendTransaction({ to, value: 1n, type: 0, gasPrice: feeData.gasPrice! })
      const receipt = await tx.wait()
      expect(receipt!.status).toBe(1)
      const fetched = await provider.getTransaction(tx.hash)
      expect(fetched!.type).toBe(0)
      expect(fetched!.chainId).toBe(31337n)
    })
  })

  describe('block, transaction and receipt reads', () => {
    it('getBlock, getTransaction and getTransactionReceipt agree', async () => {
      const to = node.accounts[5]!.address
      const sent = await signer.sendTransaction({ to, value: 777n })
      const receipt = await sent.wait()
      expect(receipt).not.toBeNull()

      const block = await provider.getBlock(receipt!.blockNumber)
      expect(block).not.toBeNull()
      expect(block!.number).toBe(receipt!.blockNumber)
      expect(block!.hash).toBe(receipt!.blockHash)
      expect(block!.transactions).toContain(sent.hash)
      expect(block!.baseFeePerGas).not.toBeNull()
      expect(block!.gasUsed).toBe(receipt!.gasUsed)
      const parent = await provider.getBlock(receipt!.blockNumber - 1)
      expect(block!.parentHash).toBe(parent!.hash)
      expect(block!.timestamp).toBeGreaterThan(parent!.timestamp)
      expect(await provider.getBlock('latest')).toMatchObject({ hash: block!.hash })

      const tx = await provider.getTransaction(sent.hash)
      expect(tx).not.toBeNull()
      expect(tx!.hash).toBe(sent.hash)
      expect(tx!.blockHash).toBe(block!.hash)
      expect(tx!.blockNumber).toBe(block!.number)
      expect(tx!.index).toBe(0)
      expect(tx!.from).toBe(await signer.getAddress())
      expect(tx!.to).toBe(getAddress(to))
      expect(tx!.value).toBe(777n)
      expect(tx!.chainId).toBe(31337n)

      const r = await provider.getTransactionReceipt(sent.hash)
      expect(r).not.toBeNull()
      expect(r!.status).toBe(1)
      expect(r!.hash).toBe(sent.hash)
      expect(r!.blockHash).toBe(block!.hash)
      expect(r!.index).toBe(0)
      expect(r!.gasUsed).toBe(21000n)
      expect(r!.cumulativeGasUsed).toBe(21000n)
      expect(r!.logs).toEqual([])
      expect(r!.contractAddress).toBeNull()
      expect(r!.gasPrice).toBeGreaterThan(0n)
    })

    it('a deployment receipt carries the contract address', async () => {
      const factory = new ContractFactory(abiOf('Counter'), artifact('Counter').bytecode, signer)
      const contract = await factory.deploy()
      const deployTx = contract.deploymentTransaction()
      expect(deployTx).not.toBeNull()
      const receipt = await deployTx!.wait()
      expect(receipt!.contractAddress).toBe(await contract.getAddress())
      expect(await provider.getCode(receipt!.contractAddress!)).toBe(artifact('Counter').deployedBytecode)
    })

    it('unknown transactions and blocks read as null', async () => {
      const missing = `0x${'ab'.repeat(32)}`
      expect(await provider.getTransaction(missing)).toBeNull()
      expect(await provider.getTransactionReceipt(missing)).toBeNull()
      const head = await provider.getBlockNumber()
      expect(await provider.getBlock(head + 100)).toBeNull()
    })
  })
})
