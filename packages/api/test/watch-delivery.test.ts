/**
 * Webhook deliveries (issue 39) against a local receiver: signed bodies, a retry after a 500 then success,
 * a restart that resumes pending (and abandoned) deliveries, one delivery per (rule, key) whatever the writers,
 * a slow webhook that does not hold another rule's, private targets refused at delivery, giving up.
 * On both backends: the claim is `FOR UPDATE SKIP LOCKED` and the write `ON CONFLICT DO NOTHING`.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeDb } from '@michelscope/db/testing';
import {
  claimDeliveries,
  createWatchRule,
  deliveriesOfRule,
  insertDeliveries,
  type WatchDeliveryRow,
} from '@michelscope/db/watch';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Dispatcher } from '../src/watch/delivery';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const KT = 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5';

async function until<T>(f: () => Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describeDb('watch deliveries', { backends: 'both' }, ({ db }) => {
  const received: Received[] = [];
  const failOnce = new Set<string>();
  let server: http.Server;
  let base = '';
  let ruleN = 0;
  const dispatchers: Dispatcher[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const path = req.url ?? '';
        received.push({ path, headers: req.headers, body });
        const key = `${path}|${String(req.headers['x-michelscope-delivery'])}`;
        if (path.startsWith('/always500')) return res.writeHead(500).end();
        if (path.startsWith('/redirect')) return res.writeHead(302, { location: '/ok' }).end();
        if (path.startsWith('/fail-once') && !failOnce.has(key)) {
          failOnce.add(key);
          return res.writeHead(500).end();
        }
        if (path.startsWith('/slow')) return void setTimeout(() => res.writeHead(200).end(), 3_000);
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const d of dispatchers) await d.stop();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const newRule = async (path: string) => {
    const id = `wr_test${String(++ruleN).padStart(12, '0')}`;
    const r = await createWatchRule(
      db(),
      {
        id,
        network: 'sandboxnet',
        address: KT,
        condition: { kind: 'call', entrypoints: [] },
        url: `${base}${path}`,
        secret: `whsec_${id}`,
        token_hash: 'h',
      },
      { maxPerToken: 1000, maxTotal: 1000 },
    );
    if (r.kind !== 'created') throw new Error(r.kind);
    return r.row;
  };
  const deliver = (ruleId: string, key: string, level = 5) =>
    insertDeliveries(db(), [
      {
        rule_id: ruleId,
        idempotency_key: key,
        level,
        operation_hash: 'ooX',
        body: {
          rule_id: ruleId,
          network: 'sandboxnet',
          level,
          operation_hash: 'ooX',
          matched: { kind: 'call' },
          idempotency_key: key,
        },
      },
    ]);
  const dispatcher = (opts: ConstructorParameters<typeof Dispatcher>[1] = {}) => {
    const d = new Dispatcher(db(), { pollMs: 100, backoffBaseMs: 500, allowPrivateTargets: true, ...opts });
    dispatchers.push(d);
    d.start();
    return d;
  };
  const log = async (ruleId: string) => (await deliveriesOfRule(db(), ruleId, { size: 10, offset: 0 }))[0];
  const delivered = (ruleId: string) =>
    until(async () => {
      const d = await log(ruleId);
      return d?.status === 'delivered' ? d : undefined;
    });

  it('signs each body, retries after a 500 and then delivers', async () => {
    const rule = await newRule('/fail-once');
    expect(await deliver(rule.id, 'k1')).toHaveLength(1);
    // the same key again (another process, a replayed block) creates nothing
    expect(await deliver(rule.id, 'k1')).toHaveLength(0);
    const d = dispatcher();
    const row: WatchDeliveryRow = await delivered(rule.id);
    await d.stop();
    expect(row).toMatchObject({ attempts: 2, last_status_code: 200, last_error: null });
    expect(row.latency_ms).toBeGreaterThanOrEqual(0);
    const got = received.filter((r) => r.path === '/fail-once');
    expect(got).toHaveLength(2);
    for (const r of got) {
      const sig = createHmac('sha256', rule.secret).update(r.body).digest('hex');
      expect(r.headers['x-michelscope-signature']).toBe(`sha256=${sig}`);
      expect(r.headers['x-michelscope-delivery']).toBe('k1');
      expect(r.headers['content-type']).toBe('application/json');
      const body = JSON.parse(r.body) as Record<string, unknown>;
      expect(body).toMatchObject({
        rule_id: rule.id,
        network: 'sandboxnet',
        level: 5,
        idempotency_key: 'k1',
      });
      expect(typeof body.sent_at).toBe('string');
    }
  });

  it('resumes after a restart: pending rows and those a dead process had claimed', async () => {
    const rule = await newRule('/ok-resume');
    await deliver(rule.id, 'pending-1');
    const rule2 = await newRule('/ok-resume2');
    await deliver(rule2.id, 'claimed-1');
    // a process claims the second and dies before recording anything
    const claimed = await claimDeliveries(db(), { limit: 10, busy: [rule.id], leaseMs: 600 });
    expect(claimed.map((c) => c.idempotency_key)).toContain('claimed-1');
    const d = dispatcher();
    await delivered(rule.id);
    await delivered(rule2.id);
    await d.stop();
    expect(received.filter((r) => r.path === '/ok-resume2')).toHaveLength(1);
  });

  it('does not let a slow webhook hold another rule', async () => {
    const slow = await newRule('/slow');
    const fast = await newRule('/ok-fast');
    await deliver(slow.id, 's1');
    await deliver(slow.id, 's2');
    const d = dispatcher({ concurrency: 4 });
    await until(async () => received.some((r) => r.path === '/slow'));
    const t0 = Date.now();
    await deliver(fast.id, 'f1');
    d.wake();
    await delivered(fast.id);
    expect(Date.now() - t0).toBeLessThan(2_000);
    // one attempt at a time per rule: the second slow one waits for the first
    expect(received.filter((r) => r.path === '/slow')).toHaveLength(1);
    await d.stop();
  });

  it('refuses private targets at delivery when they are not allowed, and does not follow redirects', async () => {
    const rule = await newRule('/ok-private');
    await deliver(rule.id, 'p1');
    const d = dispatcher({ allowPrivateTargets: false, backoffBaseMs: 60_000 });
    const row = await until(async () => {
      const x = await log(rule.id);
      return x && x.attempts > 0 ? x : undefined;
    });
    expect(row.status).toBe('pending');
    expect(row.last_error).toMatch(/private/);
    expect(received.some((r) => r.path === '/ok-private')).toBe(false);
    await d.stop();
    const redirect = await newRule('/redirect');
    await deliver(redirect.id, 'r1');
    const d2 = dispatcher({ backoffBaseMs: 60_000 });
    const r = await until(async () => {
      const x = await log(redirect.id);
      return x && x.attempts > 0 ? x : undefined;
    });
    await d2.stop();
    expect(r).toMatchObject({ status: 'pending', last_status_code: 302 });
    expect(received.filter((x) => x.path === '/ok')).toHaveLength(0);
  });

  it('fails a delivery once its retry window is over', async () => {
    const rule = await newRule('/always500');
    await deliver(rule.id, 'x1');
    const d = dispatcher({ backoffBaseMs: 200, retryWindowMs: 1_000 });
    const row = await until(async () => {
      const x = await log(rule.id);
      return x?.status === 'failed' ? x : undefined;
    });
    await d.stop();
    expect(row.attempts).toBeGreaterThanOrEqual(2);
    expect(row.last_status_code).toBe(500);
  });
});
