/**
 * Any address of a public network at once (issue 32, capability 1), with real parts: the seeded sandbox chain
 * served by its node RPC, an indexer that treats it as a public network (started at the node's head, as mainnet
 * is), and the API over that database. A contract originated before the indexer started is unknown to the index;
 * asked for, it is read from the node and answered as an indexed contract, marked partial; calls made to it
 * afterwards are indexed with its script (entrypoint and parameters decoded). An address the node does not know
 * stays a clean 204, and a revert of the level it was read at puts the request back.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getAddressRequest } from '@michelscope/db/address-requests';
import { describeDb } from '@michelscope/db/testing';
import { getIndexerHead, pruneAddressRequests, revertBlock, writeAdoptions } from '@michelscope/db/write';
import { startIndexer, type IndexerHandle } from '@michelscope/indexer';
import { BOOTSTRAP_ACCOUNTS, injectAs, Sandbox, sandboxRpcPlugin } from '@michelscope/sandbox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApi } from '../src/index';
import { openSeededSandbox } from '@michelscope/sandbox/testing';

const NET = 'remotenet';
const ALICE = BOOTSTRAP_ACCOUNTS[0]!;
const BOB = BOOTSTRAP_ACCOUNTS[1]!.pkh;
/** A well-formed KT1 (valid checksum) that no operation ever originated. */
const NEVER = 'KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi';

const until = async (what: string, check: () => Promise<boolean>, ms = 30_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

// Both backends: adoption writes through the indexer's write path (deferred statements, COPY on the server).
describeDb('an address the index does not hold, read from the node', { backends: 'both' }, ({ db }) => {
  let dir: string;
  let sandbox: Sandbox;
  let node: FastifyInstance;
  let indexer: IndexerHandle;
  let app: FastifyInstance;
  const contracts: Record<string, string> = {};
  const poisoned = new Set<string>();

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ms-adopt-'));
    sandbox = await openSeededSandbox({
      dataDir: dir,
      blockTimeMs: 3_600_000,
      log: (line) => {
        for (const m of line.matchAll(/(\w+)=(KT1\w{33})/g)) contracts[m[1]!] = m[2]!;
      },
    });
    node = Fastify({ forceCloseConnections: true });
    // the node errs on the addresses of `poisoned` (a node may fail on one contract while serving blocks)
    node.addHook('onRequest', async (req, reply) => {
      if ([...poisoned].some((a) => req.url.includes(`/contracts/${a}`)))
        await reply.code(500).send([{ kind: 'temporary', id: 'failure', msg: 'test' }]);
    });
    await node.register(sandboxRpcPlugin(sandbox), { prefix: '/rpc/x' });
    const rpcUrl = `${await node.listen({ host: '127.0.0.1', port: 0 })}/rpc/x`;
    indexer = startIndexer({
      db: db(),
      network: NET,
      rpcUrl,
      startLevel: 'head',
      pollIntervalMs: 100,
      // the history backfill (backfill.test.ts) would change what this suite checks: the adopted state
      historySource: false,
      log: () => {},
    });
    await until('the indexer to store the head', async () => indexer.status().level === sandbox.headLevel);
    app = await buildApi({
      db: db(),
      networks: [{ name: NET, rpcUrl, publicRpcUrl: rpcUrl, statsEnabled: false }],
      onAddressRequest: () => indexer.wake(),
    });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await indexer?.stop();
    await node?.close();
    await sandbox?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const get = (url: string) => app.inject({ method: 'GET', url });

  it('answers a contract originated before the indexed range at once, marked partial, as the node has it', async () => {
    const fa12 = contracts.fa12!;
    expect(fa12).toMatch(/^KT1/);
    const head = (await getIndexerHead(db(), NET))!.level;
    // the first request answers it (the API waits for the indexer's read; bench/RESULTS.md has the time)
    const res = await get(`/v1/contract/${NET}/${fa12}`);
    expect(res.statusCode).toBe(200);
    const c = res.json<Record<string, unknown>>();
    expect(c).toMatchObject({ address: fa12, network: NET, partial: true, indexed_from: head, level: head });
    expect(c.entrypoints).toEqual(expect.arrayContaining(['approve', 'transfer', 'getBalance']));
    expect(c.tags).toEqual(expect.arrayContaining(['fa1-2']));
    // storage, code and entrypoint forms come from the database now, equal to the node's
    const raw = await get(`/v1/contract/${NET}/${fa12}/storage/raw`);
    expect(raw.statusCode).toBe(200);
    // the node's values, in the text: its admin and total supply (as the node has them at that level)
    const onNode = JSON.stringify(sandbox.stateAt(head).contract(fa12)!.storage);
    const supply = [...onNode.matchAll(/"int":"(\d{4,})"/g)].map((m) => m[1]!);
    expect(supply.length).toBeGreaterThan(0);
    for (const n of supply) expect(raw.json<string>()).toContain(n);
    expect((await get(`/v1/contract/${NET}/${fa12}/code`)).json<string>()).toContain('parameter');
    const schema = await get(`/v1/contract/${NET}/${fa12}/entrypoints`);
    expect(schema.json<{ name: string }[]>().map((e) => e.name)).toContain('approve');
    const account = await get(`/v1/account/${NET}/${fa12}`);
    expect(account.json()).toMatchObject({ account_type: 'contract' });
    // its big maps are known with their names and types
    const storage = await get(`/v1/contract/${NET}/${fa12}/storage`);
    expect(JSON.stringify(storage.json())).toContain('"name":"ledger"');
    expect((await getAddressRequest(db(), NET, fa12))?.state).toBe('adopted');
  });

  it('reads a key of its big maps from the node: searched by text, then its value by hash', async () => {
    const fa12 = contracts.fa12!;
    const storage = JSON.stringify((await get(`/v1/contract/${NET}/${fa12}/storage`)).json());
    const ledger = Number(/"name":"ledger","value":(\d+)/.exec(storage)?.[1]);
    expect(Number.isInteger(ledger)).toBe(true);
    // only the keys written since the indexer started are indexed: the count says it is a lower bound
    expect((await get(`/v1/bigmap/${NET}/${ledger}/count`)).json()).toMatchObject({ partial: true });
    // keys written since the indexer started are in the database; the others only on the node
    const indexed = new Set(
      (await get(`/v1/bigmap/${NET}/${ledger}/keys`))
        .json<{ data: { key_string: string } }[]>()
        .map((k) => k.data.key_string),
    );
    const hits: { key_string: string; key_hash: string }[] = [];
    for (const { pkh } of BOOTSTRAP_ACCOUNTS.filter((a) => !indexed.has(a.pkh))) {
      const res = await get(`/v1/bigmap/${NET}/${ledger}/keys?search=${pkh}`);
      expect(res.statusCode).toBe(200);
      for (const item of res.json<{ data: { key_string: string; key_hash: string } }[]>())
        hits.push(item.data);
    }
    expect(hits.length).toBeGreaterThan(0); // the seed gave tokens to bootstrap accounts before
    const hit = hits[0]!;
    expect(BOOTSTRAP_ACCOUNTS.map((a) => a.pkh)).toContain(hit.key_string);
    const history = await get(`/v1/bigmap/${NET}/${ledger}/keys/${hit.key_hash}`);
    expect(history.statusCode).toBe(200);
    const head = (await getIndexerHead(db(), NET))!.level;
    const onNode = sandbox.stateAt(head).bigMapEntry(String(ledger), hit.key_hash)!;
    expect(onNode).toBeDefined();
    // the value shown is the node's: every number of it appears in the rendered value
    const value = JSON.stringify(history.json<{ values: { value: unknown }[] }>().values[0]!.value);
    const numbers = [...JSON.stringify(onNode.value).matchAll(/"int":"(\d+)"/g)].map((m) => m[1]!);
    expect(numbers.length).toBeGreaterThan(0);
    for (const n of numbers) expect(value).toContain(`"${n}"`);
    // a key the node does not have stays a 204
    const absent = 'expruCKsgmUZjC7k8NRcwbcGbFSuLHv5rUyApNd972MwArLuxEZQm2';
    expect((await get(`/v1/bigmap/${NET}/${ledger}/keys/${absent}`)).statusCode).toBe(204);
  });

  it('indexes the calls made to it afterwards with its script: entrypoint and parameters decoded', async () => {
    const fa12 = contracts.fa12!;
    const hash = await injectAs(sandbox, ALICE, [
      {
        kind: 'transaction',
        amount: '0',
        destination: fa12,
        parameters: { entrypoint: 'approve', value: { prim: 'Pair', args: [{ string: BOB }, { int: '7' }] } },
      },
    ]);
    const block = await sandbox.bakeBlock();
    await until('the call to be indexed', async () => indexer.status().level === block.header.level);
    const opg = (await get(`/v1/contract/${NET}/${fa12}/opg`)).json<Record<string, unknown>[]>();
    const call = opg.find((o) => o.hash === hash);
    expect(call).toMatchObject({ entrypoint: 'approve', status: 'applied', kind: 'transaction' });
    // the group's operation, with its parameters decoded along the contract's parameter type
    const ops = (await get(`/v1/opg/${NET}/${hash}`)).json<Record<string, unknown>[]>();
    const op = ops.find((o) => o.destination === fa12);
    expect(op).toMatchObject({ entrypoint: 'approve', status: 'applied' });
    expect(JSON.stringify(op!.parameters)).toContain(BOB);
    expect(JSON.stringify(op!.parameters)).toContain('"name":"spender"');
  });

  it('keeps an address the node does not know a clean 204, and answers again at once', async () => {
    const first = await get(`/v1/contract/${NET}/${NEVER}`);
    expect(first.statusCode).toBe(204);
    const answered = (await getAddressRequest(db(), NET, NEVER))!;
    expect(answered.state).toBe('unknown');
    // asked again within the minute: answered from the stored 'unknown', not queued again
    expect((await get(`/v1/contract/${NET}/${NEVER}`)).statusCode).toBe(204);
    expect((await getAddressRequest(db(), NET, NEVER))?.requested_at).toEqual(answered.requested_at);
    // an answer 'unknown' is kept an hour, then deleted (made-up addresses do not pile up)
    await db()
      .updateTable('address_requests')
      .set({ updated_at: new Date(Date.now() - 2 * 3_600_000) })
      .where('address', '=', NEVER)
      .execute();
    expect(await pruneAddressRequests(db(), NET)).toBe(1);
    expect(await getAddressRequest(db(), NET, NEVER)).toBeUndefined();
    // a malformed address (bad checksum) is never queued
    const bad = `${NEVER.slice(0, -1)}j`;
    expect((await get(`/v1/contract/${NET}/${bad}`)).statusCode).toBe(204);
    expect(await getAddressRequest(db(), NET, bad)).toBeUndefined();
  });

  it('finds a pasted address the index lacked: the search reads it from the node first', async () => {
    const counter = contracts.counter!;
    const res = await app.inject({
      method: 'POST',
      url: '/search/v1/search',
      payload: { query: counter },
    });
    expect(res.statusCode).toBe(200);
    const items = res.json<{ items: { body: { Address?: string; Network?: string } }[] }>().items;
    expect(items.map((i) => i.body)).toEqual(
      expect.arrayContaining([expect.objectContaining({ Address: counter, Network: NET })]),
    );
  });

  it('fails only the address the node errs on: blocks are still indexed', async () => {
    const minter = contracts.minter!;
    poisoned.add(minter);
    expect((await get(`/v1/contract/${NET}/${minter}`)).statusCode).toBe(204);
    const request = (await getAddressRequest(db(), NET, minter))!;
    expect(request.state).toBe('failed');
    expect(request.message).toContain('500');
    const block = await sandbox.bakeBlock();
    await until('the next block to be indexed', async () => indexer.status().level === block.header.level);
    poisoned.delete(minter);
  });

  it('writes nothing when the head moved, and a revert of the level read at asks again', async () => {
    await indexer.stop();
    const head = (await getIndexerHead(db(), NET))!;
    const moved = await writeAdoptions(db(), NET, { level: head.level - 1, hash: 'BLx' }, [], []);
    expect(moved).toBe(false);
    const fa2 = contracts.fa2!;
    expect((await get(`/v1/contract/${NET}/${fa2}`)).statusCode).toBe(204); // no indexer: stays pending
    expect((await getAddressRequest(db(), NET, fa2))?.state).toBe('pending');
    const vault = contracts.fa12!;
    const read = (await getAddressRequest(db(), NET, vault))!.level!;
    for (let l = head.level; l >= read; l--) await revertBlock(db(), NET, l);
    expect((await get(`/v1/contract/${NET}/${vault}?stats=false`)).statusCode).toBe(204);
    expect((await getAddressRequest(db(), NET, vault))?.state).toBe('pending');
  });
});
