import { describe, expect, it } from 'vitest';
import { EXPORTS } from '../../api/export-requests';
import { progressText } from './export-parts';
import { attachmentName, rowsSoFar } from './export-stream';

describe('streamed exports', () => {
  it("puts the operations tab's filters and search text in the export URL", () => {
    expect(
      EXPORTS.operations(
        {
          network: 'mainnet',
          address: 'KT1x',
          statuses: ['applied', 'failed'],
          entrypoints: ['transfer'],
          range: { gte: 1000.4, lt: 2000 },
          search: ' oo7Ab ',
        },
        'csv',
      ).url,
    ).toBe(
      '/v1/contract/mainnet/KT1x/operations/export?format=csv&status=applied%2Cfailed&entrypoint=transfer&from=1000&to=2000&search=oo7Ab',
    );
    expect(
      EXPORTS.operations(
        { network: 'mainnet', address: 'KT1x', statuses: [], entrypoints: [], range: null, search: '' },
        'json',
      ).url,
    ).toBe('/v1/contract/mainnet/KT1x/operations/export?format=json');
  });

  it("puts each list's filters in its export URL; the search's in a POST body", () => {
    expect(
      EXPORTS.bigMapKeys({ network: 'mainnet', ptr: 7, search: 'tz1 a&b', activeOnly: true }, 'csv').url,
    ).toBe('/v1/bigmap/mainnet/7/keys/export?format=csv&search=tz1+a%26b&active_only=true');
    expect(
      EXPORTS.bigMapKeys({ network: 'mainnet', ptr: 7, search: '', activeOnly: false }, 'json').url,
    ).toBe('/v1/bigmap/mainnet/7/keys/export?format=json');
    expect(EXPORTS.tokenHolders({ network: 'ghostnet', address: 'KT1t', tokenId: '3' }, 'csv').url).toBe(
      '/v1/contract/ghostnet/KT1t/tokens/holders/export?format=csv&token_id=3',
    );
    expect(EXPORTS.search({ query: 'tez', filters: { networks: ['mainnet'] } }, 'json')).toEqual({
      url: '/search/v1/search/export?format=json',
      body: { query: 'tez', filters: { networks: ['mainnet'] } },
    });
  });

  it('counts data rows from the line breaks seen (CSV header, JSON brackets)', () => {
    expect(rowsSoFar('csv', 1, false)).toBe(0);
    expect(rowsSoFar('csv', 5, true)).toBe(4);
    // JSON: '[' then one row per line, then the closing ']' line
    expect(rowsSoFar('json', 3, false)).toBe(2);
    expect(rowsSoFar('json', 6, true)).toBe(4);
    expect(rowsSoFar('json', 1, true)).toBe(0);
  });

  it('says the rows so far, of the total when it is known', () => {
    expect(progressText(1234, undefined)).toBe('1,234 rows');
    expect(progressText(1234, 5000)).toBe('1,234 of 5,000 rows');
    // a total below what arrived (the list moved on) is not shown
    expect(progressText(12, 10)).toBe('12 rows');
  });

  it('takes a safe file name from content-disposition', () => {
    expect(attachmentName('attachment; filename="KT1a-operations-2026-11-26.csv"', 'x')).toBe(
      'KT1a-operations-2026-11-26.csv',
    );
    expect(attachmentName('attachment; filename="../evil name.csv"', 'x')).toBe('.._evil_name.csv');
    expect(attachmentName(null, 'export.csv')).toBe('export.csv');
  });
});
