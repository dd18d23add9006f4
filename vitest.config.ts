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
  },
});
