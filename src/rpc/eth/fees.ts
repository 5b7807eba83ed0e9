/** Fee suggestions and history (EIP-1559). */
import type { Block } from '@ethereumjs/block'
import type { StoredReceipt } from '../../chain/receipts.js'
import { InvalidParamsError } from '../../errors.js'
import { quantity } from '../../hex.js'
import { suggestedTip } from '../../execution/transactions.js'
import { effectiveGasPrice } from '../format.js'
import { heightOf } from '../blocks.js'
import { blockTag, CodecError, optionalArray, parseQuantity, type Codec } from '../codecs.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'


import type { HistoryPorts } from '../../services.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'chain' | 'common' | 'history' | 'pool'> & HistoryPorts
const method = methodsOf<keyof Here>()

/** Reward percentiles: numbers from 0 to 100, ascending. */
const percentiles: Codec<number[] | undefined> = {
  name: 'percentiles',
  optional: true,
  decode(v) {
    let last = -1
    return optionalArray(v, '[]float64')?.map((p, i) => {
      if (typeof p !== 'number' || !Number.isFinite(p)) throw new CodecError('json: cannot unmarshal non-number into Go value of type float64')
      if (p < 0 || p > 100) throw new CodecError(`invalid reward percentile: ${p}`)
      if (p < last) throw new CodecError(`invalid reward percentile: #${i - 1}:${last} > #${i}:${p}`)
      last = p
      return p
    })
  },
}

/** A block count: a QTY or a plain number, as geth's `math.HexOrDecimal64`. */
const blockCount: Codec<bigint> = {
  name: 'blockCount',
  optional: false,
  decode(v) {
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return BigInt(v)
    if (typeof v === 'string' && /^[0-9]+$/.test(v) && v.length < 20) return BigInt(v)
    return parseQuantity(v, 64)
  },
}

export const fees: MethodTable = {
  eth_gasPrice: method({
    params: [],
    run: ({ chain, pool }) => quantity(chain.head.header.calcNextBaseFee() + suggestedTip(pool)),
  }),
  eth_maxPriorityFeePerGas: method({ params: [], run: ({ pool }) => quantity(suggestedTip(pool)) }),
  eth_feeHistory: method({
    params: [blockCount, blockTag, percentiles],
    run: async (s, [count, newest, rewardPercentiles]) => {
      const { chain, limits } = s
      if (count === 0n) return { oldestBlock: '0x0', baseFeePerGas: [], gasUsedRatio: [], ...(rewardPercentiles ? { reward: [] } : {}) }
      const last = heightOf(s, newest)
      if (last > chain.height) throw new InvalidParamsError(`request beyond head block: requested ${last}, head ${chain.height}`)
      const n = count > BigInt(limits.feeHistoryBlocks) ? BigInt(limits.feeHistoryBlocks) : count
      const first = last - n + 1n < 0n ? 0n : last - n + 1n
      const baseFees: string[] = []
      const ratios: number[] = []
      const blobFees: string[] = []
      const blobRatios: number[] = []
      const rewards: string[][] = []
      let lastBlock
      // A fork's blocks at or below the fork block are the remote's: their rewards are its answer.
      const rewardsOfBlock = rewardPercentiles === undefined ? undefined : s.history.feeRewards(s, first, last, rewardPercentiles)
      for (let h = first; h <= last; h++) {
        const block = await chain.blockByNumber(h)
        if (block === undefined) break
        lastBlock = block
        const header = block.header
        baseFees.push(quantity(header.baseFeePerGas ?? 0n))
        ratios.push(Number(header.gasUsed) / Number(header.gasLimit))
        if (header.excessBlobGas !== undefined) {
          blobFees.push(quantity(header.getBlobGasPrice()))
          const max = s.common.param('maxBlobGasPerBlock')
          blobRatios.push(max > 0n ? Number(header.blobGasUsed ?? 0n) / Number(max) : 0)
        }
        if (rewardsOfBlock !== undefined) rewards.push(await rewardsOfBlock(block))
      }
      if (lastBlock !== undefined) {
        baseFees.push(quantity(lastBlock.header.calcNextBaseFee()))
        if (lastBlock.header.excessBlobGas !== undefined) {
          blobFees.push(quantity(lastBlock.header.calcNextBlobGasPrice(s.common)))
        }
      }
      const out: Record<string, unknown> = { oldestBlock: quantity(first), baseFeePerGas: baseFees, gasUsedRatio: ratios }
      if (blobFees.length > 0) {
        out.baseFeePerBlobGas = blobFees
        out.blobGasUsedRatio = blobRatios
      }
      if (rewardPercentiles !== undefined) out.reward = rewards
      return out
    },
  }),
}

/** The tips paid at each percentile of a block's gas (geth's), from its transactions and receipts. */
export function rewardsOf(block: Block, receipts: StoredReceipt[], percentiles: number[]): string[] {
  const header = block.header
  const base = header.baseFeePerGas ?? 0n
  const tips = block.transactions
    .map((tx, i) => ({ tip: effectiveGasPrice(tx, base) - base, gas: receipts[i]?.gasUsed ?? 0n }))
    .sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0))
  return percentiles.map((p) => {
    if (tips.length === 0) return '0x0'
    const threshold = (Number(header.gasUsed) * p) / 100
    let sum = 0
    for (const t of tips) {
      sum += Number(t.gas)
      if (sum >= threshold) return quantity(t.tip)
    }
    return quantity(tips[tips.length - 1]!.tip)
  })
}
