import { describeDb } from '@michelscope/db/testing';
import { SEARCH_TOTAL_CAP } from '@michelscope/db/read';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { makeApi } from './helpers';
import { NET } from './seed';

const CALLS = SEARCH_TOTAL_CAP + 10;

/**
 * An entrypoint name called more often than the search counts (the cap): its count is kept once it reached the
 * cap (a common name such as "transfer" was counted again, 10,000 index entries, at every search, issue 36),
 * and every page still says how many there are.
 */
describeDb('an entrypoint called more than the cap', { backends: 'both' }, ({ db }) => {
  it('every page of its calls says "more than 10000", newest first; a status filter is counted', async () => {
    await sql`INSERT INTO operations (id, network, level, timestamp, protocol_id, hash, counter, content_index,
        kind, status, source, destination, amount, entrypoint, internal, tags, allocated_destination_contract,
        big_map_diffs_count, ticket_updates_count, group_cost, group_internals)
      SELECT g, ${NET}, g, timestamptz '2026-01-01T00:00:00Z' + g * interval '1 second', 1, 'oo' || g, g, 0,
        'transaction', CASE WHEN g % 7 = 0 THEN 'failed' ELSE 'applied' END, 'tz1Caller', 'KT1Called', '0',
        'capped_call', false, 0, false, 0, 0, 10, 0
      FROM generate_series(1, ${CALLS}::integer) g`.execute(db());
    const app = await makeApi(db());
    try {
      const page = async (offset: number, status?: string[]) => {
        const r = await app.inject({
          method: 'POST',
          url: '/search/v1/search',
          payload: {
            query: 'capped_call',
            size: 10,
            offset,
            filters: {
              search: { network: [NET], index: ['operations'] },
              ...(status ? { operations: { status } } : {}),
            },
          },
        });
        expect(r.statusCode, r.body).toBe(200);
        const body = r.json<{ total: number; items: Array<{ found_by: string; body: { Hash: string } }> }>();
        return {
          total: body.total,
          hashes: body.items.map((i) => i.body.Hash),
          by: body.items.map((i) => i.found_by),
        };
      };
      const newest = (from: number, step = 1) => Array.from({ length: 10 }, (_, i) => `oo${from - i * step}`);
      // counted up to the cap, then the kept count: the same total on every page, pages in order
      for (const [offset, from] of [
        [0, CALLS],
        [10, CALLS - 10],
        [0, CALLS],
        [9_990, CALLS - 9_990],
      ] as const) {
        const p = await page(offset);
        expect(p.total, `offset ${offset}`).toBe(SEARCH_TOTAL_CAP);
        expect(p.hashes).toEqual(newest(from));
        expect(new Set(p.by)).toEqual(new Set(['Entrypoint']));
      }
      // a filtered count below the cap is counted at each search (not taken from the unfiltered one), among the
      // newest cap calls (search_entrypoint_calls, migration 0370)
      const failed = Math.floor(CALLS / 7) - Math.floor((CALLS - SEARCH_TOTAL_CAP) / 7);
      for (const offset of [0, 10]) {
        const p = await page(offset, ['failed']);
        expect(p.total).toBe(failed);
        const top = 7 * Math.floor(CALLS / 7) - offset * 7;
        expect(p.hashes).toEqual(newest(top, 7));
      }
    } finally {
      await app.close();
    }
  });
});
