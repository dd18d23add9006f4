import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build, type Plugin, type Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { BLS_READ, taquitoUtilsLazyBls, withLazyBls } from './taquito-utils-lazy-bls';

const require = createRequire(import.meta.url);
const utilsDir = path.dirname(require.resolve('@taquito/utils/package.json'));
const ENTRY = '\0taquito-utils-lazy-bls-entry';

/** Bundles `source` (which imports @taquito/utils) for the browser, minified, and returns the code. */
async function bundle(source: string, plugins: Plugin[]): Promise<string> {
  const entry: Plugin = {
    name: 'entry',
    resolveId: (id) => (id === ENTRY ? id : null),
    load: (id) => (id === ENTRY ? source : null),
  };
  const out = (await build({
    configFile: false,
    logLevel: 'silent',
    root: utilsDir,
    plugins: [entry, ...plugins],
    build: { write: false, rolldownOptions: { input: ENTRY } },
  })) as Rollup.RollupOutput;
  return out.output.map((o) => (o.type === 'chunk' ? o.code : '')).join('\n');
}

/** A name that only @noble/curves' BLS12-381 code holds. */
const BLS_CODE = 'longSignatures';

describe("@taquito/utils without @noble/curves' BLS12-381 (build)", () => {
  it('finds the read it rewrites in the installed @taquito/utils', () => {
    const source = readFileSync(path.join(utilsDir, 'dist', 'taquito-utils.es6.js'), 'utf8');
    expect(source).toContain(BLS_READ);
  });

  it('fails the build, naming this plugin, when the read is gone', () => {
    expect(() => withLazyBls('export const x = 1;')).toThrow(/taquito-utils-lazy-bls/);
  });

  it('leaves the curve out of a bundle that only encodes base58, and keeps it for signatures', async () => {
    const encodes = `import { b58Encode, PrefixV2 } from '@taquito/utils';
      console.log(b58Encode(new Uint8Array(20), PrefixV2.Ed25519PublicKeyHash));`;
    const plain = await bundle(encodes, []);
    const lazy = await bundle(encodes, [taquitoUtilsLazyBls()]);
    expect(plain).toContain(BLS_CODE);
    expect(lazy).not.toContain(BLS_CODE);
    // the curve is ~60 kB minified (128 kB against 68 kB when measured)
    expect(plain.length - lazy.length).toBeGreaterThan(50_000);

    const verifies = `import { verifySignature } from '@taquito/utils';
      console.log(verifySignature('a', 'b', 'c'));`;
    expect(await bundle(verifies, [taquitoUtilsLazyBls()])).toContain(BLS_CODE);
  }, 60_000);
});
