import {
  BigMapHistory,
  BigMapInfo,
  BigMapKeyHistory,
  BigMapKeyItem,
  BigMapKeyState,
  ErrorBody,
  NetworkName,
} from '@michelscope/api-types';
import {
  bigMapActions,
  bigMapKeyCountAt,
  bigMapKeyCounts,
  bigMapKeyDiffs,
  bigMapKeys,
  bigMapKeysPage,
  bigMapKeyState,
  getBigMap,
  type BigMapKeyRow,
} from '@michelscope/db/read';
import { toMicheline, toMiguel, typedefOf, type MiguelNode, type TypeNode } from '@michelscope/michelson';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { cacheKey, type ApiContext } from '../context';
import { HttpError } from '../errors';
import { keyString, typesOf, typesOfText, type Types } from '../render/big-map-keys';
import { partialHistoryFrom } from '../services/contracts';
import { adoptedBigMap, nodeKeySearch, nodeKeyValue } from '../services/node-big-map';
import { formatTime } from '../time';
import { Paging, pageSize, requireNetwork } from '../validate';

const E = { 400: ErrorBody, 404: ErrorBody, 500: ErrorBody };
const tags = ['bigmap'];
const PtrParams = Type.Object({
  network: NetworkName,
  ptr: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
});
const KeyParams = Type.Object({
  network: NetworkName,
  ptr: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  key_hash: Type.String({ pattern: '^expr[1-9A-HJ-NP-Za-km-z]{50}$' }),
});
export const BIGMAP_TTL_MS = 30_000;

/**
 * A big map's key and value types, kept BIGMAP_TTL_MS as the big map's answer is (and dropped with it by a block
 * that changed the big map: the key holds `/bigmap/{network}/{ptr}/`, live/hub.ts): a filtered keys page reads
 * them apart from its keys. An unknown big map is read again at the next request.
 */
async function bigMapTypes(ctx: ApiContext, network: string, ptr: number): Promise<Types | undefined> {
  const key = `types:/bigmap/${encodeURIComponent(network)}/${ptr}/`;
  const known = ctx.cache.peek<Types>(key);
  if (known) return known;
  const t = typesOf(await getBigMap(ctx.readDb, network, ptr));
  if (t) ctx.cache.set(key, t, BIGMAP_TTL_MS);
  return t;
}

function miguel(t: TypeNode | undefined, v: unknown): MiguelNode | undefined {
  if (!t || v == null) return undefined;
  try {
    return toMiguel(t, toMicheline(v))[0];
  } catch {
    return undefined;
  }
}

export const bigMapRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  app.get(
    '/bigmap/:network/:ptr',
    {
      schema: {
        summary: 'Big map: owner, key counts and type',
        description: 'Cached 30 s.',
        tags,
        params: PtrParams,
        response: { 200: BigMapInfo, ...E },
      },
    },
    async (request) => {
      const { network, ptr } = request.params;
      requireNetwork(ctx, network);
      return ctx.cache.get(cacheKey(request.url), BIGMAP_TTL_MS, async () => {
        const [counts, row] = await Promise.all([
          bigMapKeyCounts(ctx.readDb, network, ptr),
          getBigMap(ctx.readDb, network, ptr),
        ]);
        let address = counts.contract ?? row?.contract;
        if (!address) address = (await bigMapActions(ctx.readDb, network, ptr, 1))[0]?.address;
        if (!address) throw new HttpError(404, 'not found');
        const out: BigMapInfo = {
          address,
          network,
          ptr,
          active_keys: counts.active,
          total_keys: counts.total,
        };
        const t = typesOf(row);
        if (t && counts.total > 0) out.typedef = typedefOf(t.map) ?? [];
        return out;
      });
    },
  );

  app.get(
    '/bigmap/:network/:ptr/count',
    {
      schema: {
        summary: 'Number of keys',
        description:
          'Every key written, removed ones included. `level` (Michelscope extension): the number at the end of ' +
          'that block, for a storage shown at an old level.',
        tags,
        params: PtrParams,
        querystring: Type.Object({
          level: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
        }),
        response: {
          200: Type.Object({
            count: Type.Integer(),
            partial: Type.Optional(
              Type.Boolean({
                description:
                  "Michelscope extension: true while the contract's history is not all indexed (read from the node when first asked for, its backfill not done): the keys written before are not all indexed, `count` is a lower bound",
              }),
            ),
          }),
          ...E,
        },
      },
    },
    async (request) => {
      const { network, ptr } = request.params;
      requireNetwork(ctx, network);
      const { level } = request.query;
      // at an old level, the keys it had then, not today's (issue 33)
      const count =
        level === undefined
          ? (await bigMapKeyCounts(ctx.readDb, network, ptr)).total
          : await bigMapKeyCountAt(ctx.readDb, network, ptr, level);
      // a big map read from the node holds the keys written since only (issue 32): its count is a lower bound,
      // and so is that of any big map of a contract whose history is being backfilled (one stored by another
      // address's backfill, adopted again, has its origination but not all its keys yet)
      if (await adoptedBigMap(ctx, network, ptr)) return { count, partial: true };
      const owner = (await getBigMap(ctx.readDb, network, ptr))?.contract;
      if (owner && (await partialHistoryFrom(ctx, network, owner)) !== null) return { count, partial: true };
      return { count };
    },
  );

  app.get(
    '/bigmap/:network/:ptr/history',
    {
      schema: {
        summary: 'Actions on a big map (alloc, update, copy, remove)',
        tags,
        params: PtrParams,
        response: { 200: BigMapHistory, ...E },
      },
    },
    async (request) => {
      const { network, ptr } = request.params;
      requireNetwork(ctx, network);
      const rows = await bigMapActions(ctx.readDb, network, ptr);
      const row = await getBigMap(ctx.readDb, network, ptr);
      const address = row?.contract ?? rows[0]?.address;
      if (!address) throw new HttpError(404, 'not found');
      const items = rows.map((a) => {
        const item: {
          action: string;
          source_ptr?: number;
          destination_ptr?: number;
          timestamp: string;
          level: number;
        } = {
          action: a.action,
          timestamp: formatTime(a.timestamp),
          level: a.level,
        };
        if (a.destination_ptr != null && a.destination_ptr !== ptr) item.destination_ptr = a.destination_ptr;
        else if (a.source_ptr != null && a.source_ptr !== ptr) item.source_ptr = a.source_ptr;
        return item;
      });
      return { address, ptr, ...(items.length ? { items } : {}) };
    },
  );

  app.get(
    '/bigmap/:network/:ptr/keys',
    {
      schema: {
        summary: 'Keys of a big map (newest update first)',
        description:
          '`max_level` exclusive, `min_level` inclusive; `search` (Michelscope extension) matches a key hash or key ' +
          'text. `after` (Michelscope extension, keyset paging): the key hash of the last key of the previous page; ' +
          'the page holds the keys after it in the same order, at the same cost at any depth (where `offset` reads ' +
          'every key it skips); it cannot be combined with an `offset` above 0.',
        tags,
        params: PtrParams,
        querystring: Type.Object({
          ...Paging,
          max_level: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
          min_level: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
          search: Type.Optional(Type.String({ maxLength: 255 })),
          active_only: Type.Optional(Type.Boolean()),
          after: Type.Optional(Type.String({ pattern: '^expr[1-9A-HJ-NP-Za-km-z]{50}$' })),
        }),
        response: { 200: Type.Array(BigMapKeyItem), ...E },
      },
    },
    async (request) => {
      const { network, ptr } = request.params;
      requireNetwork(ctx, network);
      const q = request.query;
      if (q.max_level !== undefined && q.min_level !== undefined && q.max_level <= q.min_level)
        throw new HttpError(400, 'max_level must be greater than min_level');
      if (q.after !== undefined && q.offset) throw new HttpError(400, 'after cannot be combined with offset');
      // the database refuses a NUL in a text parameter (as the other searches, it is dropped)
      const search = q.search?.replace(/\0/g, '').trim();
      const filter = {
        size: pageSize(q.size),
        offset: q.offset ?? 0,
        minLevel: q.min_level,
        maxLevel: q.max_level,
        activeOnly: q.active_only,
        search: search && search.length > 2 ? search : undefined,
        after: q.after,
      };
      let rows: BigMapKeyRow[];
      let t: Types | undefined;
      if (
        filter.minLevel === undefined &&
        filter.maxLevel === undefined &&
        !filter.activeOnly &&
        !filter.search
      ) {
        // the usual page: keys and types in one statement, the types built once per distinct type text
        const from = filter.after === undefined ? filter.offset : { after: filter.after };
        const page = await bigMapKeysPage(ctx.readDb, network, ptr, filter.size, from);
        rows = page.rows;
        t = page.types && typesOfText(page.types.key_type, page.types.value_type);
      } else {
        [rows, t] = await Promise.all([
          bigMapKeys(ctx.readDb, network, ptr, filter),
          bigMapTypes(ctx, network, ptr),
        ]);
      }
      // a cursor that names no key of this big map is a mistake, not the end of the list
      if (
        rows.length === 0 &&
        filter.after &&
        !(await bigMapKeyState(ctx.readDb, network, ptr, filter.after))
      )
        throw new HttpError(400, `after: big map ${ptr} has no key ${filter.after}`);
      if (rows.length === 0 && filter.search && filter.offset === 0 && !filter.after) {
        // a contract read from the node when first asked for: its keys are not indexed, the node has them
        const adopted = await adoptedBigMap(ctx, network, ptr);
        const hit = adopted && (await nodeKeySearch(ctx, network, ptr, adopted, filter.search));
        if (adopted && hit) {
          const types = typesOf(adopted);
          return [
            {
              data: {
                key: miguel(types?.key, hit.key) ?? null,
                key_hash: hit.keyHash,
                key_string: keyString(types?.key, hit.key),
                level: adopted.level,
                timestamp: formatTime(adopted.timestamp),
                is_active: true,
              },
              count: 0,
            },
          ];
        }
      }
      return rows.map((s) => ({
        data: {
          key: miguel(t?.key, s.key) ?? null,
          key_hash: s.key_hash,
          key_string: keyString(t?.key, s.key),
          level: s.last_update_level,
          timestamp: formatTime(s.last_update_time),
          is_active: !s.removed,
        },
        count: s.count,
      }));
    },
  );

  app.get(
    '/bigmap/:network/:ptr/keys/:key_hash',
    {
      schema: {
        summary: 'History of one key (204 when the key has no updates)',
        tags,
        params: KeyParams,
        querystring: Type.Object(Paging),
        response: { 200: BigMapKeyHistory, 204: Type.Null(), ...E },
      },
    },
    async (request, reply) => {
      const { network, ptr, key_hash } = request.params;
      requireNetwork(ctx, network);
      const { total, rows } = await bigMapKeyDiffs(
        ctx.readDb,
        network,
        ptr,
        key_hash,
        pageSize(request.query.size),
        request.query.offset ?? 0,
      );
      if (total === 0) {
        // a key of a big map read from the node (issue 32): its value at the indexed head, without a history
        const adopted = await adoptedBigMap(ctx, network, ptr);
        const value = adopted && (await nodeKeyValue(ctx, network, ptr, key_hash, adopted.level));
        if (!adopted || !value) return reply.code(204).send(null);
        const at = { level: adopted.level, timestamp: formatTime(adopted.timestamp) };
        return {
          key_hash,
          total: 1,
          values: [{ value: miguel(typesOf(adopted)?.value, value) ?? null, ...at }],
        };
      }
      const t = typesOf(await getBigMap(ctx.readDb, network, ptr));
      const out: BigMapKeyHistory = { key_hash, total };
      const key = rows[0] ? miguel(t?.key, rows[0].key) : undefined;
      if (key !== undefined) out.key = key;
      if (rows.length)
        out.values = rows.map((d) => ({
          value: miguel(t?.value, d.value) ?? null,
          level: d.level,
          timestamp: formatTime(d.timestamp),
        }));
      return out;
    },
  );

  app.get(
    '/bigmap/:network/:ptr/keys/:key_hash/state',
    {
      schema: {
        summary: 'Current state of one key',
        tags,
        params: KeyParams,
        response: { 200: BigMapKeyState, ...E },
      },
    },
    async (request) => {
      const { network, ptr, key_hash } = request.params;
      requireNetwork(ctx, network);
      const s = await bigMapKeyState(ctx.readDb, network, ptr, key_hash);
      if (!s) throw new HttpError(404, 'not found');
      const t = typesOf(await getBigMap(ctx.readDb, network, ptr));
      const out: BigMapKeyState = {
        key_hash,
        key_string: keyString(t?.key, s.key),
        value: miguel(t?.value, s.value) ?? null,
        last_update_level: s.last_update_level,
        last_update_time: formatTime(s.last_update_time),
        removed: s.removed,
        updates_count: s.count,
      };
      const key = miguel(t?.key, s.key);
      if (key !== undefined) out.key = key;
      return out;
    },
  );
};
