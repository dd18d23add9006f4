import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Kind, Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';

/** A problem the person starting Michelscope can fix: printed as one line, without a stack. */
export class StartupError extends Error {}

/** A problem in michelscope.config.json or the environment. */
export class ConfigError extends StartupError {}

const closed = { additionalProperties: false } as const;

const NetworkFileSchema = Type.Object(
  {
    rpc_url: Type.Optional(Type.String()),
    public_rpc_url: Type.Optional(Type.String()),
    stats: Type.Optional(Type.Boolean()),
    explorer_url: Type.Optional(Type.String()),
    start_level: Type.Optional(Type.Union([Type.Integer(), Type.Literal('head'), Type.Literal('genesis')])),
    fetch_ahead: Type.Optional(Type.Integer()),
    rpc_rate_limit: Type.Optional(Type.Number()),
    /** Where the history of an address read from the node is learnt (issue 32); default: a scan of the node. */
    history_source: Type.Optional(
      Type.Union([
        Type.Literal(false),
        Type.Object(
          {
            kind: Type.Union([Type.Literal('bcd'), Type.Literal('tzkt'), Type.Literal('scan')]),
            url: Type.Optional(Type.String()),
            network: Type.Optional(Type.String()),
          },
          closed,
        ),
      ]),
    ),
  },
  closed,
);

/** Shape of michelscope.config.json: every key optional, no other key allowed (a typo is refused). */
export const FileConfigSchema = Type.Object(
  {
    host: Type.Optional(Type.String()),
    public_url: Type.Optional(Type.String()),
    mempool_enabled: Type.Optional(Type.Boolean()),
    sandbox_mode: Type.Optional(Type.Boolean()),
    ga_enabled: Type.Optional(Type.Boolean()),
    sentry_dsn: Type.Optional(Type.String()),
    sandbox: Type.Optional(
      Type.Object(
        {
          block_time_ms: Type.Optional(Type.Number()),
          seed: Type.Optional(Type.Boolean()),
          time_limit_ms: Type.Optional(Type.Number()),
        },
        closed,
      ),
    ),
    rate_limit: Type.Optional(
      Type.Union([
        Type.Literal(false),
        Type.Object(
          {
            max: Type.Optional(Type.Number()),
            time_window_ms: Type.Optional(Type.Number()),
            pages: Type.Optional(Type.Number()),
            store: Type.Optional(Type.Union([Type.Literal('database'), Type.Literal('memory')])),
          },
          closed,
        ),
      ]),
    ),
    trust_proxy: Type.Optional(Type.Union([Type.Literal(false), Type.Array(Type.String())])),
    cors: Type.Optional(Type.Union([Type.Boolean(), Type.Array(Type.String())])),
    live: Type.Optional(
      Type.Object(
        {
          max_connections_per_ip: Type.Optional(Type.Number()),
          max_connections: Type.Optional(Type.Number()),
        },
        closed,
      ),
    ),
    ipfs_gateway: Type.Optional(Type.String()),
    /** Watch rules and webhooks (issue 39). */
    watch: Type.Optional(
      Type.Object(
        {
          allow_private_targets: Type.Optional(Type.Boolean()),
          max_rules_per_token: Type.Optional(Type.Number()),
          max_rules_total: Type.Optional(Type.Number()),
          retry_base_ms: Type.Optional(Type.Number()),
        },
        closed,
      ),
    ),
    /** Verified source (issue 38): one compile's time limit and the submissions a client may make in 10 minutes. */
    verify: Type.Optional(
      Type.Object(
        {
          compile_timeout_ms: Type.Optional(Type.Number()),
          submissions_per_10_minutes: Type.Optional(Type.Number()),
        },
        closed,
      ),
    ),
    networks: Type.Optional(Type.Record(Type.String(), Type.Union([Type.Literal(false), NetworkFileSchema]))),
  },
  closed,
);

export type FileConfig = Static<typeof FileConfigSchema>;

/** What a value of `schema` looks like, in words ("true or false, or a list of strings"). */
function describe(schema: TSchema): string {
  switch (schema[Kind]) {
    case 'Boolean':
      return 'true or false';
    case 'String':
      return 'a string';
    case 'Integer':
      return 'a whole number';
    case 'Number':
      return 'a number';
    case 'Literal':
      return JSON.stringify(schema.const);
    case 'Array':
      return `a list of ${describe(schema.items as TSchema).replace(/^an? /, '')}s`;
    case 'Union':
      return (schema.anyOf as TSchema[]).map(describe).join(', or ');
    default:
      return 'an object';
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first problem, looking inside the object variant of a union (TypeBox stops at the union). */
function firstProblem(schema: TSchema, value: unknown, base = ''): ValueError | undefined {
  const e = Value.Errors(schema, value).First();
  if (!e) return undefined;
  if (e.type === ValueErrorType.Union && isObject(e.value)) {
    const variant = (e.schema.anyOf as TSchema[]).find((s) => s[Kind] === 'Object');
    if (variant) return firstProblem(variant, e.value, base + e.path) ?? e;
  }
  return { ...e, path: base + e.path };
}

/** Checks parsed michelscope.config.json; throws one line naming the key and what it must be. */
export function checkFileConfig(parsed: unknown, fileName: string): FileConfig {
  const problem = firstProblem(FileConfigSchema, parsed);
  if (!problem) return parsed as FileConfig;
  const key = problem.path.slice(1).split('/').join('.');
  if (problem.type === ValueErrorType.ObjectAdditionalProperties)
    throw new ConfigError(`unknown key "${key}" in ${fileName}`);
  if (!key) throw new ConfigError(`${fileName} must hold a JSON object`);
  throw new ConfigError(`"${key}" in ${fileName} must be ${describe(problem.schema)}`);
}

/** michelscope.config.json (path from MICHELSCOPE_CONFIG, else the working directory; optional), checked. */
export function readConfigFile(env: NodeJS.ProcessEnv, cwd: string): FileConfig {
  const explicit = env.MICHELSCOPE_CONFIG;
  const file = path.resolve(cwd, explicit ?? 'michelscope.config.json');
  if (!existsSync(file)) {
    if (explicit) throw new ConfigError(`MICHELSCOPE_CONFIG points to ${file}, which does not exist`);
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  return checkFileConfig(parsed, path.basename(file));
}
