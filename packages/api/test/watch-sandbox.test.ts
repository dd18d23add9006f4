/**
 * Watch rules over the seeded sandbox chain and the real indexer (issue 39): a rule on the counter's
 * `increment` with amount ≥ 5 (mutez), created through the API; calls sent with a bootstrap wallet, one block
 * each; a local receiver on 127.0.0.1 (allowed by `allowPrivateTargets`) gets exactly the matching deliveries,
 * each with a valid signature, and the one it answered 500 first again. An event rule on the same blocks gets
 * one delivery per change. The evaluation is fed by the indexer's NOTIFY, as in production.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WatchDeliveryBody } from '@michelscope/api-types';
import { describeDb } from '@michelscope/db/testing';
import { BOOTSTRAP_ACCOUNTS, injectAs } from '@michelscope/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openIndexedSandbox, SANDBOX_NET, type IndexedSandbox } from './indexed-sandbox';

interface Received {
  path: string;
  signature: string;
  key: string;
  body: string;
}

const WALLET = BOOTSTRAP_ACCOUNTS[0]!;

async function until<T>(
  what: string,
  f: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 30_000,
) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// both: the evaluation hangs on LISTEN/NOTIFY, and deliveries on SKIP LOCKED and ON CONFLICT
describeDb('watch rules over the indexed sandbox', { backends: 'both' }, ({ db, handle }) => {
  let env: IndexedSandbox;
  let server: http.Server;
  let base = '';
  const received: Received[] = [];
  let failedOnce = false;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({
          path: req.url ?? '',
          signature: String(req.headers['x-michelscope-signature']),
          key: String(req.headers['x-michelscope-delivery']),
          body,
        });
        if (req.url === '/calls' && !failedOnce) {
          failedOnce = true;
          return res.writeHead(500).end();
        }
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    env = await openIndexedSandbox(db(), {
      live: { source: handle() },
      watch: { allowPrivateTargets: true, backoffBaseMs: 500, pollMs: 100 },
    });
  }, 120_000);
  afterAll(async () => {
    await env?.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('delivers exactly the matching calls, signed, and again after a 500', async () => {
    const counter = env.contracts.counter!;
    const create = async (condition: object, path: string) => {
      const res = await env.app.inject({
        method: 'POST',
        url: '/v1/watch/rules',
        payload: { network: SANDBOX_NET, address: counter, condition, url: `${base}${path}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ rule: { id: string }; secret: string; token: string }>();
    };
    const calls = await create({ kind: 'call', entrypoints: ['increment'], amount_gte: '5' }, '/calls');
    const events = await create({ kind: 'event', tags: ['changed'] }, '/events');

    const sent: Array<[string, number, string]> = [
      ['increment', 2, ''],
      ['increment', 5, ''],
      ['decrement', 9, ''],
      ['increment', 7, ''],
    ];
    for (const call of sent) {
      call[2] = await injectAs(env.sandbox, WALLET, [
        {
          kind: 'transaction',
          amount: String(call[1]),
          destination: counter,
          parameters: { entrypoint: call[0], value: { int: '1' } },
        },
      ]);
      await env.sandbox.bakeBlock();
    }
    const want = sent.filter(([ep, amount]) => ep === 'increment' && amount >= 5).map(([, , hash]) => hash);

    // the 500 answered once, then the retry: 3 requests for 2 deliveries
    await until('the call deliveries', () => received.filter((r) => r.path === '/calls').length >= 3);
    await until('the event deliveries', () => received.filter((r) => r.path === '/events').length >= 4);
    await new Promise((r) => setTimeout(r, 1_000)); // nothing more comes
    const got = received.filter((r) => r.path === '/calls');
    expect(got).toHaveLength(3);
    for (const r of got) {
      expect(r.key).toBe((JSON.parse(r.body) as { idempotency_key: string }).idempotency_key);
      expect(r.signature).toBe(`sha256=${createHmac('sha256', calls.secret).update(r.body).digest('hex')}`);
    }
    const bodies = got.map((r) => JSON.parse(r.body) as WatchDeliveryBody);
    // the first one twice (its retry), the other once
    expect(bodies.filter((b) => b.idempotency_key === bodies[0]!.idempotency_key)).toHaveLength(2);
    expect(new Set(bodies.map((b) => b.idempotency_key)).size).toBe(2);
    expect(new Set(bodies.map((b) => b.operation_hash))).toEqual(new Set(want));
    for (const b of bodies) {
      expect(b).toMatchObject({
        rule_id: calls.rule.id,
        network: SANDBOX_NET,
        matched: { kind: 'call', entrypoint: 'increment', sender: WALLET.pkh, status: 'applied' },
      });
      expect(Number(b.matched.amount)).toBeGreaterThanOrEqual(5);
    }
    const ev = received.filter((r) => r.path === '/events');
    expect(ev).toHaveLength(4); // every change emits one: three increments and a decrement
    for (const r of ev)
      expect(r.signature).toBe(`sha256=${createHmac('sha256', events.secret).update(r.body).digest('hex')}`);
    expect(ev.map((r) => (JSON.parse(r.body) as { matched: { tag: string } }).matched.tag)).toEqual([
      'changed',
      'changed',
      'changed',
      'changed',
    ]);

    // the log: two delivered, the first after 2 attempts
    const log = await env.app.inject({
      method: 'GET',
      url: `/v1/watch/rules/${calls.rule.id}/deliveries`,
      headers: { authorization: `Bearer ${calls.token}` },
    });
    const rows = log.json<Array<{ status: string; attempts: number; last_status_code: number }>>();
    expect(rows.map((r) => r.status)).toEqual(['delivered', 'delivered']);
    expect(rows.map((r) => r.attempts).sort()).toEqual([1, 2]);
    expect(rows.every((r) => r.last_status_code === 204)).toBe(true);
  }, 90_000);
});
