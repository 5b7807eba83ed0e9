import { Server } from 'prool/vitest'
import type { TestProject } from 'vitest/node'
import { finality, finalityCli } from 'finality-evm/prool'

declare module 'vitest' {
  export interface ProvidedContext {
    chains: { inProcess: Server.Context; cli: Server.Context }
  }
}

export default Server.setup({
  instances: {
    // A node in this process per worker, Hardhat's flavour, a chain id of its own.
    inProcess: finality({ chainId: 1337n, hardhatCompat: true }),
    // The command line per worker, as `npx finality --chain-id 7777` runs it.
    cli: finalityCli({ args: ['--chain-id', '7777'] }),
  },
  setup(chains, project: TestProject) {
    project.provide('chains', chains)
  },
})
