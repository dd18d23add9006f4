import { ApproveSchema } from '@michelscope/api-types';
import { describeDb } from '@michelscope/db/testing';
import { Value } from '@sinclair/typebox/value';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { APPROVE_SCHEMA } from '../src/services/approve';
import { makeApi } from './helpers';
import { BOB, NET, TOKEN, TWIN, seedChain } from './seed';

const SCRIPT = `parameter (or (nat %deposit) (unit %withdraw));
storage (pair (address %owner) (map %balances address nat));
code { CDR; NIL operation; PAIR };`;

// PGlite only: API route logic over ordinary reads.
describeDb('actions without a node and rebuilt removed routes', { backends: 'pglite' }, ({ db }) => {
  let app: FastifyInstance;
  const req = async (
    method: 'GET' | 'POST',
    url: string,
    payload?: unknown,
    headers?: Record<string, string>,
  ) => {
    const res = await app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as string }),
    });
    return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as unknown) : undefined };
  };

  beforeAll(async () => {
    await seedChain(db());
    await db()
      .insertInto('token_metadata')
      .values({
        network: NET,
        contract: TOKEN,
        token_id: '7',
        level: 2,
        status: 3,
        name: 'Golden Pixel',
        symbol: 'GPX',
        decimals: 0,
        metadata: JSON.stringify({
          name: 'Golden Pixel',
          thumbnailUri: 'ipfs://thumb',
          isBooleanAmount: true,
          tags: ['art'],
        }),
      } as never)
      .execute();
    await db()
      .insertInto('contract_metadata')
      .values({
        network: NET,
        address: TOKEN,
        level: 1,
        status: 3,
        name: 'Pixel',
        metadata: JSON.stringify({ name: 'Pixel', version: '1' }),
      } as never)
      .execute();
    app = await makeApi(db());
  });
  afterAll(() => app.close());

  it('POST /michelson parses a file into the script and its storage form', async () => {
    const r = await req('POST', '/v1/michelson', SCRIPT, { 'content-type': 'text/plain' });
    expect(r.status).toBe(200);
    const body = r.body as {
      script: Array<{ prim: string }>;
      storage: { type: unknown[]; schema: { properties: object }; default_model: object };
    };
    expect(body.script.map((s) => s.prim)).toEqual(['parameter', 'storage', 'code']);
    expect(body.storage.type[0]).toMatchObject({
      type: 'pair',
      args: [
        { key: 'owner', value: 'address' },
        { key: 'balances', value: 'map(address, nat)' },
      ],
    });
    expect(Object.keys(body.storage.schema.properties)).toEqual(['owner', 'balances']);
    const asJson = await req('POST', '/v1/michelson', JSON.stringify(SCRIPT), {
      'content-type': 'application/json',
    });
    expect(asJson.status).toBe(200);
    const broken = await req('POST', '/v1/michelson', 'parameter (or nat', { 'content-type': 'text/plain' });
    expect(broken.status).toBe(400);
    const big = await req('POST', '/v1/michelson', `# ${'x'.repeat(1_000_001)}\n${SCRIPT}`, {
      'content-type': 'text/plain',
    });
    expect(big).toEqual({ status: 413, body: { message: 'Code file size should be less than 1MB' } });
  });

  it('POST /fork with a JSON script and storage data; form errors are 400', async () => {
    const parsed = (await req('POST', '/v1/michelson', SCRIPT, { 'content-type': 'text/plain' })).body as {
      script: unknown;
    };
    const storage = { owner: BOB, balances: [{ '@address_4': BOB, '@nat_5': 4 }] };
    const r = await req('POST', '/v1/fork', { script: JSON.stringify(parsed.script), storage });
    expect(r.status).toBe(200);
    expect((r.body as { storage: unknown }).storage).toEqual({
      prim: 'Pair',
      args: [{ string: BOB }, [{ prim: 'Elt', args: [{ string: BOB }, { int: '4' }] }]],
    });
    const bad = await req('POST', '/v1/fork', {
      script: JSON.stringify(parsed.script),
      storage: { owner: 'nope', balances: [] },
    });
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toContain('address');
    expect((await req('POST', '/v1/fork', { storage: {} })).status).toBe(400);
  });

  it('POST /diff aligns the code of two contracts line by line', async () => {
    const same = await req('POST', '/v1/diff', {
      left: { address: TOKEN, network: NET },
      right: { address: TWIN, network: NET },
    });
    expect(same.status).toBe(200);
    const d = (
      same.body as {
        diff: { left: unknown[][]; right: unknown[][]; added: number; removed: number; changed: number };
      }
    ).diff;
    expect(d).toMatchObject({ added: 0, removed: 0, changed: 0 });
    expect(d.left.length).toBe(d.right.length);
    expect(same.body).toMatchObject({ diff: { changed_entrypoints: [] } });
    const badProtocol = await req('POST', '/v1/diff', {
      left: { address: TOKEN, network: NET, protocol: 'PtUnknown' },
      right: { address: TWIN, network: NET },
    });
    expect(badProtocol).toMatchObject({ status: 400, body: { message: 'Unknown protocol: PtUnknown' } });
    expect(
      (
        await req('POST', '/v1/diff', {
          left: { address: TOKEN, network: NET },
          right: { address: 'KT1UnknownContractxxxxxxxxxxxxxxxxxx', network: NET },
        })
      ).status,
    ).toBe(404);
  });

  it('POST /off_chain_view gives the form of the first michelsonStorageView', async () => {
    const r = await req('POST', '/v1/off_chain_view', {
      name: 'balance',
      description: 'balance of',
      implementations: [
        { restApiQuery: {} },
        { michelsonStorageView: { parameter: { prim: 'address' }, returnType: { prim: 'nat' }, code: [] } },
      ],
    });
    expect(r.body).toMatchObject({
      name: 'balance',
      description: 'balance of',
      kind: 'off-chain',
      implementation: 1,
      typedef: [{ type: 'address' }],
    });
    expect((await req('POST', '/v1/off_chain_view', { name: 'x', implementations: [] })).body).toBeNull();
  });

  it('tokens, account metadata, mempool without a node, approval helpers', async () => {
    const tokens = (await req('GET', `/v1/contract/${NET}/${TOKEN}/tokens`)).body;
    expect(tokens).toEqual([
      {
        contract: TOKEN,
        network: NET,
        level: 2,
        token_id: 7,
        symbol: 'GPX',
        name: 'Golden Pixel',
        decimals: 0,
        thumbnail_uri: 'ipfs://thumb',
        is_boolean_amount: true,
        tags: ['art'],
      },
    ]);
    expect((await req('GET', `/v1/contract/${NET}/${TOKEN}/tokens/count`)).body).toEqual({ count: 1 });
    // keyset paging by token id
    const afterIds = async (q: string) =>
      (
        (await req('GET', `/v1/contract/${NET}/${TOKEN}/tokens?${q}`)).body as Array<{ token_id: number }>
      ).map((t) => t.token_id);
    expect(await afterIds('after=6')).toEqual([7]);
    expect(await afterIds('after=7')).toEqual([]);
    expect((await req('GET', `/v1/contract/${NET}/${TOKEN}/tokens?after=6&offset=1`)).status).toBe(400);
    expect((await req('GET', `/v1/contract/${NET}/${TOKEN}/tokens?after=-1`)).status).toBe(400);
    expect((await req('GET', `/v1/contract/${NET}/${TWIN}/tokens`)).body).toEqual([]);
    expect((await req('GET', `/v1/account/${NET}/${TOKEN}/metadata`)).body).toEqual({
      name: 'Pixel',
      version: '1',
    });
    expect((await req('GET', `/v1/account/${NET}/${TWIN}/metadata`)).status).toBe(204);
    expect((await req('GET', `/v1/contract/${NET}/${TOKEN}/mempool`)).body).toEqual([]);
    // the form schema goes through its response schema whole (the x-options and defaults included)
    const form = (await req('GET', '/v1/helpers/approve/schema')).body as ApproveSchema;
    expect(Value.Check(ApproveSchema, form)).toBe(true);
    expect(form).toEqual(APPROVE_SCHEMA);
    const [fa12, fa2] = form.properties.allowances.items.properties.token_type.oneOf;
    expect([
      fa12!.title,
      fa12!.properties.schemaKey.const,
      fa2!.title,
      fa2!.properties.schemaKey.const,
    ]).toEqual(['FA1.2', 1, 'FA2', 2]);
    expect(fa2!.properties.owner).toMatchObject({ prim: 'address', maxLength: 36 });
    expect(fa12!.properties.allowance).toMatchObject({ prim: 'nat', default: 0 });
    const data = await req('POST', '/v1/helpers/approve/data', {
      allowances: [
        { token_type: { schema_key: 1, token_contract: TOKEN, allowance: 5 } },
        { token_type: { schema_key: 2, token_contract: TWIN, owner: BOB, token_id: 3 } },
      ],
    });
    expect(data.body).toEqual({
      fa1_2: [
        {
          allows: [
            {
              entrypoint: 'approve',
              value: { prim: 'Pair', args: [{ string: TOKEN }, { int: '5' }] },
              destination: TOKEN,
            },
          ],
          revokes: [
            {
              entrypoint: 'approve',
              value: { prim: 'Pair', args: [{ string: TOKEN }, { int: '0' }] },
              destination: TOKEN,
            },
          ],
        },
      ],
      fa2: [
        {
          allows: [
            {
              entrypoint: 'update_operators',
              value: [
                {
                  prim: 'Left',
                  args: [
                    {
                      prim: 'Pair',
                      args: [{ string: BOB }, { prim: 'Pair', args: [{ string: TWIN }, { int: '3' }] }],
                    },
                  ],
                },
              ],
              destination: TWIN,
            },
          ],
          revokes: [
            {
              entrypoint: 'update_operators',
              value: [
                {
                  prim: 'Right',
                  args: [
                    {
                      prim: 'Pair',
                      args: [{ string: BOB }, { prim: 'Pair', args: [{ string: TWIN }, { int: '3' }] }],
                    },
                  ],
                },
              ],
              destination: TWIN,
            },
          ],
        },
      ],
    });
    const bad = await req('POST', '/v1/helpers/approve/data', {
      allowances: [{ token_type: { schema_key: 1, token_contract: 'KT1', allowance: 1 } }],
    });
    expect(bad).toEqual({ status: 400, body: { message: 'invalid token contract address: KT1' } });
    const badAmount = await req('POST', '/v1/helpers/approve/data', {
      allowances: [{ token_type: { schema_key: 1, token_contract: TOKEN, allowance: '-1' } }],
    });
    expect(badAmount).toEqual({ status: 400, body: { message: 'invalid allowance value: -1' } });
  });
});
