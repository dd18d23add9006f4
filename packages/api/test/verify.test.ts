import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describeDb } from '@michelscope/db/testing';
import type { Db } from '@michelscope/db';
import { scriptHash, type Micheline } from '@michelscope/michelson';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SourceCompiler } from '../src/verify/compiler';
import { runSandboxed } from '../src/verify/sandbox';
import { orderedScript } from '../src/verify/compare';
import { makeApi } from './helpers';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers read field by field
type Json = Record<string, any>;

// Verified source (issue 38): the counter below compiled by the real Archetype compiler in its worker, against a
// contract seeded with that compiler's output. PGlite only: db/verified's own queries run on both backends in
// packages/db/test/verified.test.ts.
const SOURCE = readFileSync(new URL('./fixtures/verify/counter.arl', import.meta.url), 'utf8');
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const kt1 = (seed: string) => `KT1${seed}${B58.repeat(2)}`.slice(0, 36);
const COUNTER = kt1('VerifiedCounter');
const TWIN = kt1('VerifiedTwin');
const OTHER = kt1('ChangedCounter');

/** The counter's script, as the compiler gives it, in the node's order. */
function compiledCounter(): Micheline[] {
  const archetype = createRequire(import.meta.url)('@completium/archetype') as {
    compile_from_string(src: string, settings: object): string;
  };
  const out = JSON.parse(archetype.compile_from_string(SOURCE, { target: 'michelson', json: true })) as {
    code: Micheline[];
  };
  return orderedScript(out.code);
}

async function seedContract(db: Db, network: string, address: string, script: Micheline[]) {
  const section = (name: string) =>
    (script.find((s) => typeof s === 'object' && 'prim' in s && s.prim === name) as { args: Micheline[] })
      .args[0];
  const hash = scriptHash(script);
  let row = await db
    .selectFrom('scripts')
    .select('id')
    .where('network', '=', network)
    .where('hash', '=', hash)
    .executeTakeFirst();
  row ??= await db
    .insertInto('scripts')
    .values({
      network,
      hash,
      level: 1,
      code: JSON.stringify(section('code')),
      parameter: JSON.stringify(section('parameter')),
      storage: JSON.stringify(section('storage')),
      views: JSON.stringify(script.filter((s) => typeof s === 'object' && 'prim' in s && s.prim === 'view')),
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('contracts')
    .values({
      network,
      address,
      level: 1,
      timestamp: new Date(),
      script_id: row.id,
      script_hash: hash,
    } as never)
    .execute();
}

describeDb('verified source', { backends: 'pglite' }, ({ db }) => {
  let app: FastifyInstance;
  let compiles = 0;
  const compilers = async (): Promise<SourceCompiler[]> => {
    const { archetypeCompiler } = await import('../src/verify/archetype');
    const counted: SourceCompiler = {
      ...archetypeCompiler,
      compile: (...a) => {
        compiles++;
        return archetypeCompiler.compile(...a);
      },
    };
    // a compiler that never finishes: its worker is terminated at the route's time limit
    const endless: SourceCompiler = {
      id: 'endless',
      name: 'Endless',
      extensions: ['.x'],
      sourceLocations: false,
      options: { fast: 'boolean' },
      probe: () => Promise.resolve({ available: true, versions: ['1'] }),
      compile: (_input, limits) => runSandboxed('for (;;) {}', {}, limits),
    };
    return [counted, endless];
  };
  const body = (content = SOURCE, extra: object = {}) => ({
    compiler: 'archetype',
    version: '1.5.3',
    files: [{ name: 'counter.arl', content }],
    ...extra,
  });
  const post = async (address: string, payload: unknown, network = 'sandboxnet', a = app) => {
    const res = await a.inject({
      method: 'POST',
      url: `/v1/contract/${network}/${address}/verify`,
      payload: payload as object,
    });
    return {
      status: res.statusCode,
      body: JSON.parse(res.body) as Json,
      headers: res.headers,
    };
  };
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url });
    return { status: res.statusCode, text: res.body, headers: res.headers };
  };

  beforeAll(async () => {
    const script = compiledCounter();
    await seedContract(db(), 'sandboxnet', COUNTER, script);
    await seedContract(db(), 'ghostnet', TWIN, script);
    // the same contract with another constant: never verified by the counter's sources
    await seedContract(
      db(),
      'sandboxnet',
      OTHER,
      JSON.parse(
        JSON.stringify(script).replace(
          '{"prim":"PUSH","args":[{"prim":"nat"},{"int":"1"}]}',
          '{"prim":"PUSH","args":[{"prim":"nat"},{"int":"3"}]}',
        ),
      ) as Micheline[],
    );
    app = await makeApi(db(), {
      // real compiles get the default limit: a loaded 2-core machine once took more than 1.5 s for one
      verify: { compilers: await compilers(), rateLimit: { max: 1_000, windowMs: 60_000 } },
    });
  });
  afterAll(() => app.close());

  it('lists the compilers: Archetype 1.5.3 with source locations', async () => {
    const r = await get('/v1/verify/compilers');
    expect(r.status).toBe(200);
    const list = JSON.parse(r.text) as Record<string, unknown>[];
    expect(list[0]).toEqual({
      id: 'archetype',
      name: 'Archetype',
      available: true,
      versions: ['1.5.3'],
      extensions: ['.arl'],
      source_locations: true,
    });
  });

  it('the default registry: SmartPy and LIGO say what they need', async () => {
    const { defaultCompilers } = await import('../src/verify/compilers');
    const [, smartpy, ligo] = defaultCompilers();
    const limits = { timeoutMs: 5_000, maxHeapMb: 512 };
    const s = await smartpy!.probe(limits);
    if (!s.available) expect(s.reason).toMatch(/smartpy-tezos/);
    expect(await ligo!.probe(limits)).toMatchObject({
      available: false,
      reason: expect.stringMatching(/`ligo`/),
    });
  });

  it('verifies the counter; the same submission again answers the stored result without compiling', async () => {
    const first = await post(COUNTER, body());
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: 'verified',
      compiler: 'archetype',
      version: '1.5.3',
      main: 'counter.arl',
      network: 'sandboxnet',
      address: COUNTER,
      files: [{ name: 'counter.arl', size: Buffer.byteLength(SOURCE) }],
    });
    expect(first.body.id).toMatch(/^[0-9a-f]{64}$/);
    expect(first.body.difference).toBeUndefined();
    expect(compiles).toBe(1);
    const again = await post(COUNTER, body());
    expect(again.body).toEqual(first.body);
    expect(compiles).toBe(1);

    const source = await get(`/v1/contract/sandboxnet/${COUNTER}/source`);
    expect(source.status).toBe(200);
    const s = JSON.parse(source.text) as Json;
    expect(s.inherited).toBe(false);
    expect(s.files).toEqual([{ name: 'counter.arl', content: SOURCE }]);
    // `called by owner` (line 10) compiles to the IF that fails with INVALID_CALLER, in %decrement's branch
    const entry = (s.source_map as Json[]).find((e) => e.start_line === 10);
    expect(entry).toMatchObject({ file: 'counter.arl', path: expect.stringMatching(/^code\.args\[0\]/) });
    const code = JSON.parse((await get(`/v1/contract/sandboxnet/${COUNTER}/code`)).text) as string;
    expect(code.split('\n')[entry!.line - 1]).toMatch(/^\s*IF \{ PUSH string "INVALID_CALLER"/);
  });

  it('a contract with the same script in another network inherits the verification', async () => {
    const r = await get(`/v1/contract/ghostnet/${TWIN}/source`);
    expect(r.status).toBe(200);
    const s = JSON.parse(r.text) as Json;
    expect(s.inherited).toBe(true);
    expect(s.verification).toMatchObject({ status: 'verified', network: 'sandboxnet', address: COUNTER });
    expect(s.verification.compiled).toBeUndefined();
  });

  it('one constant changed: failed, naming the entrypoint and the two instructions', async () => {
    const r = await post(OTHER, body());
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.status).toBe('failed');
    expect(r.body.difference).toMatchObject({
      section: 'code',
      block: expect.stringMatching(/^entrypoint %increment \(code\.args\[0\]\[2\]\.args\[0\]\)$/),
      path: 'code.args[0][2].args[0][1]',
      deployed: 'PUSH nat 3',
      compiled: 'PUSH nat 1',
      message:
        'The code differs in entrypoint %increment: the deployed contract has PUSH nat 3 where the compiled ' +
        'source has PUSH nat 1.',
    });
    const code = JSON.parse((await get(`/v1/contract/sandboxnet/${OTHER}/code`)).text) as string;
    expect(code.split('\n')[r.body.difference.deployed_line - 1]).toMatch(/PUSH nat 3/);
    expect((r.body.compiled as string).split('\n')[r.body.difference.compiled_line - 1]).toMatch(
      /PUSH nat 1/,
    );
    expect((await get(`/v1/contract/sandboxnet/${OTHER}/source`)).status).toBe(204);
    // nor has a contract the index does not know (a failed origination's address): 204, not an error
    expect((await get(`/v1/contract/sandboxnet/KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi/source`)).status).toBe(
      204,
    );
    const list = JSON.parse((await get(`/v1/contract/sandboxnet/${OTHER}/verifications`)).text) as Json[];
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ status: 'failed', difference: { section: 'code' } });
    expect(list[0]!.compiled).toBeUndefined();
  });

  it('the compiler rejects a type error: 422 with its message', async () => {
    const r = await post(COUNTER, body(SOURCE.replace('count += 1', 'count += "a"')));
    expect(r.status).toBe(422);
    expect(r.body.message).toMatch(
      /^The compiler rejected the sources: File ".*", line 6, .*\+\(nat, string\)/,
    );
  });

  it('a compile past the time limit is a 422', async () => {
    const short = await makeApi(db(), {
      verify: { compilers: await compilers(), timeoutMs: 1_500, rateLimit: { max: 1_000, windowMs: 60_000 } },
    });
    const payload = { compiler: 'endless', version: '1', files: [{ name: 'a.x', content: 'x' }] };
    const r = await post(COUNTER, payload, 'sandboxnet', short).finally(() => short.close());
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ message: 'The compiler did not finish within 1.5 s.' });
  });

  it('bad requests: 400, 404, 413', async () => {
    for (const payload of [
      body(SOURCE, { compiler: 'cobol' }),
      body(SOURCE, { version: '0.1' }),
      body(SOURCE, { options: { optimise: true } }),
      body(SOURCE, { main: 'nope.arl' }),
      { ...body(), files: [] },
      { ...body(), files: [{ name: '../x', content: '' }] },
      { ...body(), files: [{ name: '<script>', content: '' }] },
      { ...body(), files: [{ name: '/etc/passwd', content: '' }] },
    ]) {
      const r = await post(COUNTER, payload);
      expect(r.status, JSON.stringify(payload).slice(0, 200)).toBe(400);
      expect(typeof r.body.message).toBe('string');
    }
    expect((await post(kt1('UnknownContract'), body())).status).toBe(404);
    const big = await post(COUNTER, body('a'.repeat(2 * 1024 * 1024)));
    expect(big).toMatchObject({
      status: 413,
      body: { message: 'The sources are too large: at most 1 MB in all (this submission is 2.0 MB).' },
    });
    const over = await post(COUNTER, {
      ...body(),
      files: [1, 2].map((i) => ({ name: `f${i}`, content: 'a'.repeat(600_000) })),
    });
    expect(over.status).toBe(413);
    expect(over.body.message).toMatch(/this submission is 1\.1 MB/);
  });

  it('files are downloaded as plain-text attachments; unknown ones are 404', async () => {
    const r = await get(`/v1/contract/ghostnet/${TWIN}/source/files/counter.arl`);
    expect(r.status).toBe(200);
    expect(r.text).toBe(SOURCE);
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['content-disposition']).toBe('attachment; filename="counter.arl"');
    expect((await get(`/v1/contract/ghostnet/${TWIN}/source/files/nope.arl`)).status).toBe(404);
    expect((await get(`/v1/contract/sandboxnet/${OTHER}/source/files/counter.arl`)).status).toBe(404);
  });

  it('submissions are limited per client: 429 says how long to wait', async () => {
    const limited = await makeApi(db(), {
      verify: { compilers: await compilers(), rateLimit: { max: 2, windowMs: 60_000 } },
    });
    try {
      for (let i = 0; i < 2; i++)
        expect((await post(COUNTER, { bad: true }, 'sandboxnet', limited)).status).toBe(400);
      const r = await post(COUNTER, body(), 'sandboxnet', limited);
      expect(r.status).toBe(429);
      expect(r.body.message).toMatch(/retry in \d+ s/);
      expect(r.headers['retry-after']).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });
});
