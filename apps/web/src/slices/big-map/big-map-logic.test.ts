import { describe, expect, it } from 'vitest';
import type { BigMapAction } from '../../api/bigmap-api';
import { bigMapStatus, isKeyHash, keySearch, linkedPointer } from './big-map-logic';

describe('big map rules', () => {
  it('re-queries only for more than 2 characters or an empty filter, trimmed and cut at 255', () => {
    expect(keySearch('  ')).toBe('');
    expect(keySearch('ab')).toBeNull();
    expect(keySearch(' abc ')).toBe('abc');
    expect(keySearch('x'.repeat(300))).toHaveLength(255);
  });

  it('is Removed when any action removes it', () => {
    const history: BigMapAction[] = [
      { action: 'alloc', source_ptr: 5, timestamp: '2021-01-01T00:00:00Z', level: 1 },
      { action: 'copy', source_ptr: 5, destination_ptr: 9, timestamp: '2021-01-02T00:00:00Z', level: 2 },
    ];
    expect(bigMapStatus(history)).toBe('Allocated');
    expect(bigMapStatus([...history, { action: 'remove', source_ptr: 5, timestamp: '', level: 3 }])).toBe(
      'Removed',
    );
    expect(history.map((a) => linkedPointer(a, 5))).toEqual([null, 9]);
  });

  it('recognises key hashes', () => {
    expect(isKeyHash('exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC')).toBe(true);
    expect(isKeyHash('expr123')).toBe(false);
  });
});
