import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { ACCOUNT_PAGE_SQL } from '../src/read/opg';
import { describeDb } from '../src/testing';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

// PGlite and PostgreSQL: an account's operation-group page reaches its rows through the account indexes alone
// (migration 0390). A page deep in a busy contract's history otherwise read a table page per row, from the disk
// when the database outgrows the memory (1.4–2.8 s p99 at 50 connections on the 10,000,000-operation data,
// bench/RESULTS.md); a column added to the page's window without being added to the indexes would bring that back
// without failing any other test.
describeDb('an account’s operation-group page', { backends: 'both' }, ({ db }) => {
  it('reads the account’s rows by index-only scans of its source and destination indexes', async () => {
    const row = (id: number, source: string, destination: string) => ({
      id,
      network: 'plannet',
      level: 100 + id,
      timestamp: new Date('2026-01-10T12:00:00Z'),
      protocol_id: 1,
      hash: `oo${id}`,
      counter: id,
      content_index: 0,
      kind: 'transaction',
      status: 'applied' as const,
      source,
      destination,
      amount: '1',
      group_cost: 10,
      group_internals: 0,
      internal: false,
      tags: 0,
      allocated_destination_contract: false,
      big_map_diffs_count: 0,
      ticket_updates_count: 0,
    });
    await db()
      .insertInto('operations')
      .values(
        Array.from({ length: 40 }, (_, i) => row(i + 1, i % 2 ? 'tz1a' : 'KT1b', i % 2 ? 'KT1b' : 'tz1c')),
      )
      .execute();
    // the visibility map (an index-only scan needs it) and the planner's statistics, as autovacuum keeps them
    await sql`VACUUM ANALYZE operations`.execute(db());
    await db()
      .connection()
      .execute(async (c) => {
        // a table this small would be read whole: the test is about which index paths cover the page
        await sql`SET enable_seqscan = off`.execute(c);
        await sql`SET enable_bitmapscan = off`.execute(c);
        await sql
          .raw(`PREPARE account_page (text, text, bigint, integer, integer) AS ${ACCOUNT_PAGE_SQL}`)
          .execute(c);
        const r = await sql<{ 'QUERY PLAN': unknown }>`EXPLAIN (FORMAT JSON)
        EXECUTE account_page ('plannet', 'KT1b', 30, 22, 10)`.execute(c);
        await sql`DEALLOCATE account_page`.execute(c);
        await sql`RESET enable_seqscan`.execute(c);
        await sql`RESET enable_bitmapscan`.execute(c);
        const raw = r.rows[0]!['QUERY PLAN'];
        const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: PlanNode }>;
        const scans = nodes(plan[0]!.Plan).filter((n) => n['Relation Name'] === 'operations');
        // the window's two ranges; the page's other reads of operations (a group summed again by hash or level)
        // are only for rows written before migration 0350 or cut by the window
        const window = scans.filter((n) =>
          /^operations_(source|destination)_rows$/.test(n['Index Name'] ?? ''),
        );
        expect(window.map((n) => [n['Index Name'], n['Node Type']]).sort()).toEqual([
          ['operations_destination_rows', 'Index Only Scan'],
          ['operations_source_rows', 'Index Only Scan'],
        ]);
      });
  });
});
