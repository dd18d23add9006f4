/**
 * Watch rules and webhooks (issue 39 part 1). A rule names a network, a target address (a contract or any
 * account), a condition and a webhook URL. For each indexed block the server evaluates the rules once and,
 * for every fact that matches, POSTs a `WatchDeliveryBody` to the URL, signed with the rule's secret
 * (`X-Michelscope-Signature: sha256=<hex HMAC-SHA256 of the raw body>`) and named by its idempotency key
 * (`X-Michelscope-Delivery`); retried with exponential back-off for 24 h (at least once).
 */
import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from './common';

const Mutez = (description: string) => Type.String({ pattern: '^[0-9]{1,20}$', description });
const Decimal = (description: string) => Type.String({ pattern: '^-?[0-9]{1,78}$', description });
const Name = Type.String({ minLength: 1, maxLength: 255 });

export const WatchCallCondition = Type.Object(
  {
    kind: Type.Literal('call'),
    entrypoints: Type.Array(Name, {
      maxItems: 32,
      description: 'the entrypoints watched (none: any call of the target)',
    }),
    sender: Type.Optional(Type.String({ maxLength: 64, description: 'only calls sent by this address' })),
    amount_gte: Type.Optional(Mutez('only calls sending at least this amount (mutez)')),
    amount_lte: Type.Optional(Mutez('only calls sending at most this amount (mutez)')),
    status: Type.Optional(
      Type.Array(
        Type.Union([
          Type.Literal('applied'),
          Type.Literal('failed'),
          Type.Literal('backtracked'),
          Type.Literal('skipped'),
        ]),
        { minItems: 1, maxItems: 4, description: 'the statuses watched (default: applied)' },
      ),
    ),
  },
  { title: 'WatchCallCondition', additionalProperties: false },
);

export const WatchEventCondition = Type.Object(
  {
    kind: Type.Literal('event'),
    tags: Type.Array(Name, { maxItems: 32, description: 'the event tags watched (none: every event)' }),
  },
  { title: 'WatchEventCondition', additionalProperties: false },
);

export const WatchBigMapCondition = Type.Object(
  {
    kind: Type.Literal('big_map'),
    big_map: Type.Union([Name, Type.Integer({ minimum: 0 })], {
      description: "the big map: its field name in the contract's storage, or its id",
    }),
    key: Type.Optional(
      Type.String({
        maxLength: 1024,
        description: 'the key, as its plain value (an address, a string, a number, 0x… bytes); none: any key',
      }),
    ),
    key_hash: Type.Optional(
      Type.String({ maxLength: 64, description: 'the key by its expression hash (expr…)' }),
    ),
    above: Type.Optional(Decimal('match when a numeric value rises to or above this threshold')),
    below: Type.Optional(Decimal('match when a numeric value falls to or below this threshold')),
  },
  {
    title: 'WatchBigMapCondition',
    additionalProperties: false,
    description:
      'Any change of the key (set or removed) or, with above/below, the value crossing a threshold.',
  },
);

export const WatchStorageCondition = Type.Object(
  {
    kind: Type.Literal('storage'),
    path: Type.String({
      minLength: 1,
      maxLength: 512,
      description: "a field of the storage's named tree, dot-separated (`total_supply`, `config.fee`)",
    }),
    above: Type.Optional(Decimal('match when the value rises to or above this threshold')),
    below: Type.Optional(Decimal('match when the value falls to or below this threshold')),
  },
  {
    title: 'WatchStorageCondition',
    additionalProperties: false,
    description: 'The field crossing a threshold (above and/or below; at least one).',
  },
);

export const WatchTokenTransferCondition = Type.Object(
  {
    kind: Type.Literal('token_transfer'),
    amount_gte: Decimal('only transfers of at least this amount (in the token’s smallest unit)'),
    token_id: Type.Optional(Type.String({ pattern: '^[0-9]{1,78}$', description: 'FA2: only this token' })),
  },
  {
    title: 'WatchTokenTransferCondition',
    additionalProperties: false,
    description: 'FA1.2 or FA2 `transfer` calls of the target token contract (applied).',
  },
);

export const WatchOriginationCondition = Type.Object(
  { kind: Type.Literal('origination') },
  {
    title: 'WatchOriginationCondition',
    additionalProperties: false,
    description: 'Contracts originated by the target (a factory), applied.',
  },
);

export const WatchCondition = Type.Union(
  [
    WatchCallCondition,
    WatchEventCondition,
    WatchBigMapCondition,
    WatchStorageCondition,
    WatchTokenTransferCondition,
    WatchOriginationCondition,
  ],
  { title: 'WatchCondition' },
);
export type WatchCondition = Static<typeof WatchCondition>;

export const WatchRuleInput = Type.Object(
  {
    network: Type.String({ maxLength: 32 }),
    address: Type.String({ pattern: '^(tz[1-4]|KT1|sr1)[1-9A-HJ-NP-Za-km-z]{33}$' }),
    condition: WatchCondition,
    url: Type.String({ maxLength: 2048, description: 'the webhook: http(s), a public address' }),
  },
  { title: 'WatchRuleInput', additionalProperties: false },
);
export type WatchRuleInput = Static<typeof WatchRuleInput>;

export const WatchRule = Type.Object(
  {
    id: Type.String(),
    network: Type.String(),
    address: Type.String(),
    condition: WatchCondition,
    url: Type.String(),
    enabled: Type.Boolean(),
    created_at: Timestamp,
  },
  { title: 'WatchRule' },
);
export type WatchRule = Static<typeof WatchRule>;

export const WatchRuleCreated = Type.Object(
  {
    rule: WatchRule,
    secret: Type.String({ description: "the rule's signing secret (HMAC-SHA256 key), shown once" }),
    token: Type.String({
      description:
        'the management token (`Authorization: Bearer <token>`), shown once: the one given in the request, or a new one',
    }),
  },
  { title: 'WatchRuleCreated' },
);
export type WatchRuleCreated = Static<typeof WatchRuleCreated>;

export const WatchRuleList = Type.Array(WatchRule, { title: 'WatchRuleList' });
export type WatchRuleList = Static<typeof WatchRuleList>;

/** What a webhook receives (the delivery's JSON body). */
export const WatchDeliveryBody = Type.Object(
  {
    rule_id: Type.String(),
    network: Type.String(),
    level: Type.Integer(),
    operation_hash: Type.Union([Type.String(), Type.Null()]),
    matched: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'the decoded facts that matched: `kind` (the condition kind) and, by kind, the call (entrypoint, ' +
        'parameters, sender, amount, status), the event (tag, payload), the big-map key (big_map, key, value, ' +
        'previous), the storage field (path, value, previous), the token transfer (from, to, token_id, amount) ' +
        'or the origination (originated)',
    }),
    idempotency_key: Type.String(),
    sent_at: Timestamp,
  },
  { title: 'WatchDeliveryBody' },
);
export type WatchDeliveryBody = Static<typeof WatchDeliveryBody>;

export const WatchDeliveryStatus = Type.Union(
  [Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')],
  { title: 'WatchDeliveryStatus' },
);

export const WatchDelivery = Type.Object(
  {
    id: Type.String(),
    idempotency_key: Type.String(),
    level: Type.Integer(),
    operation_hash: Type.Union([Type.String(), Type.Null()]),
    status: WatchDeliveryStatus,
    attempts: Type.Integer(),
    last_status_code: Type.Union([Type.Integer(), Type.Null()]),
    last_error: Type.Union([Type.String(), Type.Null()]),
    latency_ms: Type.Union([Type.Integer(), Type.Null()]),
    created_at: Timestamp,
    delivered_at: Type.Union([Timestamp, Type.Null()]),
    next_attempt_at: Type.Union([Timestamp, Type.Null()], { description: 'pending: when it is tried next' }),
    matched: Type.Record(Type.String(), Type.Unknown(), { description: 'the body’s decoded facts' }),
  },
  { title: 'WatchDelivery' },
);
export type WatchDelivery = Static<typeof WatchDelivery>;

export const WatchDeliveryList = Type.Array(WatchDelivery, { title: 'WatchDeliveryList' });
export type WatchDeliveryList = Static<typeof WatchDeliveryList>;
