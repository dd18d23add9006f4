import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SANDBOX_ACCOUNTS } from './sandbox-accounts';
import { toTransferParams, rpcUrl, withMargin } from './sandbox-wallet';

describe('sandbox wallet', () => {
  it("offers exactly the sandbox chain's bootstrap accounts", () => {
    // Read as text: the web app must not depend on the sandbox package (DESIGN.md dependency rules).
    const source = readFileSync(
      path.resolve(import.meta.dirname, '../../../../../packages/sandbox/src/accounts.ts'),
      'utf8',
    );
    const listed = [...source.matchAll(/name: '(\w+)',\s*pkh: '(\w+)',\s*pk: '\w+',\s*sk: '(\w+)'/g)].map(
      (m) => [m[1], m[2], m[3]],
    );
    expect(listed).toHaveLength(5);
    expect(SANDBOX_ACCOUNTS.map((a) => [a.name, a.pkh, a.sk])).toEqual(listed);
  });
  it('turns a wallet transaction into Taquito transfer parameters in mutez', () => {
    const value = { prim: 'Pair', args: [{ string: 'x' }, { int: '1' }] };
    expect(
      toTransferParams({
        kind: 'transaction',
        destination: 'KT1x',
        amount: '25',
        parameters: { entrypoint: 'note', value },
      }),
    ).toEqual({
      to: 'KT1x',
      amount: 25,
      mutez: true,
      parameter: { entrypoint: 'note', value },
    });
    expect(() =>
      toTransferParams({
        kind: 'transaction',
        destination: 'KT1x',
        amount: '-1',
        parameters: { entrypoint: 'default', value },
      }),
    ).toThrow('Invalid amount: -1');
    expect(rpcUrl('sandboxnet', 'http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080/rpc/sandboxnet');
  });
  it('adds the batch margins to an estimate and pays the extra gas', () => {
    expect(withMargin({ gasLimit: 5409, storageLimit: 0, suggestedFeeMutez: 806 })).toEqual({
      gasLimit: 6409,
      storageLimit: 100,
      fee: 906,
    });
    expect(withMargin(undefined)).toEqual({});
  });
});
