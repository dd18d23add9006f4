import { defineConfig } from 'vitest/config';

/**
 * One Vitest run for every package, in two projects. Web component tests opt into jsdom per file.
 *
 * - `web`: the web app's tests. They start no process, server or database and keep no state between files
 *   (Testing Library unmounts after each test), so their files share a worker's loaded modules
 *   (`isolate: false`): loading React, Testing Library and the app's modules once per worker instead of once
 *   per file took these 110 files from 217 s to 71 s on the 2-core machine (issue 40).
 * - `packages`: every package's and the server's suites, each file in its own process (they start servers
 *   and child processes and change process-wide state).
 */
const web = ['apps/web/src/**/*.test.{ts,tsx}', 'apps/web/build/**/*.test.ts'];

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', 'apps/web/e2e/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default on 2 cores is one file at a time; most suites wait on processes, timers and sockets,
    // so three at once finish sooner (on the 2-core CI machine: 1,274 s with one, 834 s with three)
    maxWorkers: 3,
    projects: [
      { extends: true, test: { name: 'web', include: web, isolate: false } },
      {
        extends: true,
        test: {
          name: 'packages',
          include: ['packages/*/test/**/*.test.ts', 'apps/server/test/**/*.test.ts', 'scripts/*.test.ts'],
          // the migrated PGlite dump and PostgreSQL template that database suites (describeDb) start from
          globalSetup: ['packages/db/test/global-setup.ts'],
        },
      },
    ],
  },
});
