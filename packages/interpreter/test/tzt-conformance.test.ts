/**
 * The TZT reference suite (../shared/conformance/tzt), one test per file. Files that are known to fail are
 * listed with their reason in tzt-expected-failures.json: such a file must still fail (so the list cannot go
 * stale) and any other file must pass. The last test checks the rate against Octez's own results.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTzt } from '../src/index';
import type { TztResult } from '../src/index';
import expectedFailures from './tzt-expected-failures.json';

const shared = path.resolve(__dirname, '../../../../shared');
const dir = path.join(shared, 'conformance/tzt');
const octezOut = path.join(shared, 'conformance/octez-tzt-regression.out');
const hasShared = existsSync(dir);
if (!hasShared)
  console.warn(`TZT conformance skipped: ${dir} not found (the shared data sits beside the repository)`);

function listFiles(d: string, base = d): string[] {
  return readdirSync(d)
    .sort()
    .flatMap((f) => {
      const p = path.join(d, f);
      if (statSync(p).isDirectory()) return listFiles(p, base);
      return f.endsWith('.tzt') ? [path.relative(base, p)] : [];
    });
}

const files = hasShared ? listFiles(dir) : [];
const known = expectedFailures as Record<string, string>;
const results = new Map<string, TztResult>();

describe.skipIf(!hasShared)('TZT reference suite', () => {
  it.each(files)('%s', (file) => {
    const r = runTzt(readFileSync(path.join(dir, file), 'utf8'), { legacy: file.startsWith('legacy/') });
    results.set(file, r);
    if (file in known) {
      expect(r.pass, `${file} now passes: remove it from tzt-expected-failures.json`).toBe(false);
    } else {
      expect(r.pass, `${file}: ${r.reason}`).toBe(true);
    }
  });

  it('passes at least 99% of the files Octez passes, and every listed failure has a reason', () => {
    // Octez's own failures: the "<path>:" lines of its regression output.
    const octezFailed = new Set(
      [...readFileSync(octezOut, 'utf8').matchAll(/^tzt_reference_test_suite\/(\S+\.tzt):$/gm)].map(
        (m) => m[1] as string,
      ),
    );
    expect(octezFailed.size).toBeGreaterThan(0);
    const failures = files.filter((f) => results.get(f)?.pass === false);
    for (const f of failures) console.log(`TZT failure ${f}: ${known[f] ?? results.get(f)?.reason}`);
    const octezPassed = files.filter((f) => !octezFailed.has(f));
    const weOnOctezPassed = octezPassed.filter((f) => results.get(f)?.pass === true).length;
    console.log(
      `TZT: ${files.length - failures.length}/${files.length} files pass; ${weOnOctezPassed}/${octezPassed.length} of those Octez passes`,
    );
    expect(results.size).toBe(files.length);
    expect(weOnOctezPassed / octezPassed.length).toBeGreaterThanOrEqual(0.99);
    for (const [f, reason] of Object.entries(known)) {
      expect(files, `listed file ${f} does not exist`).toContain(f);
      expect(reason.length).toBeGreaterThan(0);
    }
  });
});
