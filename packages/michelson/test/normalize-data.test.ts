// normalizeData: Octez's normalize_data (lib_plugin/RPC.ml, Normalize_data), with the figures of Octez's tezt
// regressions (tezt/tests/expected/normalize.ml, contract_storage_normalization.ml) where they exist.
import { describe, expect, it } from 'vitest';
import { formatMichelson } from '../src/format';
import type { Micheline } from '../src/micheline-core';
import { parseMichelsonExpression } from '../src/micheline';
import { normalizeData, type UnparsingMode } from '../src/normalize-data';

const m = (src: string): Micheline => parseMichelsonExpression(src);
const norm = (type: string, data: string, mode: UnparsingMode): string =>
  formatMichelson(normalizeData(m(type), m(data), mode));

const TZ1 = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
const TZ1_BYTES = '0x000002298c03ed7d454a101eb7022bc95f7e5f41ac78';
// run_code's dummy contract, whose bytes Octez's TZT runner prints (tzt regression output, createcontract_00)
const KT1 = 'KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi';
const KT1_BYTES = '0x011d23c1d3d2f8a4ea5e8784b8f7ecf2ad304c0fe600';

describe('normalizeData (Octez normalize_data)', () => {
  it('combs in each mode: tezt "Test normalize in unparsing mode"', () => {
    const data = '{Pair 0 3 6 9; Pair 1 (Pair 4 (Pair 7 10)); {2; 5; 8; 11}}';
    const type = 'list (pair nat nat nat nat)';
    expect(norm(type, data, 'Readable')).toBe('{ Pair 0 3 6 9 ; Pair 1 4 7 10 ; Pair 2 5 8 11 }');
    expect(norm(type, data, 'Optimized')).toBe(
      '{ { 0 ; 3 ; 6 ; 9 } ; { 1 ; 4 ; 7 ; 10 } ; { 2 ; 5 ; 8 ; 11 } }',
    );
    expect(normalizeData(m(type), m(data), 'Optimized_legacy')).toEqual(
      m('{ Pair 0 (Pair 3 (Pair 6 9)) ; Pair 1 (Pair 4 (Pair 7 10)) ; Pair 2 (Pair 5 (Pair 8 11)) }'),
    );
  });

  it('a storage with an address: tezt contract_storage_normalization', () => {
    const type = 'pair address unit unit unit';
    const readable = `Pair "${TZ1}" Unit Unit Unit`;
    expect(norm('address', `"${TZ1}"`, 'Optimized')).toBe(TZ1_BYTES);
    expect(norm(type, readable, 'Readable')).toBe(readable);
    expect(norm(type, readable, 'Optimized')).toBe(`{ ${TZ1_BYTES} ; Unit ; Unit ; Unit }`);
    expect(norm(type, readable, 'Optimized_legacy')).toBe(`Pair ${TZ1_BYTES} (Pair Unit (Pair Unit Unit))`);
    // and back from the receipts' form
    expect(norm(type, `{ ${TZ1_BYTES} ; Unit ; Unit ; Unit }`, 'Readable')).toBe(readable);
  });

  it('a comb of 3 is nested in Optimized, flat in Readable; a 2-element sequence becomes a Pair', () => {
    expect(norm('pair nat nat nat', '{ 1 ; 2 ; 3 }', 'Optimized')).toBe('Pair 1 (Pair 2 3)');
    expect(norm('pair nat nat nat', '{ 1 ; 2 ; 3 }', 'Readable')).toBe('Pair 1 2 3');
    expect(norm('pair nat nat', '{ 1 ; 2 }', 'Optimized')).toBe('Pair 1 2');
    // a left comb is not flattened
    expect(norm('pair (pair nat nat) nat', 'Pair (Pair 1 2) 3', 'Readable')).toBe('Pair (Pair 1 2) 3');
  });

  it('scalars: addresses with entrypoints, keys, signatures, chain ids, timestamps', () => {
    expect(norm('address', `"${KT1}"`, 'Optimized')).toBe(KT1_BYTES);
    expect(norm('contract nat', `${KT1_BYTES}`, 'Readable')).toBe(`"${KT1}"`);
    // "%foo" is written after the 22 bytes; "%default" is not an entrypoint in an address
    expect(norm('address', `"${KT1}%foo"`, 'Optimized')).toBe(`${KT1_BYTES}666f6f`);
    expect(norm('address', `${KT1_BYTES}666f6f`, 'Readable')).toBe(`"${KT1}%foo"`);
    expect(norm('address', `"${KT1}%default"`, 'Optimized')).toBe(`"${KT1}%default"`);
    expect(norm('key_hash', `"${TZ1}"`, 'Optimized')).toBe(`0x${TZ1_BYTES.slice(4)}`);
    const edpk = 'edpkuBknW28nW72KG6RoHtYW7p12T6GKc7nAbwYX5m8Wd9sDVC9yav';
    const edpkBytes = '0x004798d2cc98473d7e250c898885718afd2e4efbcb1a1595ab9730761ed830de0f';
    expect(norm('key', `"${edpk}"`, 'Optimized')).toBe(edpkBytes);
    expect(norm('key', edpkBytes, 'Readable')).toBe(`"${edpk}"`);
    expect(norm('chain_id', '"NetXdQprcVkpaWU"', 'Optimized')).toBe('0x7a06a770');
    expect(norm('chain_id', '0x7a06a770', 'Readable')).toBe('"NetXdQprcVkpaWU"');
    // 64 signature bytes are printed as a generic sig… (Signature.of_bytes), whose bytes are the same
    const edsig =
      'edsigthTzJ8X7MPmNeEwybRAvdxS1pupqcM5Mk4uCuyZAe7uEk68YpuGDeViW8wSXMrCi5CwoNgqs8V2w8ayB5dMJzrYCHhD8C7';
    const sigBytes = norm('signature', `"${edsig}"`, 'Optimized');
    expect(sigBytes).toMatch(/^0x[0-9a-f]{128}$/);
    const generic = norm('signature', sigBytes, 'Readable');
    expect(generic).toMatch(/^"sig/);
    expect(norm('signature', generic, 'Optimized')).toBe(sigBytes);
    expect(norm('timestamp', '"2019-09-26T10:59:51Z"', 'Optimized')).toBe('1569495591');
    expect(norm('timestamp', '1569495591', 'Readable')).toBe('"2019-09-26T10:59:51Z"');
    expect(norm('timestamp', '"2019-09-26T12:59:51+02:00"', 'Readable')).toBe('"2019-09-26T10:59:51Z"');
    expect(norm('timestamp', '"100"', 'Readable')).toBe('"1970-01-01T00:01:40Z"');
    // beyond year 9999 Octez keeps the number
    expect(norm('timestamp', '253402300800', 'Readable')).toBe('253402300800');
  });

  it('maps, big maps (literal, id, id with updates), options, ors, tickets and lambdas', () => {
    expect(norm('map address nat', `{ Elt "${TZ1}" 1 }`, 'Optimized')).toBe(`{ Elt ${TZ1_BYTES} 1 }`);
    expect(norm('big_map address nat', '7', 'Readable')).toBe('7');
    expect(
      norm('big_map address nat', `Pair 7 { Elt ${TZ1_BYTES} (Some 1) ; Elt "x" None }`, 'Readable'),
    ).toBe(`Pair 7 { Elt "${TZ1}" (Some 1) ; Elt "x" None }`);
    expect(norm('option (or nat address)', `Some (Right ${KT1_BYTES})`, 'Readable')).toBe(
      `Some (Right "${KT1}")`,
    );
    expect(norm('ticket string', `Pair ${KT1_BYTES} (Pair "Blue" 42)`, 'Readable')).toBe(
      `Pair "${KT1}" "Blue" 42`,
    );
    expect(norm('ticket string', `Ticket "${KT1}" string "Blue" 42`, 'Optimized')).toBe(
      `Pair ${KT1_BYTES} (Pair "Blue" 42)`,
    );
    // PUSH of a packable type only (a big_map is not one)
    const code = (addr: string) => m(`{ DROP ; PUSH address ${addr} ; PUSH (big_map nat nat) {} ; DROP }`);
    expect(normalizeData(m('lambda unit address'), code(`"${KT1}"`), 'Optimized')).toEqual(code(KT1_BYTES));
  });

  it('never fails on ill-typed data: what does not match is kept as it is', () => {
    expect(norm('address', '"not an address"', 'Optimized')).toBe('"not an address"');
    expect(norm('address', '0x0102', 'Readable')).toBe('0x0102');
    expect(norm('pair nat address', '7', 'Readable')).toBe('7');
    expect(norm('pair nat address', `Pair %a 1 ${KT1_BYTES}`, 'Readable')).toBe(`Pair %a 1 ${KT1_BYTES}`);
    expect(norm('list address', `{ ${KT1_BYTES} ; Unit }`, 'Readable')).toBe(`{ "${KT1}" ; Unit }`);
    expect(() => normalizeData(m('pair nat'), m('1'), 'Readable')).toThrow();
  });
});
