import { describeDb } from '@michelscope/db/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startIndexer, type IndexerOptions } from '../src/index';
import { constantsFor, FakeNode, freePort, SEOUL, TALLINN, waitFor } from './fake-node';

type Handle = ReturnType<typeof startIndexer>;

// PGlite and PostgreSQL: the indexer loop's writes, restarts and reverts on each backend.
describeDb('indexer against a fake node', { backends: 'both' }, ({ db }) => {
  let node: FakeNode;
  let running: Handle[] = [];
  let lines: string[] = [];
  let network = '';
  let counter = 0;

  beforeEach(() => {
    node = new FakeNode();
    lines = [];
    network = `net${++counter}`;
  });
  afterEach(async () => {
    await Promise.all(running.map((h) => h.stop()));
    running = [];
    await node.stop();
  });

  function start(rpcUrl: string, extra: Partial<IndexerOptions> = {}): Handle {
    const h = startIndexer({
      db: db(),
      network,
      rpcUrl,
      pollIntervalMs: 30,
      startLevel: 1,
      log: (l) => lines.push(l),
      backoff: { initialMs: 50, maxMs: 200 },
      ...extra,
    });
    running.push(h);
    return h;
  }

  const storedBlocks = () =>
    db().selectFrom('blocks').selectAll().where('network', '=', network).orderBy('level').execute();
  const storedProtocols = () =>
    db().selectFrom('protocols').selectAll().where('network', '=', network).orderBy('start_level').execute();
  const storedState = () =>
    db().selectFrom('indexer_state').selectAll().where('network', '=', network).executeTakeFirst();

  it('indexes a range: blocks, protocol with constants, indexer_state, then follows new blocks', async () => {
    node.build({ branch: 'a', from: 1, to: 12, protocols: [{ hash: TALLINN, from: 1 }] });
    const h = start(await node.start());
    await waitFor(() => h.status().level === 12 && h.status().state === 'following', 10_000, 'level 12');

    const blocks = await storedBlocks();
    expect(blocks.map((b) => b.level)).toEqual([...Array(12).keys()].map((i) => i + 1));
    for (const b of blocks) {
      const served = node.blocks.get(b.level)!;
      expect(b.hash).toBe(served.hash);
      expect(b.predecessor).toBe((served.header as { predecessor: string }).predecessor);
      expect(new Date(b.timestamp).toISOString().replace('.000Z', 'Z')).toBe(
        (served.header as { timestamp: string }).timestamp,
      );
      expect(b.chain_id).toBe(served.chain_id);
    }
    const [protocol] = await storedProtocols();
    const constants = constantsFor(TALLINN);
    expect(protocol).toMatchObject({
      hash: TALLINN,
      start_level: 1,
      end_level: null,
      chain_id: 'NetXdQprcVkpaWU',
    });
    expect(protocol!.cost_per_byte).toBe(Number(constants.cost_per_byte));
    expect(protocol!.hard_gas_limit_per_operation).toBe(Number(constants.hard_gas_limit_per_operation));
    expect(protocol!.hard_storage_limit_per_operation).toBe(
      Number(constants.hard_storage_limit_per_operation),
    );
    expect(protocol!.time_between_blocks).toBe(Number(constants.minimal_block_delay));
    expect(protocol!.constants).toEqual(constants);
    expect(blocks.every((b) => b.protocol_id === protocol!.id)).toBe(true);
    const state = await storedState();
    expect(state).toMatchObject({ level: 12, hash: node.hashAt(12) });
    expect(
      await db().selectFrom('stats').select('network').where('network', '=', network).execute(),
    ).toHaveLength(1);
    expect(node.requests.filter((r) => r.startsWith('constants'))).toEqual(['constants 1']);

    node.build({ branch: 'a', from: 13, to: 14, protocols: [{ hash: TALLINN, from: 1 }] });
    await waitFor(async () => (await storedState())?.level === 14, 5000, 'level 14');
    expect(h.status()).toMatchObject({ state: 'following', level: 14, headLevel: 14 });
  });

  it('resumes from the stored level after a restart, without re-fetching or duplicating blocks', async () => {
    node.build({ branch: 'a', from: 1, to: 6, protocols: [{ hash: SEOUL, from: 1 }] });
    const url = await node.start();
    const first = start(url);
    await waitFor(() => first.status().level === 6, 10_000, 'level 6');
    await first.stop();
    expect(first.status().state).toBe('stopped');

    node.build({ branch: 'a', from: 7, to: 9, protocols: [{ hash: SEOUL, from: 1 }] });
    node.requests.length = 0;
    const second = start(url);
    await waitFor(() => second.status().level === 9, 10_000, 'level 9');
    const fetched = node.requests.filter((r) => r.startsWith('block ')).map((r) => Number(r.slice(6)));
    expect(Math.min(...fetched)).toBe(7);
    expect(node.requests.some((r) => r.startsWith('constants'))).toBe(false);
    const blocks = await storedBlocks();
    expect(blocks.map((b) => b.level)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await storedProtocols()).toHaveLength(1);
    expect(lines.some((l) => l.includes('resuming after stored level 6'))).toBe(true);
  });

  it('closes the previous protocol at level - 1 when the protocol changes', async () => {
    node.build({
      branch: 'a',
      from: 1,
      to: 10,
      protocols: [
        { hash: SEOUL, from: 1 },
        { hash: TALLINN, from: 6 },
      ],
    });
    const h = start(await node.start());
    await waitFor(() => h.status().level === 10, 10_000, 'level 10');
    const protocols = await storedProtocols();
    expect(protocols.map((p) => [p.hash, p.start_level, p.end_level])).toEqual([
      [SEOUL, 1, 5],
      [TALLINN, 6, null],
    ]);
    expect(protocols[0]!.time_between_blocks).toBe(Number(constantsFor(SEOUL).minimal_block_delay));
    expect(protocols[1]!.time_between_blocks).toBe(Number(constantsFor(TALLINN).minimal_block_delay));
    const blocks = await storedBlocks();
    expect(blocks.filter((b) => b.protocol_id === protocols[0]!.id).map((b) => b.level)).toEqual([
      1, 2, 3, 4, 5,
    ]);
    expect(blocks.filter((b) => b.protocol_id === protocols[1]!.id).map((b) => b.level)).toEqual([
      6, 7, 8, 9, 10,
    ]);
    expect(node.requests.filter((r) => r.startsWith('constants'))).toEqual(['constants 1', 'constants 6']);
  });

  it('reverts blocks of an abandoned branch in reverse and indexes the new branch (longer fork)', async () => {
    node.build({ branch: 'a', from: 1, to: 10, protocols: [{ hash: SEOUL, from: 1 }] });
    const h = start(await node.start());
    await waitFor(() => h.status().level === 10, 10_000, 'level 10');
    const oldHashes = (await storedBlocks()).map((b) => b.hash);

    node.build({ branch: 'b', from: 8, to: 12, protocols: [{ hash: SEOUL, from: 1 }] });
    await waitFor(async () => (await storedState())?.hash === node.hashAt(12), 10_000, 'the new branch head');
    const blocks = await storedBlocks();
    expect(blocks.map((b) => b.hash)).toEqual([...Array(12).keys()].map((i) => node.hashAt(i + 1)));
    expect(blocks.slice(0, 7).map((b) => b.hash)).toEqual(oldHashes.slice(0, 7));
    expect(
      lines.filter((l) => l.includes('reorg: reverted 3 block(s) from level 10 down to 8')),
    ).toHaveLength(1);
  });

  it('reverts across a protocol change when the node switches to a shorter branch', async () => {
    node.build({
      branch: 'a',
      from: 1,
      to: 10,
      protocols: [
        { hash: SEOUL, from: 1 },
        { hash: TALLINN, from: 6 },
      ],
    });
    const h = start(await node.start());
    await waitFor(() => h.status().level === 10, 10_000, 'level 10');
    expect(await storedProtocols()).toHaveLength(2);

    // The new branch forks at level 5 and has not activated the new protocol yet; its head is below ours.
    node.build({ branch: 'c', from: 5, to: 7, protocols: [{ hash: SEOUL, from: 1 }] });
    await waitFor(
      async () => (await storedState())?.hash === node.hashAt(7),
      10_000,
      'the shorter branch head',
    );
    const blocks = await storedBlocks();
    expect(blocks.map((b) => b.hash)).toEqual([...Array(7).keys()].map((i) => node.hashAt(i + 1)));
    const protocols = await storedProtocols();
    expect(protocols.map((p) => [p.hash, p.start_level, p.end_level])).toEqual([[SEOUL, 1, null]]);
    expect(h.status()).toMatchObject({ level: 7, headLevel: 7 });
  });

  it('reports an unreachable RPC once, backs off, and recovers when the node comes up', async () => {
    const port = await freePort();
    node.build({ branch: 'a', from: 1, to: 5, protocols: [{ hash: TALLINN, from: 1 }] });
    const h = start(`http://127.0.0.1:${port}`);
    await waitFor(() => h.status().state === 'unreachable', 5000, 'unreachable');
    expect(h.status().lastError).toMatch(/ECONNREFUSED/);
    await new Promise((r) => setTimeout(r, 700)); // several retries at 50, 100, 200, 200 ms
    const down = lines.filter((l) => l.includes('unreachable'));
    expect(down).toEqual([
      `[indexer ${network}] RPC http://127.0.0.1:${port} unreachable (ECONNREFUSED), retrying with back-off`,
    ]);

    await node.start(port);
    await waitFor(() => h.status().level === 5, 5000, 'level 5 after recovery');
    expect(lines.filter((l) => l.includes('unreachable'))).toHaveLength(1);
    expect(lines.filter((l) => l.includes('RPC reachable again'))).toHaveLength(1);
    expect(h.status().lastError).toBeUndefined();
    expect((await storedBlocks()).map((b) => b.level)).toEqual([1, 2, 3, 4, 5]);
  });

  it('stop() ends promptly during a long back-off', async () => {
    const port = await freePort();
    const h = start(`http://127.0.0.1:${port}`, { backoff: { initialMs: 60_000 } });
    await waitFor(() => h.status().state === 'unreachable', 5000, 'unreachable');
    const t = Date.now();
    await h.stop();
    expect(Date.now() - t).toBeLessThan(1000);
    expect(h.status().state).toBe('stopped');
    expect(lines.at(-1)).toBe(`[indexer ${network}] stopped`);
  });

  it('stop() aborts a pending block request', async () => {
    node.build({ branch: 'a', from: 1, to: 5, protocols: [{ hash: TALLINN, from: 1 }] });
    node.hang.add(3);
    const h = start(await node.start());
    await waitFor(
      () => node.requests.includes('block 3') && h.status().level === 2,
      5000,
      'level 2 stored and block 3 requested',
    );
    const t = Date.now();
    await h.stop();
    expect(Date.now() - t).toBeLessThan(1000);
    expect(h.status()).toMatchObject({ state: 'stopped', level: 2 });
    expect((await storedState())?.level).toBe(2);
  });

  it('rejects a malformed block without writing it, then continues once the node serves it correctly', async () => {
    node.build({ branch: 'a', from: 1, to: 5, protocols: [{ hash: TALLINN, from: 1 }] });
    const bad = structuredClone(node.blocks.get(3)!);
    bad.hash = 'BLnotAHash';
    node.override.set(3, bad);
    const h = start(await node.start());
    await waitFor(() => h.status().state === 'unreachable', 5000, 'the invalid block to be rejected');
    expect(h.status().lastError).toMatch(/block 3: hash is not a valid block hash/);
    await new Promise((r) => setTimeout(r, 400));
    expect((await storedBlocks()).map((b) => b.level)).toEqual([1, 2]);
    expect(lines.filter((l) => l.includes('unusable data'))).toHaveLength(1);

    node.override.delete(3);
    await waitFor(() => h.status().level === 5, 5000, 'level 5');
    expect((await storedBlocks()).map((b) => b.hash)).toEqual([1, 2, 3, 4, 5].map((l) => node.hashAt(l)));
  });

  it('starts at the node head when told to and nothing is stored', async () => {
    node.build({ branch: 'a', from: 1, to: 40, protocols: [{ hash: TALLINN, from: 1 }] });
    const h = start(await node.start(), { startLevel: 'head' });
    await waitFor(() => h.status().level === 40, 5000, 'level 40');
    expect((await storedBlocks()).map((b) => b.level)).toEqual([40]);
    expect((await storedProtocols())[0]).toMatchObject({ start_level: 40 });
    expect(h.status().state).toBe('following');
  });

  it('treats a node that does not answer in time as unreachable', async () => {
    node.build({ branch: 'a', from: 1, to: 4, protocols: [{ hash: TALLINN, from: 1 }] });
    node.hang.add(2);
    // long enough that the answers before the hung one never take it on a loaded machine (200 ms failed once, the
    // CI's tests side by side with a typecheck): then the error was another request's
    const h = start(await node.start(), { rpcTimeoutMs: 1000 });
    await waitFor(() => h.status().state === 'unreachable', 10_000, 'unreachable');
    expect(h.status()).toMatchObject({ level: 1, headLevel: 4 });
    expect(h.status().lastError).toMatch(/blocks\/2: no answer within 1000 ms/);
    expect(lines.filter((l) => l.includes('unreachable'))).toEqual([
      `[indexer ${network}] RPC http://127.0.0.1:${node.port} unreachable (timeout after 1000 ms), retrying with back-off`,
    ]);
  });

  it('reports progress to listeners until they unsubscribe', async () => {
    node.build({ branch: 'a', from: 1, to: 30, protocols: [{ hash: TALLINN, from: 1 }] });
    const h = start(await node.start());
    const seen: Array<{ state: string; level: number | null }> = [];
    const off = h.onProgress((s) => seen.push({ state: s.state, level: s.level }));
    await waitFor(() => h.status().state === 'following' && h.status().level === 30, 10_000, 'level 30');
    off();
    const count = seen.length;
    node.build({ branch: 'a', from: 31, to: 32, protocols: [{ hash: TALLINN, from: 1 }] });
    await waitFor(() => h.status().level === 32, 5000, 'level 32');
    expect(seen.length).toBe(count);
    expect(seen.some((s) => s.state === 'syncing')).toBe(true);
    expect(seen.at(-1)).toEqual({ state: 'following', level: 30 });
    const levels = seen.map((s) => s.level).filter((l): l is number => l !== null);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
  });

  it('waits for the node to reach a start level above its head', async () => {
    node.build({ branch: 'a', from: 1, to: 40, protocols: [{ hash: TALLINN, from: 1 }] });
    const h = start(await node.start(), { startLevel: 50 });
    await waitFor(() => h.status().headLevel === 40, 5000, 'the node head');
    await new Promise((r) => setTimeout(r, 200));
    expect(h.status()).toMatchObject({ state: 'following', level: null });
    expect(await storedBlocks()).toHaveLength(0);
    expect(lines.filter((l) => l.includes('waiting for the node to reach start level 50'))).toHaveLength(1);

    node.build({ branch: 'a', from: 41, to: 52, protocols: [{ hash: TALLINN, from: 1 }] });
    await waitFor(() => h.status().level === 52, 5000, 'level 52');
    expect((await storedBlocks()).map((b) => b.level)).toEqual([50, 51, 52]);
  });
});
