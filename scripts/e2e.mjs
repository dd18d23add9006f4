#!/usr/bin/env node
// `npm run test:e2e`: starts the real product and drives Debian's chromium with Playwright.
// Needs the web app built (npm run build:web) and chromium (apt-get install -y chromium).
//
// Two files run at once (vitest.e2e.config.ts), except the suites that measure how the product answers under
// load (SERIAL): a second suite beside them would be measured too, so they run after the others, alone.
// With file arguments, only those files run, in one run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SERIAL = ['e2e/attacks.e2e.ts'];
const args = process.argv.slice(2);
const vitest = (label, extra, env = {}) =>
  spawnSync(
    process.execPath,
    ['scripts/vitest-count.mjs', label, '--config', 'vitest.e2e.config.ts', ...extra],
    { stdio: 'inherit', env: { ...process.env, ...env } },
  ).status ?? 1;

if (args.some((a) => !a.startsWith('-'))) process.exit(vitest('e2e', args));
// the first run seeds the demo chain's template once and keeps it for the second
const template = path.join(mkdtempSync(path.join(os.tmpdir(), 'ms-e2e-template-')), 'data');
try {
  const parallel = vitest('e2e', [...args, ...SERIAL.map((f) => `--exclude=${f}`)], {
    MS_E2E_KEEP_TEMPLATE: template,
  });
  // the serial suites start their own products: no shared one
  const serial = vitest('e2e-alone', [...args, '--maxWorkers=1', ...SERIAL], {
    MS_E2E_NO_SHARED: '1',
    ...(existsSync(template) ? { MS_E2E_TEMPLATE: template } : {}),
  });
  process.exitCode = parallel || serial;
} finally {
  rmSync(path.dirname(template), { recursive: true, force: true });
}
