// scripts/check-deps.mjs on a made-up monorepo: an undeclared import fails the check, a declared one passes.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = path.join(import.meta.dirname, 'check-deps.mjs');
/** `import('…')` or `require('…')`, spelt so that the check does not find it in this file. */
const call = (fn: 'import' | 'require', spec: string) => `${fn}('${spec}')`;
let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A monorepo with one workspace `packages/a` (its package.json `a`) and the given files; the check's result. */
function check(
  a: Record<string, unknown>,
  files: Record<string, string>,
  rootDev: Record<string, string> = {},
) {
  root = mkdtempSync(path.join(tmpdir(), 'check-deps-'));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root!, file)), { recursive: true });
    writeFileSync(path.join(root!, file), text);
  };
  write('package.json', JSON.stringify({ workspaces: ['packages/a'], devDependencies: rootDev }));
  write('packages/a/package.json', JSON.stringify({ name: '@x/a', ...a }));
  for (const [file, text] of Object.entries(files)) write(file, text);
  const r = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

describe('check-deps', () => {
  it('fails on an undeclared import, with its file, line, package and package.json', () => {
    const r = check(
      { dependencies: { kysely: '^0.28.0' } },
      { 'packages/a/src/index.ts': `import { sql } from 'kysely';\n\nimport { x } from 'left-pad/sub';\n` },
    );
    expect(r.status).toBe(1);
    expect(r.out).toContain(
      "packages/a/src/index.ts:3: 'left-pad' is not declared: add it to packages/a/package.json",
    );
    expect(r.out).not.toContain("'kysely'");
  });

  it('passes when every import is declared; builtins, relative and self imports need no declaration', () => {
    const r = check(
      { dependencies: { '@scope/lib': '^1.0.0' } },
      {
        'packages/a/src/index.ts': [
          "import type { T } from '@scope/lib/types';",
          "import { readFileSync } from 'node:fs';",
          "import path from 'path';",
          "export { y } from './y';",
          `const self = await ${call('import', '@x/a')};`,
          ['//', 'import { z } from "commented-out";'].join(' '),
        ].join('\n'),
      },
    );
    expect(r.out).toContain('every package import is declared');
    expect(r.status).toBe(0);
  });

  it('counts type-only, dynamic, require and export-from imports', () => {
    const r = check(
      {},
      {
        'packages/a/src/t.ts': "import type {\n  A,\n} from 'types-only';\n",
        'packages/a/src/d.ts': `const m = await ${call('import', 'dynamic')};\n`,
        'packages/a/src/r.cjs': `const m = ${call('require', 'required')};\n`,
        'packages/a/src/e.ts': "export * from 'reexported';\n",
      },
    );
    expect(r.status).toBe(1);
    for (const name of ['types-only', 'dynamic', 'required', 'reexported'])
      expect(r.out).toContain(`'${name}' is not declared`);
  });

  it('lets tests use devDependencies and the root toolchain, but not src', () => {
    const files = {
      'packages/a/test/a.test.ts': "import { it } from 'vitest';\nimport f from 'fixture-lib';\n",
      'packages/a/src/b.ts': "import f from 'fixture-lib';\n",
    };
    const r = check({ devDependencies: { 'fixture-lib': '^1.0.0' } }, files, { vitest: '^4.0.0' });
    expect(r.status).toBe(1);
    expect(r.out).toContain("packages/a/src/b.ts:1: 'fixture-lib' is not declared");
    expect(r.out).not.toContain('a.test.ts');
  });

  it('checks root files against the root package.json, workspaces included', () => {
    const r = check({}, { 'bench/x.ts': "import a from '@x/a';\nimport pg from 'pg';\n" });
    expect(r.status).toBe(1);
    expect(r.out).toContain("bench/x.ts:2: 'pg' is not declared: add it to package.json");
    expect(r.out).not.toContain("'@x/a'");
  });
});
