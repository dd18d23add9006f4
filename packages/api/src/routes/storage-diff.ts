/**
 * Time travel (issue 21): a contract's storage diff between two levels, and the big-map keys that changed
 * between them (paged, classified and counted in SQL: packages/db/src/read/storage-diff.ts).
 */
import { BigMapKeyChanges, ErrorBody, KeyChangeKind, NetworkName, StorageDiff } from '@michelscope/api-types';
import {
  bigMapKeyChangeCounts,
  bigMapKeyChanges,
  bigMapsOfContract,
  getBigMap,
  getStorageType,
  storageAsOf,
} from '@michelscope/db/read';
import { diffValues, toMicheline, toMiguel, type MiguelNode, type TypeNode } from '@michelscope/michelson';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ApiContext } from '../context';
import { HttpError } from '../errors';
import { keyString, typesOf } from '../render/big-map-keys';
import { stampAll } from '../render/operation';
import { formatTime } from '../time';
import { requireContractPath } from '../validate';

const E = { 400: ErrorBody, 404: ErrorBody, 422: ErrorBody, 500: ErrorBody };
const tags = ['contract'];
/** Most big maps of one contract whose changes are counted in one answer. */
const BIG_MAPS_MAX = 100;
/** Most changed keys one page gives. */
const KEYS_PAGE_MAX = 100;

const level = (description: string) => Type.Integer({ minimum: 0, maximum: 2147483647, description });
const Ends = {
  from: level('the older level: the state at the end of this block (0: before any block)'),
  to: level('the newer level: the state at the end of this block'),
};
const Params = Type.Object({ network: NetworkName, address: Type.String({ maxLength: 64 }) });

function checkEnds(from: number, to: number): void {
  if (from >= to) throw new HttpError(400, 'from must be below to');
}

/** Untrusted stored data that does not match its type → 422 with the reason, never a 500. */
function decode<T>(f: () => T, what: string): T {
  try {
    return f();
  } catch (e) {
    throw new HttpError(
      422,
      `cannot decode ${what}: ${e instanceof Error ? e.message.slice(0, 200) : 'invalid data'}`,
    );
  }
}

function miguelOf(t: TypeNode, v: unknown): MiguelNode {
  return toMiguel(t, toMicheline(v))[0]!;
}

export const storageDiffRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  const check = (p: { network: string; address: string }) => requireContractPath(ctx, p);

  app.get(
    '/contract/:network/:address/storage/diff',
    {
      schema: {
        summary:
          'Storage diff between the ends of two levels, with the number of changed keys of each big map',
        description:
          'The storage value at the end of block `from` against the one at the end of block `to` (the last ' +
          'stored storage at or before each level), as the operation storage diff shows it, big maps as ' +
          'pointers. For each big map of the contract: the keys added, changed and removed between the two ' +
          '(`GET …/storage/diff/big_map/{ptr}` lists them). `from` must be below `to`; before the ' +
          "contract's origination every field counts as added. Not in the reference.",
        tags,
        params: Params,
        querystring: Type.Object(Ends),
        response: { 200: StorageDiff, ...E },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      check(request.params);
      const { from, to } = request.query;
      checkEnds(from, to);
      const script = await getStorageType(ctx.readDb, network, address);
      if (!script) throw new HttpError(404, 'not found');
      const [older, newer, maps] = await Promise.all([
        from > 0 ? storageAsOf(ctx.readDb, network, address, from) : undefined,
        storageAsOf(ctx.readDb, network, address, to),
        bigMapsOfContract(ctx.readDb, network, address),
      ]);
      if (!newer) throw new HttpError(400, `the contract has no storage at level ${to}`);
      const type = toMicheline(script.storage);
      const storage = decode(
        () =>
          older
            ? diffValues(type, toMicheline(newer.storage), toMicheline(older.storage))
            : stampAll(toMiguel(type, toMicheline(newer.storage))[0]!, 'create'),
        'storage',
      );
      const counted = maps.slice(0, BIG_MAPS_MAX);
      const counts = await Promise.all(
        counted.map((m) => bigMapKeyChangeCounts(ctx.readDb, network, m.ptr, address, from, to)),
      );
      return {
        from: { level: from, storage_level: older?.level ?? null },
        to: { level: to, storage_level: newer.level },
        storage,
        big_maps: counted.map((m, i) => ({ ptr: m.ptr, name: m.name, counts: counts[i]! })),
      };
    },
  );

  app.get(
    '/contract/:network/:address/storage/diff/big_map/:ptr',
    {
      schema: {
        summary: 'Keys of a big map added, changed and removed between the ends of two levels (paged)',
        description:
          'Each key whose value at the end of block `to` differs from its value at the end of block `from`, ' +
          'last written first, with its value as a Miguel diff (old values in `from` of the changed nodes); ' +
          '`change` keeps one class (the counts stay those of every class). `size` up to 100 (default 20). ' +
          'Not in the reference.',
        tags,
        params: Type.Object({
          network: NetworkName,
          address: Type.String({ maxLength: 64 }),
          ptr: Type.Integer({ minimum: -1, maximum: Number.MAX_SAFE_INTEGER }),
        }),
        querystring: Type.Object({
          ...Ends,
          change: Type.Optional(KeyChangeKind),
          size: Type.Optional(Type.Integer({ minimum: 1, maximum: KEYS_PAGE_MAX })),
          offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
        }),
        response: { 200: BigMapKeyChanges, ...E },
      },
    },
    async (request) => {
      const { network, address, ptr } = request.params;
      check(request.params);
      const { from, to, change, size = 20, offset = 0 } = request.query;
      checkEnds(from, to);
      const map = await getBigMap(ctx.readDb, network, ptr);
      if (!map || map.contract !== address) throw new HttpError(404, 'not found');
      const types = typesOf(map);
      if (!types) throw new HttpError(422, 'cannot decode the big map types');
      const page = await bigMapKeyChanges(ctx.readDb, network, ptr, address, {
        from,
        to,
        size,
        offset,
        change,
      });
      const total = change
        ? page.counts[change]
        : page.counts.added + page.counts.changed + page.counts.removed;
      return {
        ptr,
        counts: page.counts,
        total,
        items: page.rows.map((r) => {
          let key: MiguelNode | null = null;
          let value: MiguelNode | null = null;
          try {
            key = miguelOf(types.key, r.key);
          } catch {
            /* an undecodable key is shown by its text */
          }
          try {
            value =
              r.change === 'added'
                ? stampAll(miguelOf(types.value, r.to_value), 'create')
                : r.change === 'removed'
                  ? stampAll(miguelOf(types.value, r.from_value), 'delete')
                  : diffValues(types.value, toMicheline(r.to_value), toMicheline(r.from_value));
          } catch {
            /* left null: the key still counts */
          }
          return {
            key_hash: r.key_hash,
            key,
            key_string: keyString(types.key, r.key),
            change: r.change,
            value,
            level: r.level,
            timestamp: formatTime(r.timestamp),
          };
        }),
      };
    },
  );
};
