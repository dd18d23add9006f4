/**
 * Shared simulations (issue 20, capability 6): POST /v1/shares stores a state under a content-addressed id (the
 * same state — whatever its key order — gives the same id and one row), GET gives it back as stored, the list
 * shows every stored one newest first, and bad or huge input is a 4xx {message}, never stored.
 */
import { describeDb } from '@michelscope/db/testing';
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

  it('lists every stored state, newest first, by network', async () => {
    const list = await app.inject({ method: 'GET', url: '/v1/shares?network=sandboxnet&size=10' });
    expect(list.statusCode).toBe(200);
    const items = list.json<{ id: string; address: string; entrypoint: string; created_at: string }[]>();
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({ address: KT, entrypoint: 'mint', network: 'sandboxnet' });
    expect(items[0]!.created_at >= items[1]!.created_at).toBe(true);
    const none = await app.inject({ method: 'GET', url: '/v1/shares?network=ghostnet' });
    expect(none.json()).toEqual([]);
    const paged = await app.inject({ method: 'GET', url: '/v1/shares?size=1&offset=1' });
    expect(paged.json<{ id: string }[]>().map((i) => i.id)).toEqual([items[1]!.id]);
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
    for (const url of ['/v1/shares/short', '/v1/shares/' + 'a'.repeat(60), '/v1/shares?size=100000']) {
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

// PGlite and PostgreSQL: the API's own write (jsonb, ON CONFLICT) through each driver.
describeDb('shared simulations: the store is bounded', { backends: 'both' }, ({ db }) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    // room for two states of this size, not three
    app = await makeApi(db(), { sharesMaxBytes: 1_200 });
  });
  afterAll(() => app.close());
  const post = (payload: unknown) =>
    app.inject({ method: 'POST', url: '/v1/shares', payload: payload as Record<string, unknown> });

  it('refuses a new state with 507 {message} once the stored ones fill it; known states still answer', async () => {
    const step = (n: number) => state({ debug: { call: 0, step: n, tab: 'step' } });
    const first = await post(step(1));
    expect(first.statusCode).toBe(200);
    // the states of this test take 500–600 bytes each
    expect(first.json<{ bytes: number }>().bytes).toBeGreaterThan(500);
    expect(first.json<{ bytes: number }>().bytes).toBeLessThan(600);
    expect((await post(step(2))).statusCode).toBe(200);
    const full = await post(step(3));
    expect(full.statusCode).toBe(507);
    expect(full.json<{ message: string }>().message).toMatch(/^the store of shared simulations is full/);
    // storing a known state again is not new: its id as before
    const again = await post(step(1));
    expect(again.statusCode).toBe(200);
    expect(again.json<{ id: string }>().id).toBe(first.json<{ id: string }>().id);
    expect(await db().selectFrom('shared_simulations').select('id').execute()).toHaveLength(2);
  });
});
