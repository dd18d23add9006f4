import { defineConfig } from 'vitest/config';

// One Vitest run for every package. Web component tests opt into jsdom per file.
export default defineConfig({
  test: {
    include: [
      'packages/*/test/**/*.test.ts',
      'apps/server/test/**/*.test.ts',
      'apps/web/src/**/*.test.{ts,tsx}',
      'apps/web/build/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', 'apps/web/e2e/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default on 2 cores is one file at a time; most suites wait on processes, timers and sockets,
    // so three at once finish sooner (on the 2-core CI machine: 1,274 s with one, 834 s with three)
    maxWorkers: 3,
    // the migrated PGlite dump and PostgreSQL template that database suites (describeDb) start from
    globalSetup: ['packages/db/test/global-setup.ts'],
  },
});
