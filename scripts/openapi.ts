/**
 * Writes docs/openapi.json from the API's route schemas (`npm run openapi`), or with `--check` fails when
 * the committed file differs from what the schemas produce (`npm run openapi:check`, run by CI). It writes
 * (and checks) the web's copy of the shared-simulation schemas too: the web imports api-types as types only,
 * so its share-link check reads their JSON (apps/web/src/generated/shared-simulation.schema.json).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApi } from '@michelscope/api';
import { openDatabase } from '@michelscope/db';
import { SHARE_MAX_BYTES, SharedCall, SharedDeploy, SharedView } from '@michelscope/api-types';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGET = path.join(ROOT, 'docs/openapi.json');
const SHARE_SCHEMA = path.join(ROOT, 'apps/web/src/generated/shared-simulation.schema.json');

/** The shared-simulation schemas as JSON, by kind (`call` has no `kind` field). */
const shareSchemas = () =>
  `${JSON.stringify(
    { maxBytes: SHARE_MAX_BYTES, call: SharedCall, view: SharedView, deploy: SharedDeploy },
    null,
    2,
  )}\n`;

async function generate(): Promise<string> {
  // The document depends on the route schemas only: no configured network or data leaks into it.
  const handle = await openDatabase();
  try {
    const app = await buildApi({ db: handle.db, networks: [] });
    try {
      const res = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
      if (res.statusCode !== 200)
        throw new Error(`GET /v1/openapi.json answered ${res.statusCode}: ${res.body}`);
      return `${JSON.stringify(JSON.parse(res.body), null, 2)}\n`;
    } finally {
      await app.close();
    }
  } finally {
    await handle.close();
  }
}

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  let failed = 0;
  for (const [target, generated] of [
    [TARGET, await generate()],
    [SHARE_SCHEMA, shareSchemas()],
  ] as const) {
    const relative = path.relative(ROOT, target);
    if (!check) {
      await writeFile(target, generated);
      console.log(`wrote ${relative}`);
      continue;
    }
    const committed = await readFile(target, 'utf8').catch(() => null);
    if (committed === generated) {
      console.log(`${relative} is up to date`);
      continue;
    }
    failed = 1;
    console.error(
      committed === null
        ? `${relative} is missing: run \`npm run openapi\` and commit it.`
        : `${relative} does not match the schemas: run \`npm run openapi\` and commit the result.`,
    );
  }
  return failed;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
