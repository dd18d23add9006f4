/**
 * The permission and upgrade-risk summary of a contract (issue 37, part 2): who may call each entrypoint,
 * what it can do, and whether the code can change, from a static analysis of its Michelson
 * (../security/analyse.ts) and its current storage.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { ErrorBody, SecuritySummary } from '@michelscope/api-types';
import { constantsOfContract, migrationsOf } from '@michelscope/db/read';
import type { Micheline } from '@michelscope/michelson';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ApiContext } from '../context';
import type { SecuritySummary as SecuritySummaryT } from '../security/analyse';
import { fullScript, requireScript, resolveStorage } from '../services/contracts';
import { AddressParams, requireContractPath } from '../validate';
import { DebugRunner } from '../debug/runner';

const E = { 400: ErrorBody, 404: ErrorBody, 429: ErrorBody, 500: ErrorBody, 503: ErrorBody };

/** Summaries kept, by script and storage: the same code and storage give the same summary. */
const CACHED = 256;
const digest = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('base64url');

export const securityRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  // The analysis interprets the code symbolically (up to 1.5 s for a hostile script): it runs in a worker of its
  // own pool, admitted fairly between clients as the debugger's runs are, never on the thread serving the API.
  let runner: DebugRunner | undefined;
  app.addHook('onClose', async () => {
    await runner?.close();
  });
  const summaries = new LRUCache<string, Promise<SecuritySummaryT>>({ max: CACHED });
  app.get(
    '/contract/:network/:address/security',
    {
      schema: {
        summary: 'Permission and upgrade-risk summary of a contract',
        description:
          'A static analysis of the contract code (bounded: at most 200,000 instructions interpreted and 1.5 s) ' +
          'and its current storage: for each entrypoint who may call it (`anyone`, `admin` — only the address ' +
          'at a named storage field —, `multisig`, `nobody`, `unknown`) and what it can do; whether stored ' +
          'lambdas are executed and who can replace them, global constants, SET_DELEGATE, a replaceable admin, ' +
          'and code-changing protocol migrations. Each finding is a sentence with its evidence: instruction ' +
          "paths and 1-based lines in the Code tab's text (`GET …/code`). `unknown` parts are not guesses: the " +
          'analysis did not recognise the pattern. Not in the reference.',
        tags: ['contract'],
        params: AddressParams,
        response: { 200: SecuritySummary, ...E },
      },
    },
    async (request) => {
      const { network, address } = request.params;
      requireContractPath(ctx, request.params);
      const script = await requireScript(ctx, network, address);
      let storage: Micheline | undefined;
      try {
        storage = await resolveStorage(ctx, network, address);
      } catch {
        storage = undefined; // analysed without it: admin addresses are then not named
      }
      const code = fullScript(script);
      const key = `${digest(code)}.${digest(storage ?? null)}`;
      let pending = summaries.get(key);
      if (!pending) {
        runner ??= new DebugRunner(ctx, { threads: 1, perClient: 2, maxQueue: 16, budgetMs: 15_000 });
        pending = runner.forClient(request.ip).security(code, storage);
        summaries.set(key, pending);
        // a refusal (busy, over the client's budget) or a failure is not kept
        pending.catch(() => summaries.peek(key) === pending && summaries.delete(key));
      }
      // the route adds to its copy: the cached one stays as the analysis gave it
      const summary = structuredClone(await pending);
      // the node gives scripts with their global constants expanded: the index knows which ones they used
      const known = (await constantsOfContract(ctx.readDb, network, address, 100, 0)).map((g) => g.address);
      const extra = known.filter((c) => !summary.upgrade.global_constants.includes(c));
      if (extra.length > 0) {
        summary.upgrade.global_constants.push(...extra);
        summary.findings.push({
          kind: 'global_constant',
          sentence:
            `Uses ${extra.length} global constant${extra.length > 1 ? 's' : ''} (${extra.join(', ')}), expanded ` +
            'in the code analysed: code registered on chain, fixed by its hash.',
          evidence: [],
        });
      }
      const migrations = (await migrationsOf(ctx.readDb, network, address)).filter(
        (m) => m.kind === 'update',
      );
      for (const m of migrations) {
        summary.upgrade.code_migrations.push({ level: m.level, protocol: m.protocol });
        summary.findings.push({
          kind: 'code_migration',
          sentence: `The protocol migration at level ${m.level} (to ${m.protocol}) replaced this contract's code.`,
          evidence: [],
        });
      }
      return summary;
    },
  );
};
