/**
 * Every mainnet contract of ../shared/fixtures/contracts must load and typecheck, and replaying each recorded
 * call's parameter against the stored snapshot must end in a contract-level outcome (success, FAILWITH, or a
 * parameter the chain context cannot satisfy), never in an internal error or a typing error of our own.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Expr } from '../src/index';
import { loadScript, runContract } from '../src/index';
import { fixtureChain } from './fixture-chain';

const dir = path.resolve(__dirname, '../../../../shared/fixtures/contracts');
const hasShared = existsSync(dir);
if (!hasShared) console.warn(`fixture replay skipped: ${dir} not found`);

const folders = hasShared
  ? readdirSync(dir).filter((d) => d.startsWith('KT1') && existsSync(path.join(dir, d, 'code.json')))
  : [];
const readJson = (p: string): Expr => JSON.parse(readFileSync(p, 'utf8')) as Expr;

describe.skipIf(!hasShared)('mainnet fixture contracts', () => {
  it('has contracts to check', () => {
    expect(folders.length).toBeGreaterThan(100);
  });

  it.each(folders)('%s loads, and its recorded calls replay', (addr) => {
    const d = path.join(dir, addr);
    const code = readJson(path.join(d, 'code.json'));
    const loaded = loadScript(code);
    expect(loaded.code.length).toBeGreaterThan(0);
    if (!existsSync(path.join(d, 'calls')) || !existsSync(path.join(d, 'storage.json'))) return;
    const storage = readJson(path.join(d, 'storage.json'));
    const chain = fixtureChain(d, code, storage);
    for (const f of readdirSync(path.join(d, 'calls'))) {
      const call = JSON.parse(readFileSync(path.join(d, 'calls', f), 'utf8')) as {
        parameters: { entrypoint?: string; value?: Expr };
      };
      const r = runContract({
        script: code,
        storage,
        parameter: call.parameters.value ?? { prim: 'Unit' },
        entrypoint: call.parameters.entrypoint ?? 'default',
        self: addr,
        chain,
      });
      if (!r.ok) {
        expect(['script_rejected', 'bad_contract_parameter'], `${f}: ${r.error.message}`).toContain(
          r.error.kind,
        );
      } else {
        expect(r.consumedMilligas, f).toBeGreaterThan(0);
      }
    }
  });
});
