import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    globalSetup: ['test/compile.ts'],
    testTimeout: 30_000,
  },
})
