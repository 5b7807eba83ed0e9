/** What a call or a transaction to send asks for, decoded: the request executions and sends take. */

/** An access-list entry. */
export type AccessListEntry = { address: Uint8Array; storageKeys: Uint8Array[] }

/** A decoded call / transaction request (eth_call, eth_estimateGas, eth_sendTransaction). */
export interface CallRequest {
  from?: Uint8Array
  to?: Uint8Array
  gas?: bigint
  gasPrice?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  value?: bigint
  data?: Uint8Array
  nonce?: bigint
  accessList?: AccessListEntry[]
  type?: bigint
  chainId?: bigint
  /** EIP-7702 authorizations, as signed by their authorities. */
  authorizationList?: Authorization[]
  /** EIP-4844 blob hashes (eth_simulateV1 makes a blob transaction of a call that has them). */
  blobVersionedHashes?: Uint8Array[]
  maxFeePerBlobGas?: bigint
}

/** One EIP-7702 authorization tuple. */
export interface Authorization {
  chainId: bigint
  address: Uint8Array
  nonce: bigint
  yParity: bigint
  r: bigint
  s: bigint
}
