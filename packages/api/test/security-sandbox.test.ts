/**
 * The security summary route over the indexed demo sandbox (issue 37): the seeded contracts' scripts and current
 * storage as the indexer stored them (storage in the node's Optimized form: addresses as bytes).
 */
import { describeDb } from '@michelscope/db/testing';
import type { SecuritySummary } from '@michelscope/api-types';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openIndexedSandbox, SANDBOX_NET as NET, type IndexedSandbox } from './indexed-sandbox';

const BOOTSTRAP1 = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';

// PGlite only: the route reads the script and storage as the other contract routes do.
describeDb('security summary of the seeded sandbox contracts', { backends: 'pglite' }, ({ db }) => {
  let env: IndexedSandbox;
  const security = async (name: string) => {
    const res = await env.app.inject({
      method: 'GET',
      url: `/v1/contract/${NET}/${env.contracts[name]}/security`,
    });
    expect(res.statusCode, name).toBe(200);
    return res.json<SecuritySummary>();
  };
  const who = (s: SecuritySummary) => Object.fromEntries(s.entrypoints.map((e) => [e.name, e.who]));

  beforeAll(async () => {
    env = await openIndexedSandbox(db());
  }, 90_000);
  afterAll(() => env?.close());

  it('fa12: mint only by its admin, bootstrap1, read from the stored storage', async () => {
    const s = await security('fa12');
    expect(s.headline).toBe('Immutable; privileged entrypoints: mint (admin)');
    expect(s.entrypoints.find((e) => e.name === 'mint')).toMatchObject({
      who: 'admin',
      admin: { field: 'admin', address: BOOTSTRAP1 },
    });
    expect(s.findings.find((f) => f.kind === 'privileged')!.sentence).toBe(
      `mint can only be called by the address at %admin (${BOOTSTRAP1}).`,
    );
  });

  it('upgradable, multisig, delegator, factory', async () => {
    const up = await security('upgradable');
    expect(up).toMatchObject({ headline: 'Upgradable by anyone (through upgrade)', upgradable: true });
    const ms = await security('multisig');
    expect(ms.headline).toBe('Immutable; privileged entrypoints: main (multisig)');
    expect(ms.entrypoints.find((e) => e.name === 'main')!.multisig).toEqual({
      keys_field: 'keys',
      threshold_field: 'threshold',
      threshold: 2,
      keys: 3,
    });
    const dg = await security('delegator');
    expect(who(dg)).toEqual({ set_delegate: 'anyone', default: 'anyone' });
    expect(dg.upgrade.set_delegate).toBe(true);
    const fc = await security('factory');
    expect(fc.entrypoints[0]).toMatchObject({ who: 'anyone', can: ['originate', 'emit_events'] });
  });

  it('adder: the global constant its code used is listed from the index (the stored code has it expanded)', async () => {
    const s = await security('adder');
    expect(s.upgrade.global_constants).toHaveLength(1);
    expect(s.upgrade.global_constants[0]).toMatch(/^expr/);
    expect(s.complete).toBe(true);
    expect(who(s)).toEqual({ default: 'anyone' });
    expect(s.findings.map((f) => f.kind)).toEqual(['global_constant']);
  });
});
