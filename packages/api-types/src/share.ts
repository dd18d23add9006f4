/**
 * Shared simulations (issue 20, capability 6): the whole input of a simulation as one JSON object, of three
 * kinds. A call of the Interact tab (`SharedCall`, no `kind`: the first links had none) — the entrypoint, its
 * form, the settings, the what-if overrides and bundle, which result to show and where the debugger stood; a
 * view of the Views tab (`SharedView`, `kind: "view"`); the deploy page (`SharedDeploy`, `kind: "deploy"`: the
 * script's text, its initial storage form, the simulation or a debugged call). A link carries it compressed in
 * its fragment; a state too long for a link is stored by POST /v1/shares under a content-addressed id and read
 * back by GET /v1/shares/{id}. Field names follow the web's `WhatIfState` (apps/web …/interact/whatif-state.ts),
 * which must stay assignable. The web checks a link against these schemas (their JSON, written beside the
 * OpenAPI document by `npm run openapi`: the web imports this package as types only).
 */
import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from './common';

/** The most bytes a shared state's JSON may take (the API answers 413 above it). */
export const SHARE_MAX_BYTES = 65_536;

const Text = (maxLength: number, description?: string) =>
  Type.String({ maxLength, ...(description ? { description } : {}) });
const FormData = Type.Record(Type.String({ maxLength: 255 }), Type.Unknown(), {
  description: 'an entrypoint or storage form as the web form holds it',
});

export const SharedBundleCall = Type.Object(
  {
    entrypoint: Text(255),
    data: FormData,
    amount: Text(20, 'mutez, digits or empty'),
    source: Text(64),
    sender: Text(64),
  },
  { title: 'SharedBundleCall', additionalProperties: false },
);

export const SharedBigMapOverride = Type.Object(
  {
    map: Text(255, 'the big map id or field name'),
    key: Text(16_384),
    value: Text(32_768),
    remove: Type.Boolean(),
  },
  { title: 'SharedBigMapOverride', additionalProperties: false },
);

export const SharedOverrides = Type.Object(
  {
    storageMode: Type.Union([Type.Literal('none'), Type.Literal('form'), Type.Literal('micheline')]),
    storageText: Text(SHARE_MAX_BYTES),
    storageForm: FormData,
    balance: Text(20),
    now: Text(40),
    level: Text(12),
    source: Text(64),
    sender: Text(64),
    amount: Text(20),
    chainId: Text(64),
    bigMaps: Type.Array(SharedBigMapOverride, { maxItems: 100 }),
    storageLimit: Type.Optional(Text(12, 'bytes of paid storage each call may use, digits or empty')),
  },
  { title: 'SharedOverrides', additionalProperties: false },
);

/** Where the debugger stood when the link was copied. */
export const SharedDebugPosition = Type.Object(
  {
    call: Type.Integer({
      minimum: 0,
      maximum: 4,
      description: 'the bundle call debugged (0 for a single call)',
    }),
    step: Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'the step index (0-based)' }),
    tab: Type.Union([Type.Literal('step'), Type.Literal('profile')]),
  },
  { title: 'SharedDebugPosition', additionalProperties: false },
);
export type SharedDebugPosition = Static<typeof SharedDebugPosition>;

const Version = Type.Literal(1, { description: 'version of this shape' });
const Network = Type.String({ pattern: '^[a-z][a-z0-9_-]{0,31}$' });
const Contract = Type.String({ pattern: '^KT1[1-9A-HJ-NP-Za-km-z]{33}$' });

const PinnedLevel = Type.Integer({
  minimum: 0,
  maximum: 2147483647,
  description:
    "the level the simulation ran at: a link reruns against the contract's state at that level (absent: the head)",
});

/** A call of the Interact tab (the first kind: it has no `kind` field). */
export const SharedCall = Type.Object(
  {
    v: Version,
    network: Network,
    address: Contract,
    entrypoint: Text(255),
    data: FormData,
    settings: Type.Object(
      {
        source: Text(64),
        sender: Text(64),
        amount: Text(20),
        storageLimit: Type.Optional(
          Type.String({
            maxLength: 12,
            pattern: '^[0-9]+$',
            description: "bytes of paid storage the node's simulation may use (the Storage limit input)",
          }),
        ),
      },
      { additionalProperties: false },
    ),
    what_if: Type.Object(
      {
        overrides: SharedOverrides,
        bundle: Type.Array(SharedBundleCall, { maxItems: 5 }),
      },
      { additionalProperties: false },
    ),
    show: Type.Union([Type.Literal('simulation'), Type.Literal('whatif')], {
      description: 'the result shown: the node simulation or the what-if',
    }),
    debug: Type.Optional(SharedDebugPosition),
    level: Type.Optional(PinnedLevel),
  },
  { title: 'SharedCall', additionalProperties: false, description: 'a call of the Interact tab' },
);
export type SharedCall = Static<typeof SharedCall>;

/** A debugger position in a single call (a view's, a deploy page's). */
const SingleDebugPosition = Type.Object(
  {
    step: Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'the step index (0-based)' }),
    tab: Type.Union([Type.Literal('step'), Type.Literal('profile')]),
  },
  { additionalProperties: false },
);

/** A view executed on the Views tab: on-chain by name, or off-chain (TZIP-16) by name and implementation. */
export const SharedView = Type.Object(
  {
    v: Version,
    kind: Type.Literal('view'),
    network: Network,
    address: Contract,
    view: Type.Object(
      {
        kind: Type.Union([Type.Literal('on-chain'), Type.Literal('off-chain')]),
        name: Text(255),
        implementation: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
      },
      { additionalProperties: false },
    ),
    data: FormData,
    debug: Type.Optional(SingleDebugPosition),
    level: Type.Optional(PinnedLevel),
  },
  { title: 'SharedView', additionalProperties: false, description: 'a view of the Views tab' },
);
export type SharedView = Static<typeof SharedView>;

/** The deploy page: a script (its Michelson text) with an initial storage, simulated or with a call debugged. */
export const SharedDeploy = Type.Object(
  {
    v: Version,
    kind: Type.Literal('deploy'),
    network: Network,
    code: Text(SHARE_MAX_BYTES, 'the script, Michelson text as uploaded'),
    storage: FormData,
    balance: Text(20),
    show: Type.Union([Type.Literal('simulation'), Type.Literal('debug')], {
      description: "the origination's simulation, or the debugged call",
    }),
    call: Type.Optional(
      Type.Object(
        {
          entrypoint: Text(255),
          mode: Type.Union([Type.Literal('form'), Type.Literal('michelson')]),
          data: FormData,
          text: Text(SHARE_MAX_BYTES, 'the parameter as Michelson (mode michelson)'),
        },
        { additionalProperties: false, description: 'the call debugged (show: debug)' },
      ),
    ),
    debug: Type.Optional(SingleDebugPosition),
    level: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 2147483647,
        description:
          'the level the simulation (or the debugged call) ran at: a link reruns it at that block (absent: the head)',
      }),
    ),
  },
  { title: 'SharedDeploy', additionalProperties: false, description: 'the deploy page' },
);
export type SharedDeploy = Static<typeof SharedDeploy>;

/**
 * A simulation's whole input, of one of three kinds; at most SHARE_MAX_BYTES of JSON. Each kind requires a
 * field the others lack (checked before extra fields are dropped), so the API's validator picks the right one.
 */
export const SharedSimulation = Type.Union([SharedCall, SharedView, SharedDeploy], {
  title: 'SharedSimulation',
  description: `A simulation's whole input (a call, a view or the deploy page); at most ${SHARE_MAX_BYTES} bytes of JSON`,
});
export type SharedSimulation = Static<typeof SharedSimulation>;

/**
 * The id of a stored simulation: 22 base64url characters (132 bits) of the SHA-256 of its canonical JSON. Nothing
 * lists stored states: the id is the link's secret.
 */
export const ShareId = Type.String({
  pattern: '^[A-Za-z0-9_-]{22}$',
  description: 'content-addressed id (unlisted: the link is the secret)',
});

export const ShareCreated = Type.Object(
  { id: ShareId, created_at: Timestamp, bytes: Type.Integer() },
  { title: 'ShareCreated' },
);
export type ShareCreated = Static<typeof ShareCreated>;

export const StoredShare = Type.Object(
  { id: ShareId, created_at: Timestamp, state: SharedSimulation },
  { title: 'StoredShare' },
);
export type StoredShare = Static<typeof StoredShare>;
