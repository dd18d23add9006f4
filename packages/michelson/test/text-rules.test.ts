// Golden tables of validators.json, literals.json and base58.json, plus behaviour beyond the goldens.
import { b58Encode, PrefixV2 } from '@taquito/utils';
import { describe, expect, it } from 'vitest';
import { BASE58_PREFIXES, decodeBase58, encodeBase58 } from '../src/base58';
import { MichelsonDataError } from '../src/micheline';
import {
  isAddressLiteral,
  isAddressParam,
  isAddressValue,
  isBakerHashLiteral,
  isBakerHashValue,
  isBytesValue,
  isChainIdValue,
  isContractLiteral,
  isContractParam,
  isContractValue,
  isGlobalConstantParam,
  isMaxSizeParam,
  isOpgHashParam,
  isPublicKeyValue,
  isSignatureValue,
  isSmartRollupParam,
  validateValueText,
  validatorMessage,
} from '../src/validators';
import { goldenCases, hasShared } from './golden';

type F = { function: string };
const fn = (c: unknown): string => (c as F).function;

const VALUE_VALIDATORS: Record<string, (v: string) => boolean> = {
  AddressValidator: isAddressValue,
  BakerHashValidator: isBakerHashValue,
  PublicKeyValidator: isPublicKeyValue,
  BytesValidator: isBytesValue,
  ChainIDValidator: isChainIdValue,
  SignatureValidator: isSignatureValue,
  ContractValidator: isContractValue,
};

describe.skipIf(!hasShared)('validators.json goldens', () => {
  const cases = goldenCases<{ value: string }, { valid: boolean }>('validators.json');
  it('covers every validator of the file', () => {
    expect(cases.length).toBe(27);
    expect(cases.every((c) => VALUE_VALIDATORS[fn(c)] !== undefined)).toBe(true);
  });
  it.each(cases.map((c) => [`${fn(c)} ${c.name}`, c] as const))('%s', (_n, c) => {
    expect(VALUE_VALIDATORS[fn(c)]!(c.input.value)).toBe(c.expected.valid);
  });
});

const LITERALS: Record<string, (v: string) => boolean> = {
  'IsContract(address)': isContractLiteral,
  'IsAddress(address)': isAddressLiteral,
  'IsBakerHash(str)': isBakerHashLiteral,
};

describe.skipIf(!hasShared)('literals.json goldens', () => {
  const cases = goldenCases<{ value: string }, boolean>('literals.json');
  it.each(cases.map((c) => [`${fn(c)} ${c.name}`, c] as const))('%s', (_n, c) => {
    expect(LITERALS[fn(c)]!(c.input.value)).toBe(c.expected);
  });
});

type B58In = { base58?: string; hex?: string; prefix?: string; value?: string; prefix_bytes?: number[] };
const BASE58: [string, (i: B58In) => string][] = [
  ['encoding.DecodeBase58String', (i) => decodeBase58(i.base58!)],
  ['encoding.EncodeBase58String', (i) => encodeBase58(i.hex!, i.prefix!)],
  ['tzbase58.EncodeFromHex', (i) => encodeBase58(i.value!, i.prefix_bytes!)],
  ['tzbase58.EncodeFromBytes', (i) => encodeBase58(i.value!, i.prefix_bytes!)],
  ['tzbase58.DecodeToHex', (i) => decodeBase58(i.value!, i.prefix_bytes)],
];

describe.skipIf(!hasShared)('base58.json goldens', () => {
  const cases = goldenCases<B58In, string>('base58.json');
  it('maps every case to a function', () => {
    expect(cases.length).toBe(53);
    expect(cases.every((c) => BASE58.some(([p]) => fn(c).startsWith(p)))).toBe(true);
  });
  it.each(cases.map((c) => [`${fn(c).split('(')[0]} ${c.name}`, c] as const))('%s', (_n, c) => {
    const run = BASE58.find(([p]) => fn(c).startsWith(p))![1];
    if (c.expected_error) expect(() => run(c.input)).toThrow(MichelsonDataError);
    else expect(run(c.input)).toBe(c.expected);
  });
});

describe('base58', () => {
  it('agrees with Taquito for every shared prefix', () => {
    for (const p of BASE58_PREFIXES) {
      const pv = (Object.values(PrefixV2) as string[]).includes(p.name) ? (p.name as PrefixV2) : undefined;
      if (!pv) continue;
      const payload = Uint8Array.from({ length: p.length }, (_, i) => (i * 37 + 11) & 255);
      const ours = encodeBase58(payload, p.name);
      expect(ours).toBe(b58Encode(payload, pv));
      expect(decodeBase58(ours)).toBe(Buffer.from(payload).toString('hex'));
    }
  });
  it('rejects bad checksums, alphabets, prefixes and payload lengths', () => {
    expect(() => decodeBase58('tz1LFEVYR7YRCxT6Nm3Zfjdnfj77xZqhbR5V')).toThrow(/base58check/);
    expect(() => decodeBase58('tz1LFEVYR7YRCxT6Nm3Zfjdnfj77xZqhbR50')).toThrow(MichelsonDataError);
    expect(() => decodeBase58('tz1LFEVYR7YRCxT6Nm3Zfjdnfj77xZqhbR5U', 'KT1')).toThrow(/expected prefix/);
    expect(() => encodeBase58('00', 'tz1')).toThrow(/20 bytes/);
    expect(() => encodeBase58('zz', [1])).toThrow(/invalid hex/);
    expect(() => encodeBase58('00', 'nope')).toThrow(/unknown base58 prefix/);
    expect(() => decodeBase58('')).toThrow(MichelsonDataError);
  });
});

describe('value validators beyond the goldens', () => {
  it('checks base58 checksums, not only shapes', () => {
    expect(isAddressValue('tz1KfEsrtDaA1sX7vdM4qmEPWuSytuqCDp5j')).toBe(true);
    expect(isAddressValue('tz1KfEsrtDaA1sX7vdM4qmEPWuSytuqCDp5k')).toBe(false);
    expect(isChainIdValue('NetXdQprcVkpaWV')).toBe(false);
    expect(isBakerHashValue('SG1d1wsgMKvSstzZQ8L4WoskCesdWGzVt5k5')).toBe(false);
  });
  it('accepts entrypoints by name and by hex, refuses bad ones', () => {
    expect(isContractValue('KT1Nh9wK8W3j3CXeTVm5DTTaiU5RE8CxLWZ4%transfer')).toBe(true);
    expect(isContractValue('KT1Nh9wK8W3j3CXeTVm5DTTaiU5RE8CxLWZ4%')).toBe(false);
    expect(isContractValue('KT1Nh9wK8W3j3CXeTVm5DTTaiU5RE8CxLWZ4%bad entrypoint')).toBe(false);
    expect(isContractValue('KT1Nh9wK8W3j3CXeTVm5DTTaiU5RE8CxLWZ4%' + 'a'.repeat(32))).toBe(false);
  });
  it('gives error texts and survives non-strings', () => {
    expect(validateValueText('bytes', 'abc')).toBe("invalid bytes 'abc'");
    expect(validateValueText('chain_id', 42)).toBe('invalid chain id: not a string');
    expect(
      validateValueText('key', 'edpkuEhzJqdFBCWMw6TU3deADRK2fq3GuwWFUphwyH7ero1Na4oGFP'),
    ).toBeUndefined();
  });
});

describe('API request validators (bcd-api §1.3)', () => {
  const kt = 'KT1HBy1L43tiLe5MVJZ5RoxGy53Kx8kMgyoU';
  it('address / contract / smart_rollup', () => {
    expect(isAddressParam(kt)).toBe(true);
    expect(isAddressParam('tz1dMH7tW7RhdvVMR4wKVFF1Ke8m8ZDvrTTE')).toBe(true);
    expect(isAddressParam('txr1YNMEtkj5Vkqsbdmt7xaxBTMRZjzS96UAi')).toBe(true);
    expect(isContractParam('tz1dMH7tW7RhdvVMR4wKVFF1Ke8m8ZDvrTTE')).toBe(false);
    expect(isSmartRollupParam('sr1J1ECygUgzE7urU3Ayr5HZaty83hpjbs28')).toBe(true);
  });
  it('anchors the regexes (quirk bcd-api §11.1: the reference accepts any value containing an address)', () => {
    expect(isAddressParam(`x${kt}`)).toBe(false);
    expect(isContractParam(`${kt}/../x`)).toBe(false);
    expect(isSmartRollupParam('sr1J1ECygUgzE7urU3Ayr5HZaty83hpjbs28x')).toBe(false);
  });
  it('opg and global constant hashes need valid base58check', () => {
    expect(isOpgHashParam('opMhUv6wNFN1k5DofyPonyts1mSo4cTjCsk19i4Li7reT1oAQ1K')).toBe(true);
    expect(isOpgHashParam('opMhUv6wNFN1k5DofyPonyts1mSo4cTjCsk19i4Li7reT1oAQ1L')).toBe(false);
    expect(isGlobalConstantParam('expru2YV8AanTTUSV4K21P7X4DzbuWQFVk7NewDuP1A5uamffiiFA3')).toBe(true);
    expect(isGlobalConstantParam('expru2YV8AanTTUSV4K21P7X4DzbuWQFVk7NewDuP1A5uamffiiFA')).toBe(false);
  });
  it('page size and messages', () => {
    expect(isMaxSizeParam('10')).toBe(true);
    expect(isMaxSizeParam('11')).toBe(false);
    expect(isMaxSizeParam(11, 0)).toBe(false);
    expect(isMaxSizeParam('-1')).toBe(false);
    expect(validatorMessage('getContractRequest', 'Address', 'contract')).toBe(
      "Key: 'getContractRequest.Address' Error:Field validation for 'Address' failed on the 'contract' tag",
    );
  });
});

describe('validators on untrusted input', () => {
  it('answer false, never throw, for non-strings and huge strings', async () => {
    const mod = await import('../src/validators');
    const checks = Object.entries(mod).filter(
      ([name, f]) =>
        typeof f === 'function' && /^is/.test(name) && name !== 'isMaxSizeParam' && name !== 'isLevelRange',
    ) as [string, (v: unknown, x?: unknown) => boolean][];
    expect(checks.length).toBeGreaterThan(20);
    for (const [name, check] of checks)
      for (const bad of [undefined, null, 42, {}, ['tz1'], 'KT1'.padEnd(100_000, 'a'), '\u0000', ' '])
        expect(check(bad, []), `${name}(${JSON.stringify(bad)?.slice(0, 10) ?? 'undefined'})`).toBe(false);
    expect(mod.isMaxSizeParam({} as unknown as string)).toBe(false);
  });
});
