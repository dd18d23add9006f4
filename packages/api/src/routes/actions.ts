/**
 * Actions that need no node: Michelson file → script and storage form (POST /michelson), fork (POST /fork),
 * entrypoint form → Micheline (POST …/entrypoints/data), off-chain view forms (POST /off_chain_view),
 * code diff (POST /diff), token-approval helpers (/helpers/approve/*, reference §4.7).
 */
import {
  CodeDiffRequest,
  CodeDiffResponse,
  ErrorBody,
  ForkRequest,
  ForkResult,
  MICHELSON_FILE_LIMIT,
  OffChainViewRequest,
  ViewSchema,
} from '@michelscope/api-types';
import { getContractScript, protocolsOf, scriptUnderProtocol } from '@michelscope/db/read';
import {
  buildTypeTree,
  emptyModel,
  formatMichelson,
  formToMicheline,
  MichelsonDataError,
  parametersForExecution,
  parseMichelsonScript,
  schemaOf,
  toMicheline,
  typedefOf,
  wrapEntrypointSchema,
  type Micheline,
} from '@michelscope/michelson';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiContext } from '../context';
import { errorHandler, HttpError } from '../errors';
import { codeDiff, MAX_CODE_TEXT, MAX_EDITS } from '../services/code-diff';
import { fullScript, requireScript } from '../services/contracts';
import { AddressParams, CONTRACT_RE, jsonString, requireAddress, requireNetwork } from '../validate';

const E = { 400: ErrorBody, 404: ErrorBody, 500: ErrorBody };
export const FILE_TOO_LARGE = 'Code file size should be less than 1MB';

/** Form or Michelson problems are the client's: 400 with the text. */
export function asClientError<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof MichelsonDataError) throw new HttpError(400, e.message.slice(0, 1000));
    throw e;
  }
}

function section(script: Micheline[], name: string): Micheline | undefined {
  const s = script.find((x) => !Array.isArray(x) && 'prim' in x && x.prim === name);
  return s && !Array.isArray(s) && 'args' in s ? s.args?.[0] : undefined;
}

function storageForm(script: Micheline[]) {
  const type = section(script, 'storage');
  if (type === undefined) throw new HttpError(400, 'the script has no storage section');
  const tree = asClientError(() => buildTypeTree(type));
  const schema = schemaOf(tree);
  return { tree, out: { type: typedefOf(tree) ?? [], schema, default_model: emptyModel(schema) } };
}

function tooLarge(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.statusCode === 413) {
    void reply.code(413).send({ message: FILE_TOO_LARGE });
    return;
  }
  errorHandler(error, request, reply);
}

export const actionRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  // POST /michelson takes the file as it is, whatever the content type
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MICHELSON_FILE_LIMIT }, (_req, body, done) =>
    done(null, body),
  );

  app.post(
    '/michelson',
    {
      bodyLimit: MICHELSON_FILE_LIMIT,
      errorHandler: tooLarge,
      schema: {
        summary: 'Parse a Michelson file: the script as Micheline and its storage form',
        description: `Body: the file (at most ${MICHELSON_FILE_LIMIT} bytes; larger → 413 "${FILE_TOO_LARGE}").`,
        tags: ['deploy'],
        response: {
          200: Type.Object({
            script: Type.Unknown(),
            storage: Type.Object({
              type: Type.Optional(Type.Array(Type.Unknown())),
              schema: Type.Unknown(),
              default_model: Type.Optional(Type.Unknown()),
            }),
          }),
          413: ErrorBody,
          ...E,
        },
      },
    },
    async (request) => {
      let text: unknown = request.body;
      if (typeof text !== 'string')
        text = typeof text === 'object' && text && 'code' in text ? text.code : undefined;
      if (typeof text !== 'string' || !text.trim())
        throw new HttpError(400, 'the body must be Michelson source text');
      const src = text;
      const script = asClientError(() => parseMichelsonScript(src, { expandMacros: true }));
      if (!section(script, 'parameter') || !section(script, 'code'))
        throw new HttpError(400, 'the script lacks a parameter or code section');
      return { script, storage: storageForm(script).out };
    },
  );

  app.post(
    '/fork',
    {
      schema: {
        summary:
          'Code and storage Micheline for a new origination from a contract (or a script) and storage form data',
        tags: ['deploy'],
        body: ForkRequest,
        response: { 200: ForkResult, ...E },
      },
    },
    async (request) => {
      const { address, network, script: scriptJson, storage } = request.body;
      let script: Micheline[];
      if (address || network) {
        if (!address || !network) throw new HttpError(400, 'address and network are required together');
        requireNetwork(ctx, network);
        requireAddress(address, CONTRACT_RE, 'contract address');
        script = fullScript(await requireScript(ctx, network, address));
      } else if (scriptJson) {
        script = asClientError(() => {
          let parsed: unknown;
          try {
            parsed = JSON.parse(scriptJson);
          } catch {
            throw new MichelsonDataError('script must be Micheline JSON');
          }
          const m = toMicheline(parsed);
          if (!Array.isArray(m)) throw new MichelsonDataError('script must be a Micheline sequence');
          return m;
        });
      } else throw new HttpError(400, 'address and network, or script, are required');
      if (!storage || typeof storage !== 'object') throw new HttpError(400, 'storage must be an object');
      const { tree } = storageForm(script);
      const data = tree.prim === 'pair' ? { [tree.name]: storage } : storage;
      return { code: script, storage: asClientError(() => formToMicheline(tree, data)) };
    },
  );

  app.post(
    '/contract/:network/:address/entrypoints/data',
    {
      schema: {
        summary: 'Entrypoint form data → Micheline argument (or Michelson text with format=michelson)',
        tags: ['contract'],
        params: AddressParams,
        body: Type.Object({
          name: Type.String({ minLength: 1, maxLength: 255 }),
          data: Type.Unknown(),
          format: Type.Optional(Type.String({ maxLength: 32 })),
        }),
        response: { 200: Type.Unknown(), ...E },
      },
    },
    async (request, reply) => {
      const { network, address } = request.params;
      requireNetwork(ctx, network);
      requireAddress(address, CONTRACT_RE, 'contract address', 404);
      const script = await requireScript(ctx, network, address);
      const { name, data, format } = request.body;
      const { value } = asClientError(() =>
        parametersForExecution(toMicheline(script.parameter), name, data ?? {}),
      );
      return format === 'michelson' ? jsonString(reply, formatMichelson(value)) : value;
    },
  );

  app.post(
    '/off_chain_view',
    {
      schema: {
        summary: 'Form of a TZIP-16 off-chain view (first michelsonStorageView implementation), or null',
        tags: ['views'],
        body: OffChainViewRequest,
        response: { 200: Type.Union([ViewSchema, Type.Null()]), ...E },
      },
    },
    async (request) => offChainViewSchema(request.body),
  );

  app.post(
    '/diff',
    {
      schema: {
        summary: 'Diff of the Michelson code of two contracts, by blocks (entrypoints, views) then lines',
        description:
          'Each leg is a contract of any configured network, optionally under an older `protocol` (the code ' +
          'a later migration replaced). The code is cut into blocks — parameter, storage, each entrypoint ' +
          "branch of the code's dispatch (named by the parameter's field annotations), the code before and " +
          'after it, each view — paired by name; a changed block is diffed line by line (past ' +
          `${MAX_EDITS} line edits it counts as replaced). \`diff\` keeps the reference's line-aligned ` +
          'items (type 0 common, -1 removed, 1 added, -2 / 2 indentation) and adds `blocks` (rows of the ' +
          'blocks that differ) and `changed_entrypoints`. 413 when a script formats to more than ' +
          `${MAX_CODE_TEXT.toLocaleString('en-US')} characters.`,
        tags: ['contract'],
        body: CodeDiffRequest,
        response: {
          200: CodeDiffResponse,
          ...E,
          413: ErrorBody,
        },
      },
    },
    async (request) => {
      const { left, right } = request.body;
      const code = async (leg: typeof left): Promise<Micheline[]> => {
        requireNetwork(ctx, leg.network);
        requireAddress(leg.address, CONTRACT_RE, 'contract address');
        if (leg.protocol) {
          if (!(await protocolsOf(ctx.readDb, leg.network)).some((p) => p.hash === leg.protocol))
            throw new HttpError(400, `Unknown protocol: ${leg.protocol}`);
          const under = await scriptUnderProtocol(ctx.readDb, leg.network, leg.address, leg.protocol);
          if (under.migration !== null) {
            if (!under.script)
              throw new HttpError(
                404,
                `the code before the migration at level ${under.migration} was not kept`,
              );
            return fullScript(under.script);
          }
        }
        const s = await getContractScript(ctx.readDb, leg.network, leg.address);
        if (!s) throw new HttpError(404, 'not found');
        return fullScript(s);
      };
      const [a, b] = await Promise.all([code(left), code(right)]);
      for (const script of [a, b])
        if (JSON.stringify(script).length > MAX_CODE_TEXT)
          throw new HttpError(413, 'the script is too large to diff');
      return { left, right, diff: codeDiff(a, b) };
    },
  );
};

/** ViewSchema of the first implementation with a michelsonStorageView, or null. */
export function offChainViewSchema(view: {
  name?: string;
  description?: string;
  implementations?: unknown[];
}): ViewSchema | null {
  const impls = view.implementations ?? [];
  for (let i = 0; i < impls.length; i++) {
    const msv = (impls[i] as { michelsonStorageView?: { parameter?: unknown } } | null)?.michelsonStorageView;
    if (!msv || typeof msv !== 'object') continue;
    const out: ViewSchema = {
      name: view.name ?? '',
      kind: 'off-chain',
      implementation: i,
      typedef: [],
      schema: null,
    };
    if (view.description) out.description = view.description;
    try {
      const tree = buildTypeTree(msv.parameter === undefined ? { prim: 'unit' } : toMicheline(msv.parameter));
      out.typedef = typedefOf(tree) ?? [];
      out.schema = wrapEntrypointSchema(schemaOf(tree), tree);
    } catch (e) {
      out.error = e instanceof Error ? e.message.slice(0, 500) : 'invalid parameter type';
    }
    return out;
  }
  return null;
}
