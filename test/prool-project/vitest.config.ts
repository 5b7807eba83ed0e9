import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    globalSetup: './test/setup.global.ts',
    setupFiles: './test/setup.ts',
    pool: 'forks',
    // Two workers: each gets its own pair of nodes from the pools.
    maxWorkers: 2,
    minWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
