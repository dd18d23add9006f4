/**
 * Verified source code (issue 38): a contract's sources compiled on the server (a worker per compile, bounded in
 * time and memory: ../verify/sandbox.ts) and compared with its deployed script (../verify/compare.ts); the result
 * is stored by content (db/verified) and shared by every contract with the same script hash, in any network.
 */
import { createHash } from 'node:crypto';
import {
  CompilerInfo,
  ContractSource,
  ErrorBody,
  Verification,
  VerifyRequest,
  type SourceMapEntry,
  type Verification as VerificationT,
} from '@michelscope/api-types';
import {
  contractScriptHash,
  getVerification,
  latestVerified,
  storeVerification,
  verificationsOf,
  type VerificationSummaryRow,
} from '@michelscope/db/verified';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { configure } from 'safe-stable-stringify';
import type { ApiContext } from '../context';
import { HttpError } from '../errors';
import { fullScript, requireScript } from '../services/contracts';
import { AddressParams, requireContractPath } from '../validate';
import type { VerifyOptions } from '../verify/options';
export type { VerifyOptions } from '../verify/options';
import { CompilerRegistry, defaultCompilers } from '../verify/compilers';
import { compareScripts, sourceMapOf } from '../verify/compare';
import { CompileFailure } from '../verify/sandbox';

/** The sources of one submission, in bytes (UTF-8), all files together. */
export const MAX_SOURCE_BYTES = 1024 * 1024;
/** The request body: the sources as JSON strings (escapes make them longer) and the rest of the request. */
const BODY_LIMIT = 1536 * 1024;
const MAX_ERROR_CHARS = 2_000;
/** The compiled text kept for a failed verification's code diff. */
const MAX_COMPILED_CHARS = 1024 * 1024;

const E = { 400: ErrorBody, 404: ErrorBody, 500: ErrorBody };
const tags = ['contract'];
const NOT_VERIFIED = 'This contract has no verified source.';

/** JSON with sorted keys: the same submission always writes the same text. */
const canonicalJson = configure({ deterministic: true, bigint: false }) as (v: unknown) => string;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
const tooLarge = (bytes: number) =>
  new HttpError(413, `The sources are too large: at most 1 MB in all (this submission is ${mb(bytes)}).`);

/** A name is a relative path: no empty, `.` or `..` segment, no leading `/`. */
const badName = (name: string) => name.split('/').some((s) => s === '' || s === '.' || s === '..');

function toVerification(row: VerificationSummaryRow & { compiled?: string | null }, withCompiled: boolean) {
  const v: VerificationT = {
    id: row.id,
    status: row.status,
    compiler: row.compiler,
    version: row.version,
    options: row.options,
    main: row.main,
    files: row.files.map((f) => ({ name: f.name, size: f.size, sha256: f.sha256 })),
    script_hash: row.script_hash,
    network: row.network,
    address: row.address,
    created_at: row.created_at.toISOString(),
    ...(row.status === 'failed' && row.difference
      ? { difference: row.difference as VerificationT['difference'] }
      : {}),
    ...(withCompiled && row.status === 'failed' && row.compiled ? { compiled: row.compiled } : {}),
  };
  return v;
}

/** Per-client submission times (a sliding window), kept in this process. */
class SubmissionLimit {
  private readonly times = new Map<string, number[]>();
  constructor(private readonly limit: { max: number; windowMs: number }) {}
  /** Counts a submission; the seconds to wait when over the limit. */
  take(client: string, now = Date.now()): number | undefined {
    const recent = (this.times.get(client) ?? []).filter((t) => t > now - this.limit.windowMs);
    if (recent.length >= this.limit.max) {
      this.times.set(client, recent);
      return Math.max(1, Math.ceil((recent[0]! + this.limit.windowMs - now) / 1000));
    }
    recent.push(now);
    this.times.set(client, recent);
    if (this.times.size > 10_000)
      for (const k of [...this.times.keys()].slice(0, 5_000)) this.times.delete(k);
    return undefined;
  }
}

export const verifyRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext; options?: VerifyOptions }> = async (
  app,
  { ctx, options = {} },
) => {
  const limits = { timeoutMs: options.timeoutMs ?? 20_000, maxHeapMb: options.maxHeapMb ?? 512 };
  const registry = new CompilerRegistry(options.compilers ?? defaultCompilers(), limits);
  const submissions = new SubmissionLimit(options.rateLimit ?? { max: 10, windowMs: 10 * 60_000 });
  const rate = options.rateLimit ?? { max: 10, windowMs: 10 * 60_000 };
  const concurrency = options.concurrency ?? 1;
  const maxQueue = options.maxQueue ?? 4;
  let running = 0;
  const waiting: (() => void)[] = [];
  /** Runs `f` when a compile slot is free; 503 when too many wait. */
  const admitted = async <T>(f: () => Promise<T>): Promise<T> => {
    if (running >= concurrency) {
      if (waiting.length >= maxQueue)
        throw new HttpError(
          503,
          `The compiler is busy (${waiting.length} submissions waiting): retry in a minute.`,
        );
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    running++;
    try {
      return await f();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
  /** Submissions being compiled, by id and script hash: the same one submitted twice at once compiles once. */
  const inFlight = new Map<string, Promise<VerificationT>>();

  app.get(
    '/verify/compilers',
    {
      schema: {
        summary: 'Compilers for verified source',
        description:
          'The compilers this server can verify sources with: Archetype always; SmartPy when the Python package ' +
          'smartpy-tezos is installed; LIGO not (it needs the `ligo` binary). Not in the reference.',
        tags,
        response: { 200: Type.Array(CompilerInfo), 500: ErrorBody },
      },
    },
    async () => [...(await registry.info()).values()],
  );

  app.post(
    '/contract/:network/:address/verify',
    {
      bodyLimit: BODY_LIMIT,
      onRequest: async (request, reply) => {
        const length = Number(request.headers['content-length'] ?? 0);
        if (length > BODY_LIMIT) throw tooLarge(length);
        const wait = submissions.take(request.ip);
        if (wait !== undefined) {
          void reply.header('retry-after', String(wait));
          throw new HttpError(
            429,
            `Too many submissions: at most ${rate.max} every ${Math.round(rate.windowMs / 60_000)} minutes from ` +
              `one client; retry in ${wait} s.`,
          );
        }
      },
      schema: {
        summary: "Verify a contract's source code",
        description:
          'Compiles the sources on the server (in a worker: at most 20 s and 512 MB, no network, no file outside ' +
          'its scratch folder) and compares the compiled script with the deployed one as Micheline: parameter ' +
          'and storage types exactly (annotations included), code and views after expanding macros and dropping ' +
          'variable annotations. A mismatch is a `failed` result with its first difference, not an error. ' +
          'Idempotent: the same sources for the same script hash answer the stored result without compiling. ' +
          'The result holds for every contract with the same script hash, in any network. At most 1 MB of ' +
          'sources (413), 10 submissions per 10 minutes per client (429); 422 when the compiler rejects the ' +
          'sources, crashes or runs out of time or memory. Not in the reference.',
        tags,
        params: AddressParams,
        body: VerifyRequest,
        response: { 200: Verification, ...E, 413: ErrorBody, 422: ErrorBody, 429: ErrorBody, 503: ErrorBody },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      requireContractPath(ctx, request.params);
      const body = request.body;
      const names = new Set<string>();
      let bytes = 0;
      for (const f of body.files) {
        if (badName(f.name))
          throw new HttpError(400, `bad file name ${JSON.stringify(f.name)}: a relative path`);
        if (names.has(f.name)) throw new HttpError(400, `file ${f.name} is given twice`);
        names.add(f.name);
        bytes += Buffer.byteLength(f.content, 'utf8');
      }
      if (bytes > MAX_SOURCE_BYTES) throw tooLarge(bytes);
      const main = body.main ?? body.files[0]!.name;
      if (!names.has(main)) throw new HttpError(400, `the main file ${main} is not among the files`);
      const compiler = registry.get(body.compiler);
      if (!compiler)
        throw new HttpError(
          400,
          `unknown compiler ${body.compiler} (known: ${registry.compilers.map((c) => c.id).join(', ')})`,
        );
      const info = (await registry.info()).get(compiler.id)!;
      if (!info.available)
        throw new HttpError(400, info.reason ?? `${info.name} is not available on this server`);
      if (!info.versions.includes(body.version))
        throw new HttpError(
          400,
          `unknown ${info.name} version ${body.version} (this server compiles with ${info.versions.join(', ')})`,
        );
      const opts = body.options ?? {};
      for (const [k, v] of Object.entries(opts)) {
        const type = Object.hasOwn(compiler.options, k) ? compiler.options[k] : undefined;
        if (!type) throw new HttpError(400, `unknown ${info.name} option ${k}`);
        if (typeof v !== type) throw new HttpError(400, `the ${info.name} option ${k} is a ${type}`);
      }
      const scriptHash = await contractScriptHash(ctx.db, network, address);
      if (!scriptHash) throw new HttpError(404, 'not found');

      const sorted = [...body.files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const id = sha256(
        canonicalJson({ compiler: compiler.id, version: body.version, options: opts, main, files: sorted }),
      );
      const stored = await getVerification(ctx.db, id, scriptHash);
      if (stored) return toVerification(stored, true);
      const key = `${id}.${scriptHash}`;
      let pending = inFlight.get(key);
      if (!pending) {
        pending = (async () => {
          const deployed = fullScript(await requireScript(ctx, network, address));
          let output;
          try {
            output = await admitted(() =>
              compiler.compile({ files: body.files, main, version: body.version, options: opts }, limits),
            );
          } catch (e) {
            if (!(e instanceof CompileFailure)) throw e;
            throw new HttpError(
              422,
              e.kind === 'rejected'
                ? `The compiler rejected the sources: ${e.message.trim().slice(0, MAX_ERROR_CHARS)}`
                : e.message,
            );
          }
          let comparison;
          try {
            comparison = compareScripts(deployed, output.script);
          } catch (e) {
            throw new HttpError(
              422,
              `The compiler's output is not a Michelson script: ${(e as Error).message}`,
            );
          }
          const verified = !comparison.difference;
          let sourceMap: SourceMapEntry[] | null = null;
          if (verified && output.locations.length) sourceMap = sourceMapOf(deployed, output.locations);
          const row = await storeVerification(ctx.db, {
            id,
            script_hash: scriptHash,
            network,
            address,
            status: verified ? 'verified' : 'failed',
            compiler: compiler.id,
            version: body.version,
            options: opts,
            main,
            files: sorted.map((f) => ({
              name: f.name,
              size: Buffer.byteLength(f.content, 'utf8'),
              sha256: sha256(f.content),
            })),
            contents: sorted.map((f) => f.content),
            source_map: sourceMap,
            difference: comparison.difference ?? null,
            compiled:
              !verified && comparison.compiledText.length <= MAX_COMPILED_CHARS
                ? comparison.compiledText
                : null,
          });
          return toVerification(row, true);
        })().finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return pending;
    },
  );

  /** The contract's script hash, or 404. */
  const hashOf = async (network: string, address: string) => {
    requireContractPath(ctx, { network, address });
    const hash = await contractScriptHash(ctx.db, network, address);
    if (!hash) throw new HttpError(404, 'not found');
    return hash;
  };

  app.get(
    '/contract/:network/:address/source',
    {
      schema: {
        summary: 'Verified source code of a contract',
        description:
          "The latest verified sources of the contract's script hash, submitted for this contract or another " +
          'with the same script (`inherited`), with the source map (compiled instructions → source ranges) ' +
          'when the compiler gives locations. 204 with no body when there is none, the contract unknown included ' +
          '(a state, not an error: as the reference answers an unknown contract); 400 for an invalid address. ' +
          'Not in the reference.',
        tags,
        params: AddressParams,
        response: { 200: ContractSource, 204: Type.Null(), ...E },
      },
    },
    async (request, reply) => {
      const { network, address } = request.params;
      requireContractPath(ctx, { network, address });
      // an unknown contract (a failed origination's address, one not indexed yet) has no verified source either
      const hash = await contractScriptHash(ctx.db, network, address);
      const row = hash ? await latestVerified(ctx.db, hash) : undefined;
      if (!row) return reply.code(204).send(null);
      const out: ContractSource = {
        verification: toVerification(row, false),
        inherited: row.network !== network || row.address !== address,
        files: row.files.map((f, i) => ({ name: f.name, content: row.contents[i] ?? '' })),
        ...(row.source_map ? { source_map: row.source_map as SourceMapEntry[] } : {}),
      };
      return out;
    },
  );

  app.get(
    '/contract/:network/:address/source/files/*',
    {
      schema: {
        summary: 'One file of the verified source code, as text',
        description:
          'The file (its name URL-encoded after `files/`, may contain `/`) as `text/plain; charset=utf-8`, an ' +
          'attachment, with `X-Content-Type-Options: nosniff`: never rendered as a page. Not in the reference.',
        tags,
        params: Type.Object({
          network: AddressParams.properties.network,
          address: AddressParams.properties.address,
          '*': Type.String({ maxLength: 1000 }),
        }),
        response: {
          200: { description: 'the file', content: { 'text/plain': { schema: Type.String() } } },
          ...E,
        },
      },
    },
    async (request, reply) => {
      const { network, address } = request.params;
      let name = request.params['*'];
      try {
        name = decodeURIComponent(name);
      } catch {
        throw new HttpError(404, 'not found');
      }
      const row = await latestVerified(ctx.db, await hashOf(network, address));
      if (!row) throw new HttpError(404, NOT_VERIFIED);
      const i = row.files.findIndex((f) => f.name === name);
      if (i < 0) throw new HttpError(404, `no file ${name} in this contract's verified source`);
      const base = name
        .split('/')
        .pop()!
        .replace(/[^A-Za-z0-9._-]/g, '_');
      return reply
        .type('text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="${base}"`)
        .header('x-content-type-options', 'nosniff')
        .send(row.contents[i] ?? '');
    },
  );

  app.get(
    '/contract/:network/:address/verifications',
    {
      schema: {
        summary: 'Verification attempts of a contract',
        description:
          "The last 20 verification attempts of the contract's script hash (any contract, any network), failed " +
          'ones included, newest first, without the compiled text. Not in the reference.',
        tags,
        params: AddressParams,
        response: { 200: Type.Array(Verification), ...E },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      const rows = await verificationsOf(ctx.db, await hashOf(network, address), 20);
      return rows.map((r) => toVerification(r, false));
    },
  );
};
