/**
 * ethers v6 over the in-process provider: deploy with a JSON-RPC signer (the node holds the keys),
 * listen to an event, sign a message, and read a block's commit certificate.
 * Run with `npx tsx examples/ethers.ts`.
 */
import { BrowserProvider, ContractFactory, verifyMessage, type Contract } from 'ethers'
import { createNode } from '../src/index.js'
import { compileCounter } from './counter.js'

const { abi, bytecode } = compileCounter()
const node = await createNode()
const provider = new BrowserProvider(node.provider)
provider.pollingInterval = 50
const signer = await provider.getSigner(0)

const counter = (await new ContractFactory(abi as never, bytecode, signer).deploy()) as Contract
await counter.waitForDeployment()
console.log('deployed ', await counter.getAddress())

const seen = new Promise<bigint>((resolve) => void counter.once('Incremented', (n: bigint) => resolve(n)))
const tx = await counter.getFunction('increment')()
const receipt = await tx.wait()
console.log('event    ', 'Incremented', await seen, 'in block', receipt?.blockNumber)

const signature = await signer.signMessage('hello from finality')
console.log('signed by', verifyMessage('hello from finality', signature) === signer.address ? 'the node account' : 'someone else')

const certificate = await node.commitCertificate(BigInt(receipt?.blockNumber ?? 0))
console.log('finality ', `block ${receipt?.blockNumber} committed with ${certificate?.precommits.length} precommit(s), valid: ${certificate?.valid}`)

provider.destroy()
await node.close()
