// An internal call's parameter is already typed when the internal transaction is applied (Octez's
// script_interpreter.ml: `execute_with_typed_parameter`, a `Typed_arg` whose type is only compared with the
// entrypoint's): its receipt charges no decoding nor parsing of the value. A top-level call's parameter is
// decoded and parsed. So a contract that passes a string on to another pays, in the internal call's
// receipt, the same gas for a 1-byte and a 2,000-byte string.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Parser } from '@taquito/michel-codec';
import { BOOTSTRAP_ACCOUNTS } from '../src/index';
import type { InternalResult, OperationResult } from '../src/operation-types';
import { openHarness, signedOperation, type Harness } from './helpers';

const b = BOOTSTRAP_ACCOUNTS[2]!;
let h: Harness;
let counter = 0;
beforeAll(async () => {
  h = await openHarness();
  counter = Number((await h.get(`/chains/main/blocks/head/context/contracts/${b.pkh}/counter`)).body);
});
afterAll(async () => {
  await h.close();
});

async function apply(
  content: Record<string, unknown>,
): Promise<{ result: OperationResult; internal: InternalResult[] }> {
  const branch = (await h.get('/chains/main/blocks/head/hash')).body;
  const r = await h.post(
    '/injection/operation',
    await signedOperation(b.sk, branch, [
      {
        source: b.pkh,
        fee: '10000',
        counter: String(++counter),
        gas_limit: '20000',
        storage_limit: '1000',
        ...content,
      },
    ]),
  );
  expect(r.status).toBe(200);
  const c = (await h.sandbox.bakeBlock()).operations[3]![0]!.contents[0]!;
  return { result: c.metadata!.operation_result, internal: c.metadata!.internal_operation_results ?? [] };
}

const originate = async (src: string, storage: unknown) => {
  const code = new Parser().parseScript(src);
  const { result } = await apply({ kind: 'origination', balance: '0', script: { code, storage } });
  expect(result.status).toBe('applied');
  return result.originated_contracts![0]!;
};

describe("an internal call's parameter gas", () => {
  it('is the same for a short and a long string: only its type is compared, its value is not parsed', async () => {
    const receiver = await originate('parameter string; storage unit; code { CDR; NIL operation; PAIR }', {
      prim: 'Unit',
    });
    const relay = await originate(
      `parameter string; storage address;
       code { UNPAIR; DUP 2; CONTRACT string; IF_NONE { FAIL } {}; PUSH mutez 0; DIG 2; TRANSFER_TOKENS;
              NIL operation; SWAP; CONS; PAIR }`,
      { string: receiver },
    );
    const call = async (s: string) => {
      const r = await apply({
        kind: 'transaction',
        amount: '0',
        destination: relay,
        parameters: { entrypoint: 'default', value: { string: s } },
      });
      expect(r.result.status).toBe('applied');
      expect(r.internal).toHaveLength(1);
      expect(r.internal[0]!.result.status).toBe('applied');
      return {
        top: Number(r.result.consumed_milligas),
        internal: Number(r.internal[0]!.result.consumed_milligas),
      };
    };
    const short = await call('a');
    const long = await call('a'.repeat(2000));
    // the receiver's receipt: the same gas whatever the string's length
    expect(long.internal).toBe(short.internal);
    // the relay's: its external parameter is decoded (10 milligas a byte), the rest is the same
    expect(long.top - short.top).toBe(10 * 1999);
  });
});
