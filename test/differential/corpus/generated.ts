/**
 * The generated corpus: each method of the eth_, evm_, hardhat_ and debug_ namespaces Hardhat
 * serves, with valid parameters, missing ones, wrong types and every block tag; calls that revert
 * (reason, custom error, panic, invalid opcode, out of gas), estimates, sends with and without
 * gas and fee fields, impersonation, snapshots, mining, time travel, state writes, log filters
 * and traces. One run, in order: later steps build on earlier ones (the Probe contract deployed
 * first is at PROBE).
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { encodeDeployData, encodeFunctionData, type Abi } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { vaultBuildInfo, VAULT_SOURCE } from '../../metadata/vault-build.js'
import type { Step } from '../replay.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const probe = JSON.parse(readFileSync(path.join(here, 'probe.json'), 'utf8')) as { abi: Abi; bytecode: `0x${string}` }

const A0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const A1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const A2 = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'
/** The Probe contract: A0's first creation. */
export const PROBE = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
/** Hardhat's account 19: only the raw transactions below send from it. */
const KEY19 = '0xdf57089febbacf7ba0bc227dafbffa9fc08a93fdc68e1e42411a14efcf23656e'
const STRANGER = '0x1234567890123456789012345678901234567890'
const UNKNOWN_HASH = `0x${'ab'.repeat(32)}`

function call(name: string, args: unknown[] = []): `0x${string}` {
  return encodeFunctionData({ abi: probe.abi, functionName: name, args })
}

const s = (method: string, params: unknown[] = [], note?: string): Step => ({ method, params, ...(note === undefined ? {} : { note }) })
/** ecAdd's input with (1, 3), a point off the curve, as its first point. */
const BAD_EC_POINT = `0x${'0'.repeat(63)}1${'0'.repeat(63)}3${'0'.repeat(128)}`

/** The tags and EIP-1898 objects a state read is asked at. */
function blockArgs(): unknown[] {
  return ['latest', 'pending', 'earliest', 'safe', 'finalized', '0x0', '0x1', '0x999', { blockNumber: '0x1' }, { blockHash: '$block:1' }, { blockHash: '$block:1', requireCanonical: true }, { blockHash: UNKNOWN_HASH }, 'safest', 1, '0x01']
}

async function rawTransactions(): Promise<Step[]> {
  const account = privateKeyToAccount(KEY19)
  const base = { to: A2 as `0x${string}`, value: 1n, gas: 21_000n, maxFeePerGas: 100_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n, type: 'eip1559' as const }
  const ok = await account.signTransaction({ ...base, chainId: 31337, nonce: 0 })
  const wrongChain = await account.signTransaction({ ...base, chainId: 1, nonce: 1 })
  const gap = await account.signTransaction({ ...base, chainId: 31337, nonce: 5 })
  const lowFee = await account.signTransaction({ ...base, chainId: 31337, nonce: 1, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n })
  const lowGas = await account.signTransaction({ ...base, chainId: 31337, nonce: 1, gas: 20_000n })
  const unprotected = await account.signTransaction({ to: A2, value: 1n, gas: 21_000n, gasPrice: 100_000_000_000n, nonce: 1, type: 'legacy' })
  return [
    s('eth_sendRawTransaction', [ok], 'a signed EIP-1559 transfer'),
    s('eth_getTransactionByHash', ['$tx:-1']),
    s('eth_sendRawTransaction', [ok], 'the same again: nonce too low / known'),
    s('eth_sendRawTransaction', [wrongChain], 'signed for chain 1'),
    s('evm_snapshot'),
    s('eth_sendRawTransaction', [gap], 'a nonce gap under automine'),
    s('evm_revert', ['$snap:-1']),
    s('eth_sendRawTransaction', [lowFee], 'max fee below the base fee'),
    s('eth_sendRawTransaction', [lowGas], 'gas below the intrinsic gas'),
    s('evm_snapshot'),
    s('eth_sendRawTransaction', [unprotected], 'legacy without EIP-155 replay protection'),
    s('evm_revert', ['$snap:-1']),
    s('eth_sendRawTransaction', ['0x02c0'], 'not a transaction'),
    s('eth_sendRawTransaction', ['0x'], 'empty'),
    s('eth_sendRawTransaction', [], 'missing'),
  ]
}

/** The whole generated corpus, in order. */
export async function generatedSteps(): Promise<Step[]> {
  const reads: Step[] = [
    s('eth_chainId'),
    s('net_version'),
    s('net_listening'),
    s('net_peerCount'),
    s('eth_accounts'),
    s('eth_blockNumber'),
    s('eth_coinbase'),
    s('eth_mining'),
    s('eth_hashrate'),
    s('eth_syncing'),
    s('eth_protocolVersion'),
    s('eth_gasPrice'),
    s('eth_maxPriorityFeePerGas'),
    s('eth_blobBaseFee'),
    s('web3_sha3', ['0x68656c6c6f']),
    s('web3_sha3', ['hello']),
    s('eth_getBlockByNumber', ['0x0', false]),
    s('eth_getBlockByNumber', ['earliest', true]),
    s('eth_getBlockByNumber', ['0x0']),
    s('eth_getBlockByNumber', []),
    s('eth_getBlockByNumber', ['0x99', false]),
    s('eth_getBlockByHash', [UNKNOWN_HASH, false]),
    s('eth_getBlockByHash', ['0x12', false]),
    s('eth_nonexistent'),
    s('debug_nonexistent'),
  ]

  const deploy: Step[] = [
    s('eth_sendTransaction', [{ from: A0, data: probe.bytecode }], 'deploy Probe'),
    s('eth_getTransactionReceipt', ['$tx:-1']),
    s('eth_getTransactionByHash', ['$tx:-1']),
    s('eth_getBlockByNumber', ['latest', true]),
    s('eth_getBlockByHash', ['$block:1', true]),
    s('eth_getBlockTransactionCountByNumber', ['0x1']),
    s('eth_getBlockTransactionCountByHash', ['$block:1']),
    s('eth_getTransactionByBlockNumberAndIndex', ['0x1', '0x0']),
    s('eth_getTransactionByBlockHashAndIndex', ['$block:1', '0x0']),
    s('eth_getTransactionByBlockNumberAndIndex', ['0x1', '0x5']),
    s('eth_getUncleCountByBlockNumber', ['0x1']),
    s('eth_getUncleByBlockNumberAndIndex', ['0x1', '0x0']),
    s('eth_getCode', [PROBE, 'latest']),
  ]

  const state: Step[] = []
  for (const tag of blockArgs()) {
    state.push(s('eth_getBalance', [A0, tag]))
    state.push(s('eth_getTransactionCount', [A0, tag]))
  }
  state.push(s('eth_getBalance', [A0]), s('eth_getBalance', []), s('eth_getBalance', ['0x12', 'latest']), s('eth_getBalance', [A0, 'latest', 'extra']))
  state.push(s('eth_getCode', [PROBE, '0x0']), s('eth_getStorageAt', [PROBE, '0x0', 'latest']), s('eth_getStorageAt', [PROBE, '0x0']), s('eth_getStorageAt', [PROBE, '0x' + '0'.repeat(65), 'latest']))

  const x = call('x')
  const calls: Step[] = [
    s('eth_call', [{ to: PROBE, data: x }, 'latest']),
    s('eth_call', [{ to: PROBE, data: x }]),
    s('eth_call', [{ to: PROBE, data: x }, 'pending']),
    s('eth_call', [{ to: PROBE, data: x }, '0x0']),
    s('eth_call', [{ to: PROBE, data: x }, { blockHash: '$block:1' }]),
    s('eth_call', [{ to: PROBE, input: x }, 'latest']),
    s('eth_call', [{ to: PROBE, data: x, input: call('env') }, 'latest'], 'data and input differ'),
    s('eth_call', [{ to: PROBE, data: call('reason') }, 'latest'], 'revert with a reason'),
    s('eth_call', [{ to: PROBE, data: call('custom'), from: A1 }, 'latest'], 'custom error'),
    s('eth_call', [{ to: PROBE, data: call('divide', [0n]) }, 'latest'], 'panic 0x12'),
    s('eth_call', [{ to: PROBE, data: call('assertFalse') }, 'latest'], 'panic 0x01'),
    s('eth_call', [{ to: PROBE, data: call('invalidOpcode') }, 'latest'], 'invalid opcode'),
    s('eth_call', [{ to: PROBE, data: call('burn'), gas: '0x186a0' }, 'latest'], 'out of gas'),
    s('eth_call', [{ to: PROBE, data: call('bare') }, 'latest'], 'bare revert'),
    s('eth_call', [{ to: PROBE, data: call('innerRevert') }, 'latest'], 'revert in a nested call'),
    s('eth_call', [{ to: PROBE, data: '0xdeadbeef' }, 'latest'], 'unknown selector'),
    s('eth_call', [{ to: PROBE, data: call('pay'), value: '0x5', from: A0 }, 'latest']),
    s('eth_call', [{ to: PROBE, data: call('pay'), value: '0x5', from: STRANGER }, 'latest'], 'value from an empty account'),
    s('eth_call', [{ to: PROBE, data: call('env') }, 'latest']),
    s('eth_call', [{ to: PROBE, data: call('deep', [3n]) }, 'latest']),
    s('eth_call', [{ to: PROBE, data: x, gasPrice: '0x1', maxFeePerGas: '0x1' }, 'latest'], 'both fee kinds'),
    s('eth_call', [{ to: PROBE, data: x, gas: '0x1' }, 'latest'], 'gas below intrinsic'),
    s('eth_call', [{ to: PROBE, data: x }, 'latest', { [STRANGER]: { balance: '0x1' } }], 'state override'),
    s('eth_call', [{ to: PROBE, data: x }, 'latest', { [PROBE]: { stateDiff: { ['0x' + '0'.repeat(64)]: '0x' + '0'.repeat(63) + '9' } } }], 'storage override'),
    s('eth_call', []),
    s('eth_call', [{ to: '0x12' }, 'latest']),
    s('eth_call', [{ to: PROBE, data: '0x1' }, 'latest'], 'odd data'),
    // Precompiles that fail: Hardhat names precompiles 1 to 10 (`call to precompile N failed`), not the later ones.
    s('eth_call', [{ from: A0, to: '0x0000000000000000000000000000000000000006', data: BAD_EC_POINT }, 'latest'], 'ecAdd of a point off the curve'),
    s('eth_estimateGas', [{ from: A0, to: '0x0000000000000000000000000000000000000006', data: BAD_EC_POINT }], 'estimate of a failing precompile'),
    s('eth_call', [{ from: A0, to: '0x0000000000000000000000000000000000000008', data: '0x' + '00'.repeat(100) }, 'latest'], 'pairing input of a bad length'),
    s('eth_call', [{ from: A0, to: '0x0000000000000000000000000000000000000009', data: '0x01' }, 'latest'], 'blake2f input of a bad length'),
    s('eth_call', [{ from: A0, to: '0x000000000000000000000000000000000000000b', data: '0x01' }, 'latest'], 'BLS12-381 G1 add of a bad length'),
    s('eth_estimateGas', [{ from: A0, to: PROBE, data: call('set', [5n]) }]),
    s('eth_estimateGas', [{ from: A0, to: PROBE, data: call('set', [5n]) }, 'latest']),
    s('eth_estimateGas', [{ from: A0, to: PROBE, data: call('reason') }]),
    s('eth_estimateGas', [{ from: A0, to: PROBE, data: call('custom') }]),
    s('eth_estimateGas', [{ from: A0, to: PROBE, data: call('divide', [0n]) }]),
    s('eth_estimateGas', [{ from: A0, to: PROBE, data: call('invalidOpcode') }]),
    s('eth_estimateGas', [{ from: A0, to: PROBE, data: call('burn'), gas: '0x30000' }], 'out of gas at the cap given'),
    s('eth_estimateGas', [{ from: A0, to: PROBE, data: call('deep', [5n]) }]),
    s('eth_estimateGas', [{ from: A0, to: A1, value: '0x1' }]),
    s('eth_estimateGas', [{ from: STRANGER, to: A1, value: '0x1' }], 'value beyond the balance'),
    s('eth_estimateGas', [{ from: A0, data: probe.bytecode }], 'a creation'),
    s('eth_createAccessList', [{ from: A0, to: PROBE, data: call('set', [5n]) }]),
  ]

  const sends: Step[] = [
    s('eth_sendTransaction', [{ from: A0, to: PROBE, data: call('set', [5n]) }], 'no gas, no fees'),
    s('eth_getTransactionByHash', ['$tx:-1']),
    s('eth_getTransactionReceipt', ['$tx:-1']),
    s('eth_sendTransaction', [{ from: A0, to: PROBE, data: call('set', [6n]), gas: '0x30000' }], 'gas given'),
    s('eth_sendTransaction', [{ from: A0, to: '0x0000000000000000000000000000000000000006', data: BAD_EC_POINT, gas: '0x30000' }], 'a send to a failing precompile'),
    s('eth_getTransactionByHash', ['$tx:-1']),
    s('eth_sendTransaction', [{ from: A0, to: A1, value: '0x10', gasPrice: '0x77359400' }], 'legacy gasPrice'),
    s('eth_getTransactionByHash', ['$tx:-1']),
    s('eth_getTransactionReceipt', ['$tx:-1']),
    s('eth_sendTransaction', [{ from: A0, to: A1, value: '0x10', maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x1' }], '1559 fees'),
    s('eth_getTransactionByHash', ['$tx:-1']),
    s('eth_sendTransaction', [{ from: A0, to: A1, value: '0x10', maxFeePerGas: '0x77359400' }], 'max fee only'),
    s('eth_getTransactionByHash', ['$tx:-1']),
    s('eth_sendTransaction', [{ from: A0, to: A1, value: '0x10', maxPriorityFeePerGas: '0x2' }], 'tip only'),
    s('eth_getTransactionByHash', ['$tx:-1']),
    s('eth_sendTransaction', [{ from: A0, to: A1, value: '0x10', accessList: [{ address: PROBE, storageKeys: ['0x' + '0'.repeat(64)] }], gasPrice: '0x77359400' }], 'access list with gasPrice'),
    s('eth_getTransactionByHash', ['$tx:-1']),
    s('eth_sendTransaction', [{ from: A0, to: A1, value: '0x10', maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x1' }], 'max fee below the base fee'),
    s('eth_sendTransaction', [{ from: A0, to: A1, value: '0x10', maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' }], 'tip above max fee'),
    s('eth_sendTransaction', [{ from: A0, to: A1, value: '0x10', gas: '0x5207' }], 'gas below 21000'),
    s('evm_snapshot'),
    s('eth_sendTransaction', [{ from: A0, to: A1, value: '0x10', gas: '0xf4240', gasPrice: '0x1d1a94a2000' }], 'a fee of 2 ether'),
    s('evm_revert', ['$snap:-1']),
    s('eth_sendTransaction', [{ from: A0, to: A1, value: '0x10', nonce: '0x0' }], 'nonce too low'),
    s('evm_snapshot'),
    s('eth_sendTransaction', [{ from: A0, to: A1, value: '0x10', nonce: '0x99' }], 'nonce too high'),
    s('evm_revert', ['$snap:-1']),
    s('eth_sendTransaction', [{ from: A1, to: A0, value: '0x21e19e0c9bab2400000' }], 'more value than the balance'),
    s('eth_sendTransaction', [{ from: STRANGER, to: A0, value: '0x1' }], 'an unknown sender'),
    s('eth_sendTransaction', [{ to: A0, value: '0x1' }], 'no sender'),
    s('eth_sendTransaction', [{ from: A0, to: PROBE, data: call('reason'), gas: '0x30000' }], 'reverts with a reason'),
    s('eth_getTransactionReceipt', ['$tx:-1']),
    s('eth_sendTransaction', [{ from: A0, to: PROBE, data: call('custom'), gas: '0x30000' }], 'custom error'),
    s('eth_sendTransaction', [{ from: A0, to: PROBE, data: call('divide', [0n]), gas: '0x30000' }], 'panic'),
    s('eth_sendTransaction', [{ from: A0, to: PROBE, data: call('invalidOpcode'), gas: '0x30000' }], 'invalid opcode'),
    s('eth_sendTransaction', [{ from: A0, to: PROBE, data: call('burn'), gas: '0x30000' }], 'out of gas'),
    s('eth_getTransactionReceipt', ['$tx:-1']),
    s('eth_sendTransaction', [{ from: A0, to: PROBE, data: call('bare'), gas: '0x30000' }], 'bare revert'),
    s('eth_sendTransaction', [{ from: A0, to: PROBE, data: call('reason') }], 'reverts, no gas given'),
    s('eth_sendTransaction', [{ from: A0, to: PROBE, data: call('deep', [4n]) }], 'nested calls'),
    s('eth_getTransactionReceipt', ['$tx:-1']),
    s('eth_sendTransaction', [{ from: A0, to: PROBE, data: call('pay'), value: '0x7' }]),
    s('eth_getBalance', [PROBE, 'latest']),
    s('eth_getBlockByNumber', ['latest', false]),
    ...(await rawTransactions()),
  ]

  const traces: Step[] = [
    s('debug_traceTransaction', ['$tx:0'], 'the deployment'),
    s('debug_traceTransaction', ['$tx:1']),
    s('debug_traceTransaction', ['$tx:1', { disableStorage: true, disableMemory: true, disableStack: true }]),
    s('debug_traceTransaction', ['$tx:1', { enableMemory: true }]),
    s('debug_traceTransaction', ['$tx:1', { tracer: 'callTracer' }]),
    s('debug_traceTransaction', [UNKNOWN_HASH]),
    s('debug_traceCall', [{ from: A0, to: PROBE, data: call('set', [9n]) }, 'latest']),
    s('debug_traceCall', [{ from: A0, to: PROBE, data: call('reason') }, 'latest']),
  ]

  const logs: Step[] = [
    s('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]),
    s('eth_getLogs', [{ address: PROBE }]),
    s('eth_getLogs', [{ fromBlock: '0x0', address: [PROBE, A0], topics: [null, '0x000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266'] }]),
    s('eth_getLogs', [{ fromBlock: '0x0', topics: [['0x' + '11'.repeat(32)]] }]),
    s('eth_getLogs', [{ blockHash: '$block:2' }]),
    s('eth_getLogs', [{ blockHash: UNKNOWN_HASH }]),
    s('eth_getLogs', [{ fromBlock: '0x5', toBlock: '0x2' }]),
    s('eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x999' }]),
    s('eth_getLogs', [{ blockHash: '$block:2', fromBlock: '0x0' }]),
    s('eth_getLogs', []),
    s('eth_newFilter', [{ fromBlock: '0x0', address: PROBE }]),
    s('eth_newBlockFilter'),
    s('eth_newPendingTransactionFilter'),
    s('eth_getFilterLogs', ['$filter:0']),
    s('eth_getFilterChanges', ['$filter:0']),
    s('eth_uninstallFilter', ['$filter:0']),
    s('eth_uninstallFilter', ['$filter:0']),
    s('eth_getFilterChanges', ['0x99']),
  ]

  const controls: Step[] = [
    s('evm_snapshot'),
    s('eth_sendTransaction', [{ from: A0, to: PROBE, data: call('set', [77n]) }]),
    s('eth_call', [{ to: PROBE, data: x }]),
    s('evm_revert', ['$snap:-1']),
    s('eth_call', [{ to: PROBE, data: x }]),
    s('eth_blockNumber'),
    s('evm_revert', ['$snap:-1'], 'a used snapshot'),
    s('evm_revert', ['0x99'], 'an unknown snapshot'),
    s('evm_revert', []),
    s('evm_mine'),
    s('evm_mine', ['0x6a000000'], 'at a timestamp'),
    s('evm_mine', ['0x10'], 'a timestamp in the past'),
    s('hardhat_mine'),
    s('hardhat_mine', ['0x3']),
    s('hardhat_mine', ['0x3', '0x3c']),
    s('hardhat_mine', ['0x0']),
    // Answers one side takes and the other refuses run between a snapshot and a revert, so the
    // chains stay alike after them.
    s('evm_snapshot'),
    s('hardhat_mine', ['3'], 'a count in decimal'),
    s('evm_revert', ['$snap:-1']),
    s('eth_getBlockByNumber', ['latest', false]),
    s('evm_increaseTime', ['0xe10']),
    s('evm_increaseTime', [3600]),
    s('evm_increaseTime', ['-1']),
    s('evm_mine'),
    s('eth_getBlockByNumber', ['latest', false]),
    s('evm_setNextBlockTimestamp', ['0x10'], 'in the past'),
    s('evm_setNextBlockTimestamp', ['0x6b000000']),
    s('eth_getBlockByNumber', ['pending', false]),
    s('evm_mine'),
    s('eth_call', [{ to: PROBE, data: call('env') }]),
    s('evm_setNextBlockTimestamp', [1795000000]),
    s('eth_sendTransaction', [{ from: A0, to: A1, value: '0x1' }]),
    s('eth_getBlockByNumber', ['latest', false]),
    s('hardhat_setBalance', [STRANGER, '0xde0b6b3a7640000']),
    s('eth_getBalance', [STRANGER]),
    s('hardhat_setBalance', [STRANGER]),
    s('hardhat_setCode', [STRANGER, '0x600160005260206000f3']),
    s('eth_getCode', [STRANGER]),
    s('eth_call', [{ to: STRANGER }]),
    s('hardhat_setCode', [STRANGER, '0x']),
    s('hardhat_setStorageAt', [PROBE, '0x0', '0x' + '0'.repeat(62) + '2a']),
    s('eth_call', [{ to: PROBE, data: x }]),
    s('hardhat_setStorageAt', [PROBE, '0x0', '0x2a'], 'a value not 32 bytes'),
    s('hardhat_setStorageAt', [PROBE, '0x00', '0x' + '0'.repeat(64)], 'a slot with a leading zero'),
    s('hardhat_setNonce', [STRANGER, '0x5']),
    s('eth_getTransactionCount', [STRANGER]),
    s('hardhat_setNonce', [STRANGER, '0x1'], 'lower than the nonce'),
    s('hardhat_impersonateAccount', [STRANGER]),
    s('eth_sendTransaction', [{ from: STRANGER, to: A0, value: '0x1' }], 'impersonated'),
    s('eth_getTransactionByHash', ['$tx:-1']),
    s('eth_getTransactionReceipt', ['$tx:-1']),
    s('hardhat_stopImpersonatingAccount', [STRANGER]),
    s('hardhat_stopImpersonatingAccount', [STRANGER], 'again'),
    s('eth_sendTransaction', [{ from: STRANGER, to: A0, value: '0x1' }], 'no longer impersonated'),
    s('hardhat_impersonateAccount', [PROBE], 'a contract'),
    s('hardhat_setBalance', [PROBE, '0xde0b6b3a7640000']),
    s('eth_sendTransaction', [{ from: PROBE, to: A0, value: '0x1' }], 'from a contract'),
    s('hardhat_getAutomine'),
    s('evm_setAutomine', [false]),
    s('eth_sendTransaction', [{ from: A0, to: A1, value: '0x2' }], 'pending'),
    s('eth_sendTransaction', [{ from: A0, to: A1, value: '0x3' }], 'pending too'),
    s('eth_getTransactionByHash', ['$tx:-1']),
    s('eth_getTransactionCount', [A0, 'pending']),
    s('eth_getBlockByNumber', ['pending', false]),
    s('eth_getBalance', [A1, 'pending']),
    s('hardhat_dropTransaction', ['$tx:-1']),
    s('hardhat_dropTransaction', ['$tx:-1'], 'again'),
    s('evm_mine'),
    s('eth_getBlockByNumber', ['latest', false]),
    s('evm_setAutomine', [true]),
    s('hardhat_getAutomine'),
    s('evm_setIntervalMining', [0]),
    s('hardhat_setNextBlockBaseFeePerGas', ['0x3b9aca00']),
    s('evm_mine'),
    s('eth_getBlockByNumber', ['latest', false]),
    s('hardhat_setPrevRandao', ['0x' + '42'.repeat(32)]),
    s('hardhat_setCoinbase', [A2]),
    s('evm_mine'),
    s('eth_getBlockByNumber', ['latest', false]),
    s('eth_coinbase'),
    s('evm_setBlockGasLimit', ['0x1c9c380']),
    s('evm_setBlockGasLimit', ['0x0']),
    s('hardhat_setMinGasPrice', ['0x1']),
    s('hardhat_setLoggingEnabled', [false]),
    s('hardhat_metadata'),
    s('eth_feeHistory', ['0x5', 'latest', [10, 50, 90]]),
    s('eth_feeHistory', ['0x5', 'latest']),
    s('eth_feeHistory', ['0x0', 'latest', []]),
    s('eth_feeHistory', ['0x5', 'latest', [90, 10]]),
    s('eth_sign', [A0, '0x68656c6c6f']),
    s('personal_sign', ['0x68656c6c6f', A0]),
    s('eth_signTypedData_v4', [A0, { types: { EIP712Domain: [{ name: 'name', type: 'string' }], Mail: [{ name: 'note', type: 'string' }] }, primaryType: 'Mail', domain: { name: 'x' }, message: { note: 'hi' } }]),
    s('eth_sign', [STRANGER, '0x68656c6c6f']),
    s('eth_getProof', [PROBE, ['0x0'], 'latest']),
    s('eth_getProof', [PROBE, ['0x' + '0'.repeat(64)], 'latest']),
    s('eth_getBlockReceipts', ['latest']),
    s('eth_getBlockReceipts', ['0x2']),
    s('eth_newBlockFilter'),
    s('evm_mine'),
    s('eth_getFilterChanges', ['$filter:-1'], 'the block filter after a block'),
    s('eth_getFilterChanges', ['$filter:-1'], 'and again'),
    s('eth_getStorageAt', [PROBE, '0x0', { blockNumber: '0x2' }]),
    s('eth_getCode', [PROBE, { blockHash: '$block:2' }]),
    s('eth_call', [{ to: PROBE, data: call('x') }, { blockHash: '$block:2', requireCanonical: false }]),
    s('eth_sendTransaction', [{ from: A0, to: A1, value: '0x1', type: '0x1', gasPrice: '0x77359400' }], 'type 1'),
    s('eth_getTransactionByHash', ['$tx:-1']),
    s('eth_sendTransaction', [{ from: A0, to: A1, value: '0x1', type: '0x0', gas: '0x5208' }], 'type 0 without a gas price'),
    s('eth_getTransactionByHash', ['$tx:-1']),
    s('evm_snapshot'),
    s('eth_sendTransaction', [{ from: A0, to: PROBE, data: call('set', [1n]), input: call('set', [1n]), gas: '0x30000' }], 'data and input alike'),
    s('evm_revert', ['$snap:-1']),
    s('eth_sendTransaction', [{ from: A0, to: PROBE, data: call('set', [1n]), input: call('set', [2n]), gas: '0x30000' }], 'data and input differ'),
    s('eth_sendTransaction', [{ from: A0, to: PROBE, data: call('reason'), gas: '0x30000' }], 'a failed send to trace'),
    s('debug_traceTransaction', ['$tx:-1', { disableStack: true, disableMemory: true, disableStorage: true }]),
    s('eth_signTransaction', [{ from: A0, to: A1, value: '0x1', gas: '0x5208', maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x1', nonce: '0x0' }]),
    s('eth_subscribe', ['newHeads']),
    s('eth_getTransactionByHash', [UNKNOWN_HASH]),
    s('eth_getTransactionReceipt', [UNKNOWN_HASH]),
    s('eth_getBlockTransactionCountByHash', [UNKNOWN_HASH]),
    s('evm_snapshot'),
    s('hardhat_mine', ['0xa', '0x0'], 'ten blocks, interval 0'),
    s('eth_getBlockByNumber', ['latest', false], 'after hardhat_mine with interval 0'),
    s('evm_revert', ['$snap:-1']),
    s('hardhat_setNextBlockBaseFeePerGas', ['0x1']),
    s('hardhat_mine', ['0x9']),
    s('eth_getBlockByNumber', ['latest', false]),
    s('eth_feeHistory', ['0xc', 'latest', [50]]),
    s('evm_setAutomine', [false]),
    s('eth_newFilter', [{ fromBlock: '0x0' }]),
    s('hardhat_reset'),
    s('eth_blockNumber'),
    s('eth_getBalance', [A0]),
    s('hardhat_getAutomine', [], 'after hardhat_reset: the configured mining mode'),
    s('evm_snapshot', [], 'after hardhat_reset: ids count from 0x1'),
    s('eth_getFilterChanges', ['$filter:-1'], 'after hardhat_reset: the filter is gone'),
    s('eth_getFilterLogs', ['$filter:-1']),
    s('eth_uninstallFilter', ['$filter:-1']),
  ]

  return [...reads, ...deploy, ...state, ...calls, ...sends, ...traces, ...logs, ...controls, ...compiled()]
}

/**
 * Last, on the chain hardhat_reset left: the Vault fixture's compilation given to both sides, and
 * failures two frames deep (a panic in Vault.add under VaultUser.addThrough) and a custom error,
 * which both answer in Hardhat's words; finality adds their Solidity frames (`solidityTrace`).
 */
function compiled(): Step[] {
  const build = vaultBuildInfo()
  const contracts = build.output.contracts[VAULT_SOURCE]! as unknown as Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>
  const deployData = (name: string, args: unknown[]) => encodeDeployData({ abi: contracts[name]!.abi, bytecode: `0x${contracts[name]!.evm.bytecode.object}`, args } as never)
  // A0's first two creations after the reset.
  const vault = PROBE
  const user = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512'
  const addThrough = encodeFunctionData({ abi: contracts.VaultUser!.abi, functionName: 'addThrough', args: [2n ** 256n - 1n, 1n] })
  const onlyOwner = encodeFunctionData({ abi: contracts.Vault!.abi, functionName: 'onlyOwner' })
  return [
    s('hardhat_addCompilationResult', [build.solcVersion, build.input, build.output], 'the Vault fixture\'s build-info'),
    s('eth_sendTransaction', [{ from: A0, data: deployData('Vault', [4_000_000_000n]) }]),
    s('eth_sendTransaction', [{ from: A0, data: deployData('VaultUser', [vault]) }]),
    s('eth_call', [{ from: A0, to: user, data: addThrough }, 'latest'], 'a panic two frames deep'),
    s('eth_estimateGas', [{ from: A0, to: user, data: addThrough }], 'a panic two frames deep'),
    s('eth_sendTransaction', [{ from: A0, to: user, data: addThrough, gas: '0x100000' }], 'a panic two frames deep'),
    s('eth_call', [{ from: A1, to: vault, data: onlyOwner }, 'latest'], 'a custom error named from the compilation'),
  ]
}
