import { MetadataGraphqlErrors, MetadataGraphqlResponse } from '@michelscope/api-types';
import { describeDb } from '@michelscope/db/testing';
import { Value } from '@sinclair/typebox/value';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeApi } from './helpers';

// The queries the web client sends (apps/web/src/api/contract-metadata-api.ts).
const FIELDS = 'network contract error link metadata status retry_count';
const CONTRACT_QUERY = `query GetContractMetadata($network: String!, $contract: String!) {
  contract_metadata(where: {network: {_eq: $network}, contract: {_eq: $contract}}, limit: 1) { ${FIELDS} }
}`;
const TOKENS_QUERY = `query GetTokenMetadata($network: String!, $contract: String!, $limit: Int!, $offset: Int!) {
  token_metadata(where: {network: {_eq: $network}, contract: {_eq: $contract}}, order_by: {token_id: asc}, limit: $limit, offset: $offset) { token_id ${FIELDS} }
}`;
const TOKENS_AFTER_QUERY = `query GetTokenMetadataAfter($network: String!, $contract: String!, $limit: Int!, $after: String!) {
  token_metadata(where: {network: {_eq: $network}, contract: {_eq: $contract}, token_id: {_gt: $after}}, order_by: {token_id: asc}, limit: $limit) { token_id ${FIELDS} }
}`;
const FIND_TOKENS_QUERY = `query FindTokenMetadata($network: String!, $contract: String!, $name: String!, $limit: Int!) {
  token_metadata(where: {network: {_eq: $network}, contract: {_eq: $contract}, _or: [{metadata: {_cast: {String: {_ilike: $name}}}}, {token_id: {_eq: $name}}]}, order_by: {token_id: asc}, limit: $limit) { token_id ${FIELDS} }
}`;

const NFT = 'KT1NftCollection0000000000000000000000';
const OTHER = 'KT1OtherCollection00000000000000000000';
const BIG_ID = '340282366920938463463374607431768211455';

type Body = { data?: Record<string, Record<string, unknown>[]>; errors?: { message: string }[] };

// PGlite only: GraphQL route logic over ordinary reads.
describeDb('metadata GraphQL', { backends: 'pglite' }, ({ db }) => {
  let app: FastifyInstance;
  const post = async (payload: unknown, headers: Record<string, string> = {}) => {
    const res = await app.inject({
      method: 'POST',
      url: '/metadata/v1/graphql',
      headers: { 'content-type': 'application/json', ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
    return { status: res.statusCode, type: res.headers['content-type'], body: JSON.parse(res.body) as Body };
  };

  beforeAll(async () => {
    const token = (contract: string, id: string, name: string | null, status: 1 | 2 | 3, extra = {}) => ({
      network: 'mainnet',
      contract,
      token_id: id,
      level: 5,
      status,
      link: name ? `ipfs://${id}` : null,
      metadata: name ? JSON.stringify({ name, decimals: '0' }) : null,
      ...extra,
    });
    await db()
      .insertInto('token_metadata')
      .values([
        token(NFT, '10', 'Blue Whale', 3),
        token(NFT, '2', 'Red Fox', 3),
        token(NFT, '1', 'Green Frog', 3),
        token(NFT, BIG_ID, 'Huge Id', 3),
        token(NFT, '3', null, 2, { error: 'ipfs timeout', retry_count: 4 }),
        token(OTHER, '1', 'Blue Jay', 3),
        { ...token(NFT, '7', 'Ghost Blue', 3), network: 'ghostnet' },
      ] as never)
      .execute();
    await db()
      .insertInto('contract_metadata')
      .values([
        {
          network: 'mainnet',
          address: NFT,
          level: 4,
          status: 3,
          link: 'tezos-storage:meta',
          metadata: JSON.stringify({ name: 'Zoo' }),
          retry_count: 0,
        },
        { network: 'mainnet', address: OTHER, level: 4, status: 1, link: 'ipfs://x', retry_count: 2 },
      ] as never)
      .execute();
    app = await makeApi(db());
  });
  afterAll(() => app?.close());

  it('answers GetContractMetadata like the web client expects', async () => {
    const r = await post({ query: CONTRACT_QUERY, variables: { network: 'mainnet', contract: NFT } });
    expect(r.status).toBe(200);
    expect(r.type).toContain('application/json');
    expect(r.body.errors).toBeUndefined();
    // the documented response schema (api-types), which the web reads the answer with
    expect([...Value.Errors(MetadataGraphqlResponse, r.body)].map((e) => e.path)).toEqual([]);
    expect(r.body.data?.contract_metadata).toEqual([
      {
        network: 'mainnet',
        contract: NFT,
        error: null,
        link: 'tezos-storage:meta',
        metadata: { name: 'Zoo' },
        status: 3,
        retry_count: 0,
      },
    ]);
    const none = await post({ query: CONTRACT_QUERY, variables: { network: 'ghostnet', contract: NFT } });
    expect(none.body.data?.contract_metadata).toEqual([]);
  });

  it('FindTokenMetadata with $token_id: [numeric] (BCD frontend) or [String] (DipDup), as Hasura accepts', async () => {
    for (const type of ['[numeric]', '[String]']) {
      // the BCD frontend's token_metadata.js query, with its variable type
      const query = `query FindTokenMetadata($address: String, $network: String, $token_id: ${type}) {
        token_metadata(
            where: {
              token_id: {_in: $token_id},
              contract: {_eq: $address},
              network: {_eq: $network}
            }
          ) {
            network
            contract
            token_id
          }
        }`;
      const r = await post({
        query,
        variables: {
          address: NFT,
          network: 'mainnet',
          token_id: type === '[numeric]' ? [1, '10', BIG_ID] : ['1', '10', BIG_ID],
        },
      });
      expect(r.body.errors, type).toBeUndefined();
      expect((r.body.data?.token_metadata ?? []).map((t) => t.token_id).sort(), type).toEqual(
        ['1', '10', BIG_ID].sort(),
      );
    }
    // other position mismatches stay errors
    const bad = await post({
      query: 'query Q($n: Int) { token_metadata(where: {network: {_eq: $n}}) { token_id } }',
      variables: { n: 1 },
    });
    expect(bad.body.errors?.[0]?.message).toMatch(/used in position expecting type/);
  });

  it('pages GetTokenMetadata in numeric token_id order, ids as decimal strings', async () => {
    const page = async (limit: number, offset: number) =>
      (await post({ query: TOKENS_QUERY, variables: { network: 'mainnet', contract: NFT, limit, offset } }))
        .body.data?.token_metadata ?? [];
    const first = await page(3, 0);
    const whole = await post({
      query: TOKENS_QUERY,
      variables: { network: 'mainnet', contract: NFT, limit: 10, offset: 0 },
    });
    expect(whole.body.data?.token_metadata).toHaveLength(5);
    expect([...Value.Errors(MetadataGraphqlResponse, whole.body)].map((e) => e.path)).toEqual([]);
    expect(first.map((t) => t.token_id)).toEqual(['1', '2', '3']);
    expect(first[2]).toMatchObject({
      status: 2,
      error: 'ipfs timeout',
      retry_count: 4,
      metadata: null,
      link: null,
    });
    expect((await page(3, 3)).map((t) => t.token_id)).toEqual(['10', BIG_ID]);
    expect(await page(3, 6)).toEqual([]);
    // the web's keyset page: token_id above the last one shown, compared as a number (10 after 3, not '3' < '10')
    const after = async (id: string) =>
      (
        (
          await post({
            query: TOKENS_AFTER_QUERY,
            variables: { network: 'mainnet', contract: NFT, limit: 3, after: id },
          })
        ).body.data?.token_metadata ?? []
      ).map((t) => t.token_id);
    expect(await after('3')).toEqual(['10', BIG_ID]);
    expect(await after('1')).toEqual(['2', '3', '10']);
    expect(await after(BIG_ID)).toEqual([]);
  });

  it('FindTokenMetadata matches a name inside the metadata or an exact token id', async () => {
    const find = async (name: string) =>
      (
        (
          await post({
            query: FIND_TOKENS_QUERY,
            variables: { network: 'mainnet', contract: NFT, name, limit: 20 },
          })
        ).body.data?.token_metadata ?? []
      ).map((t) => t.token_id);
    expect(await find('%blue%')).toEqual(['10']); // case-insensitive, not OTHER's Blue Jay nor the ghostnet token
    expect(await find('2')).toEqual(['2']);
    expect(await find(BIG_ID)).toEqual([BIG_ID]);
    expect(await find('%nothing%')).toEqual([]);
  });

  it('filters with _in and status, caps limit at 1000, and accepts GET', async () => {
    const r = await post({
      query: `{ token_metadata(where: {contract: {_in: ["${NFT}", "${OTHER}"]}, status: {_eq: 3}, token_id: {_in: ["1", "x"]}}, limit: 100000) { contract token_id } }`,
    });
    expect(r.status).toBe(200);
    expect(r.body.data?.token_metadata).toEqual([
      { contract: NFT, token_id: '1' },
      { contract: OTHER, token_id: '1' },
    ]);
    const q = encodeURIComponent(
      'query($s: Int!) { contract_metadata(where: {status: {_eq: $s}}) { contract retry_count } }',
    );
    const v = encodeURIComponent(JSON.stringify({ s: 1 }));
    const get = await app.inject({ method: 'GET', url: `/metadata/v1/graphql?query=${q}&variables=${v}` });
    expect(get.statusCode).toBe(200);
    expect(JSON.parse(get.body)).toEqual({
      data: { contract_metadata: [{ contract: OTHER, retry_count: 2 }] },
    });
  });

  it('answers malformed requests with 400 {errors:[{message}]}', async () => {
    for (const payload of [
      '{not json',
      {},
      { query: 42 },
      { query: '{ token_metadata { network } }', variables: [1] },
    ]) {
      const r = await post(payload);
      expect(r.status, JSON.stringify(payload)).toBe(400);
      expect(r.body.errors?.[0]?.message).toEqual(expect.any(String));
      expect(r.body.data).toBeUndefined();
      expect(Value.Check(MetadataGraphqlErrors, r.body), JSON.stringify(r.body)).toBe(true);
    }
  });

  it('answers invalid documents with errors: 200 for application/json, 400 for graphql-response+json', async () => {
    const bad = [
      '{ token_metadata { nope } }',
      '{ token_metadata(',
      'mutation { token_metadata { network } }',
      `{ token_metadata(where: ${'{_or: ['.repeat(20)}{}${']}'.repeat(20)}) { network } }`,
      `{ ${Array.from({ length: 11 }, (_, i) => `a${i}: contract_metadata { network }`).join(' ')} }`,
      'x'.repeat(30_000),
    ];
    for (const query of bad) {
      const r = await post({ query });
      expect(r.status, query.slice(0, 60)).toBe(200);
      expect(r.body.errors?.length).toBeGreaterThan(0);
      expect(r.body.data).toBeUndefined();
      const strict = await post({ query }, { accept: 'application/graphql-response+json' });
      expect(strict.status).toBe(400);
      expect(strict.type).toContain('application/graphql-response+json');
    }
    const neg = await post({ query: '{ token_metadata(limit: -1) { network } }' });
    expect(neg.status).toBe(200);
    expect(neg.body.errors?.[0]?.message).toContain('limit');
    const nul = await post({ query: '{ token_metadata(where: {network: {_eq: "a\\u0000b"}}) { network } }' });
    expect(nul.status).toBe(200);
    expect(nul.body.errors?.[0]?.message).toContain('NUL');
    const vars = await post({ query: TOKENS_QUERY, variables: { network: 'mainnet' } });
    expect(vars.status).toBe(200);
    expect(vars.body.errors?.[0]?.message).toContain('$contract');
  });
});
