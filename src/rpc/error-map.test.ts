/**
 * The domain errors the services throw carry no JSON-RPC code; one table (error-map.ts) gives each
 * its JSON-RPC form (code, message, data) and the error class node.request callers see. Over the
 * path users take: test/rpc/domain-errors.test.ts.
 */
import { describe, expect, it } from 'vitest'
import * as domain from '../domain-errors.js'
import {
  DomainError,
  ExecutionReverted,
  ForkRemoteError,
  InvalidInput,
  LimitReached,
  NodeClosed,
  NotFound,
  Refused,
  SimulationRefused,
  TransactionFailed,
  TxRejected,
} from '../domain-errors.js'
import { RpcError } from '../errors.js'
import { toRpcError, toWireError } from './error-map.js'

describe('domain errors', () => {
  it('each maps to its JSON-RPC code, with geth\'s message and its data unchanged', () => {
    expect(toWireError(new Refused('genesis is not traceable'))).toEqual({ code: -32000, message: 'genesis is not traceable' })
    expect(toWireError(new TxRejected('already known'))).toEqual({ code: -32000, message: 'already known' })
    expect(toWireError(new NotFound('filter not found'))).toEqual({ code: -32000, message: 'filter not found' })
    expect(toWireError(InvalidInput.argument(0, 'bad'))).toEqual({ code: -32602, message: 'invalid argument 0: bad' })
    expect(toWireError(new LimitReached('too many filters, the limit is 1'))).toEqual({ code: -32005, message: 'too many filters, the limit is 1' })
    expect(toWireError(new SimulationRefused('nonceTooLow', 'nonce too low'))).toEqual({ code: -38010, message: 'nonce too low' })
    expect(toWireError(new SimulationRefused('clientLimitExceeded', 'too many blocks'))).toEqual({ code: -38026, message: 'too many blocks' })
    const data = { message: 'Transaction ran out of gas', txHash: '0x01', data: '0x' }
    expect(toWireError(new TransactionFailed('outOfGas', 'Transaction ran out of gas', data))).toEqual({ code: -32000, message: 'Transaction ran out of gas', data })
    const reverted = { message: 'Error: Transaction reverted without a reason string', data: '0x' }
    expect(toWireError(new TransactionFailed('failed', reverted.message, reverted))).toEqual({ code: -32603, message: reverted.message, data: reverted })
    expect(toWireError(new ExecutionReverted('no', '0x01'))).toEqual({ code: 3, message: 'execution reverted: no', data: '0x01' })
    expect(toWireError(new ExecutionReverted(undefined, '0x'))).toEqual({ code: 3, message: 'execution reverted', data: '0x' })
    expect(toWireError(new NodeClosed())).toEqual({ code: 4900, message: 'the node is closed' })
  })

  it('a failure\'s Solidity frames: Hardhat\'s text in the stack, the frames as data in `solidityTrace` after `data` on the wire', () => {
    const data = { message: "Error: VM Exception while processing transaction: reverted with reason string 'no'", data: '0x08c379a0' }
    const trace: domain.SolidityFrame[] = [
      { kind: 'error', contract: 'Vault', function: 'take', file: 'contracts/Vault.sol', line: 40 },
      { kind: 'call', contract: null, function: 'route', file: 'contracts/lib.sol', line: 4 },
      { kind: 'call', contract: '<UnrecognizedContract>', function: '<unknown>', file: '0x5fbdb2315678afecb367f032d93f642f64180aa3', line: null },
    ]
    const failed = new TransactionFailed('failed', data.message, data, trace)
    expect(failed.solidityStack).toEqual(['Vault.take (contracts/Vault.sol:40)', 'route (contracts/lib.sol:4)', '<UnrecognizedContract>.<unknown> (0x5fbdb2315678afecb367f032d93f642f64180aa3)'])
    const wire = toWireError(failed)
    expect(wire).toEqual({ code: -32603, message: data.message, data, solidityTrace: trace })
    expect(Object.keys(wire)).toEqual(['code', 'message', 'data', 'solidityTrace'])
    expect(Object.keys(toRpcError(failed) as object)).not.toContain('solidityTrace')
    expect(Object.keys(toWireError(new TransactionFailed('failed', data.message, data)))).toEqual(['code', 'message', 'data'])
  })

  it('a fork remote\'s answer keeps its own code and data; its failures take the table\'s codes', () => {
    const at = { remote: 'http://127.0.0.1:1', method: 'eth_call' }
    expect(toWireError(new ForkRemoteError({ ...at, kind: 'answered', remoteCode: 3, message: 'execution reverted', data: '0x' }))).toEqual({ code: 3, message: 'execution reverted', data: '0x' })
    expect(toWireError(new ForkRemoteError({ ...at, kind: 'failed', message: 'm' }))).toEqual({ code: -32000, message: 'm' })
    expect(toWireError(new ForkRemoteError({ ...at, kind: 'closed', message: 'm' }))).toEqual({ code: 4900, message: 'm' })
    expect(toWireError(new ForkRemoteError({ ...at, kind: 'badRequest', message: 'm' }))).toEqual({ code: -32600, message: 'm' })
    expect(toWireError(new ForkRemoteError({ ...at, kind: 'badParams', message: 'm' }))).toEqual({ code: -32602, message: 'm' })
    expect(new ForkRemoteError({ ...at, kind: 'answered', remoteCode: 3, message: 'm' }).answered).toBe(true)
    // node.request callers read the remote, the method and whether it answered, as before.
    expect(toRpcError(new ForkRemoteError({ ...at, kind: 'failed', message: 'm' }))).toMatchObject({ name: 'RpcError', code: -32000, ...at, answered: false })
    expect(new ForkRemoteError({ ...at, kind: 'failed', message: 'm' }).answered).toBe(false)
  })

  it('become the JSON-RPC error class (and name) node.request callers saw before these classes lost their codes', () => {
    const names = (errors: unknown[]) => errors.map((e) => (toRpcError(e) as Error).name)
    expect(names([new Refused('a'), new TxRejected('a'), new NotFound('a')])).toEqual(['ServerError', 'ServerError', 'ServerError'])
    expect(names([new InvalidInput('a'), new LimitReached('a'), new SimulationRefused('nonceTooLow', 'a')])).toEqual(['InvalidParamsError', 'LimitExceededError', 'RpcError'])
    expect(names([new ExecutionReverted(undefined, '0x'), new NodeClosed()])).toEqual(['ExecutionRevertedError', 'NodeClosedError'])
  })

  it('every domain error class has a row in the table, and none is a JSON-RPC error itself', () => {
    const classes = Object.values(domain).filter((v): v is typeof DomainError => typeof v === 'function' && v.prototype instanceof DomainError)
    expect(classes.length).toBeGreaterThanOrEqual(10)
    for (const type of classes) {
      expect(type.prototype instanceof RpcError, type.name).toBe(false)
      // A bare instance (constructors are not called: each takes other arguments).
      expect(toRpcError(Object.create(type.prototype) as Error), type.name).toBeInstanceOf(RpcError)
    }
  })

  it('anything that is no domain error passes the table unchanged', () => {
    const other = new Error('boom')
    expect(toRpcError(other)).toBe(other)
    expect(toWireError(other)).toEqual({ code: -32603, message: 'boom' })
  })
})

describe('withSolidityStack', () => {
  it('puts the Solidity frames between the first line and the JavaScript frames, formatted only when read', async () => {
    const { withSolidityStack, solidityStackOf } = await import('./error-map.js')
    const original = Error.prepareStackTrace
    let formatted = 0
    Error.prepareStackTrace = (error: unknown, sites: NodeJS.CallSite[]) => {
      formatted++
      return [`${String(error)}`, ...sites.map((s) => `    at ${s.getFunctionName() ?? '<anonymous>'} (${s.getFileName()}:${s.getLineNumber()})`)].join('\n')
    }
    try {
      const error = (function sentFromHere() {
        return withSolidityStack(new Error('reverted with reason string \'no\'\nsecond line'), ['Vault.withdraw (contracts/Vault.sol:30)', 'Vault.guard (contracts/Vault.sol:12)'])
      })()
      expect(formatted).toBe(0)
      const lines = error.stack!.split('\n')
      expect(formatted).toBe(1)
      expect(lines.slice(0, 4)).toEqual(["Error: reverted with reason string 'no'", 'second line', '    at Vault.withdraw (contracts/Vault.sol:30)', '    at Vault.guard (contracts/Vault.sol:12)'])
      expect(lines[4]).toMatch(/^ {4}at sentFromHere \(.*error-map\.test\.ts:\d+\)$/)
      expect(error.stack).toBe(lines.join('\n'))
      expect(formatted).toBe(1)
      expect(solidityStackOf(error)).toEqual(['Vault.withdraw (contracts/Vault.sol:30)', 'Vault.guard (contracts/Vault.sol:12)'])
      expect(Object.keys(error)).toEqual([])
      error.stack = 'replaced'
      expect(error.stack).toBe('replaced')
      const plain = new Error('no frames')
      expect(withSolidityStack(plain, [])).toBe(plain)
      expect(solidityStackOf(plain)).toBeUndefined()
    } finally {
      Error.prepareStackTrace = original
    }
  })
})

describe('SOLIDITY_FAILING_METHODS', () => {
  it('names only methods the node serves', async () => {
    const { SOLIDITY_FAILING_METHODS } = await import('./error-map.js')
    const { buildRegistry } = await import('./registry.js')
    const { DEFAULT_LIMITS } = await import('../limits.js')
    const served = buildRegistry(DEFAULT_LIMITS)
    for (const name of SOLIDITY_FAILING_METHODS) expect(served.has(name), name).toBe(true)
  })
})
