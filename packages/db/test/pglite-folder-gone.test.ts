// The PGlite data folder removed under a running database (issue 34 item 5): queries fail with a message that
// says so, instead of writes going to deleted files; the same folder put back makes it work again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../src/index';

let handle: DbHandle | undefined;
afterEach(async () => {
  await handle?.close().catch(() => undefined);
  handle = undefined;
});

it('fails every query while its folder is gone, and works again once the same folder is back', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ms-pglite-gone-'));
  const dir = path.join(root, 'pglite');
  handle = await openDatabase({ dataDir: dir });
  await sql`CREATE TABLE t (x int)`.execute(handle.db);
  await sql`INSERT INTO t VALUES (1)`.execute(handle.db);

  const away = path.join(root, 'moved-away');
  fs.renameSync(dir, away);
  await new Promise((r) => setTimeout(r, 600));
  await expect(sql`INSERT INTO t VALUES (2)`.execute(handle.db)).rejects.toThrow(
    /database folder .* is gone/,
  );
  await expect(sql`SELECT 1`.execute(handle.db)).rejects.toThrow(/is gone/);

  fs.renameSync(away, dir);
  await new Promise((r) => setTimeout(r, 600));
  await sql`INSERT INTO t VALUES (3)`.execute(handle.db);
  const rows = await sql<{ x: number }>`SELECT x FROM t ORDER BY x`.execute(handle.db);
  expect(rows.rows.map((r) => r.x)).toEqual([1, 3]);
  await handle.close();
  handle = undefined;
  fs.rmSync(root, { recursive: true, force: true });
}, 60_000);
