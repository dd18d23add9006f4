import { describe, expect, it } from 'vitest';
import { attachmentName, operationsExportPath, rowsSoFar } from './export-stream';

describe('streamed exports', () => {
  it("puts the operations tab's filters in the export URL", () => {
    expect(
      operationsExportPath('mainnet', 'KT1x', 'csv', {
        statuses: ['applied', 'failed'],
        entrypoints: ['transfer'],
        range: { gte: 1000.4, lt: 2000 },
      }),
    ).toBe(
      '/v1/contract/mainnet/KT1x/operations/export?format=csv&status=applied%2Cfailed&entrypoint=transfer&from=1000&to=2000',
    );
    expect(
      operationsExportPath('mainnet', 'KT1x', 'json', { statuses: [], entrypoints: [], range: null }),
    ).toBe('/v1/contract/mainnet/KT1x/operations/export?format=json');
  });

  it('counts data rows from the line breaks seen (CSV header, JSON brackets)', () => {
    expect(rowsSoFar('csv', 1, false)).toBe(0);
    expect(rowsSoFar('csv', 5, true)).toBe(4);
    // JSON: '[' then one row per line, then the closing ']' line
    expect(rowsSoFar('json', 3, false)).toBe(2);
    expect(rowsSoFar('json', 6, true)).toBe(4);
  });

  it('takes a safe file name from content-disposition', () => {
    expect(attachmentName('attachment; filename="KT1a-operations-2026-11-26.csv"', 'x')).toBe(
      'KT1a-operations-2026-11-26.csv',
    );
    expect(attachmentName('attachment; filename="../evil name.csv"', 'x')).toBe('.._evil_name.csv');
    expect(attachmentName(null, 'export.csv')).toBe('export.csv');
  });
});
