#!/usr/bin/env node
// `npm test`: unit and database tests of every package (database suites run on PGlite and, when
// TEST_DATABASE_URL is set, on that PostgreSQL too).
import { spawnSync } from 'node:child_process';
const r = spawnSync(process.execPath, ['scripts/vitest-count.mjs', 'unit', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
