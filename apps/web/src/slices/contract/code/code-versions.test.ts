import { describe, expect, it } from 'vitest';
import { codeFileName, protocolFromQuery, protocolOptions } from './code-versions';

const JAKARTA = 'PtJakart2xVj7pYXJBXrqHgd82rdkLey5ZeeGikgPkLX7SNJZF4';
const GRANADA = 'PtGRANADsDU8R9daYKAgWnQYAJ64omN1o3KMGVCykShA97vQbvV';
const FLORENCE = 'PsFLorenaUUuikDWvMDr6fGBRG8kt3e3D3fHoXK1j1BFRxeSH4i';
const HANGZHOU = 'PtHangz2aRngywmSRGGvrcTyMbbdpWdpFKuS4uMWxg2RaH9i1qx';
const mig = (protocol: string, prev: string) => ({
  level: 1,
  timestamp: '',
  protocol,
  prev_protocol: prev,
  kind: 'update',
});

describe('code versions', () => {
  it('accepts only protocol hashes from the query', () => {
    expect(protocolFromQuery(JAKARTA)).toBe(JAKARTA);
    expect(protocolFromQuery('alpha')).toBeNull();
    expect(protocolFromQuery(null)).toBeNull();
  });

  it('lists the protocol before each update migration once, and keeps the selected one', () => {
    const upd = mig(JAKARTA, GRANADA);
    expect(protocolOptions(null, [upd, mig(GRANADA, FLORENCE), mig(HANGZHOU, GRANADA)])).toEqual([
      GRANADA,
      FLORENCE,
    ]);
    // a bootstrap or lambda migration does not change the code: no version of its own
    expect(
      protocolOptions(null, [
        { ...upd, kind: 'bootstrap' },
        { ...upd, kind: 'lambda' },
      ]),
    ).toEqual([]);
    expect(protocolOptions(JAKARTA, [])).toEqual([JAKARTA]);
    expect(protocolOptions(GRANADA, [upd])).toEqual([GRANADA]);
  });

  it('names the download after the address and version', () => {
    expect(codeFileName('KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton', null)).toBe(
      'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton.tz',
    );
    expect(codeFileName('KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton', JAKARTA)).toBe(
      'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton_PtJakart.tz',
    );
    expect(codeFileName('../x', null)).toBe('x.tz');
  });
});
