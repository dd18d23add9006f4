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
let passed = 0;
let failed = 0;
let skipped = 0;
let retried = 0;

const first = runVitest(args);
let { deaths, unfinished } = first;
count(first, false);
// A test process that died (Node 20's require(esm) can abort the process on a native check, "IsGraphAsync must
// be used on an instantiated module", in a file that passes on every other run) leaves its file's tests
// unfinished ("pending"). Those files run once more, on their own; what passes there counts as passed only on
// retry, named, so that the death is still seen. A second death fails the run.
if (deaths > 0 && unfinished.length > 0) {
  console.log(
    `${label}: re-running ${unfinished.length} file(s) whose test process died: ${unfinished.join(', ')}`,
  );
  // the files alone pick their projects (the first run's own filters would narrow them wrongly)
  const again = runVitest(unfinished);
  const before = failed;
  count(again, true);
  deaths = again.deaths;
  unfinished = again.unfinished;
  if (again.status !== 0 && failed === before && deaths === 0) runnerFailed(again.status);
} else if (first.status !== 0 && failed === 0 && deaths === 0) runnerFailed(first.status);
for (const file of unfinished) {
  console.log(`${label} FAILED FILE ${file}: its test process died before its tests finished`);
  failed++;
}
if (deaths > 0 && failed === 0) failed = 1;
if (retried > 0) console.log(`${label}: ${retried} passed only on retry (named above)`);
console.log(`${label}: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (process.env.MS_RESULTS_DIR) {
  writeFileSync(
    path.join(process.env.MS_RESULTS_DIR, `${label}.json`),
    JSON.stringify({ passed, failed, skipped, retried }),
  );
}
process.exit(failed > 0 ? 1 : 0);

function runnerFailed(status) {
  console.log(
    `${label} FAILED: the runner exited with ${status} (unhandled error or hook failure; see above)`,
  );
  failed += 1;
}

/** One Vitest run with a JSON report; the report (or null), the exit status, deaths and unfinished files. */
function runVitest(vitestArgs) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ms-vitest-'));
  const out = path.join(dir, 'report.json');
  // A test process that dies of a fatal error (out of memory, a V8 or native check) writes Node's diagnostic
  // report here (vitest.config.ts passes --report-on-fatalerror when this is set): Vitest 4.1 itself says only
  // "Worker exited unexpectedly", with no code, signal or file.
  const reports = path.join(dir, 'node-reports');
  mkdirSync(reports);
  const run = spawnSync(
    process.execPath,
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}`,
      ...vitestArgs,
    ],
    { stdio: 'inherit', env: { ...process.env, MS_NODE_REPORT_DIR: reports } },
  );
  let report = null;
  try {
    report = JSON.parse(readFileSync(out, 'utf8'));
  } catch {
    report = null;
  }
  let deaths = 0;
  for (const name of existsSync(reports) ? readdirSync(reports) : []) {
    deaths++;
    try {
      const r = JSON.parse(readFileSync(path.join(reports, name), 'utf8'));
      const frames = r.javascriptStack?.stack ?? [];
      // the first frames are Node's loader; the files that called it say which module was required
      const ours = frames.filter((f) => !/node:internal/.test(f)).slice(0, 6);
      console.log(
        `${label} A TEST PROCESS DIED (pid ${r.header?.processId}): ${r.header?.event} (${r.header?.trigger}); ${oneLine(r.javascriptStack?.message)} ${oneLine(frames.slice(0, 3).join(' '))} … ${oneLine(ours.join(' '))}; report ${path.join(reports, name)}`,
      );
    } catch {
      console.log(`${label} A TEST PROCESS DIED: see ${path.join(reports, name)}`);
    }
  }
  // the files of a dead process: their tests stayed "pending" (a skipped test is "skipped")
  const unfinished = (report?.testResults ?? [])
    .filter((f) => (f.assertionResults ?? []).some((t) => t.status === 'pending'))
    .map((f) => path.relative(process.cwd(), f.name));
  // killed without a report (a signal, the kernel's out-of-memory killer): the unfinished files say so
  if (deaths === 0 && unfinished.length > 0 && run.status !== 0) {
    console.log(`${label} A TEST PROCESS DIED without a diagnostic report (killed by a signal?)`);
    deaths = 1;
  }
  return { report, status: run.status, deaths, unfinished };
}

/** Adds a run's counts; on a re-run, what passes counts as passed only on retry, and is named. */
function count({ report }, isRerun) {
  if (!report) {
    failed += 1; // no report: the runner itself failed
    return;
  }
  let runFailed = report.numFailedTests ?? 0;
  // A file that fails to load has no failed test of its own: count it once.
  if (runFailed === 0) runFailed = (report.testResults ?? []).filter((f) => f.status === 'failed').length;
  failed += runFailed;
  // tests of a dead process stay "pending": they did not run, they are not skipped
  skipped += (report.testResults ?? []).flatMap((f) =>
    (f.assertionResults ?? []).filter((t) => ['skipped', 'todo', 'disabled'].includes(t.status)),
  ).length;
  passed += report.numPassedTests ?? 0;
  // Name what failed right above the count line, so a log cut to its end still says which file and why.
  for (const file of report.testResults ?? []) {
    const where = path.relative(process.cwd(), file.name);
    for (const t of file.assertionResults ?? []) {
      if (t.status !== 'passed') continue;
      if (isRerun) {
        retried++;
        console.log(`${label} PASSED ONLY ON RETRY ${where} > ${t.fullName}: its first test process died`);
      } else if (t.failureMessages?.length) {
        // a passed test keeps the messages of its failed tries
        retried++;
        console.log(
          `${label} PASSED ONLY ON RETRY ${where} > ${t.fullName}: ${oneLine(t.failureMessages[0])}`,
        );
      }
    }
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    if (file.status !== 'failed' && failedTests.length === 0) continue;
    if (failedTests.length === 0) console.log(`${label} FAILED FILE ${where}: ${oneLine(file.message)}`);
    for (const t of failedTests)
      console.log(`${label} FAILED ${where} > ${t.fullName}: ${oneLine(t.failureMessages?.[0])}`);
  }
}

/** First 300 characters of a message on one line, without terminal colours. */
function oneLine(text) {
  // eslint-disable-next-line no-control-regex
  return String(text ?? '')
    .replace(/\u001b\[[0-9;]*m/g, '')
    .replace(/\s+/g, ' ')
    .slice(0, 300);
}
