/**
 * Shape of the permission and upgrade-risk summary of a contract (issue 37, Michelscope extension, not in the
 * reference): `GET /v1/contract/{network}/{address}/security`, computed from the code and current storage.
 */
import { Type, type Static } from '@sinclair/typebox';

export const SecurityEvidence = Type.Object(
  {
    instruction: Type.String({ description: 'the instruction (or `{…}` for an entrypoint branch)' }),
    path: Type.String({
      description: 'path into the script sections as Micheline JSON, e.g. `code.args[0][1].args[1][3]`',
    }),
    line: Type.Union([Type.Integer(), Type.Null()], {
      description: "1-based line of the instruction in the Code tab's text (`GET …/code`), null when unknown",
    }),
  },
  { title: 'SecurityEvidence' },
);
export type SecurityEvidence = Static<typeof SecurityEvidence>;

export const SecurityWho = Type.Union(
  [
    Type.Literal('anyone'),
    Type.Literal('admin'),
    Type.Literal('multisig'),
    Type.Literal('nobody'),
    Type.Literal('unknown'),
  ],
  {
    title: 'SecurityWho',
    description:
      'anyone; admin: only the address at a storage field (SENDER/SOURCE compared with it, failing otherwise); ' +
      'multisig: signatures checked against stored keys; nobody: every path fails; unknown: not recognised',
  },
);

export const SecurityCapability = Type.Union(
  [
    Type.Literal('transfer_tez'),
    Type.Literal('call_contracts'),
    Type.Literal('set_delegate'),
    Type.Literal('originate'),
    Type.Literal('mint_tickets'),
    Type.Literal('emit_events'),
    Type.Literal('exec_stored_lambda'),
    Type.Literal('exec_parameter_lambda'),
    Type.Literal('exec_lambda'),
  ],
  { title: 'SecurityCapability' },
);

export const SecurityAdmin = Type.Object(
  {
    field: Type.String({ description: 'storage field annotation (no `%`), else its position `storage.1.0`' }),
    address: Type.Optional(Type.String({ description: 'the address held there in the current storage' })),
    source: Type.Optional(Type.Boolean({ description: 'compared with SOURCE rather than SENDER' })),
    hardcoded: Type.Optional(
      Type.Array(Type.String(), {
        description:
          'the allowed addresses are written in the code (`field` is then `code`): they cannot change',
      }),
    ),
    set: Type.Optional(Type.Boolean({ description: 'the caller must be a member of the set at `field`' })),
  },
  { title: 'SecurityAdmin' },
);

export const SecurityEntrypoint = Type.Object(
  {
    name: Type.String(),
    who: SecurityWho,
    admin: Type.Optional(SecurityAdmin),
    multisig: Type.Optional(
      Type.Object({
        keys_field: Type.String(),
        threshold_field: Type.Optional(Type.String()),
        threshold: Type.Optional(Type.Integer()),
        keys: Type.Optional(Type.Integer()),
      }),
    ),
    can: Type.Array(SecurityCapability),
    writes: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description: 'storage fields it may write; null when not known',
    }),
    reason: Type.Optional(Type.String({ description: 'why `who` is unknown or nobody' })),
    evidence: Type.Array(SecurityEvidence),
  },
  { title: 'SecurityEntrypoint' },
);

export const SecurityFinding = Type.Object(
  {
    kind: Type.String({
      description:
        'stored_lambda, global_constant, set_delegate, admin_replaceable, privileged, transfer_tez, originate, ' +
        'mint_tickets, emit_events, parameter_lambda, nobody, unknown, code_migration',
    }),
    sentence: Type.String({ description: 'one plain-English sentence' }),
    evidence: Type.Array(SecurityEvidence),
  },
  { title: 'SecurityFinding' },
);

export const SecuritySummary = Type.Object(
  {
    headline: Type.String({ description: 'one line for the contract page' }),
    upgradable: Type.Union([Type.Boolean(), Type.Null()], {
      description: 'true when stored code can be replaced by some entrypoint; null when not known',
    }),
    admins: Type.Array(SecurityAdmin),
    entrypoints: Type.Array(SecurityEntrypoint),
    upgrade: Type.Object({
      stored_lambdas: Type.Array(
        Type.Object({
          field: Type.String(),
          written_by: Type.Array(Type.String()),
          evidence: Type.Array(SecurityEvidence),
        }),
      ),
      global_constants: Type.Array(Type.String()),
      set_delegate: Type.Boolean(),
      admin_replaceable: Type.Array(
        Type.Object({ field: Type.String(), entrypoint: Type.String(), who: SecurityWho }),
      ),
      code_migrations: Type.Array(
        Type.Object(
          { level: Type.Integer(), protocol: Type.String() },
          { description: 'migrations of kind update' },
        ),
      ),
    }),
    findings: Type.Array(SecurityFinding),
    complete: Type.Boolean({
      description: 'false when the analysis bounds were hit or some code could not be followed',
    }),
    steps: Type.Integer({ description: 'instructions interpreted' }),
  },
  { title: 'SecuritySummary' },
);
export type SecuritySummary = Static<typeof SecuritySummary>;
