/**
 * Watch rules and webhooks (issue 39): rules are created with a management token printed once (no accounts:
 * a request that sends `Authorization: Bearer <token>` adds the rule to that token's, one without gets a new
 * token), listed, read and deleted with it; each rule's delivery log is paged. Bounded per token and in total
 * (`watch.max_rules_per_token`, `watch.max_rules_total`), creations rate limited per client, and every
 * webhook URL checked (http/https, no private or loopback targets unless `watch.allow_private_targets`).
 * Only the token's SHA-256 is stored.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  ErrorBody,
  WatchDeliveryList,
  WatchRule,
  WatchRuleCreated,
  WatchRuleInput,
  WatchRuleList,
  type WatchCondition,
} from '@michelscope/api-types';
import {
  createWatchRule,
  deleteWatchRule,
  deliveriesOfRule,
  rulesOfToken,
  watchRule,
  type WatchRuleRow,
} from '@michelscope/db/watch';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { ApiContext } from '../context';
import { HttpError } from '../errors';
import { formatTime } from '../time';
import { requireNetwork } from '../validate';
import type { WatchService } from '../watch/service';
import { checkWebhookUrl, WebhookUrlError } from '../watch/url-check';

const tags = ['watch'];
export const WATCH_MAX_RULES_PER_TOKEN = 20;
export const WATCH_MAX_RULES_TOTAL = 10_000;
export const WATCH_CREATE_PER_MINUTE = 30;
const TOKEN_RE = /^msw_[A-Za-z0-9_-]{43}$/;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const RuleId = Type.String({ pattern: '^wr_[A-Za-z0-9_-]{16}$', description: 'a rule id (wr_…)' });

export function ruleJson(r: WatchRuleRow): WatchRule {
  return {
    id: r.id,
    network: r.network,
    address: r.address,
    condition: r.condition as WatchCondition,
    url: r.url,
    enabled: r.enabled,
    created_at: formatTime(r.created_at),
  };
}

/** The bearer token of a request, or undefined; a malformed one is a 401. */
function bearer(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  if (!m || !TOKEN_RE.test(m[1]!)) throw new HttpError(401, 'the management token is not valid');
  return m[1];
}

function requireToken(request: FastifyRequest): string {
  const token = bearer(request);
  if (!token) throw new HttpError(401, 'a management token is required: Authorization: Bearer <token>');
  return hashToken(token);
}

/** A condition's own bounds TypeBox does not say (a threshold at least, key or key hash not both). */
function checkCondition(c: WatchCondition): void {
  if (c.kind === 'storage' && c.above === undefined && c.below === undefined)
    throw new HttpError(400, 'condition: a storage rule needs above or below (a threshold)');
  if (c.kind === 'call' && c.amount_gte && c.amount_lte && BigInt(c.amount_gte) > BigInt(c.amount_lte))
    throw new HttpError(400, 'condition: amount_gte is above amount_lte');
  if (c.kind === 'big_map' && c.key !== undefined && c.key_hash !== undefined)
    throw new HttpError(400, 'condition: give key or key_hash, not both');
}

export const watchRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext; watch?: WatchService }> = async (
  app,
  { ctx, watch },
) => {
  const opts = watch?.options;
  const enabled = () => {
    // a server without watch rules does not serve them: 404, as for a route it does not have (not a 5xx: nothing
    // is wrong with it)
    if (!watch) throw new HttpError(404, 'watch rules are not enabled on this server');
  };

  app.post(
    '/watch/rules',
    {
      config: { rateLimit: { max: opts?.createPerMinute ?? WATCH_CREATE_PER_MINUTE, timeWindow: 60_000 } },
      schema: {
        summary: 'Create a watch rule (a webhook on contract activity)',
        description:
          'Creates a rule on a network and address. The answer holds the rule, its signing secret and the ' +
          'management token, each shown once: send `Authorization: Bearer <token>` to add more rules to the same ' +
          'token and to list, read or delete them (without it a new token is made). For each indexed block the ' +
          'server POSTs every matching fact to the URL as a `WatchDeliveryBody`, with headers ' +
          '`X-Michelscope-Signature: sha256=<hex HMAC-SHA256 of the raw body with the secret>` and ' +
          '`X-Michelscope-Delivery: <idempotency key>`; a delivery not answered 2xx within 10 s is retried with ' +
          'exponential back-off (10 s, 20 s, 40 s … at most 1 h apart) for 24 h (at least once: the key ' +
          'names repeats). The URL must be http(s) and reach a public address (no loopback, private, ' +
          'link-local, CGNAT, multicast) unless the operator allows private targets; redirects are not followed. ' +
          `At most ${WATCH_MAX_RULES_PER_TOKEN} rules a token and ${WATCH_MAX_RULES_TOTAL} in all by default (429).`,
        tags,
        body: WatchRuleInput,
        response: { 200: WatchRuleCreated, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody },
      },
    },
    async (request) => {
      enabled();
      const input = request.body;
      requireNetwork(ctx, input.network);
      checkCondition(input.condition);
      const given = bearer(request);
      if (given && (await rulesOfToken(ctx.db, hashToken(given))).length === 0)
        throw new HttpError(401, 'the management token holds no rules (send none to get a new one)');
      try {
        await checkWebhookUrl(input.url, {
          allowPrivate: opts?.allowPrivateTargets ?? false,
          ...(opts?.resolve ? { resolve: opts.resolve } : {}),
        });
      } catch (err) {
        if (err instanceof WebhookUrlError) throw new HttpError(400, err.message);
        throw err;
      }
      const token = given ?? `msw_${randomBytes(32).toString('base64url')}`;
      const secret = `whsec_${randomBytes(32).toString('base64url')}`;
      const maxPerToken = opts?.maxRulesPerToken ?? WATCH_MAX_RULES_PER_TOKEN;
      const maxTotal = opts?.maxRulesTotal ?? WATCH_MAX_RULES_TOTAL;
      const r = await createWatchRule(
        ctx.db,
        {
          id: `wr_${randomBytes(12).toString('base64url')}`,
          network: input.network,
          address: input.address,
          condition: input.condition,
          url: input.url,
          secret,
          token_hash: hashToken(token),
        },
        { maxPerToken, maxTotal },
      );
      if (r.kind === 'token-limit')
        throw new HttpError(429, `this token holds ${r.count} rules, the most allowed (${maxPerToken})`);
      if (r.kind === 'total-limit')
        throw new HttpError(429, `this server holds ${r.count} rules, the most allowed (${maxTotal})`);
      watch!.evaluator.invalidate();
      return { rule: ruleJson(r.row), secret, token };
    },
  );

  app.get(
    '/watch/rules',
    {
      schema: {
        summary: "The management token's watch rules",
        description: 'The rules of the token given in `Authorization: Bearer <token>`, oldest first.',
        tags,
        response: { 200: WatchRuleList, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      enabled();
      return (await rulesOfToken(ctx.db, requireToken(request))).map(ruleJson);
    },
  );

  /** The rule if the request's token owns it (another token's rule is not found either). */
  const ownRule = async (request: FastifyRequest, id: string) => {
    enabled();
    const hash = requireToken(request);
    const row = await watchRule(ctx.db, id);
    if (!row || row.token_hash !== hash) throw new HttpError(404, `no watch rule ${id} for this token`);
    return row;
  };

  app.get(
    '/watch/rules/:id',
    {
      schema: {
        summary: 'A watch rule',
        tags,
        params: Type.Object({ id: RuleId }),
        response: { 200: WatchRule, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => ruleJson(await ownRule(request, request.params.id)),
  );

  app.delete(
    '/watch/rules/:id',
    {
      schema: {
        summary: 'Delete a watch rule',
        description: 'Deletes the rule and its delivery log; pending deliveries are not sent.',
        tags,
        params: Type.Object({ id: RuleId }),
        response: {
          200: Type.Object({ deleted: Type.String() }, { title: 'WatchRuleDeleted' }),
          400: ErrorBody,
          401: ErrorBody,
          404: ErrorBody,
        },
      },
    },
    async (request) => {
      const row = await ownRule(request, request.params.id);
      await deleteWatchRule(ctx.db, row.id);
      watch!.evaluator.invalidate();
      return { deleted: row.id };
    },
  );

  app.get(
    '/watch/rules/:id/deliveries',
    {
      schema: {
        summary: "A watch rule's delivery log",
        description:
          'Newest first: each delivery with its status (pending, delivered, failed), attempts, the last ' +
          "attempt's status code, error and latency, and the facts it carries.",
        tags,
        params: Type.Object({ id: RuleId }),
        querystring: Type.Object({
          size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
          offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
          status: Type.Optional(
            Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
          ),
        }),
        response: { 200: WatchDeliveryList, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const row = await ownRule(request, request.params.id);
      const q = request.query;
      const rows = await deliveriesOfRule(ctx.db, row.id, {
        size: q.size ?? 20,
        offset: q.offset ?? 0,
        ...(q.status ? { status: q.status } : {}),
      });
      return rows.map((d) => {
        const body = (d.body ?? {}) as { matched?: Record<string, unknown> };
        return {
          id: d.id,
          idempotency_key: d.idempotency_key,
          level: d.level,
          operation_hash: d.operation_hash,
          status: d.status,
          attempts: d.attempts,
          last_status_code: d.last_status_code,
          last_error: d.last_error,
          latency_ms: d.latency_ms,
          created_at: formatTime(d.created_at),
          delivered_at: d.delivered_at ? formatTime(d.delivered_at) : null,
          next_attempt_at: d.status === 'pending' ? formatTime(d.next_attempt_at) : null,
          matched: body.matched ?? {},
        };
      });
    },
  );
};
