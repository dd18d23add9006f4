/**
 * The watch routes (issue 39): create (a rule, its secret and a management token shown once; the URL checked),
 * list, read and delete with the token, the delivery log paged; limits per token and in total; 401, 404, 400 answers
 * with `{"message"}` (404 too on a server without watch rules); the token itself is never stored.
 */
import { describeDb } from '@michelscope/db/testing';
import { insertDeliveries } from '@michelscope/db/watch';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApi } from './helpers';

const KT = 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5';
const input = (over: Record<string, unknown> = {}) => ({
  network: 'sandboxnet',
  address: KT,
  condition: { kind: 'call', entrypoints: ['increment'], amount_gte: '5' },
  url: 'https://hooks.example.com/michelscope',
  ...over,
});

interface Created {
  rule: { id: string; network: string; address: string; url: string; enabled: boolean; condition: unknown };
  secret: string;
  token: string;
}

// PGlite only: route logic over ordinary reads and writes (the delivery suite runs on both)
describeDb('watch routes', { backends: 'pglite' }, ({ db }) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await makeApi(db(), {
      watch: {
        maxRulesPerToken: 2,
        maxRulesTotal: 4,
        pollMs: 60_000,
        resolve: (host) =>
          Promise.resolve(host === 'intranet.example' ? ['192.168.1.10'] : ['93.184.216.34']),
      },
    });
  });
  afterAll(() => app.close());

  const create = (body: unknown, token?: string) =>
    app.inject({
      method: 'POST',
      url: '/v1/watch/rules',
      payload: body as object,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  const get = (url: string, token?: string) =>
    app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

  let first: Created;

  it('creates a rule and answers its secret and a new management token', async () => {
    const res = await create(input());
    expect(res.statusCode).toBe(200);
    first = res.json<Created>();
    expect(first.rule).toMatchObject({
      network: 'sandboxnet',
      address: KT,
      url: 'https://hooks.example.com/michelscope',
      enabled: true,
      condition: { kind: 'call', entrypoints: ['increment'], amount_gte: '5' },
    });
    expect(first.rule.id).toMatch(/^wr_/);
    expect(first.secret).toMatch(/^whsec_/);
    expect(first.token).toMatch(/^msw_/);
    // only the token's hash is stored
    const row = await db()
      .selectFrom('watch_rules')
      .selectAll()
      .where('id', '=', first.rule.id)
      .executeTakeFirst();
    expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(first.token);
  });

  it('adds rules to a token and lists them; refuses past the per-token limit', async () => {
    const second = await create(input({ condition: { kind: 'event', tags: ['minted'] } }), first.token);
    expect(second.statusCode).toBe(200);
    expect(second.json<Created>().token).toBe(first.token);
    const list = await get('/v1/watch/rules', first.token);
    expect(list.statusCode).toBe(200);
    expect(list.json<Created['rule'][]>().map((r) => r.id)).toEqual([
      first.rule.id,
      second.json<Created>().rule.id,
    ]);
    const third = await create(input(), first.token);
    expect(third.statusCode).toBe(429);
    expect(third.json()).toEqual({ message: 'this token holds 2 rules, the most allowed (2)' });
  });

  it('refuses past the total limit', async () => {
    expect((await create(input())).statusCode).toBe(200);
    expect((await create(input())).statusCode).toBe(200);
    const res = await create(input());
    expect(res.statusCode).toBe(429);
    expect(res.json<{ message: string }>().message).toMatch(/this server holds 4 rules/);
  });

  it('checks the input: network, URL, condition', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [input({ network: 'nonet' }), /unknown network: nonet/],
      [input({ url: 'ftp://hooks.example.com/' }), /http:\/\/ or https:\/\//],
      [input({ url: 'http://127.0.0.1:9000/hook' }), /private/],
      [input({ url: 'http://[::1]/hook' }), /private/],
      [input({ url: 'https://intranet.example/hook' }), /at 192\.168\.1\.10/],
      [input({ condition: { kind: 'storage', path: 'total' } }), /needs above or below/],
      [input({ condition: { kind: 'nope' } }), /condition/],
      [input({ address: 'KT1nope' }), /address/],
    ];
    for (const [body, message] of cases) {
      const res = await create(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(message);
    }
  });

  it('answers 401 without a token or with a bad one, 404 for another token’s rule', async () => {
    expect((await get('/v1/watch/rules')).json()).toEqual({
      message: 'a management token is required: Authorization: Bearer <token>',
    });
    expect((await get('/v1/watch/rules')).statusCode).toBe(401);
    expect((await get('/v1/watch/rules', 'nope')).statusCode).toBe(401);
    const unknownToken = `msw_${'A'.repeat(43)}`;
    expect((await get('/v1/watch/rules', unknownToken)).json()).toEqual([]);
    const other = await get(`/v1/watch/rules/${first.rule.id}`, unknownToken);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ message: `no watch rule ${first.rule.id} for this token` });
    expect((await create(input(), unknownToken)).statusCode).toBe(401);
    expect((await get('/v1/watch/rules/not-an-id', first.token)).statusCode).toBe(400);
  });

  it('pages the delivery log, newest first', async () => {
    const id = first.rule.id;
    await insertDeliveries(
      db(),
      [1, 2, 3].map((n) => ({
        rule_id: id,
        idempotency_key: `k${n}`,
        level: n,
        operation_hash: `oo${n}`,
        body: { rule_id: id, matched: { kind: 'call', amount: String(n) } },
      })),
    );
    const res = await get(`/v1/watch/rules/${id}/deliveries?size=2`, first.token);
    expect(res.statusCode).toBe(200);
    const page = res.json<Array<Record<string, unknown>>>();
    expect(page.map((d) => d.level)).toEqual([3, 2]);
    expect(page[0]).toMatchObject({
      idempotency_key: 'k3',
      status: 'pending',
      attempts: 0,
      last_status_code: null,
      latency_ms: null,
      delivered_at: null,
      matched: { kind: 'call', amount: '3' },
    });
    const next = await get(`/v1/watch/rules/${id}/deliveries?size=2&offset=2`, first.token);
    expect(next.json<Array<{ level: number }>>().map((d) => d.level)).toEqual([1]);
    expect((await get(`/v1/watch/rules/${id}/deliveries`)).statusCode).toBe(401);
  });

  it('reads and deletes a rule', async () => {
    const url = `/v1/watch/rules/${first.rule.id}`;
    expect((await get(url, first.token)).json()).toMatchObject({ id: first.rule.id });
    const del = await app.inject({
      method: 'DELETE',
      url,
      headers: { authorization: `Bearer ${first.token}` },
    });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ deleted: first.rule.id });
    expect((await get(url, first.token)).statusCode).toBe(404);
    const again = await app.inject({
      method: 'DELETE',
      url,
      headers: { authorization: `Bearer ${first.token}` },
    });
    expect(again.statusCode).toBe(404);
    const left = await db()
      .selectFrom('watch_deliveries')
      .select('id')
      .where('rule_id', '=', first.rule.id)
      .execute();
    expect(left).toEqual([]);
  });

  describe('without the watch option', () => {
    it('answers 404', async () => {
      const plain = await makeApi(db(), { logError: () => {} });
      const res = await plain.inject({ method: 'POST', url: '/v1/watch/rules', payload: input() });
      await plain.close();
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: 'watch rules are not enabled on this server' });
    });
  });

  describe('rate limit', () => {
    it('limits creations per client like the other writing routes', async () => {
      const limited = await makeApi(db(), {
        rateLimit: { max: 1000, timeWindowMs: 60_000 },
        watch: { createPerMinute: 2, pollMs: 60_000, maxRulesTotal: 100 },
      });
      const codes: number[] = [];
      for (let i = 0; i < 3; i++)
        codes.push(
          (
            await limited.inject({
              method: 'POST',
              url: '/v1/watch/rules',
              payload: input({ url: 'http://93.184.216.34/hook' }),
            })
          ).statusCode,
        );
      await limited.close();
      expect(codes).toEqual([200, 200, 429]);
    });
  });
});
