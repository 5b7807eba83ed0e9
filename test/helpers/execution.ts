/** Shared helpers of the execution tests: deploying fixtures and calling through node.request. */
import { encodeDeployData, encodeFunctionData, type Abi, type Hex } from 'viem'
import { createNode, type FinalityNode, type NodeOptions } from '../../src/index.js'
import { loadArtifacts, type Artifact } from './compile.js'

const artifacts = loadArtifacts()

/** A compiled fixture by contract name. */
export function artifact(name: string): Artifact {
  const a = artifacts[name]
  if (a === undefined) throw new Error(`fixture ${name} missing`)
  return a
}

/** The first prefunded account's address. */
export function sender(node: FinalityNode, i = 0): Hex {
  const a = node.accounts[i]
  if (a === undefined) throw new Error(`no account ${i}`)
  return a.address
}

/** Deploys a fixture from account 0 (automine) and returns its address. */
export async function deploy(node: FinalityNode, name: string, args: unknown[] = [], value?: bigint): Promise<Hex> {
  const a = artifact(name)
  const input = args.length === 0 ? a.bytecode : encodeDeployData({ abi: a.abi, bytecode: a.bytecode, args })
  const tx: Record<string, unknown> = { from: sender(node), data: input }
  if (value !== undefined) tx.value = `0x${value.toString(16)}`
  const hash = (await node.request({ method: 'eth_sendTransaction', params: [tx] })) as Hex
  const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Hex; status: Hex }
  if (receipt.status !== '0x1') throw new Error(`deploying ${name} failed`)
  return receipt.contractAddress
}

/** Calldata of a fixture function. */
export function calldata(name: string, fn: string, args: unknown[] = []): Hex {
  return encodeFunctionData({ abi: artifact(name).abi as Abi, functionName: fn, args })
}

/** A JSON-RPC call that is expected to fail: its code, message and data. */
export async function rpcError(node: FinalityNode, method: string, params: unknown[]): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await node.request({ method, params })
  } catch (error) {
    const e = error as { code: number; message: string; data?: unknown }
    return { code: e.code, message: e.message, data: e.data }
  }
  throw new Error(`${method} succeeded; expected an error`)
}

/** A 32-byte word of a number, as state overrides and storage reads spell it. */
export function word(n: bigint): Hex {
  return `0x${n.toString(16).padStart(64, '0')}`
}

/** A QTY. */
export function qty(n: bigint | number): Hex {
  return `0x${n.toString(16)}`
}

/** A node for the execution tests (the default hardfork, Prague, unless `options` says otherwise). */
export function testNode(options: NodeOptions = {}): Promise<FinalityNode> {
  return createNode(options)
}
