import { describe, expect, it } from 'vitest';
import {
  anchoredGroup,
  entriesReaching,
  familyGroup,
  srcPath,
  staticImporters,
  type GraphContext,
} from './chunk-groups';

/** A module graph: id -> its static importers; `lazy` ids are dynamic entries. */
function graph(edges: Record<string, string[]>, lazy: string[]): GraphContext {
  return {
    getModuleInfo: (id) =>
      id in edges || lazy.includes(id)
        ? { importers: edges[id] ?? [], dynamicImporters: lazy.includes(id) ? ['/src/app/screens.tsx'] : [] }
        : null,
  };
}

const OPS = '/w/src/slices/account/OperationsPage.tsx';
const CODE = '/w/src/slices/contract/code/CodePage.tsx';
const STORAGE = '/w/src/slices/contract/StoragePage.tsx';
const FRAME = '/w/src/slices/contract/ContractFrame.tsx';
const DEPLOY = '/w/src/slices/deploy/DeployPage.tsx';
const ctx = graph(
  {
    [FRAME]: [OPS, CODE, STORAGE],
    '/nm/@mui/material/Tabs.mjs': [FRAME],
    '/w/src/shared/micheline/MiguelTree.tsx': [OPS, STORAGE],
    '/w/src/slices/contract/code/download.ts': [CODE, STORAGE],
    '/nm/@rjsf/core/Form.js': [DEPLOY, '/w/src/slices/contract/interact/InteractPage.tsx'],
    '/w/src/slices/account/OpgRowItem.tsx': [OPS],
  },
  [OPS, CODE, STORAGE, DEPLOY, '/w/src/slices/contract/interact/InteractPage.tsx'],
);
const CONTRACT_SCREENS = srcPath('slices/(account|contract|operation|big-map)/');
const contract = anchoredGroup('contract', 10, srcPath('slices/contract/ContractFrame\\.tsx$'), [
  srcPath('slices/contract/code/CodePage\\.tsx$'),
  CONTRACT_SCREENS,
]);
const more = familyGroup('contract-more', 5, CONTRACT_SCREENS);

describe('web chunk groups', () => {
  it('finds the lazy entries a module is statically reachable from', () => {
    expect(entriesReaching('/nm/@mui/material/Tabs.mjs', ctx).sort()).toEqual([CODE, STORAGE, OPS].sort());
  });

  it('puts the contract frame and what the code tab shares with another tab in `contract`', () => {
    expect(contract.name('/nm/@mui/material/Tabs.mjs', ctx)).toBe('contract');
    expect(contract.name('/w/src/slices/contract/code/download.ts', ctx)).toBe('contract');
    expect(contract.name('/w/src/shared/micheline/MiguelTree.tsx', ctx)).toBeNull();
  });

  it('puts what several contract screens share in `contract-more`, not what other pages share', () => {
    expect(more.name('/w/src/shared/micheline/MiguelTree.tsx', ctx)).toBe('contract-more');
    expect(more.name('/nm/@rjsf/core/Form.js', ctx)).toBeNull();
    expect(more.name('/w/src/slices/account/OpgRowItem.tsx', ctx)).toBeNull();
  });

  it("does not climb through a package's wide barrel (it re-exports what the importer may not use)", () => {
    const SYSTEM = '/w/node_modules/@mui/system/index.mjs';
    const BOX = '/w/node_modules/@mui/material/Box/Box.mjs';
    const GRID = '/w/node_modules/@mui/system/Grid/Grid.mjs';
    const HOME = '/w/src/slices/home/HomePage.tsx';
    const wide: GraphContext = {
      getModuleInfo: (id) => {
        const importers: Record<string, string[]> = { [GRID]: [SYSTEM], [SYSTEM]: [BOX], [BOX]: [HOME] };
        if (id === SYSTEM) {
          return {
            importers: importers[id]!,
            dynamicImporters: [],
            importedIds: Array.from({ length: 40 }, (_, i) => `/nm/@mui/system/m${i}.mjs`),
          };
        }
        return id in importers || id === HOME
          ? { importers: importers[id] ?? [], dynamicImporters: id === HOME ? ['/src/app/screens.tsx'] : [] }
          : null;
      },
    };
    expect(staticImporters(GRID, wide).has(HOME)).toBe(false);
    expect(staticImporters(BOX, wide).has(HOME)).toBe(true);
    // a small barrel (a component's index.mjs) is climbed through as before
    expect(staticImporters('/nm/@mui/material/Tabs.mjs', ctx).has(OPS)).toBe(true);
  });

  it('matches paths with either separator', () => {
    expect(CONTRACT_SCREENS.test('C:\\w\\src\\slices\\contract\\StoragePage.tsx')).toBe(true);
    expect(CONTRACT_SCREENS.test('/w/src/slices/home/HomePage.tsx')).toBe(false);
  });
});
