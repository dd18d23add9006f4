import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { canCopy, copyRows, copyValue } from '../src/write/copy';
import { describeDb } from '../src/testing';

/** `count` COPY lines `n<TAB>text` from `from` on; the text holds characters COPY escapes, and is long. */
const lines = (from: number, count: number) =>
  Array.from(
    { length: count },
    (_, i) => `${from + i}\t${copyValue(`row ${from + i}\ttab\nline \\ é ${'x'.repeat(40)}`)}\n`,
  ).join('');

/**
 * The writer's COPY on a PostgreSQL server: its data goes in chunks (one per block of a batch), several
 * megabytes in all, so the socket fills and the sender waits for it to drain between chunks. PGlite has no
 * COPY: the writer keeps its INSERT there.
 */
// PGlite and PostgreSQL: COPY exists only on PostgreSQL (PGlite keeps the INSERT).
describeDb('COPY writes', { backends: 'both' }, ({ db, kind }) => {
  it('stores the rows of every chunk, in order; a bad line in a later chunk stores nothing', async () => {
    expect(await canCopy(db())).toBe(kind === 'postgres');
    if (kind === 'pglite') return;
    await sql`CREATE TABLE copy_probe (n integer PRIMARY KEY, t text NOT NULL)`.execute(db());
    const per = 40_000;
    const chunks = [0, 1, 2].map((c) => lines(c * per, per));
    expect(chunks.join('').length).toBeGreaterThan(8_000_000);
    await db()
      .transaction()
      .execute((trx) => copyRows(trx, 'copy_probe', ['n', 't'], chunks));
    const stored = await sql<{
      n: number;
      t: string;
    }>`SELECT n, t FROM copy_probe WHERE n % 9973 = 0 ORDER BY n`.execute(db());
    expect(stored.rows.length).toBe(Math.floor((3 * per - 1) / 9973) + 1);
    for (const r of stored.rows) expect(r.t).toBe(`row ${r.n}\ttab\nline \\ é ${'x'.repeat(40)}`);
    expect(
      (await sql<{ c: number }>`SELECT count(*)::int AS c FROM copy_probe`.execute(db())).rows[0]!.c,
    ).toBe(3 * per);

    // The third chunk's last line is not an integer: the statement fails with the server's message,
    // the transaction stores none of the three chunks, and the connection serves the next statement.
    const bad = [lines(10 * per, per), lines(11 * per, per), lines(12 * per, per) + 'twelve\tbad\n'];
    await expect(
      db()
        .transaction()
        .execute((trx) => copyRows(trx, 'copy_probe', ['n', 't'], bad)),
    ).rejects.toThrow(/invalid input syntax for type integer: "twelve"/);
    // The first line is bad: the server fails while the next chunks are still being sent.
    const early = ['one\tbad\n' + lines(20 * per, per), lines(21 * per, per), lines(22 * per, per)];
    await expect(
      db()
        .transaction()
        .execute((trx) => copyRows(trx, 'copy_probe', ['n', 't'], early)),
    ).rejects.toThrow(/invalid input syntax for type integer: "one"/);
    expect(
      (await sql<{ c: number }>`SELECT count(*)::int AS c FROM copy_probe`.execute(db())).rows[0]!.c,
    ).toBe(3 * per);
  });
});
