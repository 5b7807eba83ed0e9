/**
 * eth_call and eth_estimateGas: a transaction run on a throwaway overlay of a block's state,
 * with geth's rules: no nonce check, no fee unless a price is given (then BASEFEE reads 0),
 * the balance still has to cover value and fee.
 */
import { type Block, createBlock } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { createTx, TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import { Address } from '@ethereumjs/util'
import { type VM, createVM, runTx, type RunTxResult } from '@ethereumjs/vm'
import type { Chain } from '../chain/chain.js'
import { ServerError } from '../errors.js'
import { keyOf } from '../hex.js'
import type { Limits } from '../limits.js'
import type { CallRequest } from '../rpc/objects.js'
import { JournaledState } from '../state/journaled-state.js'
import { chainBlockhashes } from './blockhashes.js'
import { revertError } from './revert.js'

const ZERO_ADDRESS = new Uint8Array(20)

/** Geth's wording for refusals that ethereumjs words its own way. */
function gethMessage(error: unknown, from: Uint8Array): ServerError {
  const message = error instanceof Error ? error.message : String(error)
  const funds = /upfront cost is: (\d+) and the sender's balance is: (\d+)/.exec(message)
  if (funds !== null) {
    return new ServerError(`insufficient funds for gas * price + value: address 0x${keyOf(from)} have ${funds[2]} want ${funds[1]}`)
  }
  const intrinsic = /gas limit is too low\. The gasLimit is: (\d+) but the (?:minimum|required) .*?is: (\d+)|base fee exceeds gas limit/.exec(message)
  if (intrinsic !== null) return new ServerError(`intrinsic gas too low: ${message.split(' (')[0]}`)
  return new ServerError(message.split(' (')[0] ?? message)
}

export class CallExecutor {
  private readonly idle: VM[] = []

  constructor(
    private readonly chain: Chain,
    private readonly common: Common,
    private readonly limits: Readonly<Limits>,
  ) {}

  private gasCap(requested: bigint | undefined, block: Block): bigint {
    let gas = requested ?? block.header.gasLimit
    const cap = this.limits.rpcGasCap
    if (cap > 0n && gas > cap) gas = cap
    return gas
  }

  /** Runs the request once with `gas`; never changes the chain. */
  async run(req: CallRequest, block: Block, gas: bigint): Promise<RunTxResult> {
    const state = this.chain.stateAt(block)
    const overlay = new JournaledState(state)
    const vm = this.idle.pop() ?? (await createVM({ common: this.common, stateManager: overlay, blockchain: chainBlockhashes(this.chain) }))
    ;(vm as unknown as { stateManager: JournaledState }).stateManager = overlay
    vm.evm.stateManager = overlay
    ;(vm.evm.journal as unknown as { stateManager: JournaledState }).stateManager = overlay
    const from = req.from ?? ZERO_ADDRESS
    try {
      const nonce = (await overlay.getAccount(new Address(from)))?.nonce ?? 0n
      const priced = req.gasPrice !== undefined || req.maxFeePerGas !== undefined || req.maxPriorityFeePerGas !== undefined
      const tx = this.transaction(req, nonce, gas, block)
      const context = priced ? block : this.withoutBaseFee(block)
      return await runTx(vm, {
        tx,
        block: context,
        skipNonce: true,
        skipBlockGasLimitValidation: true,
        skipHardForkValidation: true,
      })
    } catch (error) {
      throw gethMessage(error, from)
    } finally {
      state.close()
      this.idle.push(vm)
    }
  }

  /** eth_call: the return data, or the revert as code 3. */
  async call(req: CallRequest, block: Block): Promise<Uint8Array> {
    const result = await this.run(req, block, this.gasCap(req.gas, block))
    const exec = result.execResult
    if (exec.exceptionError !== undefined) {
      if (exec.exceptionError.error === 'revert') throw revertError(exec.returnValue)
      throw new ServerError(exec.exceptionError.error)
    }
    return exec.returnValue
  }

  /** eth_estimateGas: the least gas limit with which the transaction succeeds. */
  async estimate(req: CallRequest, block: Block): Promise<bigint> {
    let hi = this.gasCap(req.gas, block)
    const price = req.gasPrice ?? req.maxFeePerGas
    if (price !== undefined && price > 0n) {
      const balance = (await this.chain.stateAt(block).getAccount(keyOf(req.from ?? ZERO_ADDRESS)))?.balance ?? 0n
      const available = balance - (req.value ?? 0n)
      if (available < 0n) throw new ServerError('insufficient funds for transfer')
      const allowance = available / price
      if (allowance < hi) hi = allowance
    }
    const first = await this.run(req, block, hi)
    const failure = first.execResult.exceptionError
    if (failure !== undefined) {
      if (failure.error === 'revert') throw revertError(first.execResult.returnValue)
      throw new ServerError(`gas required exceeds allowance (${hi})`)
    }
    let lo = first.totalGasSpent - 1n
    const optimistic = ((first.totalGasSpent + first.gasRefund + 2300n) * 64n) / 63n
    if (optimistic < hi) {
      if (await this.succeeds(req, block, optimistic)) hi = optimistic
      else lo = optimistic
    }
    while (lo + 1n < hi) {
      const mid = (lo + hi) / 2n
      if (await this.succeeds(req, block, mid)) hi = mid
      else lo = mid
    }
    return hi
  }

  private async succeeds(req: CallRequest, block: Block, gas: bigint): Promise<boolean> {
    try {
      return (await this.run(req, block, gas)).execResult.exceptionError === undefined
    } catch {
      return false
    }
  }

  private transaction(req: CallRequest, nonce: bigint, gasLimit: bigint, block: Block): TypedTransaction {
    const base = {
      nonce,
      gasLimit,
      to: req.to,
      value: req.value ?? 0n,
      data: req.data ?? new Uint8Array(),
      accessList: req.accessList?.map((e) => [e.address, e.storageKeys]) as never,
    }
    const dynamic = req.maxFeePerGas !== undefined || req.maxPriorityFeePerGas !== undefined
    const tx = dynamic
      ? createTx(
          {
            ...base,
            type: TransactionType.FeeMarketEIP1559,
            maxFeePerGas: req.maxFeePerGas ?? (block.header.baseFeePerGas ?? 0n) * 2n + (req.maxPriorityFeePerGas ?? 0n),
            maxPriorityFeePerGas: req.maxPriorityFeePerGas ?? 0n,
          },
          { common: this.common, freeze: false },
        )
      : createTx(
          { ...base, type: req.accessList !== undefined ? TransactionType.AccessListEIP2930 : TransactionType.Legacy, gasPrice: req.gasPrice ?? 0n },
          { common: this.common, freeze: false },
        )
    const sender = new Address(req.from ?? ZERO_ADDRESS)
    ;(tx as unknown as { getSenderAddress: () => Address }).getSenderAddress = () => sender
    return tx
  }

  private withoutBaseFee(block: Block): Block {
    if (block.header.baseFeePerGas === undefined) return block
    return createBlock(
      { header: { ...block.header.toJSON(), baseFeePerGas: 0n } },
      { common: this.common, setHardfork: false, skipConsensusFormatValidation: true },
    )
  }
}
