/**
 * Vitest global setup (vitest.config.ts): prepares once per run the migrated databases that database suites
 * start from (src/test-databases.ts), instead of each suite migrating an empty one, and passes them to the
 * test files (`inject` in src/testing.ts).
 */
import type { TestProject } from 'vitest/node';
import { redact } from '../src/connection';
import { preparePgliteDump, preparePostgresTemplate } from '../src/test-databases';

export default async function setup(project: TestProject): Promise<void> {
  const started = Date.now();
  const url = process.env.TEST_DATABASE_URL;
  const [dump, template] = await Promise.all([
    preparePgliteDump(),
    url
      ? preparePostgresTemplate(url).catch((err: unknown) => {
          throw new Error(
            `TEST_DATABASE_URL ${redact(url)}: cannot prepare the template database: ${String(err)}`,
          );
        })
      : Promise.resolve(undefined),
  ]);
  project.provide('msPgliteDump', dump);
  project.provide('msPgTemplate', template);
  const took = Date.now() - started;
  if (took > 2_000) console.log(`[db tests] migrated databases prepared in ${(took / 1000).toFixed(1)} s`);
}
