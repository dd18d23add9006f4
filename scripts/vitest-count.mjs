#!/usr/bin/env node
// Runs Vitest with the given arguments, prints "<label>: N passed, N failed, N skipped" and, when
// MS_RESULTS_DIR is set, writes the counts there so .ci/run can sum every runner. A test that failed and then
// passed on its retry counts as passed, and is named with the error of its failed try ("passed only on
// retry"), so that a flaky test is seen the first time it flakes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [label, ...args] = process.argv.slice(2);
const dir = mkdtempSync(path.join(os.tmpdir(), 'ms-vitest-'));
const out = path.join(dir, 'report.json');
// A test process that dies of a fatal error (out of memory, a V8 or native check) writes Node's diagnostic
// report here (vitest.config.ts passes --report-on-fatalerror when this is set): Vitest 4.1 itself says only
// "Worker exited unexpectedly", with no code, signal or file (session 23's one unexplained unit failure).
const reports = path.join(dir, 'node-reports');
mkdirSync(reports);
process.env.MS_NODE_REPORT_DIR = reports;
const run = spawnSync(
  process.execPath,
  [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
    ...args,
  ],
  { stdio: 'inherit' },
);
let passed = 0;
let failed = 0;
let skipped = 0;
let retried = 0;
try {
  const report = JSON.parse(readFileSync(out, 'utf8'));
  passed = report.numPassedTests ?? 0;
  failed = report.numFailedTests ?? 0;
  // A file that fails to load has no failed test of its own: count it once.
  if (failed === 0) failed = (report.testResults ?? []).filter((f) => f.status === 'failed').length;
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // Name what failed right above the count line, so a log cut to its end still says which file and why.
  for (const file of report.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      // a passed test keeps the messages of its failed tries
      if (t.status !== 'passed' || !t.failureMessages?.length) continue;
      retried++;
      const where = path.relative(process.cwd(), file.name);
      console.log(`${label} PASSED ONLY ON RETRY ${where} > ${t.fullName}: ${oneLine(t.failureMessages[0])}`);
    }
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    if (file.status !== 'failed' && failedTests.length === 0) continue;
    const where = path.relative(process.cwd(), file.name);
    if (failedTests.length === 0) console.log(`${label} FAILED FILE ${where}: ${oneLine(file.message)}`);
    for (const t of failedTests)
      console.log(`${label} FAILED ${where} > ${t.fullName}: ${oneLine(t.failureMessages?.[0])}`);
  }
} catch {
  failed = 1; // no report: the runner itself failed
}
for (const name of existsSync(reports) ? readdirSync(reports) : []) {
  try {
    const r = JSON.parse(readFileSync(path.join(reports, name), 'utf8'));
    const stack = r.javascriptStack?.stack?.slice(0, 8).join(' ') ?? '';
    console.log(
      `${label} A TEST PROCESS DIED (pid ${r.header?.processId}): ${r.header?.event} (${r.header?.trigger}); ${oneLine(r.javascriptStack?.message)} ${oneLine(stack)}; report ${path.join(reports, name)}`,
    );
  } catch {
    console.log(`${label} A TEST PROCESS DIED: see ${path.join(reports, name)}`);
  }
}
if (run.status !== 0 && failed === 0) {
  console.log(
    `${label} FAILED: the runner exited with ${run.status} (unhandled error or hook failure; see above)`,
  );
  failed = 1;
}
if (retried > 0) console.log(`${label}: ${retried} passed only on retry (named above)`);
console.log(`${label}: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (process.env.MS_RESULTS_DIR) {
  writeFileSync(
    path.join(process.env.MS_RESULTS_DIR, `${label}.json`),
    JSON.stringify({ passed, failed, skipped, retried }),
  );
}
process.exit(failed > 0 ? 1 : 0);

/** First 300 characters of a message on one line, without terminal colours. */
function oneLine(text) {
  // eslint-disable-next-line no-control-regex
  return String(text ?? '')
    .replace(/\u001b\[[0-9;]*m/g, '')
    .replace(/\s+/g, ' ')
    .slice(0, 300);
}
