/**
 * Typed requests through the packed package's declarations: tsc checks this file (the package
 * test runs `tsc --noEmit` here); it is not a test vitest runs.
 */
import type { FinalityNode, Hex, RpcBlock, RpcRequest, RpcValidator } from 'finality-evm'

export async function typedRequests(node: FinalityNode): Promise<{ number: Hex; validators: RpcValidator[] }> {
  const block: RpcBlock | null = await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })
  const validators: RpcValidator[] = await node.request({ method: 'finality_getValidators' })
  // @ts-expect-error: a block's number is hex, not a number.
  const wrong: number = block!.number
  void wrong
  return { number: block!.number, validators }
}

// @ts-expect-error: an address is hex, not a number.
export const badParams: RpcRequest<'eth_getBalance'> = { method: 'eth_getBalance', params: [123] }
