import { describe, expect, it } from 'vitest';
import { tagLabels } from './tag-labels';

describe('tagLabels', () => {
  it('maps known tags to their labels and hides the others', () => {
    expect(tagLabels(['fa2', 'view_address', 'CREATE_CONTRACT', 'SET_DELEGATE', 'fa1-2', 'ledger'])).toEqual([
      'FA2',
      'Contract factory',
      'Delegatable',
      'FA1.2',
      'Ledger',
    ]);
  });
  it('ignores inherited object keys and duplicates', () => {
    expect(tagLabels(['toString', '__proto__', 'fa1', 'fa1'])).toEqual(['FA1']);
  });
});
