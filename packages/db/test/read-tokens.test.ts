import { afterAll, beforeAll, expect, it } from 'vitest';
import { countTokenMetadata, resolvedContractMetadata, tokenMetadataRows } from '../src/read/index';
import { DEEP_TOKEN_OFFSET } from '../src/read/tokens';
import { describeDb } from '../src/testing';

// PGlite and PostgreSQL: the token metadata reads of the legacy tokens routes (packages/api services/tokens).
describeDb('token metadata reads', { backends: 'both' }, ({ db }) => {
  const NET = 'sandboxnet';
  const KT = 'KT1TokenReadsTest';
  const token = (id: number, level: number, name: string | null) => ({
    network: NET,
    contract: KT,
    token_id: String(id),
    level,
    status: 3 as const,
    retry_count: 0,
    name,
    symbol: null,
    decimals: id,
    metadata: JSON.stringify({ name: `meta ${id}` }),
  });

  beforeAll(async () => {
    await db()
      .insertInto('token_metadata')
      .values([
        token(2, 20, 'two'),
        token(1, 10, 'one'),
        token(3, 30, null),
        { ...token(1, 5, 'x'), contract: 'KT1Other' },
      ])
      .execute();
    await db()
      .insertInto('contract_metadata')
      .values([
        {
          network: NET,
          address: KT,
          level: 1,
          status: 3,
          retry_count: 0,
          metadata: JSON.stringify({ name: 'resolved' }),
        },
        { network: NET, address: 'KT1Pending', level: 1, status: 1, retry_count: 0, metadata: null },
      ])
      .execute();
  });
  afterAll(async () => {
    await db().deleteFrom('token_metadata').execute();
    await db().deleteFrom('contract_metadata').execute();
  });

  it('tokenMetadataRows: by token id, one page, one token, a level range', async () => {
    const ids = async (f: Parameters<typeof tokenMetadataRows>[3]) =>
      (await tokenMetadataRows(db(), NET, KT, f)).map((r) => Number(r.token_id));
    expect(await ids({ size: 10, offset: 0 })).toEqual([1, 2, 3]);
    expect(await ids({ size: 1, offset: 1 })).toEqual([2]);
    expect(await ids({ size: 10, offset: 0, tokenId: 3 })).toEqual([3]);
    expect(await ids({ size: 10, offset: 0, minLevel: 10, maxLevel: 30 })).toEqual([1, 2]);
    // keyset: the tokens after an id (numeric order), with the other filters
    expect(await ids({ size: 10, offset: 0, afterTokenId: '1' })).toEqual([2, 3]);
    expect(await ids({ size: 1, offset: 0, afterTokenId: '1' })).toEqual([2]);
    expect(await ids({ size: 10, offset: 0, afterTokenId: '0', maxLevel: 30 })).toEqual([1, 2]);
    expect(await ids({ size: 10, offset: 0, afterTokenId: '3' })).toEqual([]);
    const [one] = await tokenMetadataRows(db(), NET, KT, { size: 1, offset: 0 });
    expect(one).toMatchObject({ contract: KT, level: 10, name: 'one', symbol: null, decimals: 1 });
    expect(one?.metadata).toEqual({ name: 'meta 1' });
  });

  it('countTokenMetadata and resolvedContractMetadata', async () => {
    expect(await countTokenMetadata(db(), NET, KT)).toBe(3);
    expect(await countTokenMetadata(db(), NET, 'KT1None')).toBe(0);
    expect(await resolvedContractMetadata(db(), NET, KT)).toEqual({ name: 'resolved' });
    expect(await resolvedContractMetadata(db(), NET, 'KT1Pending')).toBeNull();
    expect(await resolvedContractMetadata(db(), NET, 'KT1None')).toBeNull();
  });
  it('tokenMetadataRows: a deep page (offset ≥ DEEP_TOKEN_OFFSET, ids from the primary key first)', async () => {
    const many = 'KT1ManyTokens';
    const n = DEEP_TOKEN_OFFSET + 100;
    // inserted out of order: the page follows token ids (numeric: 2 before 10)
    const ids = Array.from({ length: n }, (_, i) => (i * 7919) % n);
    for (let i = 0; i < n; i += 500)
      await db()
        .insertInto('token_metadata')
        .values(
          ids.slice(i, i + 500).map((id) => ({ ...token(id, 1 + (id % 50), `t${id}`), contract: many })),
        )
        .execute();
    const page = async (f: Parameters<typeof tokenMetadataRows>[3]) =>
      (await tokenMetadataRows(db(), NET, many, f)).map((r) => Number(r.token_id));
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
    expect(await page({ size: 10, offset: DEEP_TOKEN_OFFSET - 5 })).toEqual(
      range(DEEP_TOKEN_OFFSET - 5, DEEP_TOKEN_OFFSET + 5),
    );
    expect(await page({ size: 10, offset: n - 4 })).toEqual(range(n - 4, n));
    expect(await page({ size: 10, offset: n })).toEqual([]);
    // keyset from deep in the list: numeric order past an id of more digits (999 < 1000 < 1001)
    expect(await page({ size: 3, offset: 0, afterTokenId: String(DEEP_TOKEN_OFFSET - 2) })).toEqual(
      range(DEEP_TOKEN_OFFSET - 1, DEEP_TOKEN_OFFSET + 2),
    );
    // with a level range: the offset counts the tokens in the range
    const inRange = range(0, n).filter((id) => 1 + (id % 50) >= 2 && 1 + (id % 50) < 50);
    expect(await page({ size: 5, offset: DEEP_TOKEN_OFFSET + 10, minLevel: 2, maxLevel: 50 })).toEqual(
      inRange.slice(DEEP_TOKEN_OFFSET + 10, DEEP_TOKEN_OFFSET + 15),
    );
    const [deep] = await tokenMetadataRows(db(), NET, many, { size: 1, offset: DEEP_TOKEN_OFFSET });
    expect(deep).toMatchObject({
      contract: many,
      name: `t${DEEP_TOKEN_OFFSET}`,
      metadata: { name: `meta ${DEEP_TOKEN_OFFSET}` },
    });
  });
});
