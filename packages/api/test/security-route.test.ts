import { describeDb } from '@michelscope/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeApi } from './helpers';
import { CONSTANT, NET, TOKEN, seedChain } from './seed';

// PGlite only: the route reads the script and storage as the code and storage routes do.
describeDb('contract security route', { backends: 'pglite' }, ({ db }) => {
  let app: FastifyInstance;
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url });
    return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as unknown) : undefined };
  };

  beforeAll(async () => {
    await seedChain(db());
    app = await makeApi(db());
  });
  afterAll(() => app.close());

  it('GET /contract/…/security: the seeded token fails on every path; its global constant comes from the index', async () => {
    const r = await get(`/v1/contract/${NET}/${TOKEN}/security`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      headline: 'Immutable; every entrypoint fails',
      upgradable: false,
      admins: [],
      complete: true,
      upgrade: {
        stored_lambdas: [],
        global_constants: [CONSTANT],
        set_delegate: false,
        admin_replaceable: [],
        code_migrations: [],
      },
      entrypoints: [
        { name: 'transfer', who: 'nobody', can: [] },
        { name: 'remove', who: 'nobody', can: [] },
      ],
    });
    const body = r.body as { findings: { kind: string; sentence: string }[] };
    expect(body.findings.map((f) => f.kind)).toEqual(['nobody', 'nobody', 'global_constant']);
    expect(body.findings[0]!.sentence).toBe('transfer fails on every path: nobody can call it.');
  });

  it('an unknown contract is a 404 with a message; a bad address too', async () => {
    const r = await get(`/v1/contract/${NET}/KT1UnknownContractxxxxxxxxxxxxxxxxxx/security`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ message: 'not found' });
    expect((await get(`/v1/contract/${NET}/nope/security`)).status).toBe(404);
  });

  it('is in the OpenAPI document', async () => {
    const r = await get('/v1/openapi.json');
    const paths = (r.body as { paths: Record<string, unknown> }).paths;
    expect(Object.keys(paths)).toContain('/v1/contract/{network}/{address}/security');
  });
});
