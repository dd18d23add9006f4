#!/usr/bin/env node
// `npm run test:e2e`: starts the real product and drives Debian's chromium with Playwright.
// Needs the web app built (npm run build:web) and chromium (apt-get install -y chromium).
import { spawnSync } from 'node:child_process';
const r = spawnSync(
  process.execPath,
  ['scripts/vitest-count.mjs', 'e2e', '--config', 'vitest.e2e.config.ts', ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
process.exit(r.status ?? 1);
