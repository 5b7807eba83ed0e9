/**
 * Solidity console.log in-process: printed with console.log by default, one line per call, as
 * Hardhat's in-process network prints it; `onConsoleLog: fn` routes the messages, `false`
 * silences them. The contract imports Hardhat's own console.sol, as a Hardhat project does.
 */
import { getAddress } from 'viem'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { InvalidOptionError } from '../../src/index.js'
import { trackNodes } from '../helpers/nodes.js'
import { calldata, deploy, sender } from '../helpers/execution.js'

const newNode = trackNodes()

afterEach(() => {
  vi.restoreAllMocks()
})

/** The console.log lines printed while `run` runs. */
async function printed(run: () => Promise<unknown>): Promise<string[]> {
  const spy = vi.spyOn(console, 'log').mockImplementation(() => {})
  try {
    await run()
    return spy.mock.calls.map((args) => args.map(String).join(' '))
  } finally {
    spy.mockRestore()
  }
}

describe('console.log in-process', () => {
  it('default: an eth_call and a mined transaction print each message with console.log, one line per call', async () => {
    const node = await newNode()
    const logger = await deploy(node, 'HardhatLogger')
    const from = sender(node)
    const lines = await printed(() => node.request({ method: 'eth_call', params: [{ from, to: logger, input: calldata('HardhatLogger', 'greet', [5n]) }] }))
    expect(lines).toEqual(['greet 5', `from ${getAddress(from)}`])
    // Through the EIP-1193 provider, a send's messages once its block is committed.
    const sent = await printed(() => node.provider.request({ method: 'eth_sendTransaction', params: [{ from, to: logger, data: calldata('HardhatLogger', 'bump') }] }))
    expect(sent).toEqual(['count is 1'])
  })

  it('args: a function receives the messages instead; false prints nothing', async () => {
    const routed: string[] = []
    const quiet = await newNode({ onConsoleLog: false })
    const routing = await newNode({ onConsoleLog: (m) => routed.push(m) })
    for (const node of [quiet, routing]) {
      const logger = await deploy(node, 'HardhatLogger')
      const lines = await printed(async () => {
        await node.request({ method: 'eth_call', params: [{ to: logger, input: calldata('HardhatLogger', 'greet', [7n]) }] })
        await node.request({ method: 'eth_sendTransaction', params: [{ from: sender(node), to: logger, data: calldata('HardhatLogger', 'bump') }] })
      })
      expect(lines).toEqual([])
    }
    expect(routed[0]).toBe('greet 7')
    expect(routed.at(-1)).toBe('count is 1')
  })

  it('error: any other value is refused, naming the option', async () => {
    for (const bad of [true, 'stdout', null]) {
      const error = await newNode({ onConsoleLog: bad as never }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(InvalidOptionError)
      expect(error).toMatchObject({ option: 'onConsoleLog', message: expect.stringContaining('must be a function (receives each message) or false') })
    }
  })
})
