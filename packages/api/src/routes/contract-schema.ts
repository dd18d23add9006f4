/**
 * A contract's storage (current, at levels, raw, rich, schema), entrypoints and their schemas, and view schemas,
 * typed by its script; and onChainViews. Over ~400 lines because its routes share one script decoding and
 * each derives its answer from the same typed script; the answer types are in api-types.
 */
import {
  EntrypointSchema,
  ErrorBody,
  Micheline as MichelineJson,
  Miguel,
  StorageLevel,
  ViewKind,
  ViewSchema,
} from '@michelscope/api-types';
import {
  bigMapsOfContract,
  bigMapKeyCounts,
  liveBigMapEntries,
  bigMapStatesOf,
  bigMapDiffsOfOperation,
  latestCall,
  storageAndType,
  operationsByHashCounter,
  originationOf,
  storageLevels,
  getStorageType,
} from '@michelscope/db/read';
import {
  bigMapPointers,
  buildTypeTree,
  enrichBigMaps,
  entrypointSchemaOf,
  entrypointsDocsOf,
  formatMichelson,
  fromParameters,
  schemaOf,
  storageModel,
  normalizeData,
  toMicheline,
  toMiguel,
  toParameters,
  typedefOf,
  wrapEntrypointSchema,
  entrypointModel,
  storedEntrypointNames,
  type Micheline,
} from '@michelscope/michelson';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ApiContext } from '../context';
import { HttpError } from '../errors';
import { formatTime } from '../time';
import { requireScript, resolveStorage } from '../services/contracts';
import { AddressParams, jsonString, OPG_RE, requireContractPath } from '../validate';

const E = { 400: ErrorBody, 404: ErrorBody, 500: ErrorBody };
const tags = ['contract'];
/** Most storage versions one request lists. */
const STORAGE_LEVELS_MAX = 100;
/** Most keys of one big map a 'current' storage form is filled with. */
const FORK_KEYS_MAX = 100;
const LevelQuery = Type.Object({ level: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })) });

/** Untrusted stored/node data that does not match its type → a clear 500-free answer. */
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

export const contractSchemaRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  const check = (p: { network: string; address: string }) => requireContractPath(ctx, p);

  app.get(
    '/contract/:network/:address/storage',
    {
      schema: {
        summary: 'Storage as a Miguel tree (big maps as pointers)',
        tags,
        params: AddressParams,
        querystring: LevelQuery,
        response: { 200: Type.Array(Miguel), ...E, 422: ErrorBody },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      check(request.params);
      // the storage type only (not the code) and the latest stored storage, in one statement
      const stored = await storageAndType(ctx.readDb, network, address, request.query.level);
      if (!stored) throw new HttpError(404, 'not found');
      const value =
        stored.value != null
          ? toMicheline(stored.value)
          : await resolveStorage(ctx, network, address, request.query.level);
      return decode(() => toMiguel(toMicheline(stored.type), value), 'storage');
    },
  );

  app.get(
    '/contract/:network/:address/storage/levels',
    {
      schema: {
        summary: 'Levels at which the storage changed (the versions of the storage tab), newest first',
        description:
          'A level is listed when the storage of its last applied operation with a stored storage differs ' +
          'from the previous such level (the origination level always is). Big-map contents are not part ' +
          'of the storage value. `before_level` (exclusive) pages on; `size` up to 100 (default 100). ' +
          'Not in the reference (BCD offered only the protocol-migration levels).',
        tags,
        params: AddressParams,
        querystring: Type.Object({
          before_level: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
          size: Type.Optional(Type.Integer({ minimum: 0, maximum: STORAGE_LEVELS_MAX })),
        }),
        response: { 200: Type.Array(StorageLevel), ...E },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      check(request.params);
      if (!(await getStorageType(ctx.readDb, network, address))) throw new HttpError(404, 'not found');
      const { size, before_level } = request.query;
      const rows = await storageLevels(
        ctx.readDb,
        network,
        address,
        size ? size : STORAGE_LEVELS_MAX,
        before_level,
      );
      return rows.map((r) => ({ level: r.level, timestamp: formatTime(r.timestamp) }));
    },
  );

  app.get(
    '/contract/:network/:address/storage/raw',
    {
      schema: {
        summary: 'Storage as Michelson text',
        description:
          'Readable at every level, as the node prints storage with unparsing_mode Readable: addresses, keys ' +
          'and chain ids in base58, timestamps in RFC 3339, right combs as one flat `Pair`.',
        tags,
        params: AddressParams,
        querystring: LevelQuery,
        response: { 200: Type.String(), ...E },
      },
    },
    async (request, reply) => {
      const { network, address } = request.params;
      check(request.params);
      const script = await requireScript(ctx, network, address);
      const value = await resolveStorage(ctx, network, address, request.query.level);
      // as the node prints storage in Readable mode, at every level (base58, RFC 3339, flat right combs)
      let readable = value;
      try {
        readable = normalizeData(toMicheline(script.storage), value, 'Readable');
      } catch {
        // a storage type that does not parse: the value as stored
      }
      return jsonString(reply, formatMichelson(readable));
    },
  );

  app.get(
    '/contract/:network/:address/storage/rich',
    {
      schema: {
        summary: 'Storage as Micheline with the current big-map entries in place of pointers',
        description:
          'Without `level` the latest storage is used (the reference looked up block 0: not copied).',
        tags,
        params: AddressParams,
        querystring: LevelQuery,
        response: { 200: MichelineJson, ...E, 422: ErrorBody },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      check(request.params);
      const script = await requireScript(ctx, network, address);
      const value = await resolveStorage(ctx, network, address, request.query.level);
      const maps = await bigMapsOfContract(ctx.readDb, network, address);
      const states = await bigMapStatesOf(
        ctx.readDb,
        network,
        maps.map((m) => m.ptr),
      );
      const diffs = states.map((s) => ({
        ptr: s.ptr,
        key: toMicheline(s.key),
        value: s.value == null ? null : toMicheline(s.value),
      }));
      return decode(() => enrichBigMaps(toMicheline(script.storage), value, diffs), 'storage');
    },
  );

  app.get(
    '/contract/:network/:address/storage/schema',
    {
      schema: {
        summary: 'Storage type: typedef, form schema and optionally a model (current or initial storage)',
        tags,
        params: AddressParams,
        querystring: Type.Object({
          fill_type: Type.Optional(
            Type.Union([Type.Literal('empty'), Type.Literal('current'), Type.Literal('initial')]),
          ),
        }),
        response: { 200: EntrypointSchema, ...E, 422: ErrorBody },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      check(request.params);
      const script = await requireScript(ctx, network, address);
      const type = toMicheline(script.storage);
      const tree = decode(() => buildTypeTree(type), 'storage type');
      const out: EntrypointSchema = {
        name: tree.prim === 'or' ? tree.name : 'default',
        typedef: typedefOf(tree) ?? [],
        schema: schemaOf(tree),
      };
      const fill = request.query.fill_type;
      if (fill === 'current') {
        const value = await resolveStorage(ctx, network, address);
        // big maps are pointers in the storage: their current keys fill them, at most FORK_KEYS_MAX each
        const ptrs = bigMapPointers(tree, value);
        const filled = await Promise.all(
          ptrs.map(async (ptr) => {
            const [entries, counts] = await Promise.all([
              liveBigMapEntries(ctx.readDb, network, ptr, FORK_KEYS_MAX),
              bigMapKeyCounts(ctx.readDb, network, ptr),
            ]);
            return { ptr, entries, total: Math.max(counts.active, entries.length) };
          }),
        );
        const enriched = decode(
          () =>
            enrichBigMaps(
              tree,
              value,
              filled.flatMap((f) =>
                f.entries.map((e) => ({
                  ptr: f.ptr,
                  key: toMicheline(e.key),
                  value: e.value == null ? null : toMicheline(e.value),
                })),
              ),
            ),
          'storage',
        );
        out.default_model = decode(() => storageModel(tree, enriched), 'storage');
        if (filled.length > 0)
          out.big_maps_filled = filled.map((f) => ({ ptr: f.ptr, filled: f.entries.length, total: f.total }));
      } else if (fill === 'initial') {
        const orig = await originationOf(ctx.readDb, network, address);
        let value: Micheline;
        if (orig?.storage != null) {
          const diffs = await bigMapDiffsOfOperation(ctx.readDb, orig.id);
          value = decode(
            () =>
              enrichBigMaps(
                tree,
                toMicheline(orig.storage),
                diffs.map((d) => ({
                  ptr: d.ptr,
                  key: toMicheline(d.key),
                  value: d.value == null ? null : toMicheline(d.value),
                })),
              ),
            'storage',
          );
        } else value = await resolveStorage(ctx, network, address, orig?.level);
        out.default_model = decode(() => storageModel(tree, value), 'storage');
      }
      return out;
    },
  );

  app.get(
    '/contract/:network/:address/entrypoints',
    {
      schema: {
        summary: 'Entrypoints: name, typedef and form schema of each',
        tags,
        params: AddressParams,
        response: { 200: Type.Array(EntrypointSchema), ...E, 422: ErrorBody },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      check(request.params);
      const script = await requireScript(ctx, network, address);
      const tree = decode(() => buildTypeTree(toMicheline(script.parameter)), 'parameter type');
      return entrypointsDocsOf(tree).map((d) => ({
        name: d.name,
        typedef: d.typedef ?? [],
        schema: entrypointSchemaOf(tree, d.name) ?? wrapEntrypointSchema(schemaOf(tree), tree),
      }));
    },
  );

  app.get(
    '/contract/:network/:address/entrypoints/schema',
    {
      schema: {
        summary: 'One entrypoint schema, with a model from the latest call or a given operation',
        tags,
        params: AddressParams,
        querystring: Type.Object({
          entrypoint: Type.String({ minLength: 1, maxLength: 255 }),
          fill_type: Type.Optional(Type.String({ maxLength: 16 })),
          hash: Type.Optional(Type.String({ maxLength: 64 })),
          counter: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
        }),
        response: { 200: EntrypointSchema, ...E, 422: ErrorBody },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      check(request.params);
      const { entrypoint, fill_type, hash, counter } = request.query;
      const script = await requireScript(ctx, network, address);
      const param = toMicheline(script.parameter);
      const tree = decode(() => buildTypeTree(param), 'parameter type');
      const doc = entrypointsDocsOf(tree).find((d) => d.name === entrypoint);
      const out: EntrypointSchema = doc
        ? {
            name: doc.name,
            typedef: doc.typedef ?? [],
            schema: entrypointSchemaOf(tree, doc.name) ?? wrapEntrypointSchema(schemaOf(tree), tree),
          }
        : { name: '', typedef: [], schema: null };
      let params: unknown;
      const names = doc ? storedEntrypointNames(tree, doc.name) : [entrypoint];
      if (fill_type === 'latest') {
        const op = await latestCall(ctx.readDb, network, address, names);
        if (!op) throw new HttpError(404, 'not found');
        params = op.parameters;
      } else if (fill_type === 'operation') {
        if (!hash || !OPG_RE.test(hash) || counter === undefined)
          throw new HttpError(400, 'hash and counter are required');
        // a group's internal calls share its counter: the call is the one of this contract and entrypoint
        const ops = (await operationsByHashCounter(ctx.readDb, network, hash, counter)).filter(
          (o) => o.destination === address && o.parameters != null,
        );
        const op = ops.find((o) => o.entrypoint !== null && names.includes(o.entrypoint)) ?? ops[0];
        if (!op) throw new HttpError(404, 'not found');
        params = op.parameters;
      }
      if (params != null && doc) {
        const p = params as { entrypoint: string; value: unknown };
        out.default_model = decode(() => {
          const full = fromParameters(tree, {
            entrypoint: String(p.entrypoint),
            value: toMicheline(p.value),
          });
          return entrypointModel(tree, entrypoint, toParameters(tree, full, entrypoint));
        }, 'parameters');
      }
      return out;
    },
  );

  app.get(
    '/contract/:network/:address/views/schema',
    {
      schema: {
        summary: 'On-chain views of a contract with their parameter forms',
        tags,
        params: AddressParams,
        querystring: Type.Object({
          kind: Type.Optional(ViewKind),
        }),
        response: { 200: Type.Array(ViewSchema), ...E },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      check(request.params);
      if (request.query.kind === 'off-chain') return [];
      const script = await requireScript(ctx, network, address);
      return onChainViews(script.views);
    },
  );
};

/** The script's `view` sections as ViewSchema (typing problems reported in `error`). */
export function onChainViews(views: unknown): ViewSchema[] {
  if (!Array.isArray(views)) return [];
  const out: ViewSchema[] = [];
  for (const raw of views) {
    const v = raw as { args?: unknown[] };
    const name = (v.args?.[0] as { string?: unknown } | undefined)?.string;
    if (typeof name !== 'string') continue;
    try {
      const tree = buildTypeTree(toMicheline(v.args?.[1]));
      out.push({
        name,
        kind: 'on-chain',
        implementation: 0,
        typedef: typedefOf(tree) ?? [],
        schema: wrapEntrypointSchema(schemaOf(tree), tree),
      });
    } catch (e) {
      out.push({
        name,
        kind: 'on-chain',
        implementation: 0,
        typedef: [],
        schema: null,
        error: e instanceof Error ? e.message : 'invalid view',
      });
    }
  }
  return out;
}
