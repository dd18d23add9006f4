/**
 * A child process of the crash-safety tests (kill-restart.test.ts, backfill-kill.test.ts): its script is
 * bundled once per test file (scripts/bundle-node.mjs, into node_modules/.cache so that its dependencies
 * resolve) instead of being transpiled by tsx at each start, and each run is killed with SIGKILL once the
 * count it prints reaches a given value.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { bundleNode } from '../../../scripts/bundle-node.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../../..');

export interface ChildRun {
  /** The last count the child printed (`<WORD> n`). */
  count: number;
  signal: string | null;
  /** The child printed DONE. */
  done: boolean;
}

/**
 * The child script `file` (a .ts beside this one) for the test file it is called in: call at the module's top.
 * `word` is what its progress lines start with (`LEVEL 12`, `BELOW 3`).
 */
export function killableChild(
  file: string,
  word: string,
): (args: string[], killAfter: number | null) => Promise<ChildRun> {
  const name = path.basename(file, '.ts');
  let bundled: Promise<string> | undefined;
  const script = () =>
    (bundled ??= (async () => {
      const cache = path.join(ROOT, 'node_modules/.cache');
      mkdirSync(cache, { recursive: true });
      const outdir = mkdtempSync(path.join(cache, `ms-${name}-`));
      await bundleNode({ entries: { [name]: path.relative(ROOT, path.join(HERE, file)) }, outdir });
      return path.join(outdir, `${name}.mjs`);
    })());
  afterAll(async () => {
    if (bundled) rmSync(path.dirname(await bundled), { recursive: true, force: true });
  });
  const progress = new RegExp(`^${word} (\\d+)$`);

  /** Runs the child; kills it (SIGKILL, after a random delay) once its count reaches `killAfter`. */
  return async (args, killAfter) => {
    const js = await script();
    return new Promise((resolve, reject) => {
      const child: ChildProcess = spawn(process.execPath, [js, ...args], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let count = 0;
      let done = false;
      let err = '';
      let buf = '';
      child.stdout!.on('data', (c: Buffer) => {
        buf += c.toString();
        for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (line === 'DONE') done = true;
          const m = progress.exec(line);
          if (m) count = Number(m[1]);
          if (killAfter !== null && count >= killAfter && child.exitCode === null && !child.killed) {
            // a random delay so that the kill lands anywhere: between blocks or inside a block's transaction
            setTimeout(() => child.kill('SIGKILL'), Math.floor(Math.random() * 25));
          }
        }
      });
      child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
      child.on('error', reject);
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        if (signal === null && code !== 0)
          reject(new Error(`${name} exited with ${code}: ${err.slice(-2000)}`));
        else resolve({ count, signal, done });
      });
    });
  };
}
