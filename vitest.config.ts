import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/setup/global.ts'],
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // a separate package with its own vitest; test/package.test.ts installs and runs it
    exclude: [...configDefaults.exclude, 'test/user-project/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
