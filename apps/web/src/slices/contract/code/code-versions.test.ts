import { describe, expect, it } from 'vitest';
import { codeFileName, protocolFromQuery, protocolOptions } from './code-versions';

const JAKARTA = 'PtJakart2xVj7pYXJBXrqHgd82rdkLey5ZeeGikgPkLX7SNJZF4';
const GRANADA = 'PtGRANADsDU8R9daYKAgWnQYAJ64omN1o3KMGVCykShA97vQbvV';
const mig = (protocol: string, prev: string) => ({
  level: 1,
  timestamp: '',
  hash: null,
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

  it('lists each migration protocol once, and keeps the selected one', () => {
    expect(protocolOptions(null, [mig(JAKARTA, GRANADA), mig(GRANADA, '')])).toEqual([JAKARTA, GRANADA]);
    expect(protocolOptions(JAKARTA, [])).toEqual([JAKARTA]);
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
