import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SCREEN_IDS } from '../src/app/router/route-table';
import { screenImports, screenPaths } from './route-preload';

const SCREENS = fileURLToPath(new URL('../src/app/router/screens.tsx', import.meta.url));

describe('route preloads (build)', () => {
  it("reads every screen's dynamic imports from screens.tsx", () => {
    const imports = screenImports(readFileSync(SCREENS, 'utf8'));
    expect([...imports.keys()].sort()).toEqual([...SCREEN_IDS].sort());
    // home is in the boot chunk (no dynamic import)
    expect(imports.get('home')).toEqual([]);
    expect(imports.get('search')).toEqual(['../../slices/search/SearchPage']);
    // the code screen is its page alone: CodeMirror (MichelsonViewer) comes on interaction
    expect(imports.get('code')).toEqual(['../../slices/contract/code/CodePage']);
  });

  it('gives each screen its route table path', () => {
    const paths = Object.fromEntries(screenPaths().map((s) => [s.id, s.path]));
    expect(Object.keys(paths).sort()).toEqual([...SCREEN_IDS].sort());
    expect(paths.home).toBe('/');
    expect(paths.search).toBe('/search');
    expect(paths.operations).toBe('/:network/:address/operations');
    expect(paths.interact).toBe('/:network/:address/interact/:entrypoint?');
    expect(paths.storage).toBe('/:network/:address/storage');
    expect(paths.big_map_keys).toBe('/:network/:address/storage/big_map/:ptr/keys');
    expect(paths.opg_contents).toBe('/:network/opg/:hash/contents');
  });
});
