import { describeDb } from '@michelscope/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeApi } from './helpers';
import { ALICE, BOB, TOKEN, TWIN, seedChain } from './seed';

/** POST /v1/helpers/approve/data with our optional `spender` (the called contract) and without it. */
// PGlite only: API route logic over ordinary reads.
describeDb('token approval calls with and without a spender', { backends: 'pglite' }, ({ db }) => {
  let app: FastifyInstance;
  const post = async (payload: unknown) => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/helpers/approve/data',
      payload: payload as string,
    });
    return { status: res.statusCode, body: JSON.parse(res.body) as unknown };
  };
  const allowances = [
    { token_type: { schema_key: 1, token_contract: TOKEN, allowance: '12' } },
    { token_type: { schema_key: 2, token_contract: TWIN, owner: ALICE, token_id: 4 } },
  ];
  const fa12 = (spender: string, n: string) => ({
    entrypoint: 'approve',
    value: { prim: 'Pair', args: [{ string: spender }, { int: n }] },
    destination: TOKEN,
  });
  const fa2 = (operator: string, side: 'Left' | 'Right') => ({
    entrypoint: 'update_operators',
    value: [
      {
        prim: side,
        args: [
          {
            prim: 'Pair',
            args: [{ string: ALICE }, { prim: 'Pair', args: [{ string: operator }, { int: '4' }] }],
          },
        ],
      },
    ],
    destination: TWIN,
  });

  beforeAll(async () => {
    await seedChain(db());
    app = await makeApi(db());
  });
  afterAll(async () => {
    await app?.close();
  });

  it('makes the spender the FA1.2 spender and the FA2 operator', async () => {
    const spender = TOKEN.replace('KT1Token', 'KT1Spend');
    const res = await post({ spender, allowances });
    expect(res).toEqual({
      status: 200,
      body: {
        fa1_2: [{ allows: [fa12(spender, '12')], revokes: [fa12(spender, '0')] }],
        fa2: [{ allows: [fa2(spender, 'Left')], revokes: [fa2(spender, 'Right')] }],
      },
    });
    const implicit = await post({ spender: BOB, allowances: allowances.slice(0, 1) });
    expect(implicit.body).toEqual({
      fa1_2: [{ allows: [fa12(BOB, '12')], revokes: [fa12(BOB, '0')] }],
      fa2: [],
    });
  });

  it("keeps the reference's answer without a spender: the token contract itself", async () => {
    expect(await post({ allowances })).toEqual({
      status: 200,
      body: {
        fa1_2: [{ allows: [fa12(TOKEN, '12')], revokes: [fa12(TOKEN, '0')] }],
        fa2: [{ allows: [fa2(TWIN, 'Left')], revokes: [fa2(TWIN, 'Right')] }],
      },
    });
  });

  it("rejects a bad spender with the spec's text", async () => {
    expect(await post({ spender: 'KT1nope', allowances })).toEqual({
      status: 400,
      body: { message: 'invalid spender address: KT1nope' },
    });
    expect(await post({ spender: '', allowances: [] })).toEqual({
      status: 400,
      body: { message: 'invalid spender address: ' },
    });
  });
});
