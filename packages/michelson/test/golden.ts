// Loads the reference implementation's golden cases from ../shared (outside the repository).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SHARED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared');
export const GOLDEN = path.join(SHARED, 'fixtures/bcd-golden');
export const hasShared = existsSync(GOLDEN);
if (!hasShared) console.warn(`[michelson tests] ${GOLDEN} not found: golden and corpus tests are skipped`);

export interface GoldenCase<I = Record<string, unknown>, E = unknown> {
  name: string;
  source: string;
  input: I;
  expected: E;
  expected_error?: boolean;
  notes?: string;
}

/** Cases of one golden file (empty when ../shared is absent). */
export function goldenCases<I = Record<string, unknown>, E = unknown>(file: string): GoldenCase<I, E>[] {
  if (!hasShared) return [];
  const data = JSON.parse(readFileSync(path.join(GOLDEN, file), 'utf8')) as unknown;
  const cases = Array.isArray(data) ? data : (data as { cases: unknown[] }).cases;
  return (cases as GoldenCase<I, E>[]).map((c, i) => ({ ...c, name: `#${i} ${c.name}` }));
}

export function readShared(rel: string): unknown {
  return JSON.parse(readFileSync(path.join(SHARED, rel), 'utf8'));
}
