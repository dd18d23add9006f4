/**
 * Vitest global setup of the packages project (vitest.config.ts): seeds the demo chain once per run for the
 * suites that start from it (`openSeededSandbox`, src/testing.ts), and removes it after the run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { seedTemplate } from '../src/testing';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const dir = await mkdtemp(path.join(tmpdir(), 'ms-seeded-sandbox-'));
  await seedTemplate(dir);
  project.provide('msSeededSandbox', dir);
  console.log(`[sandbox tests] demo chain seeded once in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return () => rm(dir, { recursive: true, force: true });
}
