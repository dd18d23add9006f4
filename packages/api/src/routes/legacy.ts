/**
 * Routes the spec calls that the reference API removed (bcd-api §4), rebuilt from their historical shapes:
 * contract tokens (§4.4), contract mempool from the node (§4.1), account metadata, token-approval helpers (§4.7).
 */
import {
  ApproveData,
  ApproveSchema,
  ErrorBody,
  Operation,
  PartialHistoryHeaders,
  TokenMetadata,
  TokensCount,
} from '@michelscope/api-types';
import { getScriptTypes } from '@michelscope/db/read';
import { decodeParameters, toMicheline } from '@michelscope/michelson';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ApiContext } from '../context';
import { HttpError } from '../errors';
import { approvalData, APPROVE_SCHEMA, ApproveBody } from '../services/approve';
import { markPartialHistory, partialHistoryFrom } from '../services/contracts';
import {
  contractMetadataOf,
  contractTokens,
  countTokens,
  MAX_HOLDERS,
  tokenHolders,
} from '../services/tokens';
import { nodeRpc } from '../services/node-rpc';
import { formatTime } from '../time';
import { ADDRESS_RE, AddressParams, requireAddress, requireNetwork, requireContractPath } from '../validate';

const E = { 400: ErrorBody, 404: ErrorBody, 500: ErrorBody };
/** The answer of a token route of a contract whose history is being backfilled (issue 32). */
const PARTIAL_NOTE =
  "while the contract's history is not all indexed (read from the node when first asked for, its backfill " +
  'running), the headers x-partial and x-indexed-from say so: what is listed was written from that level on ' +
  '(the body keeps the reference’s shape)';

/**
 * When this server first saw each pending operation group, per network: the mempool service of the reference
 * stamped a pending operation with the time it saw it (`timestamp` = `updated_at`), and the list shows them
 * newest first. Groups that left the node's mempool are forgotten at the next read.
 */
class MempoolClock {
  private readonly seen = new Map<string, Map<string, number>>();

  /** Stamps the groups (in the node's order, oldest first) and forgets the groups no longer pending. */
  stamp(network: string, hashes: readonly string[], now: number): Map<string, number> {
    const previous = this.seen.get(network) ?? new Map<string, number>();
    const current = new Map<string, number>();
    for (const h of hashes) current.set(h, previous.get(h) ?? now);
    this.seen.set(network, current);
    return current;
  }
}

export const legacyRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  const mempoolClock = new MempoolClock();
  const check = (p: { network: string; address: string }) => requireContractPath(ctx, p);

  app.get(
    '/contract/:network/:address/tokens',
    {
      schema: {
        summary: 'Token metadata of a contract (TZIP-12)',
        description:
          'By token id. `after` (Michelscope extension, keyset paging): the token id of the last token of the ' +
          'previous page; the page holds the tokens with a greater id, at the same cost at any depth (where ' +
          '`offset` reads every token it skips); it cannot be combined with an `offset` above 0.',
        tags: ['tokens'],
        params: AddressParams,
        querystring: Type.Object({
          offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
          size: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
          token_id: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
          max_level: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
          min_level: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
          after: Type.Optional(Type.String({ pattern: '^(0|[1-9][0-9]{0,77})$' })),
        }),
        response: {
          200: Type.Array(TokenMetadata, {
            description: PARTIAL_NOTE,
            headers: PartialHistoryHeaders,
          }),
          ...E,
        },
      },
    },
    async (request, reply) => {
      check(request.params);
      const q = request.query;
      if (q.after !== undefined && q.offset) throw new HttpError(400, 'after cannot be combined with offset');
      await markPartialHistory(ctx, reply, request.params.network, request.params.address);
      return contractTokens(ctx, request.params.network, request.params.address, {
        size: q.size || 10,
        offset: q.offset ?? 0,
        tokenId: q.token_id,
        minLevel: q.min_level,
        maxLevel: q.max_level,
        afterTokenId: q.after,
      });
    },
  );

  app.get(
    '/contract/:network/:address/tokens/count',
    {
      schema: {
        summary: 'Number of tokens of a contract',
        tags: ['tokens'],
        params: AddressParams,
        response: { 200: TokensCount, ...E },
      },
    },
    async (request) => {
      check(request.params);
      const { network, address } = request.params;
      const count = await countTokens(ctx, network, address);
      // its history being backfilled (issue 32): the tokens written before `indexed_from` may be missing
      const from = await partialHistoryFrom(ctx, network, address);
      return from === null ? { count } : { count, partial: true, indexed_from: from };
    },
  );

  app.get(
    '/contract/:network/:address/tokens/holders',
    {
      schema: {
        summary: 'Balances of a token by holder address (balances as decimal strings)',
        description:
          `Read from the contract's \`ledger\` big map (FA1.2 \`address → nat\` or \`address → pair nat …\`, FA2 ` +
          `\`pair address nat → nat\`, \`pair nat address → nat\`, NFT \`nat → address\`); \`{}\` for another ` +
          `layout or no ledger. Zero balances are left out; at most ${MAX_HOLDERS} holders.`,
        tags: ['tokens'],
        params: AddressParams,
        querystring: Type.Object({
          token_id: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 })),
        }),
        response: {
          200: Type.Record(Type.String(), Type.String(), {
            description: PARTIAL_NOTE,
            headers: PartialHistoryHeaders,
          }),
          ...E,
        },
      },
    },
    async (request, reply) => {
      check(request.params);
      const { network, address } = request.params;
      await markPartialHistory(ctx, reply, network, address);
      return tokenHolders(ctx, network, address, String(request.query.token_id ?? 0));
    },
  );

  app.get(
    '/account/:network/:address/metadata',
    {
      schema: {
        summary: 'TZIP-16 metadata of a contract (204 when none is resolved)',
        tags: ['account'],
        params: AddressParams,
        response: { 200: Type.Unknown(), 204: Type.Null(), ...E },
      },
    },
    async (request, reply) => {
      requireNetwork(ctx, request.params.network);
      requireAddress(request.params.address, ADDRESS_RE, 'address');
      const m = await contractMetadataOf(ctx, request.params.network, request.params.address);
      if (m == null) return reply.code(204).send(null);
      return m;
    },
  );

  app.get(
    '/contract/:network/:address/mempool',
    {
      schema: {
        summary: 'Pending operations of the address from the node mempool',
        description: 'Empty when the mempool is disabled or the node cannot be reached.',
        tags: ['contract'],
        params: AddressParams,
        response: { 200: Type.Array(Operation), ...E },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      requireNetwork(ctx, network);
      requireAddress(address, ADDRESS_RE, 'address');
      if (ctx.options.mempoolEnabled === false) return [];
      let pending: Record<string, unknown>;
      try {
        pending = await nodeRpc(ctx, network, '/chains/main/mempool/pending_operations', undefined, 5000);
      } catch {
        return [];
      }
      const groups = [...asList(pending.applied), ...asList(pending.validated)].slice(0, 5000);
      const seen = mempoolClock.stamp(
        network,
        groups.flatMap((g) => {
          const h = (g as { hash?: unknown }).hash;
          return typeof h === 'string' ? [h] : [];
        }),
        ctx.now(),
      );
      const out: Array<{ op: Operation; seen: number; order: number }> = [];
      const types = await getScriptTypes(ctx.readDb, network, [address]);
      for (const [order, g] of groups.entries()) {
        const group = g as { hash?: unknown; contents?: unknown };
        const contents = Array.isArray(group.contents) ? group.contents : [];
        const seenAt = (typeof group.hash === 'string' && seen.get(group.hash)) || ctx.now();
        contents.forEach((c, i) => {
          const o = (c ?? {}) as Record<string, unknown>;
          if (o.source !== address && o.destination !== address) return;
          if (o.kind !== 'transaction' && o.kind !== 'origination') return;
          const op: Operation = {
            content_index: i,
            ticket_updates_count: 0,
            big_map_diffs_count: 0,
            timestamp: formatTime(new Date(seenAt)),
            protocol: '',
            network,
            kind: String(o.kind),
            status: 'pending',
            internal: false,
            mempool: true,
            rawMempool: g,
          };
          if (typeof group.hash === 'string') op.hash = group.hash;
          if (typeof o.source === 'string') op.source = o.source;
          if (typeof o.destination === 'string') op.destination = o.destination;
          for (const k of ['fee', 'counter', 'gas_limit', 'storage_limit', 'amount'] as const) {
            const v = Number(o[k]);
            if (Number.isSafeInteger(v) && v > 0) op[k] = v;
          }
          const prm = o.parameters as { entrypoint?: unknown; value?: unknown } | undefined;
          const t = types.get(address);
          if (o.destination === address && prm && t) {
            op.entrypoint = typeof prm.entrypoint === 'string' ? prm.entrypoint : 'default';
            try {
              op.parameters = decodeParameters(toMicheline(t.parameter), {
                entrypoint: op.entrypoint,
                value: toMicheline(prm.value),
              });
            } catch {
              /* undecodable: left out */
            }
          }
          out.push({ op, seen: seenAt, order });
        });
      }
      // Newest first: latest seen first, then (seen together) later in the node's list first; contents of a
      // group stay in their order.
      return out
        .sort(
          (a, b) =>
            b.seen - a.seen || b.order - a.order || (a.op.content_index ?? 0) - (b.op.content_index ?? 0),
        )
        .map((o) => o.op);
    },
  );

  app.get(
    '/helpers/approve/schema',
    {
      schema: {
        summary: 'Form schema of token approvals (FA1.2 / FA2)',
        tags: ['helpers'],
        response: { 200: ApproveSchema },
      },
    },
    async () => APPROVE_SCHEMA,
  );

  app.post(
    '/helpers/approve/data',
    {
      schema: {
        summary: 'Approve and revoke calls for token approvals',
        tags: ['helpers'],
        body: ApproveBody,
        response: { 200: ApproveData, ...E },
      },
    },
    async (request) => approvalData(request.body),
  );
};

function asList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
