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
  // @ts-expect-error: wrong params of a served method do not compile (an address is hex).
  await node.request({ method: 'eth_getBalance', params: [123] })
  // @ts-expect-error: nor through the provider (eth_call needs its transaction object).
  await node.provider.request({ method: 'eth_call', params: ['latest'] })
  // A method the node does not serve, or a plain string name, takes any params.
  const other: unknown = await node.request({ method: 'eth_methodOfANewerRelease', params: { any: 1 } })
  void other
  return { number: block!.number, validators }
}

// @ts-expect-error: an address is hex, not a number.
export const badParams: RpcRequest<'eth_getBalance'> = { method: 'eth_getBalance', params: [123] }
