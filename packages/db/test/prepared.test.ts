import { expect, it } from 'vitest';
import { preparedQuery } from '../src/read/prepared';
import { describeDb } from '../src/testing';

const byNetwork = preparedQuery<{ address: string; level: number }>(
  'SELECT address, level FROM accounts WHERE network = $1 AND level >= $2 ORDER BY level',
);

/**
 * Reads marked as prepared statements: the same text run many times with other values (PostgreSQL switches
 * to a cached generic plan after five runs) returns each time the rows of its own values, on both backends,
 * and a table change after the first runs is seen.
 */
// PGlite and PostgreSQL: named prepared statements exist only on PostgreSQL.
describeDb('prepared reads', { backends: 'both' }, ({ db }) => {
  it('each run answers for its own values, before and after the plan is cached', async () => {
    const accounts = Array.from({ length: 12 }, (_, i) => ({
      network: i % 2 ? 'odd' : 'even',
      address: `tz1Prepared${String(i).padStart(25, 'x')}`,
      type: 'account' as const,
      level: i,
      last_action: new Date(Date.UTC(2026, 0, 1)),
    }));
    await db().insertInto('accounts').values(accounts).execute();
    for (let run = 0; run < 12; run++) {
      const network = run % 2 ? 'odd' : 'even';
      const rows = await byNetwork(db(), [network, run]);
      expect(rows).toEqual(
        accounts
          .filter((a) => a.network === network && a.level >= run)
          .map(({ address, level }) => ({ address, level })),
      );
    }
    await db().deleteFrom('accounts').where('network', '=', 'odd').where('level', '>', 5).execute();
    expect((await byNetwork(db(), ['odd', 0])).map((r) => r.level)).toEqual([1, 3, 5]);
  });
});
