import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // separate packages with their own vitest; test/build/package.test.ts installs and runs them
    exclude: [...configDefaults.exclude, 'test/user-project/**', 'test/prool-project/**', 'test/hardhat3/**'],
    // Guards against a hang, not timings: a CLI test starts processes through tsx, which takes
    // many seconds on a busy 2-core machine running two test files at once.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Vitest's default leaves one core idle (cores - 1 workers: one on a 2-core CI machine), but
    // most slow files wait on child processes (npm, Hardhat, forge, the CLI), not on the CPU.
    maxWorkers: Math.max(2, availableParallelism()),
    minWorkers: 1,
  },
});
