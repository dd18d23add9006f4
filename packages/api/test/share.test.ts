/**
 * Shared simulations (issue 20, capability 6): POST /v1/shares stores a state under a content-addressed id (the
 * same state — whatever its key order — gives the same id and one row), GET gives it back as stored, the list
 * is read by its id alone (no list), and bad or huge input is a 4xx {message}, never stored; the store is
 * bounded by the bytes the database takes (least recently opened states evicted) and by a quota per client.
 */
import { describeDb } from '@michelscope/db/testing';
import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeApi } from './helpers';

const KT = 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5';
const state = (over: Record<string, unknown> = {}) => ({
  v: 1,
  network: 'sandboxnet',
  address: KT,
  entrypoint: 'mint',
  data: { mint: { amount: '5', to: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx' } },
  settings: { source: '', sender: '', amount: '' },
  what_if: {
    overrides: {
      storageMode: 'none',
      storageText: '',
      storageForm: {},
      balance: '1000000',
      now: '',
      level: '',
      source: '',
      sender: '',
      amount: '',
      chainId: '',
      bigMaps: [{ map: 'ledger', key: '"tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx"', value: '7', remove: false }],
    },
    bundle: [],
  },
  show: 'whatif',
  debug: { call: 0, step: 12, tab: 'step' },
  ...over,
});
/** The same object with every key order reversed. */
const reversed = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(reversed)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v)
            .reverse()
            .map(([k, x]) => [k, reversed(x)]),
        )
      : v;

// PGlite and PostgreSQL: the API's own write (jsonb, ON CONFLICT) through each driver.
describeDb('shared simulations', { backends: 'both' }, ({ db }) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await makeApi(db());
  });
  afterAll(() => app.close());
  const post = (payload: unknown) =>
    app.inject({
      method: 'POST',
      url: '/v1/shares',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });

  it('stores a state under a content-addressed id and gives it back', async () => {
    const a = await post(state());
    expect(a.statusCode).toBe(200);
    const { id, bytes } = a.json<{ id: string; bytes: number }>();
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(bytes).toBeGreaterThan(300);
    // the same state in another key order: the same id, and still one row
    const b = await post(reversed(state()));
    expect(b.json<{ id: string }>().id).toBe(id);
    const got = await app.inject({ method: 'GET', url: `/v1/shares/${id}` });
    expect(got.statusCode).toBe(200);
    expect(got.json<{ state: unknown }>().state).toEqual(state());
    const other = await post(state({ debug: { call: 0, step: 13, tab: 'step' } }));
    expect(other.json<{ id: string }>().id).not.toBe(id);
    const rows = await db().selectFrom('shared_simulations').select('id').execute();
    expect(rows.map((r) => r.id).sort()).toEqual([id, other.json<{ id: string }>().id].sort());
  });

  it('lists nothing: a stored state is read by its id alone (the link is the secret)', async () => {
    for (const url of ['/v1/shares', '/v1/shares?network=sandboxnet&size=10', '/v1/shares?size=1&offset=1']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain(KT);
    }
    const doc = (await app.inject('/v1/openapi.json')).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    expect(Object.keys(doc.paths['/v1/shares'] ?? {})).toEqual(['post']);
  });

  it('counts a state by what the database stores: a compressible one by its compressed size', async () => {
    const res = await post(state({ data: { mint: { to: 'x'.repeat(20_000) } } }));
    expect(res.statusCode).toBe(200);
    const { id, bytes } = res.json<{ id: string; bytes: number }>();
    const row = await db()
      .selectFrom('shared_simulations')
      .select(['stored_bytes', sql<number>`pg_column_size(state)`.as('column_size')])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(bytes).toBeGreaterThan(20_000);
    expect(row.column_size).toBeLessThan(2_000);
    expect(row.stored_bytes).toBeGreaterThan(row.column_size);
    expect(row.stored_bytes).toBeLessThan(bytes / 4);
    await db().deleteFrom('shared_simulations').where('id', '=', id).execute();
  });

  it('stores a view and a deploy page as they are (each kind checked by its own schema, no field dropped)', async () => {
    const view = {
      v: 1,
      kind: 'view',
      network: 'sandboxnet',
      address: KT,
      view: { kind: 'off-chain', name: 'balance_of', implementation: 0 },
      data: { owner: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx' },
      debug: { step: 3, tab: 'profile' },
    };
    const deploy = {
      v: 1,
      kind: 'deploy',
      network: 'sandboxnet',
      code: `parameter nat; storage nat; code { CAR; NIL operation; PAIR } # ${'x'.repeat(3000)}`,
      storage: { storage: '7' },
      balance: '',
      show: 'debug',
      call: { entrypoint: 'default', mode: 'form', data: { default: '5' }, text: '' },
      debug: { step: 2, tab: 'step' },
    };
    for (const [state, address, entrypoint] of [
      [view, KT, 'balance_of'],
      [deploy, '', ''],
    ] as const) {
      const res = await post(state);
      expect(res.statusCode, res.body).toBe(200);
      const { id } = res.json<{ id: string }>();
      const got = await app.inject({ method: 'GET', url: `/v1/shares/${id}` });
      expect(got.json<{ state: unknown }>().state).toEqual(state);
      const row = await db()
        .selectFrom('shared_simulations')
        .select(['address', 'entrypoint'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ address, entrypoint });
      await db().deleteFrom('shared_simulations').where('id', '=', id).execute();
    }
    // a kind's own bounds hold
    for (const bad of [
      { ...view, view: { ...view.view, kind: 'sideways' } },
      { ...view, debug: { step: 1, tab: 'sideways' } },
      { ...view, kind: 'deploy' },
      { ...deploy, show: 'whatif' },
      { ...deploy, call: { ...deploy.call, mode: 'eval' } },
      { ...deploy, code: 'x'.repeat(70_000) },
    ]) {
      const res = await post(bad);
      expect(res.statusCode, JSON.stringify(bad).slice(-120)).toBe(400);
    }
  });

  it('answers 4xx {message} to bad, hostile and huge input, and stores none of it', async () => {
    const before = (await db().selectFrom('shared_simulations').select('id').execute()).length;
    const bad: [unknown, number][] = [
      [{ ...state(), v: 2 }, 400],
      [{ ...state(), address: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx' }, 400],
      [{ ...state(), network: 'nowhere' }, 400],
      [{ ...state(), show: '<script>' }, 400],
      [{ ...state(), debug: { call: 9, step: -1, tab: 'step' } }, 400],
      ['not an object', 400],
      [[], 400],
      // within each field's bound, over the state's: 413
      [
        state({
          data: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'x'.repeat(2000)])),
        }),
        413,
      ],
      // over the body limit: refused before it is parsed
      [state({ data: { big: 'x'.repeat(200_000) } }), 413],
    ];
    for (const [payload, status] of bad) {
      const res = await post(payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(status);
      expect(typeof res.json<{ message: string }>().message).toBe('string');
    }
    const deep = await app.inject({
      method: 'POST',
      url: '/v1/shares',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(state()).replace(
        '"data":{',
        `"data":{"x":${'['.repeat(5000)}${']'.repeat(5000)},`,
      ),
    });
    expect(deep.statusCode).toBe(400);
    for (const url of ['/v1/shares/short', '/v1/shares/' + 'a'.repeat(60)]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
    }
    // an over-long path parameter: 414
    expect((await app.inject({ method: 'GET', url: '/v1/shares/' + 'a'.repeat(200) })).statusCode).toBe(414);
    const unknown = await app.inject({ method: 'GET', url: `/v1/shares/${'A'.repeat(22)}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: `no stored simulation ${'A'.repeat(22)}` });
    expect((await db().selectFrom('shared_simulations').select('id').execute()).length).toBe(before);
  });
});

// PGlite and PostgreSQL: what jsonb cannot hold (NUL, a lone surrogate) differs from what JSON can say.
describeDb(
  'shared simulations: valid JSON the store cannot hold faithfully',
  { backends: 'both' },
  ({ db }) => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await makeApi(db());
    });
    afterAll(() => app.close());
    /** A raw JSON body: the state with `text` put in place of `"@HERE@"`. */
    const raw = (over: Record<string, unknown>, text: string) =>
      app.inject({
        method: 'POST',
        url: '/v1/shares',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(over.kind === 'deploy' ? over : state(over)).replace('"@HERE@"', text),
      });
    const deploy = (code: string) => ({
      v: 1,
      kind: 'deploy',
      network: 'sandboxnet',
      code,
      storage: { storage: '7' },
      balance: '',
      show: 'debug',
      call: { entrypoint: 'default', mode: 'form', data: { default: '5' }, text: '' },
    });

    it('answers 400 naming the field to a NUL, a lone surrogate, 1e400 or a number past 2^53; stores none', async () => {
      const cases: [Record<string, unknown>, string, RegExp][] = [
        // in code, in a storage value, in a form value, in a key
        [deploy('@HERE@'), '"parameter unit; storage unit; code { FAILWITH } # \\u0000"', /^code: .*U\+0000/],
        [{ data: { mint: { to: '@HERE@' } } }, '"tz1\\ud800"', /^data\.mint\.to: .*surrogate/],
        [{ data: { mint: { to: '@HERE@' } } }, '"\\udc00 x"', /^data\.mint\.to: .*surrogate/],
        [
          {
            what_if: {
              ...state().what_if,
              overrides: { ...state().what_if.overrides, storageText: '@HERE@' },
            },
          },
          '"Pair \\u0000 1"',
          /^what_if\.overrides\.storageText: .*U\+0000/,
        ],
        [{ data: '@HERE@' }, '{"mint":{"\\u0000":"1"}}', /^data\.mint: a key .*U\+0000/],
        [{ data: '@HERE@' }, '{"mint":{"a\\ud800":"1"}}', /^data\.mint: a key .*surrogate/],
        [{ data: { mint: { amount: '@HERE@' } } }, '1e400', /^data\.mint\.amount: .*number/],
        [{ data: { mint: { amount: '@HERE@' } } }, '-1e400', /^data\.mint\.amount: .*number/],
        [
          { data: { mint: { amount: '@HERE@' } } },
          '123456789012345678901234567890',
          /^data\.mint\.amount: the number 1234.* cannot be read as it is written/,
        ],
        [
          { data: { mint: { amount: ['@HERE@'] } } },
          '9007199254740993',
          /^data\.mint\.amount\[0\]: the number 9007199254740993 /,
        ],
        [
          { data: { mint: { amount: [1, 2, '@HERE@'] } } },
          '1e-400',
          /^data\.mint\.amount\[2\]: the number 1e-400 /,
        ],
        [
          { data: { 'a b': { c: '@HERE@' } } },
          '0.12345678901234567890123',
          /^data\["a b"\]\.c: the number 0\.1234/,
        ],
      ];
      for (const [over, text, message] of cases) {
        const res = await raw(over, text);
        expect(res.statusCode, `${text}: ${res.body}`).toBe(400);
        expect(res.json<{ message: string }>().message, text).toMatch(message);
      }
      expect(await db().selectFrom('shared_simulations').select('id').execute()).toEqual([]);
    });

    it('stores what it can hold as it was sent: astral characters, big numbers as text, 2^53', async () => {
      for (const text of [
        '"tz1 💥 \\ud83d\\udca5 é"',
        '"123456789012345678901234567890"',
        '9007199254740991',
        '-0.5',
        '1e300',
        '1.50',
        '[0.1, 2.5e-3, 100]',
      ]) {
        const res = await raw({ data: { mint: { to: '@HERE@' } } }, text);
        expect(res.statusCode, `${text}: ${res.body}`).toBe(200);
        const got = await app.inject({ method: 'GET', url: `/v1/shares/${res.json<{ id: string }>().id}` });
        expect(got.json<{ state: { data: { mint: { to: unknown } } } }>().state.data.mint.to).toEqual(
          JSON.parse(text),
        );
      }
    });
  },
);

const step = (n: number) => state({ debug: { call: 0, step: n, tab: 'step' } });
const storedRows = (db: import('@michelscope/db').Db) =>
  db
    .selectFrom('shared_simulations')
    .select(['id', 'stored_bytes'])
    .select(sql<number>`pg_column_size(state)`.as('column_size'))
    .orderBy('id')
    .execute();

// PGlite and PostgreSQL: pg_column_size, the eviction's order and the quota's upsert through each driver.
describeDb('shared simulations: the store is bounded by what it stores', { backends: 'both' }, ({ db }) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    // room for two states of this size (800–1,000 bytes stored each), not three
    app = await makeApi(db(), { sharesMaxBytes: 2_000 });
  });
  afterAll(() => app.close());
  const post = (payload: unknown) =>
    app.inject({ method: 'POST', url: '/v1/shares', payload: payload as Record<string, unknown> });
  const opened = async (id: string) =>
    (await app.inject({ method: 'GET', url: `/v1/shares/${id}` })).statusCode;

  it('counts a state by the bytes the database stores for it (its column as stored, the row, the index entries)', async () => {
    const res = await post(step(1));
    expect(res.statusCode).toBe(200);
    const [row] = await storedRows(db());
    expect(row!.id).toBe(res.json<{ id: string }>().id);
    // more than the state's column alone: the row's other columns, its header and its index entries
    expect(row!.stored_bytes).toBeGreaterThan(row!.column_size);
    expect(row!.stored_bytes).toBeGreaterThan(res.json<{ bytes: number }>().bytes);
    expect(row!.stored_bytes).toBeGreaterThan(800);
    expect(row!.stored_bytes).toBeLessThan(1_000);
  });

  it('evicts the least recently opened states past the bound, instead of refusing new ones', async () => {
    const second = await post(step(2));
    expect(second.statusCode).toBe(200);
    const [a, b] = [(await post(step(1))).json<{ id: string }>().id, second.json<{ id: string }>().id];
    // both opened long ago; then the first is opened again (the second is not)
    await db()
      .updateTable('shared_simulations')
      .set({ last_opened_at: new Date('2020-01-01T00:00:00Z') })
      .execute();
    expect(await opened(a)).toBe(200);
    const third = await post(step(3));
    expect(third.statusCode).toBe(200);
    const c = third.json<{ id: string }>().id;
    expect((await storedRows(db())).map((r) => r.id).sort()).toEqual([a, c].sort());
    expect(await opened(b)).toBe(404);
    expect(await opened(a)).toBe(200);
    const total = (await storedRows(db())).reduce((t, r) => t + r.stored_bytes, 0);
    expect(total).toBeLessThanOrEqual(2_000);
    // storing a known state again is not new: its id as before, nothing evicted
    const again = await post(step(3));
    expect(again.json<{ id: string }>().id).toBe(c);
    expect(await storedRows(db())).toHaveLength(2);
  });

  it('refuses with 507 {message} a state larger than the whole store', async () => {
    const huge = await post(step(4));
    expect(huge.statusCode).toBe(200);
    // random text, which does not compress
    const big = await post(state({ data: { mint: { to: randomBytes(2_250).toString('base64') } } }));
    expect(big.statusCode).toBe(507);
    expect(big.json<{ message: string }>().message).toMatch(/^the store of shared simulations holds/);
  });
});

// PGlite and PostgreSQL: the quota's upsert through each driver.
describeDb('shared simulations: a quota per client and hour', { backends: 'both' }, ({ db }) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await makeApi(db(), { sharesClientBytesPerHour: 2_000 });
  });
  afterAll(() => app.close());
  const post = (payload: unknown, remoteAddress: string) =>
    app.inject({
      method: 'POST',
      url: '/v1/shares',
      payload: payload as Record<string, unknown>,
      remoteAddress,
    });

  it('answers 429 {message} with retry-after past a client’s bytes of the hour; others and known states still pass', async () => {
    expect((await post(step(1), '10.0.0.1')).statusCode).toBe(200);
    expect((await post(step(2), '10.0.0.1')).statusCode).toBe(200);
    const over = await post(step(3), '10.0.0.1');
    expect(over.statusCode).toBe(429);
    expect(over.json<{ message: string }>().message).toMatch(
      /^this client stored \d+ bytes of shared simulations/,
    );
    const retry = Number(over.headers['retry-after']);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(3600);
    // not stored
    expect(await db().selectFrom('shared_simulations').select('id').execute()).toHaveLength(2);
    // a known state costs nothing; another client has its own quota
    expect((await post(step(1), '10.0.0.1')).statusCode).toBe(200);
    expect((await post(step(3), '10.0.0.2')).statusCode).toBe(200);
    // the quota forgets the hours before this one
    await db()
      .updateTable('shared_simulation_quota')
      .set({ hour: new Date('2020-01-01T00:00:00Z') })
      .execute();
    expect((await post(step(4), '10.0.0.1')).statusCode).toBe(200);
  });
});
