// Storage and gas figures against what Octez recorded for store_input.tz (reference §6): a 41-byte
// origination, 7 bytes paid when "abcdefg" is stored, 578.254 gas to originate, 1279.192 to call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Parser } from '@taquito/michel-codec';
import { BOOTSTRAP_ACCOUNTS } from '../src/index';
import { openHarness, signedOperation, type Harness } from './helpers';

const b = BOOTSTRAP_ACCOUNTS[1]!;
let h: Harness;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(async () => {
  await h.close();
});

async function apply(content: Record<string, unknown>, counter: number) {
  const branch = (await h.get('/chains/main/blocks/head/hash')).body;
  const r = await h.post(
    '/injection/operation',
    await signedOperation(b.sk, branch, [
      {
        source: b.pkh,
        fee: '10000',
        counter: String(counter),
        gas_limit: '10000',
        storage_limit: '1000',
        ...content,
      },
    ]),
  );
  expect(r.status).toBe(200);
  return (await h.sandbox.bakeBlock()).operations[3]![0]!.contents[0]!.metadata!.operation_result;
}

describe('storage and gas calibration (store_input.tz)', () => {
  it('charges the bytes and about the gas Octez does', async () => {
    const code = new Parser().parseScript(
      'parameter string; storage string; code {CAR; NIL operation; PAIR}',
    );
    const orig = await apply(
      { kind: 'origination', balance: '0', script: { code, storage: { string: '' } } },
      1,
    );
    expect(orig.storage_size).toBe('41');
    expect(orig.balance_updates!.filter((u) => u.kind === 'burned').map((u) => u.change)).toEqual([
      '10250',
      '64250',
    ]);
    expect(Number(orig.consumed_milligas) / 1000).toBeGreaterThan(578.254 * 0.95);
    expect(Number(orig.consumed_milligas) / 1000).toBeLessThan(578.254 * 1.05);
    const call = await apply(
      {
        kind: 'transaction',
        amount: '0',
        destination: orig.originated_contracts![0],
        parameters: { entrypoint: 'default', value: { string: 'abcdefg' } },
      },
      2,
    );
    expect(call.paid_storage_size_diff).toBe('7');
    expect(call.balance_updates!.find((u) => u.kind === 'burned')!.change).toBe('1750');
    expect(Number(call.consumed_milligas) / 1000).toBeGreaterThan(1279.192 * 0.95);
    expect(Number(call.consumed_milligas) / 1000).toBeLessThan(1279.192 * 1.05);
  });
});
