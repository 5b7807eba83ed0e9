/** A block named by a tag or a number, as requests name them (`eth_getBlockByNumber` style). */
export type BlockTag = { kind: 'tag'; tag: 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized' } | { kind: 'number'; number: bigint }
