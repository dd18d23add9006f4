/**
 * Shapes of the token-approval helpers (reference §4.7, never merged upstream): the body of
 * POST /v1/helpers/approve/data and its answer, the FA1.2 `approve` and FA2 `update_operators` calls.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Micheline } from './explorer';

const Uint = Type.Union([
  Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  Type.String({ maxLength: 80 }),
]);

/** The body of POST /v1/helpers/approve/data. */
export const ApproveRequest = Type.Object(
  {
    spender: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          'Michelscope extension: the FA1.2 spender and FA2 operator; absent, the token contract itself (reference).',
      }),
    ),
    allowances: Type.Array(
      Type.Object({
        token_type: Type.Object({
          schema_key: Type.Integer({ minimum: 1, maximum: 2, description: '1: FA1.2, 2: FA2' }),
          token_contract: Type.String({ maxLength: 64 }),
          allowance: Type.Optional(Uint),
          owner: Type.Optional(Type.String({ maxLength: 64 })),
          token_id: Type.Optional(Uint),
        }),
      }),
      { maxItems: 100 },
    ),
  },
  { title: 'ApproveRequest' },
);
export type ApproveRequest = Static<typeof ApproveRequest>;

/** One call of an approval: its entrypoint and parameter on the token contract. */
export const ApproveCall = Type.Object(
  { entrypoint: Type.String(), value: Micheline, destination: Type.String() },
  { title: 'ApproveCall' },
);
export type ApproveCall = Static<typeof ApproveCall>;

/** The calls of one token: those that grant before the main call and those that revoke after it. */
export const ApproveGroup = Type.Object(
  { allows: Type.Array(ApproveCall), revokes: Type.Array(ApproveCall) },
  { title: 'ApproveGroup' },
);
export type ApproveGroup = Static<typeof ApproveGroup>;

/** The answer of POST /v1/helpers/approve/data. */
export const ApproveData = Type.Object(
  { fa1_2: Type.Array(ApproveGroup), fa2: Type.Array(ApproveGroup) },
  { title: 'ApproveData' },
);
export type ApproveData = Static<typeof ApproveData>;

/** One input of a token type in the approval form: a JSON-schema property annotated with its Michelson type. */
export const ApproveSchemaField = Type.Object(
  {
    type: Type.Union([Type.Literal('string'), Type.Literal('integer')]),
    prim: Type.String({ description: 'The Michelson type of the input (address, nat).' }),
    title: Type.String(),
    minLength: Type.Optional(Type.Integer({ minimum: 0 })),
    maxLength: Type.Optional(Type.Integer({ minimum: 0 })),
    default: Type.Union([Type.String(), Type.Integer()]),
  },
  { title: 'ApproveSchemaField' },
);
export type ApproveSchemaField = Static<typeof ApproveSchemaField>;

/** One token type of the approval form (a `oneOf` branch): FA1.2 (schemaKey 1) or FA2 (schemaKey 2). */
export const ApproveSchemaTokenType = Type.Object(
  {
    title: Type.String(),
    properties: Type.Object({
      schemaKey: Type.Object({
        type: Type.Literal('integer'),
        const: Type.Integer({ minimum: 1, maximum: 2 }),
      }),
      token_contract: ApproveSchemaField,
      allowance: Type.Optional(ApproveSchemaField),
      owner: Type.Optional(ApproveSchemaField),
      token_id: Type.Optional(ApproveSchemaField),
    }),
    'x-options': Type.Optional(Type.Object({ sectionsClass: Type.String() })),
  },
  { title: 'ApproveSchemaTokenType' },
);
export type ApproveSchemaTokenType = Static<typeof ApproveSchemaTokenType>;

/**
 * The answer of GET /v1/helpers/approve/schema: the JSON schema of the approval form (reference §4.7), whose
 * `allowances[].token_type` is a `oneOf` of the token types.
 */
export const ApproveSchema = Type.Object(
  {
    type: Type.Literal('object'),
    properties: Type.Object({
      allowances: Type.Object({
        type: Type.Literal('array'),
        title: Type.String(),
        default: Type.Tuple([]),
        items: Type.Object({
          type: Type.Literal('object'),
          required: Type.Array(Type.String()),
          properties: Type.Object({
            token_type: Type.Object({
              type: Type.Literal('object'),
              title: Type.String(),
              oneOf: Type.Array(ApproveSchemaTokenType),
            }),
          }),
        }),
      }),
    }),
  },
  { title: 'ApproveSchema' },
);
export type ApproveSchema = Static<typeof ApproveSchema>;
