/**
 * History sources (src/history, issue 32 part 2) against real HTTP servers on 127.0.0.1: a Better Call
 * Dev-shaped API and a TzKT-shaped API serving what the real mainnet blocks of ../shared/fixtures/rpc hold
 * (recorded in each API's documented shapes and paging rules), and the node scan over a fake node serving
 * those blocks. The levels each source must give are derived from the blocks. Then sources that lie, rate
 * limit, are down or are stopped, on small synthetic servers.
 */
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BcdSource } from '../src/history/bcd';
import { ScanSource, search } from '../src/history/scan';
import { HistoryError, type HistoryPage, type HistorySource } from '../src/history/source';
import { TzktSource } from '../src/history/tzkt';
import { FakeNode, SHARED, freePort } from './fake-node';

type Json = Record<string, unknown>;
const RPC = path.join(SHARED, 'fixtures/rpc');
const FIXTURE_LEVELS = [839681, 1064978, 11610082, 11680082];
/** A real mainnet origination group (its level is not recorded: the scan test places it in a block). */
const ORIGINATION = 'operations/onv6Q1dNejAGEJeQzwRannWsDSGw85FuFdhLnBrY18TBcC9p8kC.json';
const hasBlocks =
  FIXTURE_LEVELS.every((l) => existsSync(path.join(RPC, `blocks/mainnet/${l}/block.json`))) &&
  existsSync(path.join(RPC, ORIGINATION));
if (!hasBlocks)
  console.warn(`[history-sources] ${RPC} is absent: the tests over real mainnet blocks are skipped.`);
const readJson = (rel: string) => JSON.parse(readFileSync(path.join(RPC, rel), 'utf8')) as Json;

// ---------------------------------------------------------------------------------------------------------
// HTTP servers

type Handler = (url: URL, res: http.ServerResponse) => void | Promise<void>;
interface Served {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

async function serve(handler: Handler): Promise<Served> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(`${url.pathname}${url.search}`);
    Promise.resolve(handler(url, res)).catch((err: unknown) => reply(res, 500, { message: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function reply(res: http.ServerResponse, status: number, body?: unknown, headers: Json = {}): void {
  if (res.headersSent) return void res.end();
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...(headers as Record<string, string>) });
  res.end(text);
}

// ---------------------------------------------------------------------------------------------------------
// The fixture blocks as rows: every manager operation (internal ones with their initiator) and implicit one

interface Row {
  id: number;
  level: number;
  timestamp: string;
  hash: string; // '' for an implicit operation
  counter: number;
  kind: string;
  internal: boolean;
  implicit: boolean;
  source: string | null;
  destination: string | null;
  initiator: string | null;
  delegate: string | null;
  originated: string[];
  status: string;
}

function blockRows(): Row[] {
  const rows: Row[] = [];
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  for (const level of FIXTURE_LEVELS) {
    const block = readJson(`blocks/mainnet/${level}/block.json`) as {
      header: { timestamp: string };
      operations: Array<Array<{ hash: string; contents: Json[] }>>;
      metadata: { implicit_operations_results?: Json[] };
    };
    const at = { level, timestamp: block.header.timestamp };
    for (const group of block.operations[3] ?? [])
      for (const c of group.contents) {
        const meta = c.metadata as { operation_result: Json; internal_operation_results?: Json[] };
        const base = { ...at, hash: group.hash, counter: Number(c.counter), implicit: false };
        const top = {
          ...base,
          kind: c.kind as string,
          internal: false,
          source: str(c.source),
          destination: str(c.destination),
          initiator: null,
          delegate: str(c.delegate),
          originated: (meta.operation_result.originated_contracts as string[] | undefined) ?? [],
          status: meta.operation_result.status as string,
        };
        rows.push({ id: rows.length + 1, ...top });
        for (const i of meta.internal_operation_results ?? []) {
          const result = i.result as Json;
          rows.push({
            id: rows.length + 1,
            ...base,
            kind: i.kind as string,
            internal: true,
            source: str(i.source),
            destination: str(i.destination),
            initiator: top.source,
            delegate: str(i.delegate),
            originated: (result.originated_contracts as string[] | undefined) ?? [],
            status: result.status as string,
          });
        }
      }
    // the liquidity baking subsidy: a transaction to the contract the balance update credits
    for (const r of block.metadata.implicit_operations_results ?? []) {
      const credited = (r.balance_updates as Json[] | undefined)?.find((b) => b.kind === 'contract');
      rows.push({
        id: rows.length + 1,
        ...at,
        hash: '',
        counter: 0,
        kind: r.kind as string,
        internal: false,
        implicit: true,
        source: null,
        destination: str(credited?.contract),
        initiator: null,
        delegate: null,
        originated: (r.originated_contracts as string[] | undefined) ?? [],
        status: 'applied',
      });
    }
  }
  return rows;
}

const distinct = (levels: number[]) => [...new Set(levels)].sort((a, b) => a - b);
const BCD_KINDS = ['transaction', 'origination', 'delegation', 'register_global_constant', 'event'];
const bcdRowsOf = (rows: Row[], a: string) =>
  rows.filter((r) => BCD_KINDS.includes(r.kind) && (r.source === a || r.destination === a));

/** BCD lists an account's groups where it is the source or the destination of an operation (§6.9). */
const bcdTruth = (rows: Row[], a: string) => distinct(bcdRowsOf(rows, a).map((r) => r.level));

/**
 * TzKT's records of those rows (Tzkt.Api models: `sender`/`target`/`initiator` aliases, a delegation's
 * `newDelegate`, the subsidy as a `migration` on the contract's `account`). A delegation's `prevDelegate` is
 * not in the block, and smart-rollup and consensus operations are kinds the source does not ask.
 */
function tzktRecords(rows: Row[]): Json[] {
  const alias = (a: string | null) => (a === null ? null : { address: a });
  return rows.flatMap((r): Json[] => {
    const common = { id: r.id, level: r.level, timestamp: r.timestamp, hash: r.hash || undefined };
    if (r.implicit) return [{ type: 'migration', kind: 'subsidy', ...common, account: alias(r.destination) }];
    if (r.kind === 'transaction')
      return [
        {
          type: 'transaction',
          ...common,
          sender: alias(r.source),
          target: alias(r.destination),
          initiator: alias(r.initiator),
        },
      ];
    if (r.kind === 'delegation')
      return [
        {
          type: 'delegation',
          ...common,
          sender: alias(r.source),
          initiator: alias(r.initiator),
          newDelegate: alias(r.delegate),
          prevDelegate: null,
        },
      ];
    return [];
  });
}
const ALIAS_FIELDS = [
  'sender',
  'target',
  'initiator',
  'newDelegate',
  'prevDelegate',
  'account',
  'contract',
  'ticketer',
  'originatedContract',
  'contractDelegate',
];
const named = (rec: Json, field: string) => (rec[field] as { address?: string } | null | undefined)?.address;
const tzktTruth = (records: Json[], a: string) =>
  distinct(records.filter((r) => ALIAS_FIELDS.some((f) => named(r, f) === a)).map((r) => r.level as number));

// ---------------------------------------------------------------------------------------------------------
// A BCD-shaped API (reference §6.9): groups by (hash, counter), newest first, keyset paging by last_id

function bcdApi(rows: Row[]): Handler {
  return (url, res) => {
    const m = /^\/v1\/contract\/([^/]+)\/([^/]+)(\/opg)?$/.exec(url.pathname);
    if (!m) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return void res.end('404 page not found');
    }
    const [, network, address = '', opg] = m;
    if (network !== 'mainnet') return reply(res, 400, { message: `unknown network: ${network}` });
    const mine = bcdRowsOf(rows, address);
    if (!opg) {
      // the fixtures' first sight of a contract stands in for its origination (the real one is older)
      if (!address.startsWith('KT1') || mine.length === 0) return reply(res, 204);
      const level = Math.min(...mine.map((r) => r.level));
      return reply(res, 200, { id: 1, network, level, timestamp: mine[0]!.timestamp, address, tags: [] });
    }
    const size = Number(url.searchParams.get('size') ?? '0');
    if (!Number.isInteger(size) || size < 0 || size > 10)
      return reply(res, 400, {
        message:
          "Key: 'pageableRequest.Size' Error:Field validation for 'Size' failed on the 'bcd_max_size' tag",
      });
    if (mine.length === 0) return reply(res, 404, { message: 'not found' });
    const lastId = Number(url.searchParams.get('last_id') ?? '0');
    const groups = new Map<string, Row[]>();
    for (const r of mine) {
      const key = r.hash ? `${r.hash}:${r.counter}` : `implicit:${r.id}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    const page = [...groups.values()]
      .map((g) => ({
        last_id: Math.min(...g.map((r) => r.id)),
        content_index: 0,
        counter: g[0]!.counter,
        level: g[0]!.level,
        total_cost: 0,
        flow: 0,
        internals: g.filter((r) => r.internal).length,
        hash: g[0]!.hash,
        entrypoint: '',
        timestamp: g[0]!.timestamp,
        status: g[0]!.status,
        kind: g[0]!.kind,
      }))
      .filter((g) => lastId === 0 || g.last_id < lastId)
      .sort((a, b) => b.last_id - a.last_id)
      .slice(0, size || 10);
    reply(res, 200, page);
  };
}

// ---------------------------------------------------------------------------------------------------------
// A TzKT-shaped API (Tzkt.Api OperationsController / AccountsController): the filters, modes and cursor
// semantics the source uses. Stricter than TzKT on one point: a parameter it does not know is a 400 here
// (TzKT ignores it, which would hide a misspelled filter).

const TZKT_ENDPOINTS: Record<string, { type: string; anyof: string[]; fields: string[] }> = {
  transactions: {
    type: 'transaction',
    anyof: ['sender', 'target', 'initiator'],
    fields: ['sender', 'target', 'initiator'],
  },
  originations: {
    type: 'origination',
    anyof: ['initiator', 'sender', 'contractDelegate', 'originatedContract'],
    fields: ['initiator', 'sender', 'contractDelegate', 'originatedContract'],
  },
  delegations: {
    type: 'delegation',
    anyof: ['initiator', 'sender', 'prevDelegate', 'newDelegate'],
    fields: ['initiator', 'sender', 'prevDelegate', 'newDelegate'],
  },
  transfer_ticket: {
    type: 'transfer_ticket',
    anyof: ['sender', 'target', 'ticketer'],
    fields: ['sender', 'target', 'ticketer'],
  },
  increase_paid_storage: { type: 'increase_paid_storage', anyof: [], fields: ['sender', 'contract'] },
  migrations: { type: 'migration', anyof: [], fields: ['account'] },
  reveals: { type: 'reveal', anyof: [], fields: ['sender'] },
  register_constants: { type: 'register_constant', anyof: [], fields: ['sender'] },
  activations: { type: 'activation', anyof: [], fields: ['account'] },
};

function tzktApi(records: Json[]): Handler {
  const first = new Map<string, number>();
  for (const r of records)
    for (const f of ALIAS_FIELDS) {
      const a = named(r, f);
      if (a) first.set(a, Math.min(first.get(a) ?? Infinity, r.level as number));
    }
  return (url, res) => {
    const account = /^\/v1\/accounts\/([^/]+)$/.exec(url.pathname)?.[1];
    if (account !== undefined) {
      const level = first.get(account);
      if (level !== undefined)
        return reply(res, 200, {
          type: account.startsWith('KT1') ? 'contract' : 'user',
          address: account,
          firstActivity: level,
        });
      if (account.startsWith('tz')) return reply(res, 200, { type: 'empty', address: account, counter: 0 });
      return reply(res, 204);
    }
    const endpoint = TZKT_ENDPOINTS[/^\/v1\/operations\/([a-z_]+)$/.exec(url.pathname)?.[1] ?? ''];
    if (!endpoint) return reply(res, 404);
    const bad = (key: string, why: string) => reply(res, 400, { code: 400, errors: { [key]: why } });
    let selected = records.filter((r) => r.type === endpoint.type);
    let [ge, le, cr, limit, sort] = [-Infinity, Infinity, 0, 100, 'id'];
    for (const [key, value] of url.searchParams) {
      const [name = '', ...rest] = key.split('.');
      const fields = name === 'anyof' ? rest.filter((f) => f !== 'eq') : [name];
      if (name === 'anyof' || (endpoint.fields.includes(name) && (rest.length === 0 || rest[0] === 'eq'))) {
        if (name === 'anyof' && (fields.length < 2 || fields.some((f) => !endpoint.anyof.includes(f))))
          return bad(key, 'anyof with fields this endpoint does not have');
        selected = selected.filter((r) => fields.some((f) => named(r, f) === value));
      } else if (key === 'level.ge' || key === 'level.le' || key === 'offset.cr' || key === 'limit') {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 0 || (key === 'limit' && n > 10_000))
          return bad(key, 'not a valid integer');
        if (key === 'level.ge') ge = n;
        else if (key === 'level.le') le = n;
        else if (key === 'offset.cr') cr = n;
        else limit = n;
      } else if (key === 'sort.asc' && (value === 'level' || value === 'id')) sort = value;
      else if (!(key === 'select' && value === 'level')) return bad(key, 'not a parameter this fake knows');
    }
    // SqlBuilder.Take: the cursor is the sort field (`Level > cr` when sorting by level; 0 means none)
    const cursorField = sort === 'level' ? 'level' : 'id';
    const page = selected
      .filter((r) => (r.level as number) >= ge && (r.level as number) <= le)
      .filter((r) => cr === 0 || (r[cursorField] as number) > cr)
      .sort((a, b) => (a.level as number) - (b.level as number) || (a.id as number) - (b.id as number))
      .slice(0, limit);
    reply(
      res,
      200,
      page.map((r) => r.level),
    );
  };
}

// ---------------------------------------------------------------------------------------------------------

async function collect(pages: AsyncIterable<HistoryPage>): Promise<HistoryPage[]> {
  const all: HistoryPage[] = [];
  for await (const page of pages) all.push(page);
  return all;
}

/** What every walk promises: pages ascending inside, disjoint, in the source's order, within the range. */
function checkPages(source: HistorySource, pages: HistoryPage[], toLevel: number, fromLevel = 1): number[] {
  let previous: number[] = [];
  for (const { levels } of pages) {
    expect(levels).toEqual(distinct(levels));
    for (const l of levels) expect(l >= fromLevel && l <= toLevel).toBe(true);
    if (previous.length > 0 && levels.length > 0) {
      if (source.order === 'ascending') expect(levels[0]!).toBeGreaterThan(previous.at(-1)!);
      else expect(levels.at(-1)!).toBeLessThan(previous[0]!);
    }
    if (levels.length > 0) previous = levels;
  }
  return distinct(pages.flatMap((p) => p.levels));
}

async function failure(run: () => Promise<unknown>): Promise<HistoryError> {
  try {
    await run();
  } catch (err) {
    expect(err).toBeInstanceOf(HistoryError);
    return err as HistoryError;
  }
  throw new Error('expected a HistoryError');
}

const TOP = 11680082;
const signal = () => new AbortController().signal;

describe.skipIf(!hasBlocks)('history sources over real mainnet blocks', () => {
  let rows: Row[] = [];
  let records: Json[] = [];
  /** Each block's operations and implicit results as JSON text: where a scan would see an address. */
  let texts = new Map<number, string>();
  const scanSees = (a: string, level: number) =>
    texts.get(level)!.includes(`"${a}"`) || texts.get(level)!.includes(`"${a}%`);
  let bcd: Served | undefined;
  let tzkt: Served | undefined;
  beforeAll(async () => {
    rows = blockRows();
    records = tzktRecords(rows);
    texts = new Map(
      FIXTURE_LEVELS.map((level) => {
        const b = readJson(`blocks/mainnet/${level}/block.json`) as { operations: unknown; metadata: Json };
        return [level, JSON.stringify([b.operations, b.metadata.implicit_operations_results ?? []])];
      }),
    );
    bcd = await serve(bcdApi(rows));
    tzkt = await serve(tzktApi(records));
  });
  afterAll(async () => {
    await bcd?.close();
    await tzkt?.close();
  });
  const LB = 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5'; // liquidity baking: implicit subsidy at 11610082, 11680082
  const BATCHER = 'tz1c5q1xLQ6kKV5Lgk7DqvVwMVWfik7ARQP4'; // 200 groups at 839681

  /** Runs `walk` for each address, 8 at a time. */
  async function each(addresses: string[], walk: (a: string) => Promise<void>): Promise<void> {
    for (let i = 0; i < addresses.length; i += 8) await Promise.all(addresses.slice(i, i + 8).map(walk));
  }

  it('scan matcher: a block names an address exactly where its operations JSON has it as a string', () => {
    const addresses = new Set(
      rows.flatMap((r) => [r.source, r.destination, r.delegate]).filter((a) => a !== null),
    );
    for (const level of FIXTURE_LEVELS) {
      const part = JSON.parse(texts.get(level)!) as unknown;
      for (const a of addresses) expect(search(part, a).appears, `${a} at ${level}`).toBe(scanSees(a, level));
    }
  });

  it('BCD: every account of the blocks, in pages of 3 groups, gives the levels of its groups', async () => {
    const addresses = [...new Set(rows.flatMap((r) => [r.source, r.destination]))].filter(
      (a): a is string => a !== null,
    );
    expect(addresses.length).toBeGreaterThan(300);
    const source = new BcdSource({ baseUrl: bcd!.url, network: 'mainnet', pageSize: 3 });
    await each(addresses, async (a) => {
      const pages = await collect(source.levels(a, { toLevel: TOP, signal: signal() }));
      const levels = checkPages(source, pages, TOP);
      expect(levels, a).toEqual(bcdTruth(rows, a));
      expect(levels.every((l) => scanSees(a, l))).toBe(true);
    });
    // 200 groups at one level: 67 pages (and an empty 68th, the end), the level given once
    const batch = await collect(source.levels(BATCHER, { toLevel: TOP, signal: signal() }));
    expect(batch.length).toBe(67);
    expect(batch.flatMap((p) => p.levels)).toEqual([839681]);
  });

  it('BCD: a contract stops at its origination; ranges, progress and resuming', async () => {
    const source = new BcdSource({ baseUrl: bcd!.url, network: 'mainnet', pageSize: 1 });
    expect(await source.originLevel(LB, { signal: signal() })).toBe(11610082);
    const before = bcd!.requests.length;
    const pages = await collect(source.levels(LB, { toLevel: TOP, signal: signal() }));
    expect(pages.map((p) => p.levels)).toEqual([[11680082], [11610082]]);
    // the contract, then one page per group; none asked below the origination
    expect(bcd!.requests.length - before).toBe(3);
    expect(pages.at(-1)!.progress).toEqual({
      found: 2,
      covered: { from: 11610082, to: TOP },
      range: { from: 11610082, to: TOP },
    });
    const resumed = await collect(
      source.levels(LB, { toLevel: TOP, cursor: pages[0]!.cursor, signal: signal() }),
    );
    expect(resumed.flatMap((p) => p.levels)).toEqual([11610082]);
    const below = await collect(source.levels(LB, { toLevel: TOP - 1, signal: signal() }));
    expect(below.flatMap((p) => p.levels)).toEqual([11610082]);
    const above = await collect(
      source.levels(BATCHER, { toLevel: TOP, fromLevel: 839682, signal: signal() }),
    );
    expect(above.flatMap((p) => p.levels)).toEqual([]);
    // unknown to the API: no history, not an error
    const unknown = 'KT1AbjG7vtpV8osdoJXcMRck8eTwst8dWoz4';
    expect(await collect(source.levels(unknown, { toLevel: TOP, signal: signal() }))).toEqual([]);
    expect(
      await collect(
        source.levels('tz1MXrEgDNnR8PDryN8sq4B2m9Pqcf57wBqM', { toLevel: TOP, signal: signal() }),
      ),
    ).toEqual([]);
  });

  it('TzKT: every account of the blocks gives the levels TzKT records for it; the other sources agree', async () => {
    const addresses = [...new Set(records.flatMap((r) => ALIAS_FIELDS.map((f) => named(r, f))))].filter(
      (a): a is string => a !== undefined,
    );
    const source = new TzktSource({ baseUrl: tzkt!.url, pageSize: 2 });
    await each(addresses, async (a) => {
      const pages = await collect(source.levels(a, { toLevel: TOP, signal: signal() }));
      const levels = checkPages(source, pages, TOP);
      expect(levels, a).toEqual(tzktTruth(records, a));
      expect(levels.every((l) => scanSees(a, l))).toBe(true);
      expect(pages.at(-1)!.cursor).toBe(`tzkt:${TOP}`);
    });
    expect(await source.originLevel(LB, { signal: signal() })).toBe(11610082);
    const lb = await collect(source.levels(LB, { toLevel: TOP, signal: signal() }));
    expect(lb.flatMap((p) => p.levels)).toEqual([11610082, 11680082]);
    expect(lb.at(-1)!.progress).toEqual({
      found: 2,
      covered: { from: 11610082, to: TOP },
      range: { from: 11610082, to: TOP },
    });
    // an internal call back to its sender: the sender's one level, once
    const caller = 'tz1YDugUdCc7s8w7jG8z75pLLDvgjTyE4tQa';
    expect(
      (await collect(source.levels(caller, { toLevel: TOP, signal: signal() }))).flatMap((p) => p.levels),
    ).toEqual([11610082]);
    expect(
      await collect(
        source.levels('tz1MXrEgDNnR8PDryN8sq4B2m9Pqcf57wBqM', { toLevel: TOP, signal: signal() }),
      ),
    ).toEqual([]);
  });

  it('scan: the fake node serves the blocks (at nearby levels); pages in order, resumable, stops at an origination', async () => {
    const node = new FakeNode();
    const rpcUrl = await node.start();
    try {
      // the four blocks at 10, 20, 30, 40 (in their order), blocks without operations around them, and the
      // real origination group in a block at 5
      const place = new Map(FIXTURE_LEVELS.map((real, i) => [real, 10 * (i + 1)]));
      const empty = (level: number) => ({
        hash: `B${level}`,
        header: { level },
        metadata: {},
        operations: [[], [], [], []],
      });
      for (let level = 1; level <= 45; level++) node.override.set(level, empty(level));
      for (const [real, level] of place) {
        const block = readJson(`blocks/mainnet/${real}/block.json`);
        node.override.set(level, { ...block, header: { ...(block.header as Json), level } });
      }
      const origination = readJson(ORIGINATION);
      node.override.set(5, { ...empty(5), operations: [[], [], [], [origination]] });
      const truth = (a: string) =>
        distinct(FIXTURE_LEVELS.filter((real) => scanSees(a, real)).map((real) => place.get(real)!));
      const source = new ScanSource({ rpcUrl, pageSize: 7, concurrency: 4 });
      const baker = 'tz1P2Po7YM526ughEsRbY4oR9zaUPDZjxFrb';
      const rollupSender = 'tz3grsJmz4hQpJdmSyGSzVBpyV87V6kXp1su';
      for (const a of [LB, baker, BATCHER, rollupSender, 'tz1YDugUdCc7s8w7jG8z75pLLDvgjTyE4tQa']) {
        const pages = await collect(source.levels(a, { toLevel: 45, signal: signal() }));
        expect(checkPages(source, pages, 45), a).toEqual(truth(a));
        expect(pages.length).toBe(7); // 45 blocks, 7 a page
        expect(pages.at(-1)!.cursor).toBe('scan:0');
      }
      expect(truth(baker)).toEqual([10, 20, 30, 40]);
      expect(truth(LB)).toEqual([30, 40]);
      // resumed from the second page's cursor, the rest
      const first: HistoryPage[] = [];
      for await (const page of source.levels(baker, { toLevel: 45, signal: signal() })) {
        first.push(page);
        if (first.length === 2) break;
      }
      expect(first[1]!.cursor).toBe('scan:31');
      const rest = await collect(
        source.levels(baker, { toLevel: 45, cursor: first[1]!.cursor, signal: signal() }),
      );
      expect(distinct([...first, ...rest].flatMap((p) => p.levels))).toEqual([10, 20, 30, 40]);
      expect(rest[0]!.progress.covered).toEqual({ from: 25, to: 45 });
      // the originated contract: found at 5, nothing below it asked (one block at a time)
      node.requests.length = 0;
      const oneByOne = new ScanSource({ rpcUrl, pageSize: 7, concurrency: 1 });
      const originated = 'KT1AbjG7vtpV8osdoJXcMRck8eTwst8dWoz4';
      const pages = await collect(oneByOne.levels(originated, { toLevel: 12, signal: signal() }));
      expect(pages.flatMap((p) => p.levels)).toEqual([5]);
      expect(pages.at(-1)!.cursor).toBe('scan:0');
      expect(node.requests.filter((r) => r.startsWith('block')).map((r) => Number(r.split(' ')[1]))).toEqual([
        12, 11, 10, 9, 8, 7, 6, 5,
      ]);
      // its originator too, which goes on below
      const originator = await collect(
        oneByOne.levels('tz1MXrEgDNnR8PDryN8sq4B2m9Pqcf57wBqM', { toLevel: 12, signal: signal() }),
      );
      expect(originator.flatMap((p) => p.levels)).toEqual([5]);
      expect(originator.at(-1)!.cursor).toBe('scan:0');
    } finally {
      await node.stop();
    }
  });
});

describe('history sources: paging rules and bad sources (synthetic servers)', () => {
  const A = 'KT1ExbCyFbsvPQTUitHAK7HSfYkJgiCtBGpM';
  const USER = 'tz1MivYGeRXoKtTVxm5nFQVLAhkFAavjUcMo';
  const servers: Served[] = [];
  const start = async (handler: Handler) => {
    const s = await serve(handler);
    servers.push(s);
    return s;
  };
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('TzKT: kinds are merged into ascending, disjoint pages; a level cut by a page end is skipped, not repeated', async () => {
    const op = (type: string, level: number, field: string, id: number) => ({
      type,
      id,
      level,
      [field]: { address: A },
    });
    const records = [
      op('origination', 5, 'originatedContract', 1),
      ...[10, 10, 12, 15, 15, 15, 30].map((level, i) =>
        op('transaction', level, i % 2 ? 'target' : 'sender', 10 + i),
      ),
      op('migration', 12, 'account', 30),
      op('migration', 31, 'account', 31),
      op('transfer_ticket', 20, 'ticketer', 40),
    ];
    const api = await start(tzktApi(records));
    const source = new TzktSource({ baseUrl: api.url, pageSize: 2 });
    const pages = await collect(source.levels(A, { toLevel: 40, signal: signal() }));
    expect(checkPages(source, pages, 40)).toEqual([5, 10, 12, 15, 20, 30, 31]);
    expect(pages.map((p) => p.progress.covered!.to)).toEqual(
      pages.map((p) => Number(p.cursor.split(':')[1])),
    );
    expect(pages[0]!.progress.range).toEqual({ from: 5, to: 40 });
    // the asks use TzKT's documented names (the fake refuses any other) and the address's first activity
    expect(api.requests[0]).toBe(`/v1/accounts/${A}`);
    expect(api.requests).toContain(
      `/v1/operations/transactions?anyof.sender.target.initiator=${A}&level.ge=5&level.le=40&select=level&sort.asc=level&offset.cr=4&limit=2`,
    );
    const resumed = await collect(
      source.levels(A, { toLevel: 40, cursor: pages[1]!.cursor, signal: signal() }),
    );
    expect(distinct([...pages.slice(0, 2), ...resumed].flatMap((p) => p.levels))).toEqual([
      5, 10, 12, 15, 20, 30, 31,
    ]);
    const window = await collect(source.levels(A, { fromLevel: 11, toLevel: 30, signal: signal() }));
    expect(window.flatMap((p) => p.levels)).toEqual([12, 15, 20, 30]);
    // maxLevels: the pages within it, then a typed error
    const limited = new TzktSource({ baseUrl: api.url, pageSize: 2, maxLevels: 3 });
    const given: number[] = [];
    const err = await failure(async () => {
      for await (const page of limited.levels(A, { toLevel: 40, signal: signal() }))
        given.push(...page.levels);
    });
    expect(err.kind).toBe('limit');
    expect(given.length).toBeLessThanOrEqual(3);
  });

  it('a source that lies is refused with a typed error', async () => {
    let answer: unknown = [];
    let raw: string | null = null;
    const api = await start((url, res) => {
      if (url.pathname.startsWith('/v1/accounts/'))
        return reply(res, 200, { type: 'contract', address: A, firstActivity: 1 });
      if (raw !== null) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(raw);
      }
      // announced: the body's length in content-length (reply() streams it, chunked)
      const text = JSON.stringify(answer);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
    const source = new TzktSource({ baseUrl: api.url, pageSize: 100, maxBytes: 4096 });
    const walk = () => collect(source.levels(A, { toLevel: 1000, signal: signal() }));
    for (const [lie, says] of [
      [[5, 1001], /outside the range/],
      [[5, 7.5], /is not a level/],
      [[5, '7'], /is not a level/],
      [[7, 5], /out of order/],
      [{ levels: [5] }, /expected at most 100 levels/],
      [Array.from({ length: 101 }, (_, i) => i + 1), /expected at most 100 levels/],
    ] as const) {
      answer = lie;
      const err = await failure(walk);
      expect([err.kind, err.message]).toEqual(['invalid', expect.stringMatching(says)]);
    }
    // huge: refused on its announced length, or cut off once the streamed body passes the limit
    answer = Array.from({ length: 5000 }, () => 5);
    expect((await failure(walk)).message).toMatch(/an answer of 10001 bytes \(the limit is 4096\)/);
    raw = JSON.stringify(answer);
    expect((await failure(walk)).message).toMatch(/the answer exceeds 4096 bytes/);
    raw = 'not json';
    expect((await failure(walk)).kind).toBe('invalid');

    let groups: unknown[] = [];
    const bcd = await start((url, res) => reply(res, 200, url.searchParams.has('last_id') ? [] : groups));
    const bcdSource = new BcdSource({ baseUrl: bcd.url, network: 'mainnet', pageSize: 2 });
    const bcdWalk = () => collect(bcdSource.levels(USER, { toLevel: 1000, signal: signal() }));
    for (const [lie, says] of [
      [
        [
          { last_id: 9, level: 5 },
          { last_id: 8, level: 6 },
        ],
        /does not go back in time/,
      ],
      [
        [
          { last_id: 9, level: 5 },
          { last_id: 9, level: 5 },
        ],
        /does not continue the list/,
      ],
      [[{ last_id: 9, level: -1 }], /does not go back in time/],
      [[{ last_id: '9', level: 5 }], /last_id "9" is not a non-zero integer/],
      [[{ last_id: 0, level: 5 }], /last_id 0 is not a non-zero integer/],
      [
        [
          { last_id: 9, level: 5 },
          { last_id: 8, level: 5 },
          { last_id: 7, level: 5 },
        ],
        /at most 2 operation groups/,
      ],
    ] as const) {
      groups = [...lie];
      const err = await failure(bcdWalk);
      expect([err.kind, err.message]).toEqual(['invalid', expect.stringMatching(says)]);
    }
    groups = [
      { last_id: 9, level: 1001 },
      { last_id: 8, level: 5 },
    ];
    expect((await bcdWalk()).flatMap((p) => p.levels)).toEqual([5]); // newer than toLevel: skipped, not a lie
    // a URL that is not a BCD API (an unknown route is text, not {"message"})
    const notBcd = await start((_url, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('404 page not found');
    });
    const lost = new BcdSource({ baseUrl: notBcd.url, network: 'mainnet' });
    expect((await failure(() => collect(lost.levels(USER, { toLevel: 10, signal: signal() })))).kind).toBe(
      'invalid',
    );
  });

  it('429: retried after the Retry-After delay; a longer delay than allowed is a typed error', async () => {
    let calls = 0;
    let retryAfter = '1';
    const api = await start((url, res) => {
      calls++;
      if (calls === 1) return reply(res, 429, { message: 'slow down' }, { 'retry-after': retryAfter });
      reply(res, 200, url.searchParams.has('last_id') ? [] : [{ last_id: 3, level: 7 }]);
    });
    const source = new BcdSource({ baseUrl: api.url, network: 'mainnet', pageSize: 2 });
    const started = Date.now();
    const pages = await collect(source.levels(USER, { toLevel: 100, signal: signal() }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(pages.flatMap((p) => p.levels)).toEqual([7]);
    expect(api.requests.length).toBe(3); // the 429, its retry, the empty page after
    calls = 0;
    retryAfter = '3600';
    const err = await failure(() => collect(source.levels(USER, { toLevel: 100, signal: signal() })));
    expect([err.kind, err.retryAfterMs]).toEqual(['rate_limited', 3_600_000]);
    // always 429: retried maxRetries times, then the typed error
    const always = await start((_url, res) => reply(res, 429, {}, { 'retry-after': '0' }));
    const patient = new BcdSource({ baseUrl: always.url, network: 'mainnet', maxRetries: 2 });
    expect(
      (await failure(() => collect(patient.levels(USER, { toLevel: 100, signal: signal() })))).kind,
    ).toBe('rate_limited');
    expect(always.requests.length).toBe(3);
  });

  it('a source that is down, or failing, gives a typed error', async () => {
    const port = await freePort();
    const down = new TzktSource({ baseUrl: `http://127.0.0.1:${port}` });
    const err = await failure(() => collect(down.levels(A, { toLevel: 100, signal: signal() })));
    expect([err.kind, err.source]).toEqual(['unavailable', 'tzkt']);
    expect(err.message).toMatch(/ECONNREFUSED/);
    const failing = await start((_url, res) => reply(res, 503, { message: 'maintenance' }));
    const bcd = new BcdSource({ baseUrl: failing.url, network: 'mainnet' });
    expect((await failure(() => collect(bcd.levels(USER, { toLevel: 100, signal: signal() })))).kind).toBe(
      'unavailable',
    );
    const slow = await start(() => new Promise<void>(() => {}));
    const impatient = new BcdSource({ baseUrl: slow.url, network: 'mainnet', timeoutMs: 200 });
    const timedOut = await failure(() => collect(impatient.levels(USER, { toLevel: 100, signal: signal() })));
    expect([timedOut.kind, timedOut.message]).toEqual([
      'unavailable',
      expect.stringMatching(/no answer within 200 ms/),
    ]);
    // a scan over a node without the block (a rolling node's history ends)
    const node = new FakeNode();
    const rpcUrl = await node.start();
    try {
      const scan = new ScanSource({ rpcUrl });
      const missing = await failure(() => collect(scan.levels(A, { toLevel: 3, signal: signal() })));
      expect([missing.kind, missing.message]).toEqual(['unavailable', expect.stringMatching(/no block 3/)]);
      node.override.set(3, { header: { level: 4 }, operations: [] });
      const wrong = await failure(() => collect(scan.levels(A, { toLevel: 3, signal: signal() })));
      expect([wrong.kind, wrong.message]).toEqual(['invalid', expect.stringMatching(/not block 3/)]);
    } finally {
      await node.stop();
    }
  });

  it('abort stops a walk at once: a pending request, a 429 wait, a scan with blocks asked ahead', async () => {
    const hang = await start(() => new Promise<void>(() => {}));
    const aborted = async (source: HistorySource, address: string) => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const started = Date.now();
      const err = await failure(() =>
        collect(source.levels(address, { toLevel: 100, signal: controller.signal })),
      );
      expect(err.kind).toBe('aborted');
      expect(Date.now() - started).toBeLessThan(2_000);
    };
    await aborted(new TzktSource({ baseUrl: hang.url }), A);
    const busy = await start((_url, res) => reply(res, 429, {}, { 'retry-after': '30' }));
    await aborted(new BcdSource({ baseUrl: busy.url, network: 'mainnet' }), USER);
    const node = new FakeNode();
    const rpcUrl = await node.start();
    try {
      for (let level = 1; level <= 100; level++)
        node.override.set(level, { header: { level }, operations: [[], [], [], []] });
      node.hang.add(90);
      await aborted(new ScanSource({ rpcUrl, concurrency: 4 }), A);
      // stopping between pages (the caller's break) cancels the blocks asked ahead
      const pages: HistoryPage[] = [];
      for await (const page of new ScanSource({ rpcUrl, pageSize: 5 }).levels(A, {
        toLevel: 100,
        signal: signal(),
      })) {
        pages.push(page);
        break;
      }
      expect(pages[0]!.cursor).toBe('scan:95');
    } finally {
      await node.stop();
    }
  });

  it('invalid addresses, queries, cursors and limits are the caller’s mistakes (RangeError)', () => {
    const source = new BcdSource({ baseUrl: 'http://127.0.0.1:1', network: 'mainnet' });
    expect(() => source.levels('KT1notanaddress', { toLevel: 1, signal: signal() })).toThrow(RangeError);
    expect(() => source.levels(A, { toLevel: -1, signal: signal() })).toThrow(RangeError);
    expect(() => source.levels(A, { toLevel: 10, cursor: 'tzkt:5', signal: signal() })).toThrow(RangeError);
    expect(() => new BcdSource({ baseUrl: 'http://x', network: 'mainnet', pageSize: 11 })).toThrow(
      /pageSize/,
    );
    expect(() => new TzktSource({ baseUrl: 'ftp://x' })).toThrow(RangeError);
    expect(() => new ScanSource({ rpcUrl: 'http://x', concurrency: 0 })).toThrow(/concurrency/);
  });
});
