import { defineConfig } from 'vitest/config';

/**
 * One Vitest run for every package, in two projects. Web component tests opt into jsdom per file.
 *
 * - `web`: the web app's tests. They start no process, server or database and keep no state between files
 *   (Testing Library unmounts after each test), so their files share a worker's loaded modules
 *   (`isolate: false`): loading React, Testing Library and the app's modules once per worker instead of once
 *   per file took these 110 files from 217 s to 71 s on the 2-core machine (issue 40).
 * - `pure`: the Michelson, interpreter and API-types suites. They are pure functions over values (no server,
 *   process, database or timer), so their files share a worker's loaded modules too: these 30 files took 45
 *   CPU-seconds instead of 69 on the 2-core machine (issue 40). Their one process-wide switch, the interpreter's
 *   compiled path (compiled-path.test.ts `generateEveryBlock`), is put back by the test that turns it.
 * - `packages`: every other package's and the server's suites (API, database, indexer, sandbox, server,
 *   scripts). They start servers, databases and child processes, but each file closes what it opens and none
 *   mocks a module or changes the environment, so their files share a worker's loaded modules too: importing
 *   the API, database and sandbox stack once per worker instead of once per file took these 140 files from
 *   783 CPU-seconds (414 s) to 464 (256 s) on the 2-core machine (session 28, issue 40). (Tried in session 21,
 *   the what-if and script-pool suites failed that way; they have closed their pools since.)
 */
const web = ['apps/web/src/**/*.test.{ts,tsx}', 'apps/web/build/**/*.test.ts'];
const pure = [
  'packages/michelson/test/**/*.test.ts',
  'packages/interpreter/test/**/*.test.ts',
  'packages/api-types/test/**/*.test.ts',
];

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', 'apps/web/e2e/**'],
    // a guard against a hung test, not a budget: every wait is on a condition (Testing Library's 15 s, setup.ts),
    // and whole-app web files took 4× longer on a host that ran 5× slower than usual (calibration 2,615 ms,
    // session 28's CI run 3: NetworkPage and WatchTab tests timed out at 30 s)
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // a test process that dies of a fatal error leaves Node's diagnostic report where scripts/vitest-count.mjs
    // reads and names it
    ...(process.env.MS_NODE_REPORT_DIR
      ? { execArgv: ['--report-on-fatalerror', `--report-directory=${process.env.MS_NODE_REPORT_DIR}`] }
      : {}),
    // Vitest's default on 2 cores is one file at a time; most suites wait on processes, timers and sockets,
    // so three at once finish sooner (on the 2-core CI machine: 1,274 s with one, 834 s with three)
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        // setup.ts: Testing Library's waits get 15 s instead of 1 s, for every file (a lazy module's first load)
        test: {
          name: 'web',
          include: web,
          isolate: false,
          setupFiles: ['apps/web/src/app/testing/setup.ts'],
        },
      },
      { extends: true, test: { name: 'pure', include: pure, isolate: false } },
      {
        extends: true,
        test: {
          name: 'packages',
          include: ['packages/*/test/**/*.test.ts', 'apps/server/test/**/*.test.ts', 'scripts/*.test.ts'],
          exclude: ['**/node_modules/**', ...pure],
          isolate: false,
          // the migrated PGlite dump and PostgreSQL template that database suites (describeDb) start from, and the
          // demo chain seeded once that sandbox suites copy (openSeededSandbox)
          globalSetup: ['packages/db/test/global-setup.ts', 'packages/sandbox/test/global-setup.ts'],
        },
      },
    ],
  },
});
