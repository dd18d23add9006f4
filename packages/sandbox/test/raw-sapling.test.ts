// The raw-context path of a Sapling state's bytes and memo size (Octez Storage.Sapling: sapling/index/<id>/…),
// which the debug worker's chain bridge reads for the what-if's storage accounting (issue 35), as the node
// serves it: the state a contract's origination allocated, and 404 for a state that does not exist.
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
const SAPLING = 'parameter unit; storage (sapling_state 8); code { CDR; NIL operation; PAIR }';

describe('raw context: Sapling states', () => {
  it('serves total_bytes and memo_size of a state, 404 for none', async () => {
    const { hash, contents } = await run([
      { kind: 'origination', balance: '0', script: { code: parser.parseScript(SAPLING), storage: [] } },
    ]);
    expect(contents[0].metadata.operation_result.status).toBe('applied');
    const kt1 = originatedAddress(hash, 0);
    const id = (await h.get(`/chains/main/blocks/head/context/contracts/${kt1}/storage`)).body.int;
    const raw = `/chains/main/blocks/head/context/raw/json/sapling/index`;
    // no notes yet (no SAPLING_VERIFY_UPDATE succeeds here): 0 bytes
    expect((await h.get(`${raw}/${id}/total_bytes`)).body).toBe('0');
    expect((await h.get(`${raw}/${id}/memo_size`)).body).toBe(8);
    expect((await h.get(`${raw}/999999/total_bytes`)).status).toBe(404);
  });
});
