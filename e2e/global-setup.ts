/**
 * Once per end-to-end run, before any suite: checks what the suites need (under CI a missing chromium or web
 * build fails the run with one line, it never skips), builds the server bundle the suites start
 * (scripts/build-server.mjs), and seeds the demo chain once: a product started on an empty DATA_DIR bakes the
 * seed and indexes it; once its index has reached the seed's last block it is stopped, and its DATA_DIR (the
 * chain and the PGlite index) is the template that each suite's `seededDataDir()` copies. Then starts one
 * product on a copy of it that the suites which send nothing to the chain share
 * (`syncedSandboxSession({ shared: true })`), stopped after the run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { cp, rm, writeFile } from 'node:fs/promises';
import {
  CHROMIUM,
  ROOT,
  SHARED_CONFIG,
  SHARED_ENV,
  startServer,
  tempDataDir,
  waitIndexedToNodeHead,
  type RunningServer,
} from './harness';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The seeded DATA_DIR to copy (empty when the run has none: suites then seed their own). */
    e2eTemplate: string;
    /** The URL of the run's shared product (harness `syncedSandboxSession({ shared: true })`). */
    e2eShared: string;
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

  // MS_E2E_TEMPLATE: the bundle that seeded it is the one to start (CI builds it just before, .ci/run)
  if (!process.env.MS_E2E_TEMPLATE) {
    const build = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0)
      throw new Error('[e2e] the server bundle did not build (scripts/build-server.mjs)');
  }

  // MS_E2E_TEMPLATE: a seeded DATA_DIR to copy instead of seeding one (kept after the run)
  let template = process.env.MS_E2E_TEMPLATE ?? '';
  const owned = !template;
  if (owned) template = await seedTemplate();
  project.provide('e2eTemplate', template);
  // the product that read-only suites share, on a copy of the template
  const shared = await startShared(template);
  project.provide('e2eShared', shared.server.url);
  return async () => {
    await shared.server.stop();
    await rm(shared.dataDir, { recursive: true, force: true });
    if (owned) await rm(template, { recursive: true, force: true });
  };
}

/**
 * Bakes and indexes the demo seed in a fresh DATA_DIR, then stops its product: the template. CI seeds it while
 * the web app builds (e2e/seed-template.ts, then MS_E2E_TEMPLATE): it needs only the server bundle.
 */
export async function seedTemplate(): Promise<string> {
  const started = Date.now();
  const template = await tempDataDir();
  const server = await startServer({ dataDir: template, timeoutMs: 240_000 });
  try {
    // the sandbox bakes the whole seed before the server listens: its head is the seed's last block
    await waitIndexedToNodeHead(server.url);
  } catch (err) {
    await server.stop();
    throw new Error(`${String(err)}\n${server.output().split('\n').slice(-30).join('\n')}`);
  }
  await server.stop();
  console.log(`[e2e] seeded template ${template} in ${Math.round((Date.now() - started) / 1000)} s`);
  return template;
}

/** Starts the shared product on a copy of the template, indexed up to its node's head. */
async function startShared(template: string): Promise<{ server: RunningServer; dataDir: string }> {
  const started = Date.now();
  const dataDir = await tempDataDir();
  await cp(template, dataDir, { recursive: true });
  const config = path.join(dataDir, 'michelscope.config.json');
  await writeFile(config, JSON.stringify(SHARED_CONFIG));
  const server = await startServer({
    dataDir,
    env: { ...SHARED_ENV, MICHELSCOPE_CONFIG: config },
    timeoutMs: 240_000,
  });
  try {
    await waitIndexedToNodeHead(server.url);
  } catch (err) {
    await server.stop();
    throw new Error(
      `[e2e] the shared product: ${String(err)}\n${server.output().split('\n').slice(-30).join('\n')}`,
    );
  }
  console.log(`[e2e] shared product at ${server.url} in ${Math.round((Date.now() - started) / 1000)} s`);
  return { server, dataDir };
}
