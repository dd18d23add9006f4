/**
 * Fair admission to the script worker pools (issue 34): per-client FIFO queues served by fewest running, then
 * least run time; a per-client cap on queued + running jobs and a time budget per window (429), a bound on all
 * waiting jobs and on the wait (503).
 */
import { describe, expect, it } from 'vitest';
import { FairScheduler, SchedulerRefusal } from '../src/index';

const opts = { slots: 1, perClient: 3, maxQueued: 10, maxWaitMs: 5_000, budgetMs: 60_000, windowMs: 60_000 };

/** A job that ends when `end()` is called, noting when it started. */
function gate(log: string[], name: string) {
  let end!: () => void;
  const done = new Promise<void>((r) => (end = r));
  return { job: () => (log.push(name), done), end: () => end() };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('FairScheduler', () => {
  it("serves clients in turn: a client's queued runs wait behind each other, not in front of others", async () => {
    const s = new FairScheduler(opts);
    const log: string[] = [];
    const a = [gate(log, 'a1'), gate(log, 'a2'), gate(log, 'a3')];
    const b = gate(log, 'b1');
    const runs = a.map((g) => s.run('attacker', g.job));
    await tick();
    const rb = s.run('user', b.job); // arrives after the attacker's three
    for (const g of [a[0]!, b, a[1]!, a[2]!]) {
      await tick();
      g.end();
    }
    await Promise.all([...runs, rb]);
    expect(log).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it('refuses a client past its cap of queued + running runs with 429, others still get in', async () => {
    const s = new FairScheduler({ ...opts, perClient: 2 });
    const log: string[] = [];
    const gs = [gate(log, '1'), gate(log, '2')];
    const runs = gs.map((g) => s.run('x', g.job));
    await expect(s.run('x', async () => 0)).rejects.toMatchObject({ status: 429 });
    const other = s.run('y', async () => 'y');
    gs.forEach((g) => g.end());
    await Promise.all(runs);
    expect(await other).toBe('y');
  });

  it('charges a run by its time: past its budget in the window a client is refused (429) until runs age out', async () => {
    let now = 0;
    const s = new FairScheduler({ ...opts, budgetMs: 10_000, windowMs: 60_000, now: () => now });
    await s.run('x', async () => {
      now += 12_000;
    });
    expect(s.charged('x')).toBe(12_000);
    // alone, the pool serves it anyway; while another client runs, it is refused
    expect(await s.run('x', async () => 'alone')).toBe('alone');
    const log: string[] = [];
    const other = gate(log, 'other');
    const ro = s.run('z', other.job);
    const e = await s.run('x', async () => 0).catch((e: unknown) => e);
    expect(e).toBeInstanceOf(SchedulerRefusal);
    expect((e as SchedulerRefusal).status).toBe(429);
    expect((e as SchedulerRefusal).retryAfterS).toBe(60); // its run ended at 12 s: it leaves the window at 72 s
    other.end();
    await ro;
    now += 60_000;
    expect(await s.run('x', async () => 'again')).toBe('again');
  });

  it('gives a free slot to the client that used less time (the cost model lowers a heavy client)', async () => {
    let now = 0;
    const s = new FairScheduler({ ...opts, now: () => now });
    await s.run('heavy', async () => {
      now += 9_000;
    });
    await s.run('light', async () => {
      now += 100;
    });
    const log: string[] = [];
    const first = gate(log, 'first');
    const r0 = s.run('other', first.job);
    const rh = s.run('heavy', async () => void log.push('heavy'));
    const rl = s.run('light', async () => void log.push('light'));
    first.end();
    await Promise.all([r0, rh, rl]);
    expect(log).toEqual(['first', 'light', 'heavy']);
  });

  it('keeps a slot for the others when a client is at its running cap', async () => {
    const s = new FairScheduler({ ...opts, slots: 2, runningPerClient: 1 });
    const log: string[] = [];
    const [a1, a2] = [gate(log, 'a1'), gate(log, 'a2')];
    const ra = [s.run('a', a1.job), s.run('a', a2.job)];
    await tick();
    expect(log).toEqual(['a1']); // a2 waits although a slot is free
    expect(await s.run('b', async () => (log.push('b'), 'b'))).toBe('b');
    a1.end();
    await tick();
    a2.end();
    await Promise.all(ra);
    expect(log).toEqual(['a1', 'b', 'a2']);
  });

  it('lends every slot to a client of short runs (lendMaxMs), not to one whose runs are long', async () => {
    let now = 0;
    const s = new FairScheduler({ ...opts, slots: 2, runningPerClient: 1, lendMaxMs: 500, now: () => now });
    const log: string[] = [];
    // alone and without history (or with short runs): both slots, throughput not halved
    const [a1, a2] = [gate(log, 'a1'), gate(log, 'a2')];
    const ra = [s.run('a', a1.job), s.run('a', a2.job)];
    await tick();
    expect(log).toEqual(['a1', 'a2']);
    now += 100;
    a1.end();
    a2.end();
    await Promise.all(ra);
    // a client whose runs took 2 s each: one slot, the other stays free for whoever comes
    await s.run('x', async () => {
      now += 2_000;
    });
    const [x1, x2] = [gate(log, 'x1'), gate(log, 'x2')];
    const rx = [s.run('x', x1.job), s.run('x', x2.job)];
    await tick();
    expect(log.slice(2)).toEqual(['x1']);
    expect(await s.run('b', async () => (log.push('b'), 'b'))).toBe('b');
    x1.end();
    await tick();
    x2.end();
    await Promise.all(rx);
    expect(log.slice(2)).toEqual(['x1', 'b', 'x2']);
  });

  it('refuses with 503 when too many wait in all, or a run waited too long', async () => {
    const s = new FairScheduler({ ...opts, maxQueued: 1, maxWaitMs: 50 });
    const log: string[] = [];
    const g = gate(log, 'g');
    const r = s.run('a', g.job);
    const waiting = s.run('b', async () => 0);
    await expect(s.run('c', async () => 0)).rejects.toMatchObject({ status: 503 });
    await expect(waiting).rejects.toMatchObject({ status: 503, message: /no worker was free/ });
    g.end();
    await r;
    expect(s.load()).toEqual({ running: 0, queued: 0 });
  });
});
