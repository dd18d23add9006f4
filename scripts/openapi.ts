/**
 * Writes docs/openapi.json from the API's route schemas (`npm run openapi`), or with `--check` fails when
 * the committed file differs from what the schemas produce (`npm run openapi:check`, run by CI).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApi } from '@michelscope/api';
import { openDatabase } from '@michelscope/db';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGET = path.join(ROOT, 'docs/openapi.json');

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
  const generated = await generate();
  const relative = path.relative(ROOT, TARGET);
  if (!check) {
    await writeFile(TARGET, generated);
    console.log(`wrote ${relative}`);
    return 0;
  }
  const committed = await readFile(TARGET, 'utf8').catch(() => null);
  if (committed === generated) {
    console.log(`${relative} is up to date`);
    return 0;
  }
  console.error(
    committed === null
      ? `${relative} is missing: run \`npm run openapi\` and commit it.`
      : `${relative} does not match the route schemas: run \`npm run openapi\` and commit the result.`,
  );
  return 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
