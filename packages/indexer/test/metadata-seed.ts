/**
 * Test helpers for the metadata resolver: chain rows written directly (a contract with its script,
 * storage and big maps, queue rows) and a local Fastify server serving metadata (never the internet).
 */
import { bigMapKeyHash, type Micheline } from '@michelscope/michelson';
import type { Db } from '@michelscope/db';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';

export const NET = 'testnet';
const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
export { hex };

let nextPtr = 1000;

export interface SeedBigMap {
  name: string;
  keyType: Micheline;
  valueType: Micheline;
  entries: Array<[Micheline, Micheline]>;
}

/** A contract with its script, its origination (storage in pointer form) and big maps; returns the pointers by name. */
export async function seedContract(
  db: Db,
  address: string,
  opts: {
    parameter?: Micheline;
    storageType?: Micheline;
    storage?: (ptrs: Record<string, number>) => Micheline;
    bigMaps?: SeedBigMap[];
  } = {},
): Promise<Record<string, number>> {
  const parameter = opts.parameter ?? { prim: 'unit' };
  const storageType = opts.storageType ?? {
    prim: 'big_map',
    args: [{ prim: 'string' }, { prim: 'bytes' }],
    annots: ['%metadata'],
  };
  const code = [
    { prim: 'parameter', args: [parameter] },
    { prim: 'storage', args: [storageType] },
    {
      prim: 'code',
      args: [[{ prim: 'CDR' }, { prim: 'NIL', args: [{ prim: 'operation' }] }, { prim: 'PAIR' }]],
    },
  ];
  const ptrs: Record<string, number> = {};
  for (const bm of opts.bigMaps ?? []) ptrs[bm.name] = nextPtr++;
  const script = await sql<{
    id: number;
  }>`INSERT INTO scripts (network, hash, level, code, parameter, storage)
    VALUES (${NET}, ${`h-${address}`}, 1, ${JSON.stringify(code)}::jsonb, ${JSON.stringify(parameter)}::jsonb, ${JSON.stringify(storageType)}::jsonb) RETURNING id`.execute(
    db,
  );
  await sql`INSERT INTO contracts (network, address, level, timestamp, script_id, script_hash)
    VALUES (${NET}, ${address}, 1, now(), ${script.rows[0]!.id}, ${`h-${address}`})`.execute(db);
  const storage = opts.storage ? opts.storage(ptrs) : { int: String(ptrs.metadata ?? 0) };
  await sql`INSERT INTO operations (network, level, timestamp, protocol_id, content_index, kind, status, destination, storage)
    VALUES (${NET}, 1, now(), 1, 0, 'origination', 'applied', ${address}, ${JSON.stringify(storage)}::jsonb)`.execute(
    db,
  );
  for (const bm of opts.bigMaps ?? []) {
    const ptr = ptrs[bm.name]!;
    await sql`INSERT INTO big_maps (network, ptr, contract, key_type, value_type, level, timestamp, name)
      VALUES (${NET}, ${ptr}, ${address}, ${JSON.stringify(bm.keyType)}::jsonb, ${JSON.stringify(bm.valueType)}::jsonb, 1, now(), ${bm.name})`.execute(
      db,
    );
    for (const [k, v] of bm.entries) {
      await sql`INSERT INTO big_map_states (network, ptr, key_hash, contract, key, value, last_update_level, last_update_time, level)
        VALUES (${NET}, ${ptr}, ${bigMapKeyHash(k, bm.keyType)}, ${address}, ${JSON.stringify(k)}::jsonb, ${JSON.stringify(v)}::jsonb, 1, now(), 1)`.execute(
        db,
      );
    }
  }
  return ptrs;
}

/** A metadata big map holding `entries` (key -> UTF-8 text). */
export const metadataBigMap = (entries: Record<string, string>): SeedBigMap => ({
  name: 'metadata',
  keyType: { prim: 'string' },
  valueType: { prim: 'bytes' },
  entries: Object.entries(entries).map(([k, v]) => [{ string: k }, { bytes: hex(v) }]),
});

export async function queueContract(db: Db, address: string, link: string): Promise<void> {
  await sql`INSERT INTO contract_metadata (network, address, level, link) VALUES (${NET}, ${address}, 1, ${link})
    ON CONFLICT (network, address) DO UPDATE SET link = excluded.link, status = 1, retry_count = 0, error = NULL, next_attempt_at = now()`.execute(
    db,
  );
}

export async function queueToken(
  db: Db,
  contract: string,
  tokenId: string,
  info: Record<string, string> | null,
): Promise<void> {
  const tokenInfo = info && Object.fromEntries(Object.entries(info).map(([k, v]) => [k, hex(v)]));
  await sql`INSERT INTO token_metadata (network, contract, token_id, level, token_info, link)
    VALUES (${NET}, ${contract}, ${tokenId}::numeric, 1, ${tokenInfo ? JSON.stringify(tokenInfo) : null}::jsonb, ${info?.[''] ?? null})`.execute(
    db,
  );
}

export async function contractRow(db: Db, address: string) {
  const r = await sql<{
    status: number;
    error: string | null;
    retry_count: number;
    name: string | null;
    metadata: Record<string, unknown> | null;
    next_attempt_at: Date;
  }>`
    SELECT status, error, retry_count, name, metadata, next_attempt_at FROM contract_metadata WHERE network = ${NET} AND address = ${address}`.execute(
    db,
  );
  return r.rows[0]!;
}

export async function tokenRow(db: Db, contract: string, tokenId: string) {
  const r = await sql<{
    status: number;
    error: string | null;
    retry_count: number;
    name: string | null;
    symbol: string | null;
    decimals: number | null;
    metadata: Record<string, unknown> | null;
  }>`
    SELECT status, error, retry_count, name, symbol, decimals, metadata FROM token_metadata WHERE network = ${NET} AND contract = ${contract} AND token_id = ${tokenId}::numeric`.execute(
    db,
  );
  return r.rows[0]!;
}

/** Keys of search documents matching a full-text query (what the search service would find). */
export async function searchKeys(db: Db, q: string): Promise<string[]> {
  const r = await sql<{
    key: string;
  }>`SELECT key FROM search_documents WHERE network = ${NET} AND tsv @@ plainto_tsquery('simple', ${q}) ORDER BY key`.execute(
    db,
  );
  return r.rows.map((x) => x.key);
}

/** Local metadata server: fixed bodies per path, programmable failures, an IPFS-gateway-like prefix. */
export class MetadataServer {
  readonly app: FastifyInstance = Fastify({ forceCloseConnections: true });
  readonly bodies = new Map<
    string,
    { body: string | Buffer; status?: number; delayMs?: number; failTimes?: number }
  >();
  readonly hits = new Map<string, number>();
  base = '';

  async start(): Promise<void> {
    this.app.get('/*', async (req, reply) => {
      const path = req.url;
      this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
      const entry = this.bodies.get(path);
      if (!entry) return reply.code(404).send('not found');
      if (entry.delayMs) await new Promise((r) => setTimeout(r, entry.delayMs));
      if (entry.failTimes && (this.hits.get(path) ?? 0) <= entry.failTimes)
        return reply.code(503).send('try later');
      if (entry.status && entry.status >= 300 && entry.status < 400)
        return reply.redirect(entry.body.toString(), entry.status);
      return reply
        .code(entry.status ?? 200)
        .type('application/json')
        .send(entry.body);
    });
    this.base = await this.app.listen({ host: '127.0.0.1', port: 0 });
  }

  serve(
    path: string,
    body: unknown,
    extra: { status?: number; delayMs?: number; failTimes?: number } = {},
  ): string {
    this.bodies.set(path, {
      body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
      ...extra,
    });
    return `${this.base}${path}`;
  }

  close(): Promise<void> {
    return this.app.close();
  }
}
