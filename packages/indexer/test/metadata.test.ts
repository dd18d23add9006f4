import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeDb } from '@michelscope/db/testing';
import { saveResolvedMetadata, dueMetadata } from '@michelscope/db/write';
import { bigMapKeyHash } from '@michelscope/michelson';
import { b58Encode, PrefixV2 } from '@taquito/utils';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startMetadataResolver, type MetadataResolverOptions } from '../src';
import {
  contractRow,
  metadataBigMap,
  MetadataServer,
  NET,
  queueContract,
  queueToken,
  searchKeys,
  seedContract,
  tokenRow,
  hex,
} from './metadata-seed';

let n = 0;
const kt1 = () =>
  b58Encode(createHash('sha256').update(`c${n++}`).digest().subarray(0, 20), PrefixV2.ContractHash);

// PGlite only: the resolver's fetching and parsing; its writes on PostgreSQL run in sandbox.test.ts.
describeDb('metadata resolver', { backends: 'pglite' }, ({ db }) => {
  const server = new MetadataServer();
  const logs: string[] = [];
  beforeAll(() => server.start());
  afterAll(() => server.close());
  beforeEach(() => {
    logs.length = 0;
  });

  const resolver = (extra: Partial<MetadataResolverOptions> = {}) =>
    startMetadataResolver({
      db: db(),
      network: NET,
      ipfsGateway: `${server.base}/ipfs`,
      log: (l) => logs.push(l),
      allowInsecure: true,
      background: false,
      backoff: { initialMs: 40, maxMs: 1000 },
      ...extra,
    });

  /** Runs rounds until nothing is due (waiting out back-offs) or `rounds` is reached. */
  async function drain(r: ReturnType<typeof resolver>, rounds = 10): Promise<void> {
    for (let i = 0; i < rounds; i++) {
      if ((await r.runOnce()) === 0) {
        const next = await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM (SELECT 1 FROM contract_metadata WHERE network = ${NET} AND status = 1
          UNION ALL SELECT 1 FROM token_metadata WHERE network = ${NET} AND status = 1) x`.execute(db());
        if (next.rows[0]!.n === 0) return;
        await new Promise((res) => setTimeout(res, 60));
      }
    }
  }

  it('resolves an https link, stores name and JSON, and makes the contract searchable by name and description', async () => {
    const a = kt1();
    await seedContract(db(), a, { bigMaps: [metadataBigMap({ '': 'x' })] });
    await queueContract(
      db(),
      a,
      server.serve('/c1.json', {
        name: 'Quokka Swap',
        description: 'A marsupial exchange',
        interfaces: ['TZIP-016'],
      }),
    );
    const r = resolver();
    expect(await r.runOnce()).toBe(1);
    const row = await contractRow(db(), a);
    expect(row).toMatchObject({ status: 3, error: null, name: 'Quokka Swap' });
    expect(row.metadata).toMatchObject({ description: 'A marsupial exchange' });
    expect(await searchKeys(db(), 'quokka')).toEqual([a]);
    expect(await searchKeys(db(), 'marsupial')).toEqual([a]);
    expect(r.stats()).toEqual({ resolved: 1, retried: 0, failed: 0 });
  });

  it('reads tezos-storage: in the same contract and in another contract', async () => {
    const a = kt1();
    const b = kt1();
    await seedContract(db(), a, {
      bigMaps: [metadataBigMap({ '': 'tezos-storage:here', here: JSON.stringify({ name: 'Here Token' }) })],
    });
    await seedContract(db(), b, {
      bigMaps: [metadataBigMap({ 'some key': JSON.stringify({ name: 'Elsewhere' }) })],
    });
    const c = kt1();
    await seedContract(db(), c, { bigMaps: [metadataBigMap({})] });
    await queueContract(db(), a, 'tezos-storage:here');
    await queueContract(db(), c, `tezos-storage://${b}/some%20key`);
    await resolver().runOnce();
    expect(await contractRow(db(), a)).toMatchObject({ status: 3, name: 'Here Token' });
    expect(await contractRow(db(), c)).toMatchObject({ status: 3, name: 'Elsewhere' });
  });

  it('reads a tezos-storage key the database lacks from the node RPC (big_maps/{ptr}/{expr hash})', async () => {
    const a = kt1();
    const ptrs = await seedContract(db(), a, { bigMaps: [metadataBigMap({})] }); // indexed from after the key was set
    const keyHash = bigMapKeyHash({ string: 'old key' }, { prim: 'string' });
    server.serve(`/rpc/chains/main/blocks/head/context/big_maps/${ptrs.metadata}/${keyHash}`, {
      bytes: hex(JSON.stringify({ name: 'From the node' })),
    });
    const b = kt1();
    await seedContract(db(), b, { bigMaps: [metadataBigMap({})] });
    await queueContract(db(), a, 'tezos-storage:old%20key');
    await queueContract(db(), b, 'tezos-storage:absent');
    await resolver({ rpcUrl: `${server.base}/rpc` }).runOnce();
    expect(await contractRow(db(), a)).toMatchObject({ status: 3, name: 'From the node' });
    // Unknown to the node too (404): retried later, it may be set by a later block.
    expect(await contractRow(db(), b)).toMatchObject({
      status: 1,
      retry_count: 1,
      error: expect.stringMatching(/key "absent" not found/) as unknown,
    });
  });

  it('fetches ipfs:// through the configured gateway and checks sha256:// hashes', async () => {
    const body = JSON.stringify({ name: 'Pinned' });
    server.serve('/ipfs/QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG/meta.json', body);
    const hashed = server.serve('/hashed.json', body);
    const digest = createHash('sha256').update(body).digest('hex');
    const [a, b, c] = [kt1(), kt1(), kt1()];
    for (const x of [a, b, c]) await seedContract(db(), x, { bigMaps: [metadataBigMap({})] });
    await queueContract(db(), a, 'ipfs://QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG/meta.json');
    await queueContract(db(), b, `sha256://0x${digest}/${encodeURIComponent(hashed)}`);
    await queueContract(db(), c, `sha256://0x${'ab'.repeat(32)}/${encodeURIComponent(hashed)}`);
    await resolver().runOnce();
    expect(await contractRow(db(), a)).toMatchObject({ status: 3, name: 'Pinned' });
    expect(await contractRow(db(), b)).toMatchObject({ status: 3, name: 'Pinned' });
    const bad = await contractRow(db(), c);
    expect(bad).toMatchObject({ status: 2, retry_count: 1 });
    expect(bad.error).toMatch(/sha256 mismatch/);
  });

  it('fails oversize bodies, bad JSON, non-objects and disallowed schemes at once, with the reason', async () => {
    const cases: Array<[string, RegExp]> = [
      [
        server.serve('/huge.json', JSON.stringify({ name: 'x'.repeat(300_000) })),
        /exceeds the 200000-byte limit/,
      ],
      [server.serve('/bad.json', '{"name": "unterminated'), /invalid JSON/],
      [server.serve('/array.json', '[1, 2]'), /must be a JSON object/],
      ['file:///etc/passwd', /unsupported metadata URI scheme: file:/],
      ['javascript:alert(1)', /unsupported metadata URI scheme/],
    ];
    const addrs = cases.map(() => kt1());
    for (const [i, [link]] of cases.entries()) {
      await seedContract(db(), addrs[i]!, { bigMaps: [metadataBigMap({})] });
      await queueContract(db(), addrs[i]!, link);
    }
    const r = resolver({ maxBytes: 200_000, batchSize: 10 });
    await r.runOnce();
    for (const [i, [, reason]] of cases.entries()) {
      const row = await contractRow(db(), addrs[i]!);
      expect(row.status, `${cases[i]![0]}`).toBe(2);
      expect(row.error).toMatch(reason);
    }
    expect(r.stats().failed).toBe(cases.length);
  });

  it('refuses http:// and loopback hosts unless allowInsecure (the production default)', async () => {
    const [a, b, c] = [kt1(), kt1(), kt1()];
    for (const x of [a, b, c]) await seedContract(db(), x, { bigMaps: [metadataBigMap({})] });
    await queueContract(db(), a, server.serve('/plain.json', { name: 'plain' }));
    await queueContract(db(), b, 'https://127.0.0.1:1/x.json');
    await queueContract(db(), c, 'https://localhost:1/x.json'); // a name resolving to loopback
    await resolver({ allowInsecure: false }).runOnce();
    expect(await contractRow(db(), a)).toMatchObject({
      status: 2,
      error: expect.stringMatching(/http: links are not allowed/) as unknown,
    });
    expect(await contractRow(db(), b)).toMatchObject({
      status: 2,
      error: expect.stringMatching(/non-public address/) as unknown,
    });
    expect(await contractRow(db(), c)).toMatchObject({
      status: 2,
      error: expect.stringMatching(/localhost resolves to a non-public address/) as unknown,
    });
  });

  it('retries transient failures with exponential back-off, then resolves', async () => {
    // Rows left by earlier tests (some with short back-offs) must not fall due during this one.
    for (const table of ['contract_metadata', 'token_metadata'] as const)
      await sql`UPDATE ${sql.table(table)} SET next_attempt_at = now() + interval '1 day' WHERE network = ${NET}`.execute(
        db(),
      );
    const a = kt1();
    await seedContract(db(), a, { bigMaps: [metadataBigMap({})] });
    await queueContract(db(), a, server.serve('/flaky.json', { name: 'Eventually' }, { failTimes: 2 }));
    const r = resolver({ backoff: { initialMs: 5_000, maxMs: 60_000 } });
    // "Time passes": the row is made due now instead of waiting (the delays are asserted on next_attempt_at).
    const makeDue = () =>
      sql`UPDATE contract_metadata SET next_attempt_at = now() WHERE network = ${NET} AND address = ${a}`.execute(
        db(),
      );
    const t0 = Date.now();
    await r.runOnce();
    const t1 = Date.now();
    const first = await contractRow(db(), a);
    expect(first).toMatchObject({
      status: 1,
      retry_count: 1,
      error: expect.stringMatching(/HTTP 503/) as unknown,
    });
    expect(first.next_attempt_at.getTime()).toBeGreaterThanOrEqual(t0 + 5_000 - 50);
    expect(first.next_attempt_at.getTime()).toBeLessThanOrEqual(t1 + 5_000 + 50);
    expect(await r.runOnce()).toBe(0); // not due yet
    await makeDue();
    const t2 = Date.now();
    await r.runOnce();
    const t3 = Date.now();
    const second = await contractRow(db(), a);
    expect(second).toMatchObject({ status: 1, retry_count: 2 });
    // The second delay is twice the first.
    expect(second.next_attempt_at.getTime()).toBeGreaterThanOrEqual(t2 + 10_000 - 50);
    expect(second.next_attempt_at.getTime()).toBeLessThanOrEqual(t3 + 10_000 + 50);
    await makeDue();
    await r.runOnce();
    expect(await contractRow(db(), a)).toMatchObject({
      status: 3,
      retry_count: 2,
      name: 'Eventually',
      error: null,
    });
  });

  it('gives up after maxRetries attempts (status 2) and logs one line', async () => {
    const a = kt1();
    await seedContract(db(), a, { bigMaps: [metadataBigMap({})] });
    await queueContract(db(), a, server.serve('/down.json', 'x', { status: 500 }));
    const r = resolver({ maxRetries: 3 });
    await drain(r);
    expect(await contractRow(db(), a)).toMatchObject({
      status: 2,
      retry_count: 3,
      error: 'HTTP 500 from ' + new URL(server.base).host,
    });
    expect(logs.filter((l) => l.includes(a))).toHaveLength(1);
  });

  it('treats a slow server as a timeout and retries', async () => {
    const a = kt1();
    await seedContract(db(), a, { bigMaps: [metadataBigMap({})] });
    await queueContract(db(), a, server.serve('/slow.json', { name: 'slow' }, { delayMs: 4000 }));
    await resolver({ timeoutMs: 300 }).runOnce();
    expect(await contractRow(db(), a)).toMatchObject({ status: 1, retry_count: 1, error: 'timed out' });
  });

  it('resolves TZIP-12 token metadata from token_info, merging the off-chain JSON; tokens become searchable', async () => {
    const a = kt1();
    await seedContract(db(), a, { bigMaps: [metadataBigMap({})] });
    await queueToken(db(), a, '0', { name: 'Wrapped Wombat', symbol: 'wWOMB', decimals: '6' });
    const link = server.serve('/token7.json', {
      name: 'Off-chain name',
      description: 'Burrowing collectible',
      tags: ['fauna'],
      decimals: 2,
    });
    await queueToken(db(), a, '7', { '': link, symbol: 'WMB7' });
    await resolver().runOnce();
    expect(await tokenRow(db(), a, '0')).toMatchObject({
      status: 3,
      name: 'Wrapped Wombat',
      symbol: 'wWOMB',
      decimals: 6,
    });
    const t7 = await tokenRow(db(), a, '7');
    expect(t7).toMatchObject({ status: 3, name: 'Off-chain name', symbol: 'WMB7', decimals: 2 });
    expect(t7.metadata).toMatchObject({ description: 'Burrowing collectible', symbol: 'WMB7' });
    expect(await searchKeys(db(), 'wWOMB')).toEqual([`${a}:0`]);
    expect(await searchKeys(db(), 'burrowing')).toEqual([`${a}:7`]);
  });

  it('runs the token_metadata off-chain view of the contract (over its big maps) in preference to the big map', async () => {
    const a = kt1();
    const view = {
      name: 'token_metadata',
      implementations: [
        {
          michelsonStorageView: {
            parameter: { prim: 'nat' },
            returnType: {
              prim: 'pair',
              args: [{ prim: 'nat' }, { prim: 'map', args: [{ prim: 'string' }, { prim: 'bytes' }] }],
            },
            code: [
              { prim: 'UNPAIR' },
              { prim: 'DUP' },
              { prim: 'DIG', args: [{ int: '2' }] },
              { prim: 'CDR' },
              { prim: 'SWAP' },
              { prim: 'GET' },
              {
                prim: 'IF_NONE',
                args: [
                  [
                    { prim: 'PUSH', args: [{ prim: 'string' }, { string: 'unknown token' }] },
                    { prim: 'FAILWITH' },
                  ],
                  [],
                ],
              },
              { prim: 'EMPTY_MAP', args: [{ prim: 'string' }, { prim: 'bytes' }] },
              { prim: 'SWAP' },
              { prim: 'SOME' },
              { prim: 'PUSH', args: [{ prim: 'string' }, { string: 'name' }] },
              { prim: 'UPDATE' },
              { prim: 'SWAP' },
              { prim: 'PAIR' },
            ],
          },
        },
      ],
    };
    await seedContract(db(), a, {
      storageType: {
        prim: 'pair',
        args: [
          { prim: 'big_map', args: [{ prim: 'string' }, { prim: 'bytes' }], annots: ['%metadata'] },
          { prim: 'big_map', args: [{ prim: 'nat' }, { prim: 'bytes' }], annots: ['%names'] },
        ],
      },
      storage: (p) => ({ prim: 'Pair', args: [{ int: String(p.metadata) }, { int: String(p.names) }] }),
      bigMaps: [
        metadataBigMap({ '': 'tezos-storage:m', m: JSON.stringify({ name: 'Viewed', views: [view] }) }),
        {
          name: 'names',
          keyType: { prim: 'nat' },
          valueType: { prim: 'bytes' },
          entries: [[{ int: '42' }, { bytes: hex('Answer Token') }]],
        },
      ],
    });
    await queueContract(db(), a, 'tezos-storage:m');
    await queueToken(db(), a, '42', { name: 'stale big-map name' });
    await queueToken(db(), a, '5', null);
    await resolver().runOnce();
    expect(await contractRow(db(), a)).toMatchObject({ status: 3, name: 'Viewed' });
    expect(await tokenRow(db(), a, '42')).toMatchObject({ status: 3, name: 'Answer Token' });
    const missing = await tokenRow(db(), a, '5');
    expect(missing.status).toBe(2);
    expect(missing.error).toBe('off-chain view failed: script rejected with {"string":"unknown token"}');
  });

  it('finds tokens without a token_metadata big map through the all_tokens view, then resolves them with token_metadata', async () => {
    const a = kt1();
    const nat = { prim: 'nat' };
    const tokenInfoType = {
      prim: 'pair',
      args: [nat, { prim: 'map', args: [{ prim: 'string' }, { prim: 'bytes' }] }],
    };
    const views = [
      // storage: pair (big_map %metadata string bytes) (big_map %names nat bytes) (list %ids nat)
      {
        name: 'all_tokens',
        implementations: [
          {
            michelsonStorageView: {
              returnType: { prim: 'list', args: [nat] },
              code: [{ prim: 'CDR' }, { prim: 'CDR' }],
            },
          },
        ],
      },
      {
        name: 'token_metadata',
        implementations: [
          {
            michelsonStorageView: {
              parameter: nat,
              returnType: tokenInfoType,
              code: [
                { prim: 'UNPAIR' },
                { prim: 'DUP' },
                { prim: 'DIG', args: [{ int: '2' }] },
                { prim: 'CDR' },
                { prim: 'CAR' },
                { prim: 'SWAP' },
                { prim: 'GET' },
                {
                  prim: 'IF_NONE',
                  args: [
                    [
                      { prim: 'PUSH', args: [{ prim: 'string' }, { string: 'unknown token' }] },
                      { prim: 'FAILWITH' },
                    ],
                    [],
                  ],
                },
                { prim: 'EMPTY_MAP', args: [{ prim: 'string' }, { prim: 'bytes' }] },
                { prim: 'SWAP' },
                { prim: 'SOME' },
                { prim: 'PUSH', args: [{ prim: 'string' }, { string: 'symbol' }] },
                { prim: 'UPDATE' },
                { prim: 'SWAP' },
                { prim: 'PAIR' },
              ],
            },
          },
        ],
      },
    ];
    await seedContract(db(), a, {
      storageType: {
        prim: 'pair',
        args: [
          { prim: 'big_map', args: [{ prim: 'string' }, { prim: 'bytes' }], annots: ['%metadata'] },
          { prim: 'big_map', args: [nat, { prim: 'bytes' }], annots: ['%names'] },
          { prim: 'list', args: [nat], annots: ['%ids'] },
        ],
      },
      storage: (p) => ({
        prim: 'Pair',
        args: [{ int: String(p.metadata) }, { int: String(p.names) }, [{ int: '3' }, { int: '9' }]],
      }),
      bigMaps: [
        metadataBigMap({ '': 'tezos-storage:m', m: JSON.stringify({ name: 'Enumerated', views }) }),
        {
          name: 'names',
          keyType: nat,
          valueType: { prim: 'bytes' },
          entries: [
            [{ int: '3' }, { bytes: hex('TRI') }],
            [{ int: '9' }, { bytes: hex('NIN') }],
          ],
        },
      ],
    });
    await queueContract(db(), a, 'tezos-storage:m');
    const r = resolver();
    await r.runOnce(); // the contract, which queues tokens 3 and 9
    await r.runOnce(); // the tokens
    expect(await tokenRow(db(), a, '3')).toMatchObject({ status: 3, symbol: 'TRI' });
    expect(await tokenRow(db(), a, '9')).toMatchObject({ status: 3, symbol: 'NIN' });
    expect(await searchKeys(db(), 'NIN')).toEqual([`${a}:9`]);
  });

  it('does not overwrite a row that a block re-queued while it was being resolved', async () => {
    const a = kt1();
    await seedContract(db(), a, { bigMaps: [metadataBigMap({})] });
    await queueContract(db(), a, 'https://example.invalid/old.json');
    const job = (await dueMetadata(db(), NET, 100)).find((j) => j.kind === 'contract' && j.address === a)!;
    await queueContract(db(), a, 'https://example.invalid/new.json'); // the indexer changes the link meanwhile
    const saved = await saveResolvedMetadata(db(), NET, job, {
      metadata: { name: 'old' },
      name: 'old',
      searchTitle: 'old',
      searchBody: '',
    });
    expect(saved).toBe(false);
    expect(await contractRow(db(), a)).toMatchObject({ status: 1, name: null });
  });

  it('runs in the background and stop() returns promptly during a slow fetch', async () => {
    const a = kt1();
    await seedContract(db(), a, { bigMaps: [metadataBigMap({})] });
    await queueContract(db(), a, server.serve('/bg.json', { name: 'Background' }));
    const r = resolver({ background: true, pollIntervalMs: 20 });
    await expect.poll(async () => (await contractRow(db(), a)).status, { timeout: 5000 }).toBe(3);
    const b = kt1();
    await seedContract(db(), b, { bigMaps: [metadataBigMap({})] });
    await queueContract(db(), b, server.serve('/hang.json', { name: 'never' }, { delayMs: 5000 }));
    await new Promise((res) => setTimeout(res, 100));
    const t0 = Date.now();
    await r.stop();
    expect(Date.now() - t0).toBeLessThan(3000); // well under the 5 s the server would take
    expect(await contractRow(db(), b)).toMatchObject({ status: 1, retry_count: 0 }); // an aborted attempt does not count
  });
});

const SHARED_META = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../shared/fixtures/metadata',
);
const hasMeta = existsSync(path.join(SHARED_META, 'index.json'));
if (!hasMeta)
  console.warn(`[metadata tests] ${SHARED_META} is absent: real metadata samples are not tested.`);

// PGlite only: the resolver's fetching and parsing; its writes on PostgreSQL run in sandbox.test.ts.
describeDb('metadata resolver on real samples', { backends: 'pglite' }, ({ db }) => {
  const server = new MetadataServer();
  beforeAll(() => server.start());
  afterAll(() => server.close());

  it.skipIf(!hasMeta)(
    'resolves every real TZIP-16 contract sample and TZIP-21 token sample served over HTTP and IPFS',
    async () => {
      const files = [
        ...['tzip16/mainnet', 'tzip16/taquito'].flatMap((d) =>
          readdirSync(path.join(SHARED_META, d)).map((f) => `${d}/${f}`),
        ),
        ...readdirSync(path.join(SHARED_META, 'tzip21'))
          .filter((f) => f.startsWith('example-'))
          .map((f) => `tzip21/${f}`),
      ];
      expect(files.length).toBeGreaterThan(10);
      const expected = new Map<string, { key: string; name: unknown; kind: 'contract' | 'token' }>();
      for (const [i, f] of files.entries()) {
        const text = readFileSync(path.join(SHARED_META, f), 'utf8');
        const a = kt1();
        await seedContract(db(), a, { bigMaps: [metadataBigMap({})] });
        const cid = `QmSample${String(i).padStart(6, '0')}abcdefghijklmnopqrstuvwxyzABCDEFGH`.slice(0, 46);
        if (f.startsWith('tzip21')) {
          server.serve(`/ipfs/${cid}`, text);
          await queueToken(db(), a, '0', { '': `ipfs://${cid}` });
          expected.set(f, { key: a, name: (JSON.parse(text) as { name?: unknown }).name, kind: 'token' });
        } else {
          await queueContract(db(), a, server.serve(`/${f}`, text));
          expected.set(f, { key: a, name: (JSON.parse(text) as { name?: unknown }).name, kind: 'contract' });
        }
      }
      const r = startMetadataResolver({
        db: db(),
        network: NET,
        ipfsGateway: `${server.base}/ipfs`,
        allowInsecure: true,
        background: false,
        batchSize: 100,
        log: () => {},
      });
      await r.runOnce();
      for (const [f, e] of expected) {
        const row = e.kind === 'contract' ? await contractRow(db(), e.key) : await tokenRow(db(), e.key, '0');
        expect({ f, status: row.status, error: row.error }).toEqual({ f, status: 3, error: null });
        expect(row.name, f).toBe(typeof e.name === 'string' ? e.name.trim() : null);
      }
      expect(await searchKeys(db(), 'hDAO')).toContain(
        expected.get('tzip16/mainnet/KT1AFA2mwNUMNd4SsujE1YYp29vd8BZejyKW.json')!.key,
      );
    },
  );
});
