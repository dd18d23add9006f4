/**
 * Once per end-to-end run, before any suite: checks what the suites need (under CI a missing chromium or web
 * build fails the run with one line, it never skips), builds the server bundle the suites start
 * (scripts/build-server.mjs), and seeds the demo chain once: a product started on an empty DATA_DIR bakes the
 * seed and indexes it; once its index has reached the seed's last block it is stopped, and its DATA_DIR (the
 * chain and the PGlite index) is the template that each suite's `seededDataDir()` copies.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, heads, ROOT, startServer, tempDataDir, waitFor } from './harness';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The seeded DATA_DIR to copy (empty when the run has none: suites then seed their own). */
    e2eTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const missing = [
    existsSync(CHROMIUM) ? null : `chromium (${CHROMIUM}; apt-get install -y chromium)`,
    existsSync(path.join(ROOT, 'apps/web/dist/index.html')) ? null : 'the web build (npm run build:web)',
  ].filter(Boolean);
  if (missing.length > 0) {
    const line = `[e2e] missing: ${missing.join(', ')}`;
    // under CI a browser suite that cannot run is a failure, not a skip
    if (process.env.CI) throw new Error(`${line}: the browser suites cannot run`);
    console.warn(`${line}: the browser suites skip`);
  }

  const build = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('[e2e] the server bundle did not build (scripts/build-server.mjs)');

  // MS_E2E_TEMPLATE: a seeded DATA_DIR to copy instead of seeding one (kept after the run)
  if (process.env.MS_E2E_TEMPLATE) {
    project.provide('e2eTemplate', process.env.MS_E2E_TEMPLATE);
    return async () => {};
  }
  const started = Date.now();
  const template = await tempDataDir();
  const server = await startServer({ dataDir: template, timeoutMs: 240_000 });
  try {
    const node = (await (
      await fetch(`${server.url}/rpc/sandboxnet/chains/main/blocks/head/header`)
    ).json()) as { level: number };
    await waitFor(
      `the template's sandboxnet indexed up to the seed's last block ${node.level}`,
      300_000,
      async () =>
        (await heads(server.url)).find((h) => h.network === 'sandboxnet' && h.level >= node.level)
          ? true
          : undefined,
    );
  } catch (err) {
    await server.stop();
    throw new Error(`${String(err)}\n${server.output().split('\n').slice(-30).join('\n')}`);
  }
  await server.stop();
  console.log(`[e2e] seeded template ${template} in ${Math.round((Date.now() - started) / 1000)} s`);
  project.provide('e2eTemplate', template);
  return async () => {
    await rm(template, { recursive: true, force: true });
  };
}
