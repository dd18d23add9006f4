import { defineConfig } from 'vitest/config';

// End-to-end: the real server (sandbox, indexer, API, web) in a child process and Debian's chromium.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    // builds the server bundle and seeds the demo chain once: suites start from a copy (harness seededDataDir)
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 120_000,
    // expect.poll's own default is 1 s: a page that needs longer under load (the unit runner works beside this
    // one in CI) failed on that, not on a wrong value; a poll given its own timeout keeps it
    expect: { poll: { timeout: 30_000 } },
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
    // One retry for browser timing flakes on a 2-core machine; a retried test is named in the report.
    retry: 1,
  },
});
