import { describe, expect, it } from 'vitest';
import { metadataSummary, resolvingErrorText, safeHomepage } from './metadata-doc';

describe('TZIP-16 metadata summary', () => {
  it('reads the documented fields and view implementation kinds', () => {
    const s = metadataSummary({
      name: 'Kolibri',
      version: '1.0',
      license: { name: 'MIT' },
      authors: ['Hover Labs <hello@hover.engineering>', 42],
      interfaces: ['TZIP-007', 'TZIP-016'],
      homepage: 'https://kolibri.finance',
      views: [
        {
          name: 'getBalance',
          description: 'Balance of an owner',
          pure: true,
          implementations: [{ michelsonStorageView: {} }, { restApiQuery: {} }],
        },
        { implementations: 'bad' },
        'not a view',
      ],
    });
    expect(s.name).toBe('Kolibri');
    expect(s.license).toBe('MIT');
    expect(s.authors).toEqual(['Hover Labs <hello@hover.engineering>']);
    expect(s.homepage).toBe('https://kolibri.finance/');
    expect(s.views).toEqual([
      {
        name: 'getBalance',
        description: 'Balance of an owner',
        implementations: ['Michelson storage view', 'REST API query'],
        pure: true,
      },
      { name: 'NO NAME', description: '', implementations: [], pure: false },
    ]);
  });

  it('survives hostile documents', () => {
    expect(metadataSummary(null).views).toEqual([]);
    expect(metadataSummary([1, 2]).name).toBeNull();
    expect(metadataSummary({ name: 'x'.repeat(10_000) }).name).toHaveLength(2000);
    expect(safeHomepage('javascript:alert(1)')).toBeNull();
    expect(safeHomepage('not a url')).toBeNull();
  });

  it('adds the attempts to the resolving error', () => {
    expect(resolvingErrorText('Resolving metadata error', 0)).toBe('Resolving metadata error');
    expect(resolvingErrorText('Resolving token metadata error', 3)).toBe(
      'Resolving token metadata error (after 3 attempts)',
    );
  });
});
