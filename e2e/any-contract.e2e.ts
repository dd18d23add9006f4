/**
 * Any contract of a public network at once (issue 32, capability 1), with two real instances: A serves the
 * seeded sandbox chain; B is configured with A's node as a public network (`remotenet`), which it indexes from
 * the node's head as it would mainnet. The FA1.2 token A's seed originated long before B started is unknown
 * to B's index: opened in B, it is read from the node and shown with its code, storage, entrypoints and a
 * visible note that its history before that level is not indexed. A KT1 the node does not know stays the
 * "Page not found" page. B's second public network on the same node (`scannet`) has no history source but the
 * scan of the node's blocks: the FA1.2's history backfilled there is A's too.
 *
 * Once a contract's history is backfilled, B answers for it as A does (below both heads): its operation groups
 * with their parameters and storage diffs, its storage at past levels and now, its ledger big map (info, keys,
 * keys' histories), its token data (and the seeded FA2's, which has TZIP-12 token metadata), and, for the
 * seeded counter (the FA1.2 emits no events), its events. The counter and the FA2 were originated in the
 * FA1.2's block: B stores them with the FA1.2's history, and gives each its own history when asked for. The
 * FA1.2 and the counter are called on A after B started and before B is asked for them: those calls are
 * forward-indexed by B while it does not hold the contracts, and must answer as A's once they are adopted.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InMemorySigner } from '@taquito/signer';
import { TezosToolkit } from '@taquito/taquito';
import { BOOTSTRAP_ACCOUNTS } from '@michelscope/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appPages,
  appTookOver,
  canBrowse,
  heads,
  startServer,
  syncedSandboxSession,
  tempDataDir,
  waitFor,
  type RunningServer,
} from './harness';
import { api, counterContract, seededContracts, tokensAndSwap } from './sandbox-seed';

const NET = 'remotenet';
/** The same node as B's second public network, whose history source is a scan of its blocks. */
const SCAN_NET = 'scannet';
/** A well-formed KT1 (valid checksum) that no operation originated. */
const NEVER = 'KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi';
/** A holder no seeded operation credited: the FA1.2 transfer to it after B started adds a ledger key. */
const NEW_HOLDER = 'tz1burnburnburnburnburnburnburjAYjjX';

type Json = Record<string, unknown>;

/**
 * GET `url` as JSON; null for a 204 (no content). Raw on purpose: `both`, `paged` and the token lists compare A's
 * and B's answers on routes built at run time, which the typed client's path literals cannot take.
 */
async function getJson<T = unknown>(url: string): Promise<T> {
  const res = await fetch(url);
  if (res.status === 204) return null as T;
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * The answer without the fields that are legitimately local to an instance, on the answer's object or on each
 * object of the answer's list (deeper fields, such as a receipt error's `id`, are chain data and kept):
 * - `id`, `last_id`: surrogate ids of B's rows (a backfilled row's id is negative, below the forward ids, see
 *   db/write/backfill.ts), not chain data; the order they give is compared through the lists' order;
 * - `network`: the name each instance gives the same chain ('sandboxnet' in A, 'remotenet' / 'scannet' in B).
 */
function local(v: unknown): unknown {
  const strip = (o: unknown) => {
    if (o === null || typeof o !== 'object' || Array.isArray(o)) return o;
    const { id: _id, last_id: _last, network: _network, ...rest } = o as Json;
    return rest;
  };
  return Array.isArray(v) ? v.map(strip) : strip(v);
}

describe.skipIf(!canBrowse('any-contract'))('a contract older than the index, on a public network', () => {
  const a = syncedSandboxSession();
  const pages = appPages(a);
  let b: RunningServer;
  let bDir: string;
  let fa12 = '';
  let counter = '';
  let fa2 = '';

  beforeAll(async () => {
    fa12 = (await seededContracts(a.server.url)).find((c) => c.tags.includes('fa1-2'))?.address ?? '';
    expect(fa12).toMatch(/^KT1/);
    bDir = await tempDataDir();
    const config = path.join(bDir, 'michelscope.config.json');
    await writeFile(
      config,
      JSON.stringify({
        networks: {
          mainnet: false,
          ghostnet: false,
          sandboxnet: false,
          // A's API is B's history source: the levels where an address appears (issue 32, the backfill)
          [NET]: {
            rpc_url: `${a.server.url}/rpc/embedded`,
            history_source: { kind: 'bcd', url: a.server.url, network: 'sandboxnet' },
          },
          [SCAN_NET]: { rpc_url: `${a.server.url}/rpc/embedded`, history_source: { kind: 'scan' } },
        },
      }),
    );
    b = await startServer({ dataDir: bDir, env: { MICHELSCOPE_CONFIG: config }, timeoutMs: 240_000 });
    for (const net of [NET, SCAN_NET])
      await waitFor(`${net} indexed in B`, 120_000, async () =>
        (await heads(b.url)).find((h) => h.network === net && h.level > 0) ? true : undefined,
      );
    counter = await counterContract(a.server.url);
    fa2 = (await tokensAndSwap(a.server.url)).fa2;
    // Calls on A after B started, before B is asked for the contracts: B indexes their blocks forward while
    // it does not hold the FA1.2 or the counter (a transfer to a new holder: a new ledger key; an increment:
    // an event; a note: a new key of the counter's big map).
    const call = async (account: number, to: string, entrypoint: string, value: unknown) => {
      const tezos = new TezosToolkit(`${a.server.url}/rpc/sandboxnet`);
      tezos.setProvider({
        signer: await InMemorySigner.fromSecretKey(BOOTSTRAP_ACCOUNTS[account]!.sk),
        config: { confirmationPollingTimeoutSecond: 120 },
      });
      const op = await tezos.contract.transfer({
        to,
        amount: 0,
        parameter: { entrypoint, value: value as never },
      });
      return op.confirmation(1);
    };
    const b1 = BOOTSTRAP_ACCOUNTS[0]!.pkh;
    const floorB = Math.min(
      ...(await heads(b.url)).filter((h) => h.network === NET || h.network === SCAN_NET).map((h) => h.level),
    );
    const levels = await Promise.all([
      call(0, fa12, 'transfer', {
        prim: 'Pair',
        args: [{ string: b1 }, { prim: 'Pair', args: [{ string: NEW_HOLDER }, { int: '7' }] }],
      }),
      call(2, counter, 'increment', { int: '5' }),
    ]);
    const level = Math.max(
      ...levels,
      await call(2, counter, 'note', { prim: 'Pair', args: [{ string: 'after-b-started' }, { int: '3' }] }),
    );
    expect(Math.min(...levels)).toBeGreaterThan(floorB);
    for (const net of [NET, SCAN_NET])
      await waitFor(`${net} indexed in B up to the calls' level ${level}`, 120_000, async () =>
        (await heads(b.url)).find((h) => h.network === net && h.level >= level) ? true : undefined,
      );
  }, 600_000);

  afterAll(async () => {
    await b?.stop();
    if (bDir) await rm(bDir, { recursive: true, force: true });
  });

  it('opens the FA1.2 originated before B started: code, storage, entrypoints, and the note on its history', async () => {
    const page = await pages.open();
    const started = Date.now();
    await page.goto(`${b.url}/${NET}/${fa12}/storage`);
    await appTookOver(page);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const note = page.getByRole('status').filter({ hasText: 'is not indexed yet' });
    await note.waitFor();
    const text = (await note.textContent()) ?? '';
    const level = Number(/before level ([\d,]+)/.exec(text)?.[1]?.replace(/,/g, ''));
    expect(level).toBeGreaterThan(1);
    // the storage as the node has it: the FA1.2's fields, its big maps marked as not fully indexed
    await page.getByText('total_supply').first().waitFor();
    await page
      .getByText(/ledger/)
      .first()
      .waitFor();
    await page
      .getByText(/at least \d+ keys|keys not indexed/)
      .first()
      .waitFor();
    console.log(
      `[e2e any-contract] storage of a contract unknown to B shown ${Date.now() - started} ms after the request`,
    );
    // the code, read from the node once and served by B's own database
    await page.getByRole('tab', { name: 'Code' }).click();
    await page.getByText('parameter', { exact: false }).first().waitFor();
    // the entrypoints, ready to be called
    await page.getByRole('tab', { name: 'Interact' }).click();
    await page.getByText('transfer', { exact: true }).first().waitFor();
    // B's API answers as for any indexed contract, marked partial
    const c = await contractAt(b.url, NET, fa12);
    expect(c).toMatchObject({ address: fa12 });
    // partial until its history is backfilled (which may already be done by now); the level from which its
    // history is complete only goes down while the backfill walks (issue 32), so at most the note's
    if (c.partial) {
      expect(c.indexed_from).toBeGreaterThan(0);
      expect(c.indexed_from).toBeLessThanOrEqual(level);
    }
    expect(c.entrypoints).toEqual(expect.arrayContaining(['transfer', 'approve']));
  });

  /** The level both A's sandboxnet and B's `net` have indexed: answers are compared below it. */
  const bothAt = async (net: string) => {
    const [headsA, headsB] = await Promise.all([heads(a.server.url), heads(b.url)]);
    return Math.min(
      headsA.find((x) => x.network === 'sandboxnet')!.level,
      headsB.find((x) => x.network === net)!.level,
    );
  };
  /** A contract's record on a server's network (`GET /v1/contract/{network}/{address}`), typed by the client. */
  const contractAt = (url: string, network: string, address: string) =>
    api(url).unwrap(
      api(url).GET('/v1/contract/{network}/{address}', { params: { path: { network, address } } }),
    );
  /** B is asked for a contract as its page would (which adopts it): the answer does not matter. */
  const askFor = (network: string, address: string) =>
    api(b.url)
      .GET('/v1/contract/{network}/{address}', { params: { path: { network, address } } })
      .catch(() => undefined);
  /**
   * A's and B's answers to the same path (`{net}` is each one's name of the chain). Raw on purpose: the routes
   * compared are built at run time (one helper for every list of both servers), which the typed client's path
   * literals cannot take.
   */
  const both = async <T = unknown>(net: string, route: string): Promise<[T, T]> =>
    Promise.all([
      getJson<T>(`${a.server.url}/v1${route.replace('{net}', 'sandboxnet')}`),
      getJson<T>(`${b.url}/v1${route.replace('{net}', net)}`),
    ]);
  /** Every item of an offset-paged list (`size` per page). */
  const paged = async (base: string, route: string, size = 10) => {
    const out: Json[] = [];
    for (let offset = 0; ; offset += size) {
      const page = await getJson<Json[] | null>(
        `${base}${route}${route.includes('?') ? '&' : '?'}size=${size}&offset=${offset}`,
      );
      if (!page?.length) return out;
      out.push(...page);
      if (page.length < size) return out;
    }
  };
  const pagedBoth = (net: string, route: string) =>
    Promise.all([
      paged(`${a.server.url}/v1`, route.replace('{net}', 'sandboxnet')),
      paged(`${b.url}/v1`, route.replace('{net}', net)),
    ]);

  /**
   * Asks B's `net` for `address` and waits until its history is backfilled there, then checks its origination
   * level and its whole operation list (every group, paged by last_id on both, below both heads) against A's.
   * Returns A's groups compared (their hashes and levels).
   */
  const backfilledAsInA = async (net: string, source: string, address = fa12, what = 'FA1.2') => {
    const started = Date.now();
    const contractIn = () => contractAt(b.url, net, address);
    const done = await waitFor(`the ${what}'s history backfilled in B's ${net}`, 240_000, async () => {
      const c = await contractIn();
      return c.history?.state === 'done' && !c.partial ? c : undefined;
    });
    console.log(
      `[e2e any-contract] ${what} history (${done.history!.total} levels) backfilled in B's ${net} from ${source} ${Date.now() - started} ms after this test started`,
    );
    // the contract's origination, as A has it
    const inA = await contractAt(a.server.url, 'sandboxnet', address);
    expect(done.level).toBe(inA.level);
    // every operation group, page by page, the same on both (below both heads)
    const groups = async (base: string, network: string) => {
      const out: Json[] = [];
      let last: number | null = null;
      for (;;) {
        const page = (await api(base).unwrap(
          api(base).GET('/v1/contract/{network}/{address}/opg', {
            params: { path: { network, address }, query: { size: 10, last_id: last ?? undefined } },
          }),
        )) as Json[];
        if (page.length === 0) return out;
        for (const g of page) out.push(g);
        last = Math.min(...page.map((g) => g.last_id as number));
      }
    };
    const top = await bothAt(net);
    const below = (gs: Json[]) => gs.filter((g) => (g.level as number) <= top);
    const [ga, gb] = [below(await groups(a.server.url, 'sandboxnet')), below(await groups(b.url, net))];
    expect(ga.length).toBeGreaterThan(30);
    expect(local(gb)).toEqual(local(ga));
    return { top, groups: ga as { hash: string; level: number }[] };
  };

  /**
   * After the backfill, B's `net` answers as A for the FA1.2 (below both heads): each operation group's
   * operations (parameters, storage diffs), the storage at past levels and now, the ledger big map's info,
   * history, keys and two keys' histories, the token data; and for the counter, its events.
   */
  const sameAnswersAsA = async (net: string, top: number, groups: { hash: string; level: number }[]) => {
    const started = Date.now();
    // B decodes a call's parameters and storage diff with the called contract's script: the other contracts
    // these groups call (the swap, callbacks, …) are asked for first, as opening them would (B adopts them)
    const called = new Set<string>();
    for (const g of groups)
      for (const o of await getJson<Json[]>(`${a.server.url}/v1/opg/sandboxnet/${g.hash}`))
        if (typeof o.destination === 'string' && o.destination.startsWith('KT1')) called.add(o.destination);
    for (const address of called) {
      const { response } = await api(b.url).GET('/v1/contract/{network}/{address}', {
        params: { path: { network: net, address } },
      });
      expect(response.status, `B's ${net} asked for ${address}`).toBe(200);
    }
    // every operation of every group, with its parameters and storage diff (A's ids and B's differ)
    for (const g of groups) {
      const [oa, ob] = await both<Json[]>(net, `/opg/{net}/${g.hash}`);
      expect(oa.length, g.hash).toBeGreaterThan(0);
      expect(local(ob), `operations of ${g.hash}`).toEqual(local(oa));
    }
    const transfers = groups.length;
    // the storage at the origination, at levels between, at the level of the call made after B started, now
    const levels = [...new Set(groups.map((g) => g.level))].sort((x, y) => x - y);
    const picked = [...new Set([levels[0]!, ...levels.filter((_, i) => i % 10 === 5), levels.at(-1)!, top])];
    for (const level of picked) {
      const [sa, sb] = await both(net, `/contract/{net}/${fa12}/storage?level=${level}`);
      expect(local(sb), `storage at level ${level}`).toEqual(local(sa));
    }
    const [sa, sb] = await both<{ children: { name: string; value: unknown }[] }[]>(
      net,
      `/contract/{net}/${fa12}/storage`,
    );
    expect(local(sb), 'current storage').toEqual(local(sa));
    const ptr = Number(sa[0]!.children.find((c) => c.name === 'ledger')!.value);
    expect(ptr).toBeGreaterThanOrEqual(0);
    // the ledger big map: its info, count, history of actions, its keys (paged), two keys' histories
    const [ia, ib] = await both<{ total_keys: number }>(net, `/bigmap/{net}/${ptr}`);
    expect(ia.total_keys).toBeGreaterThan(3);
    expect(local(ib), 'big map info').toEqual(local(ia));
    const [na, nb] = await both(net, `/bigmap/{net}/${ptr}/count`);
    expect(nb, 'big map count').toEqual(na);
    const [ha, hb] = await both(net, `/bigmap/{net}/${ptr}/history`);
    expect(local(hb), 'big map history').toEqual(local(ha));
    // The keys, every page, in the list's order: chain order (the level a key first appeared at), which B
    // stores a backfilled key's state out of (when it writes the key's oldest block, after newer ones)
    const [ka, kb] = await pagedBoth(net, `/bigmap/{net}/${ptr}/keys`);
    expect(ka.length).toBe(ia.total_keys);
    expect(local(kb), 'ledger keys').toEqual(local(ka));
    // the search by key text finds the holder credited after B started (its key written before the adoption)
    const [sa2, sb2] = await both<Json[]>(net, `/bigmap/{net}/${ptr}/keys?search=${NEW_HOLDER.slice(0, 12)}`);
    expect(sa2.length).toBe(1);
    expect(local(sb2), 'ledger keys found by text').toEqual(local(sa2));
    const keyOf = (holder: string) =>
      ka.map((k) => k.data as Json).find((k) => k.key_string === holder)?.key_hash as string;
    for (const holder of [BOOTSTRAP_ACCOUNTS[0]!.pkh, NEW_HOLDER]) {
      const hash = keyOf(holder);
      expect(hash, `ledger key of ${holder}`).toMatch(/^expr/);
      const [va, vb] = await both<{ total: number }>(net, `/bigmap/{net}/${ptr}/keys/${hash}?size=10`);
      expect(va.total).toBeGreaterThan(0);
      expect(local(vb), `history of the ledger key of ${holder}`).toEqual(local(va));
      // all of the history, page by page
      for (let offset = 10; offset < va.total; offset += 10) {
        const [pa, pb] = await both(net, `/bigmap/{net}/${ptr}/keys/${hash}?size=10&offset=${offset}`);
        expect(local(pb), `history of the ledger key of ${holder} from ${offset}`).toEqual(local(pa));
      }
      const [cura, curb] = await both(net, `/bigmap/{net}/${ptr}/keys/${hash}/state`);
      expect(local(curb), `state of the ledger key of ${holder}`).toEqual(local(cura));
    }
    // The token data: metadata (TZIP-12, resolved in the background: waited for), count, holders with their
    // balances. The FA1.2 has no TZIP-12 token metadata (its list is empty on both); the FA2 has.
    let holders = 0;
    for (const [token, name] of [
      [fa12, 'FA1.2'],
      [fa2, 'FA2'],
    ] as const) {
      const [ta] = await both<Json[]>(net, `/contract/{net}/${token}/tokens`);
      if (token === fa2) expect(ta.length).toBeGreaterThan(0);
      const tb = await waitFor(`the ${name}'s tokens in B's ${net}`, 60_000, async () => {
        const t = await getJson<Json[]>(`${b.url}/v1/contract/${net}/${token}/tokens`);
        return JSON.stringify(local(t)) === JSON.stringify(local(ta)) ? t : undefined;
      }).catch(() => getJson<Json[]>(`${b.url}/v1/contract/${net}/${token}/tokens`));
      expect(local(tb), `the ${name}'s tokens`).toEqual(local(ta));
      const [ca, cb] = await both(net, `/contract/{net}/${token}/tokens/count`);
      expect(cb, `the ${name}'s token count`).toEqual(ca);
      const [holdersA, holdersB] = await both<Record<string, string>>(
        net,
        `/contract/{net}/${token}/tokens/holders?token_id=0`,
      );
      expect(Object.keys(holdersA).length).toBeGreaterThan(3);
      if (token === fa12) expect(holdersA[NEW_HOLDER]).toBe('7');
      expect(holdersB, `the ${name}'s holders and their balances`).toEqual(holdersA);
      holders += Object.keys(holdersA).length;
    }
    // the counter's events (the FA1.2 emits none: its code has no EMIT)
    const [ea, eb] = await pagedBoth(net, `/contract/{net}/${counter}/events`);
    expect(ea.length).toBeGreaterThan(5);
    expect(local(eb), "the counter's events").toEqual(local(ea));
    console.log(
      `[e2e any-contract] B's ${net} answers as A for the FA1.2 (${transfers} groups, ${picked.length + 1} storages, ${ka.length} ledger keys, ${holders} FA1.2 and FA2 holders) and the counter (${ea.length} events) in ${Date.now() - started} ms`,
    );
  };

  const backfilled = new Map<string, { top: number; groups: { hash: string; level: number }[] }>();

  it(
    'backfills its history from A’s API: the full operation list, equal to A’s',
    { timeout: 400_000 },
    async () => {
      backfilled.set(NET, await backfilledAsInA(NET, 'A’s API'));
      // the page: no note any more, the operations listed down to the origination
      const page = await pages.open();
      await page.goto(`${b.url}/${NET}/${fa12}/operations`);
      await appTookOver(page);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.getByRole('status').filter({ hasText: 'is not indexed yet' }).count()).toBe(0);
    },
  );

  it(
    'answers as A once backfilled from A’s API: operations, storage history, ledger keys and their history, tokens, events',
    { timeout: 400_000 },
    async () => {
      const { top, groups } = backfilled.get(NET)!;
      // the counter and the FA2, originated in the FA1.2's block, stored by its backfill: asked for, each gets
      // its own history (the counter's events and the FA2's tokens are compared)
      await askFor(NET, counter);
      await askFor(NET, fa2);
      await backfilledAsInA(NET, 'A’s API', counter, 'counter');
      await backfilledAsInA(NET, 'A’s API', fa2, 'FA2');
      await sameAnswersAsA(NET, top, groups);
    },
  );

  it(
    'backfills its history by a scan of the node on a network without a history source: equal to A’s',
    { timeout: 400_000 },
    async () => {
      // the address asked for on the scan network (as its page would), adopted there, then backfilled
      await askFor(SCAN_NET, fa12);
      backfilled.set(SCAN_NET, await backfilledAsInA(SCAN_NET, 'a scan of the node'));
    },
  );

  it(
    'answers as A once backfilled by the scan: operations, storage history, ledger keys and their history, tokens, events',
    { timeout: 400_000 },
    async () => {
      const { top, groups } = backfilled.get(SCAN_NET)!;
      await askFor(SCAN_NET, counter);
      await askFor(SCAN_NET, fa2);
      await backfilledAsInA(SCAN_NET, 'a scan of the node', counter, 'counter');
      await backfilledAsInA(SCAN_NET, 'a scan of the node', fa2, 'FA2');
      await sameAnswersAsA(SCAN_NET, top, groups);
    },
  );

  it('shows "Page not found" for a KT1 the node does not know', async () => {
    // the browser's own line for the API's 404s of an unknown address
    const page = await pages.open({ allow: /status of 404/ });
    await page.goto(`${b.url}/${NET}/${NEVER}`);
    await page.getByText('Page not found').first().waitFor();
    // 204 (no body) is a success for the client: its data is undefined, the raw answer's status 204
    const { data, response } = await api(b.url).GET('/v1/contract/{network}/{address}', {
      params: { path: { network: NET, address: NEVER } },
    });
    expect(response.status).toBe(204);
    expect(data).toBeUndefined();
  });
});
