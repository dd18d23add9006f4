/**
 * A ChainContext over a fixture contract folder: big-map types come from the contract's storage (ids found
 * where the storage type has a big_map), entries from the `bigmaps/<id>.json` samples when present.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { ChainContext, Expr, Ty } from '../src/index';
import { loadScript, parseData } from '../src/index';

interface BigMapSample {
  name?: string;
  value: Expr;
}

export function fixtureChain(dir: string, code: Expr, storage: Expr): ChainContext {
  const types = new Map<string, { key: Ty; value: Ty }>();
  try {
    const { storageTy } = loadScript(code);
    parseData(storage, storageTy, {
      bigMap: (id, t) => {
        types.set(String(id), { key: t.args[0] as Ty, value: t.args[1] as Ty });
        return { k: 'big_map', t, id, diff: new Map() };
      },
      checkLambda: () => undefined,
    });
  } catch {
    // leave the chain empty: the run will report the problem
  }
  const entries = new Map<string, Map<string, Expr>>();
  const bmDir = path.join(dir, 'bigmaps');
  if (existsSync(bmDir)) {
    for (const f of readdirSync(bmDir)) {
      const rows = JSON.parse(readFileSync(path.join(bmDir, f), 'utf8')) as BigMapSample[];
      const byHash = new Map<string, Expr>();
      for (const r of Array.isArray(rows) ? rows : []) {
        const name = r.name ?? '';
        const hash = name.slice(name.lastIndexOf('-') + 1);
        if (hash.startsWith('expr')) byHash.set(hash, r.value);
      }
      entries.set(f.replace('.json', ''), byHash);
    }
  }
  return {
    bigMapTypes: (id) => types.get(String(id)) ?? null,
    bigMapGet: (id, _key, hash) => entries.get(String(id))?.get(hash) ?? null,
  };
}
