import {
  ADDRESS_PATTERN,
  ADDRESS_PREFIXES as PRODUCT_PREFIXES,
  isAddress as productIsAddress,
  isContractAddress as productIsContract,
  isOperationHash as productIsOperationHash,
} from '@michelscope/michelson';
import { describe, expect, it } from 'vitest';
import { ADDRESS_PREFIXES, isAddress, isContractAddress, isOperationHash } from './patterns';

/** [what, value, valid, a checksum failure (the web's shape check cannot tell those)]. */
const CASES: readonly (readonly [string, string, boolean, boolean])[] = [
  ['tz1', 'tz1L9r8mWmRPndRhuvMCWESLGSVeFzQ9NAWx', true, false],
  ['tz2', 'tz2BFTyPeYRzxd5aiBchbXN3WCZhx7BqbMBq', true, false],
  ['tz3', 'tz3WXYtyDUNL91qfiCJtVUX746QpNv5i5ve5', true, false],
  ['tz4', 'tz4C7jT2XURsPLCdkgV3a6MzuP7wMQ2oS1xe', true, false],
  ['KT1', 'KT1JVErLYTgtY8uGGZ4mso2npTSxqVLDRVbC', true, false],
  ['sr1', 'sr17bar6JpYEpsAmkR4MDYUDwxpSiX4RKUH8', true, false],
  ['txr1', 'txr1MZ1FF3APJ5q83Hx3JfdvSdR4iHvzfeWNV', true, false],
  ['KT2', 'KT2JVErLYTgtY8uGGZ4mso2npTSxqVLDRVbC', false, false],
  ['tz5', 'tz5L9r8mWmRPndRhuvMCWESLGSVeFzQ9NAWx', false, false],
  ['sr2', 'sr27bar6JpYEpsAmkR4MDYUDwxpSiX4RKUH8', false, false],
  ['txr1 one character short', 'txr1MZ1FF3APJ5q83Hx3JfdvSdR4iHvzfeWN', false, false],
  ['KT1 with an entrypoint', 'KT1JVErLYTgtY8uGGZ4mso2npTSxqVLDRVbC%transfer', false, false],
  ['KT1 one character long', 'KT1JVErLYTgtY8uGGZ4mso2npTSxqVLDRVbCC', false, false],
  ['not base58 (0)', 'tz1L9r8mWmRPndRhuvMCWESLGSVeFzQ9NAW0', false, false],
  ['an operation hash', 'oo6JPEAy8VuMRGaFuMmLNFFGdJgiaKfnmT1CpHJfKP3Ye5ZahiP', false, false],
  ['empty', '', false, false],
  ['tz1 bad checksum', 'tz1L9r8mWmRPndRhuvMCWESLGSVeFzQ9NAWy', false, true],
  ['KT1 bad checksum', 'KT1JVErLYTgtY8uGGZ4mso2npTSxqVLDRVbD', false, true],
  ['tz4 bad checksum', 'tz4C7jT2XURsPLCdkgV3a6MzuP7wMQ2oS1xf', false, true],
  ['sr1 bad checksum', 'sr17bar6JpYEpsAmkR4MDYUDwxpSiX4RKUH9', false, true],
  ['txr1 bad checksum', 'txr1MZ1FF3APJ5q83Hx3JfdvSdR4iHvzfeWNW', false, true],
];

describe("the web's address pattern and the product's validator", () => {
  it('take the same address kinds', () => expect([...ADDRESS_PREFIXES]).toEqual([...PRODUCT_PREFIXES]));

  it.each(CASES)('%s: %s', (_what, value, valid, badChecksum) => {
    expect(productIsAddress(value)).toBe(valid);
    // a bad checksum has the shape of an address: the web links it, the API refuses it
    expect(isAddress(value)).toBe(valid || badChecksum);
    expect(isAddress(value)).toBe(ADDRESS_PATTERN.test(value));
    expect(isContractAddress(value)).toBe(
      value.startsWith('KT1') && (productIsContract(value) || badChecksum),
    );
  });

  it('agree on operation hashes but for checksums', () => {
    const op = 'oo6JPEAy8VuMRGaFuMmLNFFGdJgiaKfnmT1CpHJfKP3Ye5ZahiP';
    expect([isOperationHash(op), productIsOperationHash(op)]).toEqual([true, true]);
    expect([isOperationHash(`${op}x`), productIsOperationHash(`${op}x`)]).toEqual([false, false]);
    expect([isOperationHash(op.slice(0, -1) + 'Q'), productIsOperationHash(op.slice(0, -1) + 'Q')]).toEqual([
      true,
      false,
    ]);
  });
});
