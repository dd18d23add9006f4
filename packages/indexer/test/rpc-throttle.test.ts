/**
 * The RPC client against a node that refuses requests for load (429, 503 with Retry-After): the wait it
 * asks for is honoured (capped), the back-off doubles without it, every request of the client waits at one
 * gate, retries are bounded, and an optional rate limit spaces the requests. Real node:http servers on port 0.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeRpc, RpcError, StoppedError, retryAfterMs, type RpcClientOptions } from '../src/rpc/client';

type Handler = (n: number, req: IncomingMessage, res: ServerResponse) => void;

/** A server whose n-th request (from 1) is answered by `handler`; records when each request arrived. */
async function serve(handler: Handler): Promise<{ url: string; arrivals: number[]; server: Server }> {
  const arrivals: number[] = [];
  const server = createServer((req, res) => {
    arrivals.push(performance.now());
    handler(arrivals.length, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals, server };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const ok = (res: ServerResponse, body: unknown = { ok: true }) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const refuse = (res: ServerResponse, status = 429, retryAfter?: string) =>
  res
    .writeHead(status, retryAfter === undefined ? {} : { 'retry-after': retryAfter })
    .end('{"message":"slow down"}');

function client(url: string, opts: Partial<RpcClientOptions> = {}, lines: string[] = []): NodeRpc {
  return new NodeRpc(url, {
    timeoutMs: 5000,
    signal: new AbortController().signal,
    log: (l) => lines.push(l),
    ...opts,
  });
}

describe('retryAfterMs', () => {
  it('reads delay-seconds and HTTP dates, and nothing else', () => {
    const now = Date.UTC(2026, 10, 29, 12, 0, 0);
    expect(retryAfterMs('5', now)).toBe(5000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Sun, 29 Nov 2026 12:00:07 GMT', now)).toBe(7000);
    expect(retryAfterMs('Sun, 29 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs('1.5', now)).toBeNull();
    expect(retryAfterMs('-3', now)).toBeNull();
  });
});

describe('NodeRpc on a node that refuses for load', () => {
  it('honours Retry-After in seconds: 429, then 200 after the wait, one log line', async () => {
    const { url, arrivals } = await serve((n, _req, res) => (n === 1 ? refuse(res, 429, '1') : ok(res)));
    const lines: string[] = [];
    const started = performance.now();
    expect(await client(url, {}, lines).get('/chains/main/blocks/head/header')).toEqual({ ok: true });
    expect(arrivals).toHaveLength(2);
    // timers may fire a millisecond early
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(990);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(lines).toEqual([
      `RPC ${url} is rate-limiting (HTTP 429): pausing all its requests for 1 s (its Retry-After), then one at a time, more as it answers`,
    ]);
  });

  it('honours Retry-After as an HTTP date, and 503 with Retry-After like 429', async () => {
    // HTTP dates have whole seconds: 2 s ahead is 1–2 s of wait
    const { url, arrivals } = await serve((n, _req, res) =>
      n === 1 ? refuse(res, 503, new Date(Date.now() + 2000).toUTCString()) : ok(res),
    );
    expect(await client(url).get('/x')).toEqual({ ok: true });
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(990);
    expect(arrivals[1]! - arrivals[0]!).toBeLessThan(2500);
  });

  it('cuts a long Retry-After to the longest pause', async () => {
    const { url, arrivals } = await serve((n, _req, res) => (n === 1 ? refuse(res, 429, '3600') : ok(res)));
    const lines: string[] = [];
    expect(await client(url, { throttle: { maxMs: 300 } }, lines).get('/x')).toEqual({ ok: true });
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(290);
    expect(arrivals[1]! - arrivals[0]!).toBeLessThan(1500);
    expect(lines[0]).toContain('pausing all its requests for 300 ms');
  });

  it('without Retry-After backs off exponentially, and gives up after the retries', async () => {
    const { url, arrivals } = await serve((n, _req, res) => (n <= 3 ? refuse(res) : ok(res)));
    expect(await client(url, { throttle: { initialMs: 100 } }).get('/x')).toEqual({ ok: true });
    const gaps = arrivals.slice(1).map((t, i) => t - arrivals[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(95);
    expect(gaps[1]).toBeGreaterThanOrEqual(195);
    expect(gaps[2]).toBeGreaterThanOrEqual(395);

    const always = await serve((_n, _req, res) => refuse(res));
    const err = await client(always.url, { throttle: { initialMs: 10, retries: 3 } })
      .get('/x')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect(err).toMatchObject({ kind: 'http', reason: 'HTTP 429' });
    expect((err as Error).message).toContain('refused for load 4 times');
    expect(always.arrivals).toHaveLength(4);
  });

  it('does not retry a 503 without Retry-After (the follower backs off from it)', async () => {
    const { url, arrivals } = await serve((_n, _req, res) => refuse(res, 503));
    await expect(client(url).get('/x')).rejects.toMatchObject({ kind: 'http', reason: 'HTTP 503' });
    expect(arrivals).toHaveLength(1);
  });

  it('holds every request of the client at one gate: one pause, then one request alone, then more', async () => {
    // the first 8 requests (all sent at once) are refused; later ones are answered after 30 ms
    let open = 0;
    let maxOpen = 0;
    const alone: boolean[] = [];
    const { url, arrivals } = await serve((n, _req, res) => {
      if (n <= 8) return refuse(res);
      alone.push(open === 0);
      open++;
      maxOpen = Math.max(maxOpen, open);
      setTimeout(() => {
        open--;
        ok(res, { n });
      }, 30);
    });
    const lines: string[] = [];
    const rpc = client(url, { throttle: { initialMs: 200 } }, lines);
    const results = await Promise.all([...Array(8).keys()].map((i) => rpc.get(`/blocks/${i}`)));
    expect(results).toHaveLength(8);
    // 8 refused at once make one pause (not 8, not a doubled one) and one log line
    expect(arrivals).toHaveLength(16);
    expect(lines).toHaveLength(1);
    // (the pause began when the client read the first refusal, after its arrival)
    // (one pause of 200 ms, not a doubled one: the one log line says so; no upper bound on time, which a
    // loaded machine stretches)
    const firstRetry = arrivals[8]! - arrivals[0]!;
    expect(firstRetry).toBeGreaterThanOrEqual(195);
    expect(lines[0]).toMatch(/\b200 ms\b/);
    // the first request after the pause went alone; the others waited for its answer, then went two,
    // three, four at once (half of the 8 in flight at the refusal)
    expect(alone[0]).toBe(true);
    expect(arrivals[9]! - arrivals[8]!).toBeGreaterThanOrEqual(25);
    expect(alone.slice(1).some((a) => !a)).toBe(true);
    expect(maxOpen).toBeLessThanOrEqual(4);
  });

  it('spaces all requests under a rate limit', async () => {
    const { url, arrivals } = await serve((_n, _req, res) => ok(res));
    const rpc = client(url, { rateLimit: 20 });
    await rpc.get('/warm'); // the connection first: its setup would delay the first measured arrival
    await Promise.all([...Array(6).keys()].map((i) => rpc.get(`/x/${i}`)));
    // 6 requests at 20/s are sent 50 ms apart: the last arrives at least 250 ms after the first was sent,
    // and the first can arrive late on a loaded machine (without the limit all 6 arrive within a few ms)
    const sixth = arrivals.length - 1;
    expect(arrivals[sixth]! - arrivals[sixth - 5]!).toBeGreaterThanOrEqual(150);
    expect(() => client(url, { rateLimit: 0 })).toThrow(TypeError);
  });

  it('stops at once while waiting at the gate', async () => {
    const { url } = await serve((_n, _req, res) => refuse(res, 429, '30'));
    const controller = new AbortController();
    const rpc = client(url, { signal: controller.signal });
    const pending = rpc.get('/x').catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 200));
    const stoppedAt = performance.now();
    controller.abort();
    expect(await pending).toBeInstanceOf(StoppedError);
    expect(performance.now() - stoppedAt).toBeLessThan(5_000); // not the 30 s of Retry-After
  });
});
