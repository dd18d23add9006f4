// Big maps passed to another contract: as in Octez, the caller copies them to a temporary negative
// id (reported in its receipt), the receiver copies that one to a fresh id, and temporaries are
// dropped at the end of the operation and cost nobody storage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Parser } from '@taquito/michel-codec';
import { BOOTSTRAP_ACCOUNTS } from '../src/index';
import { originatedAddress } from '../src/execute';
import { groupInjector, openHarness, type Harness } from './helpers';

const b2 = BOOTSTRAP_ACCOUNTS[1]!;
const parser = new Parser();
let h: Harness;

beforeAll(async () => {
  h = await openHarness();
});
afterAll(async () => {
  await h.close();
});

const run = groupInjector(() => h, b2);

const RECEIVER = 'parameter (big_map nat nat); storage (big_map nat nat); code { CAR; NIL operation; PAIR }';
const SENDER = `parameter address; storage (big_map nat nat);
  code { UNPAIR; CONTRACT (big_map nat nat); IF_NONE { PUSH string "no"; FAILWITH } {};
         PUSH mutez 0; DIG 2; DUP; DUG 3; TRANSFER_TOKENS; NIL operation; SWAP; CONS; PAIR }`;

async function originate(src: string, storage: unknown): Promise<string> {
  const { hash, contents } = await run([
    { kind: 'origination', balance: '0', script: { code: parser.parseScript(src), storage } },
  ]);
  expect(contents[0].metadata.operation_result.status).toBe('applied');
  return originatedAddress(hash, 0);
}

describe('big maps passed to other contracts', () => {
  it('go through a temporary negative id that is dropped after the operation', async () => {
    const receiver = await originate(RECEIVER, []);
    const sender = await originate(SENDER, [{ prim: 'Elt', args: [{ int: '1' }, { int: '10' }] }]);
    const senderMap = (await h.get(`/chains/main/blocks/head/context/contracts/${sender}/storage`)).body.int;
    const senderSize = (
      await h.get(`/chains/main/blocks/head/context/contracts/${sender}/storage/used_space`)
    ).body;

    const { contents } = await run([
      {
        kind: 'transaction',
        amount: '0',
        destination: sender,
        parameters: { entrypoint: 'default', value: { string: receiver } },
      },
    ]);
    const top = contents[0].metadata.operation_result;
    expect(top.status).toBe('applied');
    expect(top.lazy_storage_diff).toEqual(
      expect.arrayContaining([
        { kind: 'big_map', id: '-1', diff: { action: 'copy', source: senderMap, updates: [] } },
      ]),
    );
    // The caller pays nothing for the temporary copy.
    expect(top.paid_storage_size_diff).toBeUndefined();
    expect(
      (await h.get(`/chains/main/blocks/head/context/contracts/${sender}/storage/used_space`)).body,
    ).toBe(senderSize);

    const inner = contents[0].metadata.internal_operation_results[0].result;
    expect(inner.status).toBe('applied');
    const received = (await h.get(`/chains/main/blocks/head/context/contracts/${receiver}/storage`)).body.int;
    expect(Number(received)).toBeGreaterThanOrEqual(0);
    expect(received).not.toBe(senderMap);
    expect(inner.lazy_storage_diff).toEqual(
      expect.arrayContaining([
        { kind: 'big_map', id: received, diff: { action: 'copy', source: '-1', updates: [] } },
      ]),
    );
    // The copy holds the values; the temporary is gone from the context.
    const values = (await h.get(`/chains/main/blocks/head/context/big_maps/${received}?offset=0&length=10`))
      .body;
    expect(values).toEqual([{ int: '10' }]);
    expect(
      (await h.get('/chains/main/blocks/head/context/raw/json/big_maps/index/-1/total_bytes')).status,
    ).toBe(404);
    // A second call reuses -1 (temporaries count from -1 again in each operation).
    const again = await run([
      {
        kind: 'transaction',
        amount: '0',
        destination: sender,
        parameters: { entrypoint: 'default', value: { string: receiver } },
      },
    ]);
    expect(again.contents[0].metadata.operation_result.lazy_storage_diff).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: '-1' })]),
    );
  });
});
