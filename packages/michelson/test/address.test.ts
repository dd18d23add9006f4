import { b58Encode, PrefixV2 } from '@taquito/utils';
import { describe, expect, it } from 'vitest';
import {
  ADDRESS_PATTERN,
  ADDRESS_PREFIXES,
  CONTRACT_PATTERN,
  OPERATION_HASH_PATTERN,
  SCRIPT_EXPR_PATTERN,
  SMART_ROLLUP_PATTERN,
  isAddress,
  isContractAddress,
  isImplicitAddress,
  isOperationHash,
  isScriptExprHash,
  isSmartRollupAddress,
} from '../src/address';

/** [what, address, valid]; apps/web/src/shared/chain/patterns.test.ts checks the web's pattern on the same. */
const ADDRESS_CASES: readonly (readonly [string, string, boolean])[] = [
  ['tz1', 'tz1L9r8mWmRPndRhuvMCWESLGSVeFzQ9NAWx', true],
  ['tz2', 'tz2BFTyPeYRzxd5aiBchbXN3WCZhx7BqbMBq', true],
  ['tz3', 'tz3WXYtyDUNL91qfiCJtVUX746QpNv5i5ve5', true],
  ['tz4', 'tz4C7jT2XURsPLCdkgV3a6MzuP7wMQ2oS1xe', true],
  ['KT1', 'KT1JVErLYTgtY8uGGZ4mso2npTSxqVLDRVbC', true],
  ['sr1', 'sr17bar6JpYEpsAmkR4MDYUDwxpSiX4RKUH8', true],
  ['txr1', 'txr1MZ1FF3APJ5q83Hx3JfdvSdR4iHvzfeWNV', true],
  ['KT2 (no such prefix)', 'KT2JVErLYTgtY8uGGZ4mso2npTSxqVLDRVbC', false],
  ['tz5 (no such prefix)', 'tz5L9r8mWmRPndRhuvMCWESLGSVeFzQ9NAWx', false],
  ['sr2 (no such prefix)', 'sr27bar6JpYEpsAmkR4MDYUDwxpSiX4RKUH8', false],
  ['KT1 with an entrypoint', 'KT1JVErLYTgtY8uGGZ4mso2npTSxqVLDRVbC%transfer', false],
  ['KT1 one character short', 'KT1JVErLYTgtY8uGGZ4mso2npTSxqVLDRVb', false],
  ['KT1 one character long', 'KT1JVErLYTgtY8uGGZ4mso2npTSxqVLDRVbCC', false],
  ['not base58 (0)', 'tz1L9r8mWmRPndRhuvMCWESLGSVeFzQ9NAW0', false],
  ['surrounding spaces', ' tz1L9r8mWmRPndRhuvMCWESLGSVeFzQ9NAWx ', false],
  ['empty', '', false],
  ['an operation hash', 'oo6JPEAy8VuMRGaFuMmLNFFGdJgiaKfnmT1CpHJfKP3Ye5ZahiP', false],
  ['tz1 bad checksum', 'tz1L9r8mWmRPndRhuvMCWESLGSVeFzQ9NAWy', false],
  ['KT1 bad checksum', 'KT1JVErLYTgtY8uGGZ4mso2npTSxqVLDRVbD', false],
  ['tz4 bad checksum', 'tz4C7jT2XURsPLCdkgV3a6MzuP7wMQ2oS1xf', false],
  ['sr1 bad checksum', 'sr17bar6JpYEpsAmkR4MDYUDwxpSiX4RKUH9', false],
  ['txr1 bad checksum', 'txr1MZ1FF3APJ5q83Hx3JfdvSdR4iHvzfeWNW', false],
];

describe('address and hash validator', () => {
  it.each(ADDRESS_CASES)('%s: %s', (_what, value, valid) => expect(isAddress(value)).toBe(valid));

  it('ADDRESS_PATTERN is the same check but for the checksum', () => {
    for (const [what, value, valid] of ADDRESS_CASES)
      expect(ADDRESS_PATTERN.test(value), what).toBe(valid || what.endsWith('bad checksum'));
  });

  it('the other patterns match what their functions accept', () => {
    const sr1 = b58Encode('11'.repeat(20), PrefixV2.SmartRollupHash);
    expect(CONTRACT_PATTERN.test('KT1JVErLYTgtY8uGGZ4mso2npTSxqVLDRVbC')).toBe(true);
    expect(CONTRACT_PATTERN.test('KT2JVErLYTgtY8uGGZ4mso2npTSxqVLDRVbC')).toBe(false);
    expect([SMART_ROLLUP_PATTERN.test(sr1), isSmartRollupAddress(sr1)]).toEqual([true, true]);
    expect(OPERATION_HASH_PATTERN.test('oo6JPEAy8VuMRGaFuMmLNFFGdJgiaKfnmT1CpHJfKP3Ye5ZahiP')).toBe(true);
    expect(SCRIPT_EXPR_PATTERN.test('exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC')).toBe(true);
  });

  it('accepts one address of each kind of ADDRESS_PREFIXES', () => {
    const valid = ADDRESS_CASES.filter(([, , ok]) => ok).map(([, v]) => v);
    for (const p of ADDRESS_PREFIXES)
      expect(
        valid.some((v) => v.startsWith(p)),
        p,
      ).toBe(true);
  });

  it('tells the kinds apart', () => {
    const tz1 = 'tz1L9r8mWmRPndRhuvMCWESLGSVeFzQ9NAWx';
    const kt1 = 'KT1JVErLYTgtY8uGGZ4mso2npTSxqVLDRVbC';
    const sr1 = b58Encode('11'.repeat(20), PrefixV2.SmartRollupHash);
    expect([isImplicitAddress(tz1), isImplicitAddress(kt1)]).toEqual([true, false]);
    expect([isContractAddress(kt1), isContractAddress(tz1), isContractAddress(`${kt1}%a`)]).toEqual([
      true,
      false,
      false,
    ]);
    expect([isSmartRollupAddress(sr1), isSmartRollupAddress(kt1)]).toEqual([true, false]);
  });

  it('checks operation and script expression hashes', () => {
    expect(isOperationHash('oo6JPEAy8VuMRGaFuMmLNFFGdJgiaKfnmT1CpHJfKP3Ye5ZahiP')).toBe(true);
    expect(isOperationHash('oo6JPEAy8VuMRGaFuMmLNFFGdJgiaKfnmT1CpHJfKP3Ye5ZahiQ')).toBe(false); // checksum
    expect(isOperationHash('exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC')).toBe(false);
    expect(isScriptExprHash('exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC')).toBe(true);
    expect(isScriptExprHash('exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dD')).toBe(false);
    expect(isScriptExprHash('exprBad')).toBe(false);
  });

  it('never throws on untrusted input', () => {
    for (const v of [undefined, null, 42, {}, '', 'x'.repeat(10_000), 'tz1\u0000', '0OIl'])
      expect(isAddress(v) || isOperationHash(v) || isScriptExprHash(v) || isContractAddress(v)).toBe(false);
  });
});
