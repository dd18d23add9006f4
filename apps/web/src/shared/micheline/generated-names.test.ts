import { describe, expect, it } from 'vitest';
import { isGeneratedName, readableTypedef } from './generated-names';

describe('generated names', () => {
  it('tells a generated name from an annotation', () => {
    expect(['@nat_1', '@pair_25', '@or_3', '@big_map_2'].map(isGeneratedName)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['nat', 'token_1', 'transfer', '@empty', '', undefined].map(isGeneratedName)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it("shows the typedef of a bare nat, an unannotated pair and an annotated one without '@…_n' ids", () => {
    // the seed's swap (parameter nat), ticketer (pair address nat) and counter `note` (pair string nat)
    expect(readableTypedef([{ name: '@nat_1', type: 'nat' }])).toEqual([
      { name: null, type: 'nat', args: [] },
    ]);
    expect(
      readableTypedef([
        {
          name: '@pair_1',
          type: 'pair',
          args: [
            { key: '@address_2', value: 'address' },
            { key: '@nat_3', value: 'nat' },
          ],
        },
      ]),
    ).toEqual([
      {
        name: null,
        type: 'pair',
        args: [
          { key: null, value: 'address' },
          { key: null, value: 'nat' },
        ],
      },
    ]);
    expect(
      readableTypedef([
        {
          name: 'note',
          type: 'pair',
          args: [
            { key: '@string_7', value: 'string' },
            { key: 'count', value: 'nat' },
          ],
        },
      ]),
    ).toEqual([
      {
        name: 'note',
        type: 'pair',
        args: [
          { key: null, value: 'string' },
          { key: 'count', value: 'nat' },
        ],
      },
    ]);
  });

  it('names referenced sub-types without annotation by their type, numbered when several share one', () => {
    const rows = readableTypedef([
      {
        name: 'update',
        type: 'or',
        args: [
          { key: '@pair_2', value: '$pair_2' },
          { key: '@pair_5', value: 'list($pair_5)' },
          { key: 'flag', value: '$or_8' },
        ],
      },
      { name: '@pair_2', type: 'pair', args: [{ key: 'owner', value: 'address' }] },
      { name: '@pair_5', type: 'pair', args: [{ key: '@nat_6', value: 'nat' }] },
      { name: '@or_8', type: 'or', args: [{ key: 'yes', value: 'unit' }] },
    ]);
    expect(rows.map((r) => [r.name, r.type, r.args.map((a) => `${a.key ?? ''} ${a.value}`)])).toEqual([
      ['update', 'or', [' $pair#1', ' list($pair#2)', 'flag $or']],
      ['pair#1', 'pair', ['owner address']],
      ['pair#2', 'pair', [' nat']],
      ['or', 'or', ['yes unit']],
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/[@$][a-z]+_\d/);
  });
});
