/**
 * Test helper (`@michelscope/sandbox/testing`): the demo-seeded chain, seeded once per test run.
 *
 * Baking the demo seed (about a hundred blocks of originations and calls) took each of the ~20 suites that
 * start from it 10–25 s of CPU on the 2-core CI machine (issue 40). The packages project's global setup
 * (packages/sandbox/test/global-setup.ts) seeds one chain, stops it (its state snapshot is then at the head)
 * and provides its folder; `openSeededSandbox` copies that folder into the suite's DATA_DIR, hands the suite's
 * `log` the lines the seeding wrote (the suites read the contracts' addresses from the seed's line), and
 * opens the copy. Without the global setup (a file run by another configuration) it seeds as before.
 *
 * The copy is the same chain a suite would have seeded, except that its blocks were baked when the run
 * started: the head is older by the time the run has taken so far, and the next block is baked at the wall
 * clock as after any restart.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';
import { Sandbox, type SandboxOptions } from './sandbox';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The seeded chain's DATA_DIR of this run (packages/sandbox/test/global-setup.ts). */
    msSeededSandbox?: string;
  }
}

/** The seeding's log lines, kept beside the chain. */
const SEED_LOG = 'seed-log.json';

/** Seeds the demo chain in `dataDir` and stops it; throws when the seed failed. */
export async function seedTemplate(dataDir: string): Promise<void> {
  const lines: string[] = [];
  const sandbox = await Sandbox.open({
    dataDir,
    blockTimeMs: 3_600_000,
    seed: true,
    log: (line) => lines.push(line),
  });
  await sandbox.stop();
  if (!lines.some((l) => l.startsWith('sandbox: demo seed:')))
    throw new Error(`the demo seed failed:\n${lines.join('\n')}`);
  await writeFile(path.join(dataDir, SEED_LOG), JSON.stringify(lines));
}

/**
 * Copies the run's seeded chain into `dataDir` and hands `log` the lines its seeding wrote; false when the
 * run has none (then open with `seed: true`). For a chain opened another way (a chain worker, a standalone
 * node): `seed: !(await copySeededChain(dir, log))`.
 */
export async function copySeededChain(dataDir: string, log?: (line: string) => void): Promise<boolean> {
  const template = inject('msSeededSandbox');
  if (!template) return false;
  await cp(path.join(template, 'sandbox'), path.join(dataDir, 'sandbox'), { recursive: true });
  const lines = JSON.parse(await readFile(path.join(template, SEED_LOG), 'utf8')) as string[];
  for (const line of lines) log?.(line);
  return true;
}

/** `Sandbox.open({ ...opts, seed: true })`, from the run's seeded chain when there is one. */
export async function openSeededSandbox(opts: Omit<SandboxOptions, 'seed' | 'mustExist'>): Promise<Sandbox> {
  if (!(await copySeededChain(opts.dataDir, opts.log))) return Sandbox.open({ ...opts, seed: true });
  return Sandbox.open({ ...opts, mustExist: true });
}
