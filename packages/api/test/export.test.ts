import { describeDb } from '@michelscope/db/testing';
import { accountOperationsAll } from '@michelscope/db/read';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvField, mutezToTez, OPERATION_COLUMNS } from '../src/routes/export';
import { makeApi } from './helpers';
import { ALICE, NET, TOKEN, seedChain } from './seed';

describe('export fields', () => {
  it('writes mutez as tez with six decimals', () => {
    expect(mutezToTez('5000000')).toBe('5.000000');
    expect(mutezToTez('1')).toBe('0.000001');
    expect(mutezToTez('0')).toBe('0.000000');
    expect(mutezToTez('123456789012345678901')).toBe('123456789012345.678901');
    expect(mutezToTez('-2500000')).toBe('-2.500000');
    expect(mutezToTez('x')).toBe('');
  });

  it('quotes CSV fields and defuses spreadsheet formulas of chain strings', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('-12.5')).toBe('-12.5');
    expect(csvField(null)).toBe('');
    expect(csvField(false)).toBe('false');
  });
});

describeDb('operations export', ({ db }) => {
  let app: FastifyInstance;
  const get = (url: string) => app.inject({ method: 'GET', url });
  const base = `/v1/contract/${NET}/${TOKEN}/operations/export`;

  beforeAll(async () => {
    await seedChain(db());
    app = await makeApi(db());
  });
  afterAll(() => app.close());

  it('streams every operation of the account as CSV, newest first, amounts in mutez and tez', async () => {
    const r = await get(base);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/csv/);
    expect(r.headers['content-disposition']).toMatch(
      new RegExp(`attachment; filename="${TOKEN}-operations-`),
    );
    const lines = r.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(OPERATION_COLUMNS.map(([n]) => n).join(','));
    const rows = lines.slice(1).map((l) => l.split(','));
    const col = (name: string) => OPERATION_COLUMNS.findIndex(([n]) => n === name);
    // origination, transfer, internal event and transaction (level 2), failed call (3), remove (4)
    expect(rows.map((c) => c[col('level')])).toEqual(['4', '3', '2', '2', '2', '1']);
    const origination = rows.at(-1)!;
    expect(origination[col('kind')]).toBe('origination');
    expect(origination[col('source')]).toBe(ALICE);
    expect([origination[col('amount_mutez')], origination[col('amount_tez')]]).toEqual([
      '5000000',
      '5.000000',
    ]);
    expect([origination[col('fee_mutez')], origination[col('fee_tez')]]).toEqual(['1000', '0.001000']);
  });

  it('applies the filters and answers JSON', async () => {
    const failed = await get(`${base}?format=json&status=failed`);
    expect(failed.headers['content-type']).toMatch(/^application\/json/);
    const rows = JSON.parse(failed.body) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      level: 3,
      status: 'failed',
      entrypoint: 'transfer',
      fee_tez: '0.000500',
    });
    const removes = JSON.parse(
      (await get(`${base}?format=json&entrypoint=remove,nothing`)).body,
    ) as unknown[];
    expect(removes).toHaveLength(1);
    const none = JSON.parse(
      (await get(`${base}?format=json&from=${Date.parse('2030-01-01')}`)).body,
    ) as unknown[];
    expect(none).toEqual([]);
  });

  it('pages by id without repeating or losing a row', async () => {
    const ids: number[] = [];
    const f = { statuses: [], entrypoints: [], from: null, to: null };
    for await (const batch of accountOperationsAll(db(), NET, TOKEN, f, 2)) {
      expect(batch.length).toBeLessThanOrEqual(2);
      ids.push(...batch.map((r) => r.id));
    }
    expect(ids).toHaveLength(6);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('bad input: 400 / 404 with a message', async () => {
    const bad = await get(`${base}?status=applied,moved`);
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({ message: 'unknown status: moved' });
    expect((await get(`${base}?format=xml`)).statusCode).toBe(400);
    expect(
      (await get(`/v1/contract/${NET}/KT1UnknownContractxxxxxxxxxxxxxxxxxx/operations/export`)).statusCode,
    ).toBe(404);
    expect((await get(`/v1/contract/${NET}/nope/operations/export`)).statusCode).toBe(404);
  });
});
