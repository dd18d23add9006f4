/**
 * Verified source code (issue 38, Michelscope extension, not in the reference): a contract's sources compiled
 * on the server and compared with its deployed script. `GET /v1/verify/compilers`,
 * `POST /v1/contract/{network}/{address}/verify`, `GET …/source`, `GET …/source/files/{name}`,
 * `GET …/verifications`.
 */
import { Type, type Static } from '@sinclair/typebox';

export const CompilerInfo = Type.Object(
  {
    id: Type.String({ description: "the compiler's id in a VerifyRequest: archetype, smartpy, ligo" }),
    name: Type.String(),
    available: Type.Boolean({ description: 'whether this server can compile with it' }),
    versions: Type.Array(Type.String(), {
      description: 'versions it compiles with (empty when not available)',
    }),
    extensions: Type.Array(Type.String(), { description: "source files' extensions, e.g. `.arl`" }),
    reason: Type.Optional(Type.String({ description: 'why it is not available, and what it needs' })),
    source_locations: Type.Boolean({ description: 'true when the compiler gives source locations' }),
  },
  { title: 'CompilerInfo' },
);
export type CompilerInfo = Static<typeof CompilerInfo>;

export const SourceFile = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '^[A-Za-z0-9._/-]+$',
      description: "relative path of the file ([A-Za-z0-9._/-], no '..' segment, no leading '/')",
    }),
    content: Type.String(),
  },
  { title: 'SourceFile' },
);
export type SourceFile = Static<typeof SourceFile>;

export const VerifyOptions = Type.Record(Type.String(), Type.Union([Type.String(), Type.Boolean()]), {
  title: 'VerifyOptions',
  description: 'compiler options, allow-listed per compiler (an unknown one is a 400)',
});
export type VerifyOptions = Static<typeof VerifyOptions>;

export const VerifyRequest = Type.Object(
  {
    compiler: Type.String({ maxLength: 40 }),
    version: Type.String({ maxLength: 40 }),
    files: Type.Array(SourceFile, { minItems: 1, maxItems: 50 }),
    main: Type.Optional(Type.String({ maxLength: 200, description: 'the entry file (default: the first)' })),
    options: Type.Optional(VerifyOptions),
  },
  { title: 'VerifyRequest' },
);
export type VerifyRequest = Static<typeof VerifyRequest>;

const Line = Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]);

export const SourceDifference = Type.Object(
  {
    section: Type.Union(
      [Type.Literal('parameter'), Type.Literal('storage'), Type.Literal('code'), Type.Literal('views')],
      { description: 'the first section that differs (in this order)' },
    ),
    block: Type.Optional(
      Type.String({
        description: 'the block, e.g. `entrypoint %increment (code.args[0][4].args[0])` or `view %get_count`',
      }),
    ),
    path: Type.Optional(
      Type.String({ description: 'path into the deployed script sections, as the security evidence paths' }),
    ),
    deployed: Type.Optional(
      Type.String({ description: 'the first differing instruction, deployed (≤ 200 chars)' }),
    ),
    compiled: Type.Optional(Type.String({ description: 'the same, compiled (≤ 200 chars)' })),
    deployed_line: Type.Optional(Line),
    compiled_line: Type.Optional(Line),
    message: Type.String(),
  },
  {
    title: 'SourceDifference',
    description:
      "deployed_line: 1-based in the Code tab's text (`GET …/code`); compiled_line: 1-based in the verification's " +
      '`compiled` text',
  },
);
export type SourceDifference = Static<typeof SourceDifference>;

export const VerifiedFile = Type.Object(
  { name: Type.String(), size: Type.Integer({ description: 'bytes (UTF-8)' }), sha256: Type.String() },
  { title: 'VerifiedFile' },
);
export type VerifiedFile = Static<typeof VerifiedFile>;

export const Verification = Type.Object(
  {
    id: Type.String({
      description:
        'content hash: sha256 hex of the canonical JSON of {compiler, version, options, main, files sorted by name}',
    }),
    status: Type.Union([Type.Literal('verified'), Type.Literal('failed')]),
    compiler: Type.String(),
    version: Type.String(),
    options: VerifyOptions,
    main: Type.String(),
    files: Type.Array(VerifiedFile),
    script_hash: Type.String(),
    network: Type.String(),
    address: Type.String({ description: 'the contract it was submitted for' }),
    created_at: Type.String({ description: 'ISO 8601' }),
    difference: Type.Optional(SourceDifference),
    compiled: Type.Optional(
      Type.String({
        description: 'the compiled Michelson text, only when failed (≤ 1 MB), for the code diff',
      }),
    ),
  },
  { title: 'Verification' },
);
export type Verification = Static<typeof Verification>;

export const SourceMapEntry = Type.Object(
  {
    path: Type.String({
      description: 'Micheline path of an instruction of the code, e.g. `code.args[0][4]`',
    }),
    line: Type.Integer({ description: "1-based line in the Code tab's text of the deployed contract" }),
    file: Type.String(),
    start_line: Type.Integer(),
    start_col: Type.Integer(),
    end_line: Type.Integer(),
    end_col: Type.Integer(),
  },
  { title: 'SourceMapEntry', description: 'lines 1-based, columns 0-based as the compiler gives them' },
);
export type SourceMapEntry = Static<typeof SourceMapEntry>;

export const ContractSource = Type.Object(
  {
    verification: Verification,
    inherited: Type.Boolean({
      description: 'true when this contract was not the one submitted but has the same script hash',
    }),
    files: Type.Array(SourceFile),
    source_map: Type.Optional(Type.Array(SourceMapEntry)),
  },
  { title: 'ContractSource' },
);
export type ContractSource = Static<typeof ContractSource>;
