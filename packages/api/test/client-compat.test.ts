/**
 * Contract tests for existing clients of the BCD API (issue 17, docs/CLIENT-COMPATIBILITY.md): each sends the
 * request the original BCD frontend sends, verbatim, and asserts the field that client reads.
 */
import { describeDb } from '@michelscope/db/testing';
import { startMetadataResolver } from '@michelscope/indexer';
import { BOOTSTRAP_ACCOUNTS, sandboxRpcPlugin } from '@michelscope/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApi } from '../src/index';
import { openIndexedSandbox, SANDBOX_NET as NET, type IndexedSandbox } from './indexed-sandbox';

const ALICE = BOOTSTRAP_ACCOUNTS[0]!.pkh;
type Op = Record<string, unknown> & { result?: { consumed_gas?: number }; internal?: boolean };
type Body = Record<string, unknown> & {
  TzKT?: { Name?: string };
  TZIP?: { Name?: string };
  Profiles?: { Name?: string };
  Domains?: { Name?: string };
};
type Item = { type: string; value: string; body: Body; found_by?: string };
type Page = { items: Item[]; total: number };

/** The alias the BCD frontend shows for an account item (api/search.js `getAccountAlias`). */
function getAccountAlias(body: Body): string | null | undefined {
  if (body.TzKT) return body.TzKT.Name;
  if (body.TZIP) return body.TZIP.Name;
  if (body.Profiles) return body.Profiles.Name;
  if (body.Domains) return body.Domains.Name;
  return null;
}

// PGlite only: client request shapes over ordinary reads (search SQL runs on both in services.test.ts).
describeDb('BCD frontend requests over the indexed sandbox', { backends: 'pglite' }, ({ db }) => {
  let env: IndexedSandbox;
  const post = async (url: string, payload: object) => {
    const res = await env.app.inject({ method: 'POST', url, payload });
    return { status: res.statusCode, body: res.json<unknown>() };
  };

  beforeAll(async () => {
    env = await openIndexedSandbox(db());
    // the metadata resolver of `npm start`: names the FA1.2 and FA2 demo contracts and the FA2 tokens
    const resolver = startMetadataResolver({
      db: db(),
      network: NET,
      rpcUrl: env.rpcUrl,
      background: false,
      batchSize: 50,
      log: () => {},
    });
    await resolver.runOnce();
    await resolver.stop();
  }, 90_000);
  afterAll(() => env?.close());

  /** SchemaResultOPG's header: `gasLimit` sums result.consumed_gas of the main and internal operations. */
  const clientGasLimit = (ops: Op[]) => ops.reduce((sum, op) => sum + (op.result?.consumed_gas ?? 0), 0);

  it('run_operation: gas_limit, storage_limit and result per operation (the simulation dialog)', async () => {
    const { splitter, counter } = env.contracts;
    // Schema.vue → api.getContractEntrypointTrace with source set and sender '' → run_operation
    const r = await post(`/v1/contract/${NET}/${splitter}/entrypoints/run_operation`, {
      name: 'default',
      data: {},
      source: ALICE,
      amount: 2000000,
    });
    expect(r.status).toBe(200);
    const ops = r.body as Op[];
    const [main, ...internals] = ops;
    // InternalOperation.vue: "Gas limit" / "Storage limit" of the main operation (internals use the main's)
    expect(main).toMatchObject({ status: 'applied', gas_limit: 1040000, storage_limit: 60000 });
    expect(internals.map((o) => [o.kind, o.destination ?? o.source])).toEqual([
      ['transaction', BOOTSTRAP_ACCOUNTS[3]!.pkh],
      ['transaction', counter],
      ['event', counter],
    ]);
    for (const op of ops) {
      expect(op.result, JSON.stringify(op)).toBeDefined();
      // consumed_gas stays milligas; result.consumed_gas is gas units, rounded up
      expect(op.result!.consumed_gas).toBe(Math.ceil(Number(op.consumed_gas) / 1000));
    }
    const gas = clientGasLimit(ops);
    expect(gas).toBeGreaterThan(100);
    expect(gas).toBeLessThan(1040000);
    // the storage size the node reported is in both places
    const note = await post(`/v1/contract/${NET}/${counter}/entrypoints/run_operation`, {
      name: 'note',
      data: { note: { '@string_7': 'a note from a BCD client', '@nat_8': 7 } },
      source: ALICE,
    });
    expect(note.status, JSON.stringify(note.body)).toBe(200);
    const n = (note.body as Op[])[0]!;
    expect(n).toMatchObject({ status: 'applied', gas_limit: 1040000, storage_limit: 60000 });
    expect(n.storage_size).toBeGreaterThan(0);
    expect(n.result).toMatchObject({ storage_size: n.storage_size });
  });

  it('trace: what the called contract emits has that contract as source', async () => {
    const { counter, splitter } = env.contracts;
    const r = await post(`/v1/contract/${NET}/${counter}/entrypoints/trace`, {
      name: 'increment',
      data: { increment: 5 },
      source: ALICE,
    });
    expect(r.status).toBe(200);
    const event = (r.body as Op[]).find((o) => o.kind === 'event');
    expect(event).toMatchObject({ internal: true, tag: 'changed', source: counter });
    const s = await post(`/v1/contract/${NET}/${splitter}/entrypoints/trace`, {
      name: 'default',
      data: {},
      amount: 1000,
    });
    expect(s.status).toBe(200);
    const internals = (s.body as Op[]).slice(1);
    expect(internals).toHaveLength(2);
    for (const op of internals) expect(op.source).toBe(splitter);
  });

  it('node RPC from the browser: the embedded node answers with CORS, also under a path without "sandbox"', async () => {
    // the composition of `npm start`: the sandbox's RPC served by the API plugin as its embedded node
    const app = await buildApi({
      db: db(),
      networks: [
        {
          name: NET,
          rpcUrl: env.rpcUrl,
          publicRpcUrl: 'http://sandbox:8080/rpc/embedded',
          statsEnabled: false,
        },
      ],
      rateLimit: false,
      embeddedNode: { network: NET, plugin: sandboxRpcPlugin(env.sandbox) },
    });
    try {
      const origin = { origin: 'http://127.0.0.1:8081' };
      // NodeRPC (taquito RpcClient) of the BCD frontend: plain GETs from another origin
      for (const base of ['/rpc/sandboxnet', '/rpc/embedded']) {
        const r = await app.inject({ url: `${base}/chains/main/blocks/head/header`, headers: origin });
        expect(r.statusCode, base).toBe(200);
        expect(r.headers['access-control-allow-origin'], base).toBe('*');
        expect(r.json<{ level: number }>().level).toBe(env.sandbox.headLevel);
        const post = await app.inject({
          method: 'POST',
          url: `${base}/chains/main/blocks/head/helpers/scripts/pack_data`,
          headers: origin,
          payload: { data: { int: '1' }, type: { prim: 'int' } },
        });
        expect(post.headers['access-control-allow-origin'], base).toBe('*');
        expect(post.json<{ packed: string }>().packed).toBe('050001');
      }
      // main.js: rpc_endpoints[n].replace('sandbox', '127.0.0.1') only touches the host, not the node's path
      const config = (await app.inject('/v1/config')).json<{ rpc_endpoints: Record<string, string> }>();
      const url = config.rpc_endpoints[NET]!.replace('sandbox', '127.0.0.1');
      expect(url).toBe('http://127.0.0.1:8080/rpc/embedded');
      const path = new URL(url).pathname;
      expect((await app.inject({ url: `${path}/chains/main/chain_id`, headers: origin })).statusCode).toBe(
        200,
      );
    } finally {
      await app.close();
    }
  });

  /** ExtendedSearch.vue `requestFilters` on the Everywhere tab: `{search: this.filters}`. */
  const searchPage = (text: string, offset = 0) =>
    post('/search/v1/search', {
      query: text,
      size: 10,
      offset,
      disable_highlight: false,
      filters: {
        search: { tags: [], creators: [], minters: [], mime_types: [], network: [NET], index: [] },
      },
    });
  /** SearchBox.vue → SearchService.suggest(text): size 10, empty filters. */
  const suggest = (text: string) => post('/search/v1/suggest', { query: text, size: 10, filters: {} });
  const accounts = (page: unknown) => (page as Page).items.filter((i) => i.type === 'account');

  it("search: account names in the shape getAccountAlias reads (TZIP: the contract's TZIP-16 name), as /account answers", async () => {
    const { fa12, fa2, counter } = env.contracts;
    // SearchBox: "contract → <alias>" for a name typed in the box
    const byName = await suggest('Michelscope Demo');
    expect(byName.status).toBe(200);
    expect(
      accounts(byName.body)
        .map((i) => [i.body.Address, i.body.IsContract, getAccountAlias(i.body)])
        .sort(),
    ).toEqual(
      [
        [fa2, true, 'Michelscope Demo Collection'],
        [fa12, true, 'Michelscope Demo Token'],
      ].sort(),
    );
    // a contract found by its address or an entrypoint word (its code's document) is named too
    for (const r of [await suggest(fa2!), await searchPage(fa2!), await searchPage('balance_of')]) {
      const item = accounts(r.body).find((i) => i.value === fa2);
      expect(item, JSON.stringify(r.body)).toBeDefined();
      expect(getAccountAlias(item!.body)).toBe('Michelscope Demo Collection');
      // the same sources as GET /v1/account/{network}/{address} (AccountBox, RecentlyCalledContracts)
      const alias = (await env.app.inject(`/search/v1/account/${NET}/${fa2}`)).json<Body>();
      expect({ TzKT: item!.body.TzKT, TZIP: item!.body.TZIP }).toEqual(alias);
      // the contract's TZIP-16 name, not its token 0's ('Demo Coin', issue 33)
      expect(alias).toEqual({ TZIP: { Name: 'Michelscope Demo Collection' } });
    }
    // an unnamed contract: no source, so the client shows its address
    const plain = accounts((await searchPage(counter!)).body);
    expect(plain.map((i) => [i.value, getAccountAlias(i.body)])).toEqual([[counter, null]]);
  });

  it('search, Operations tab and Everywhere: an entrypoint name finds its calls, paged and counted', async () => {
    /** ExtendedSearch.vue on a tab: `{search: {..., index}}`; the next page's offset is what was loaded. */
    const tab = (text: string, index: string[], offset: number, extra: object = {}) =>
      post('/search/v1/search', {
        query: text,
        size: 10,
        offset,
        disable_highlight: false,
        filters: {
          search: { tags: [], creators: [], minters: [], mime_types: [], network: [NET], index },
          ...extra,
        },
      });
    const all = async (text: string, index: string[], extra: object = {}) => {
      const items: Item[] = [];
      let total = -1;
      for (let page = 0; page < 30; page++) {
        const r = await tab(text, index, items.length, extra);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        const body = r.body as Page;
        if (page === 0) total = body.total;
        items.push(...body.items);
        if (body.items.length < 10) break;
      }
      return { items, total };
    };
    const calls = async (entrypoint: string, status?: string) =>
      (
        await db()
          .selectFrom('operations')
          .select(['id', 'hash', 'counter'])
          .where('network', '=', NET)
          .where('entrypoint', '=', entrypoint)
          .where('hash', 'is not', null)
          .$if(status !== undefined, (q) => q.where('status', '=', status as never))
          .orderBy('id', 'desc')
          .execute()
      ).map((o) => `${o.hash}/${o.counter}`);
    let found = 0;
    for (const entrypoint of ['transfer', 'increment']) {
      const expected = await calls(entrypoint);
      expect(expected.length, entrypoint).toBeGreaterThan(10);
      found += expected.length;
      const ops = await all(entrypoint, ['operations']);
      // every call, newest first, each once; the total counts them
      expect(ops.total).toBe(expected.length);
      expect(ops.items.map((i) => `${i.body.Hash}/${i.body.Counter}`)).toEqual(expected);
      for (const i of ops.items) {
        expect(i).toMatchObject({ type: 'operation', found_by: 'Entrypoint' });
        expect(i.body).toMatchObject({ Network: NET, Entrypoint: entrypoint, mempool: false });
      }
      // Everywhere: the documents that name it (contracts by their code), then its calls
      const everywhere = await all(entrypoint, []);
      const docs = everywhere.items.filter((i) => i.type !== 'operation');
      expect(everywhere.items.slice(0, docs.length)).toEqual(docs);
      expect(everywhere.items.slice(docs.length).map((i) => `${i.body.Hash}/${i.body.Counter}`)).toEqual(
        expected,
      );
      expect(everywhere.total).toBe(docs.length + expected.length);
    }
    expect(found).toBeGreaterThan(60);
    // the operations filter of the reference (status) keeps to its calls; a name is whole, not a prefix
    const failed = await all('transfer', ['operations'], { operations: { status: ['failed'] } });
    expect(failed.items.map((i) => `${i.body.Hash}/${i.body.Counter}`)).toEqual(
      await calls('transfer', 'failed'),
    );
    expect(failed.items.length).toBeGreaterThan(0);
    expect(failed.items.every((i) => i.body.Status === 'failed')).toBe(true);
    expect((await all('transf', ['operations'])).items).toEqual([]);
    expect((await all('Transfer', ['operations'])).items).toEqual([]);
  });

  it('search: one account item per contract, the named one (suggest and the search page)', async () => {
    const { fa2, fa12 } = env.contracts;
    for (const address of [fa2!, fa12!]) {
      const page = await searchPage(address);
      expect(page.status).toBe(200);
      const body = page.body as Page;
      expect(accounts(body).map((i) => i.value)).toEqual([address]);
      expect(getAccountAlias(accounts(body)[0]!.body)).toMatch(/^Michelscope Demo /);
      // total counts the account once: every hit fits the page here
      expect(body.total).toBe(body.items.length);
      const bare = (await post('/search/v1/search', { query: address })).body as Page;
      expect(accounts(bare).map((i) => i.value)).toEqual([address]);
      expect(accounts((await suggest(address)).body).map((i) => i.value)).toEqual([address]);
    }
    // a word in both documents of each demo contract (metadata description and code) finds each once
    const demo = await searchPage('demo');
    const found = accounts(demo.body).map((i) => i.value);
    expect(found.sort()).toEqual([fa12, fa2].sort());
  });

  it('big-map keys through the search service: the keys tab lists, pages, filters and names keys', async () => {
    const { fa12, fa2 } = env.contracts;
    const ptrOf = async (contract: string) =>
      Number(
        (
          await db()
            .selectFrom('big_maps')
            .select('ptr')
            .where('network', '=', NET)
            .where('contract', '=', contract)
            .where('name', '=', 'ledger')
            .executeTakeFirstOrThrow()
        ).ptr,
      );
    // KeysTab.vue → SearchService.bigMapKeys(text, {network, big_map_id, is_active}, 10, bigmap.length)
    const keysTab = (text: string, ptr: number, isActive: boolean, offset = 0) =>
      post('/search/v1/search', {
        query: text,
        size: 10,
        offset,
        filters: { big_maps: { network: NET, big_map_id: ptr, is_active: isActive } },
      });
    const get = async <T>(url: string) => (await env.app.inject(url)).json<T>();
    type KeyRow = { data: { key_hash: string; key_string: string; is_active: boolean } };
    type BigMap = { total_keys: number; active_keys: number };

    // the FA1.2 ledger is big map 0 of the seed: the request, verbatim
    expect(await ptrOf(fa12!)).toBe(0);
    const first = await post('/search/v1/search', {
      query: '',
      size: 10,
      offset: 0,
      filters: { big_maps: { network: 'sandboxnet', big_map_id: 0, is_active: false } },
    });
    expect(first.status).toBe(200);
    const listed = first.body as Page;
    const rows = await get<KeyRow[]>(`/v1/bigmap/${NET}/0/keys?size=10`);
    const info = await get<BigMap>(`/v1/bigmap/${NET}/0`);
    expect(rows.length).toBeGreaterThan(3);
    expect(listed.total).toBe(info.total_keys);
    expect(listed.items.every((i) => i.type === 'bigmapkey' && i.body.BigMapID === 0)).toBe(true);
    // BigMapDiff.vue: key_hash, name (the readable key), is_active, timestamp, as GET /bigmap/…/keys has them
    expect(listed.items.map((i) => [i.body.KeyHash, i.body.Name, i.body.IsActive])).toEqual(
      rows.map((r) => [r.data.key_hash, r.data.key_string, r.data.is_active]),
    );
    expect(listed.items.map((i) => i.body.Name)).toContain(BOOTSTRAP_ACCOUNTS[0]!.pkh);
    for (const i of listed.items) expect(i.body['@timestamp']).toMatch(/^\d{4}-\d\d-\d\dT/);

    // the FA2 ledger has more keys than a page, some removed: pages by offset, `is_active` leaves removed out
    const ledger = await ptrOf(fa2!);
    const fa2Info = await get<BigMap>(`/v1/bigmap/${NET}/${ledger}`);
    expect(fa2Info.total_keys).toBeGreaterThan(10);
    expect(fa2Info.active_keys).toBeLessThan(fa2Info.total_keys);
    const all: Item[] = [];
    for (let offset = 0; ; offset += 10) {
      const page = (await keysTab('', ledger, false, offset)).body as Page;
      expect(page.total).toBe(fa2Info.total_keys);
      all.push(...page.items);
      if (page.items.length < 10) break; // KeysTab: downloaded
    }
    expect(all).toHaveLength(fa2Info.total_keys);
    expect(new Set(all.map((i) => i.body.KeyHash)).size).toBe(all.length);
    expect(all.some((i) => i.body.IsActive === false)).toBe(true);
    const active = (await keysTab('', ledger, true)).body as Page;
    expect(active.total).toBe(fa2Info.active_keys);
    expect(active.items.every((i) => i.body.IsActive === true)).toBe(true);
    // a pair key reads as readable Michelson, as key_string does
    expect(all.map((i) => i.body.Name)).toContain(`Pair "${BOOTSTRAP_ACCOUNTS[0]!.pkh}" 0`);

    // with text: only that big map's keys whose readable key (or key hash) matches; nothing else
    const owner = BOOTSTRAP_ACCOUNTS[0]!.pkh;
    const byText = (await keysTab(owner.slice(0, 8), ledger, false)).body as Page;
    expect(byText.items.length).toBeGreaterThan(0);
    expect(byText.total).toBe(byText.items.length);
    for (const i of byText.items) {
      expect(i).toMatchObject({ type: 'bigmapkey', body: { BigMapID: ledger } });
      expect(i.body.Name).toContain(owner.slice(0, 8));
    }
    expect(byText.items.length).toBe(all.filter((i) => String(i.body.Name).includes(owner)).length);
    const byAddress = (await keysTab(owner, 0, false)).body as Page;
    expect(byAddress.items.map((i) => [i.type, i.body.BigMapID, i.body.Name])).toEqual([
      ['bigmapkey', 0, owner],
    ]);
    const byHash = (await keysTab(String(byAddress.items[0]!.body.KeyHash), 0, false)).body as Page;
    expect(byHash.items.map((i) => i.body.Name)).toEqual([owner]);
    // a contract address that is no key of this big map: no account, no other big map's key
    expect((await keysTab(fa2!, 0, false)).body).toMatchObject({ items: [], total: 0 });
    // another network's big map: none
    expect((await keysTab('', 0, false)).body).toMatchObject({ total: info.total_keys });
    expect(
      (
        await post('/search/v1/search', {
          query: '',
          size: 10,
          offset: 0,
          filters: { big_maps: { network: 'mainnet', big_map_id: 0, is_active: false } },
        })
      ).body,
    ).toMatchObject({ items: [], total: 0 });
    // a bad pointer is a client error
    const bad = await post('/search/v1/search', {
      query: '',
      size: 10,
      offset: 0,
      filters: { big_maps: { network: NET, big_map_id: -5, is_active: false } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toHaveProperty('message');
  });
});
