// Contract state across restarts (snapshot and block-log replay), big-map copy and remove,
// delegation, and global constants (registered, used by a script, served by the sandbox endpoint).
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Parser } from '@taquito/michel-codec';
import { BOOTSTRAP_ACCOUNTS } from '../src/index';
import { globalConstantHash } from '@michelscope/michelson';
import { originatedAddress } from '../src/execute';
import { groupInjector, openHarness, type Harness } from './helpers';

const b4 = BOOTSTRAP_ACCOUNTS[3]!;
const parser = new Parser();
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Groups signed by b4 into the current harness; a test that opens a new sandbox takes a new one. */
let run = groupInjector(() => h!, b4);

// `set` adds a key; `reset` replaces the big map by a new empty one (the old one is removed).
const RESETTER = `parameter (or (pair %set nat nat) (unit %reset)); storage (big_map nat nat);
code { UNPAIR; IF_LEFT { UNPAIR; DIP { SOME }; UPDATE } { DROP 2; EMPTY_BIG_MAP nat nat }; NIL operation; PAIR };`;

describe('contract state', () => {
  it('allocates, updates and removes big maps, and keeps contracts across restarts and replays', async () => {
    run = groupInjector(() => h!, b4);
    h = await openHarness();
    const init = [{ prim: 'Elt', args: [{ int: '1' }, { int: '10' }] }];
    const orig = await run([
      { kind: 'origination', balance: '0', script: { code: parser.parseScript(RESETTER), storage: init } },
    ]);
    const kt1 = originatedAddress(orig.hash, 0);
    const first = orig.contents[0].metadata.operation_result.lazy_storage_diff[0].id;
    const call = (value: unknown) =>
      run([
        { kind: 'transaction', amount: '0', destination: kt1, parameters: { entrypoint: 'default', value } },
      ]);
    await call({ prim: 'Left', args: [{ prim: 'Pair', args: [{ int: '2' }, { int: '20' }] }] });
    expect((await h.get(`/chains/main/blocks/head/context/big_maps/${first}`)).body).toEqual(
      expect.arrayContaining([{ int: '10' }, { int: '20' }]),
    );
    const beforeReset = h.sandbox.headLevel;
    const reset = await call({ prim: 'Right', args: [{ prim: 'Unit' }] });
    const diff = reset.contents[0].metadata.operation_result.lazy_storage_diff;
    const fresh = diff.find((d: { diff: { action: string } }) => d.diff.action === 'alloc').id;
    expect(diff).toContainEqual({ kind: 'big_map', id: first, diff: { action: 'remove' } });
    expect(fresh).not.toBe(first);
    const storage = (await h.get(`/chains/main/blocks/head/context/contracts/${kt1}/storage`)).body;
    expect(storage).toEqual({ int: fresh });
    expect((await h.get(`/chains/main/blocks/head/context/big_maps/${first}`)).status).toBe(404);
    expect((await h.get(`/chains/main/blocks/${beforeReset}/context/big_maps/${first}`)).body).toHaveLength(
      2,
    );
    const level = h.sandbox.headLevel;
    const dir = h.dir;
    await h.close();

    h = await openHarness(dir);
    expect((await h.get(`/chains/main/blocks/head/context/contracts/${kt1}/storage`)).body).toEqual(storage);
    await h.close();
    // Without a snapshot, the state is rebuilt from the state changes logged in each block.
    await fs.rm(path.join(dir, 'sandbox', 'state.json'));
    h = await openHarness(dir);
    expect(h.sandbox.headLevel).toBe(level);
    expect((await h.get(`/chains/main/blocks/head/context/contracts/${kt1}/storage`)).body).toEqual(storage);
    expect((await h.get(`/chains/main/blocks/head/context/big_maps/${fresh}`)).body).toEqual([]);
    expect((await h.get(`/chains/main/blocks/${beforeReset}/context/big_maps/${first}`)).body).toHaveLength(
      2,
    );
    expect((await h.get(`/chains/main/blocks/${beforeReset - 2}/context/contracts/${kt1}`)).status).toBe(404);
  });

  it('registers a global constant that scripts can use, and serves it by hash', async () => {
    run = groupInjector(() => h!, b4);
    h = await openHarness();
    const value = JSON.parse(JSON.stringify(parser.parseMichelineExpression('{ PUSH int 1 ; ADD }')));
    const reg = await run([{ kind: 'register_global_constant', value }]);
    const result = reg.contents[0].metadata.operation_result;
    const hash = globalConstantHash(value);
    expect(result).toMatchObject({ status: 'applied', global_address: hash });
    expect(result.balance_updates[1]).toEqual({
      kind: 'burned',
      category: 'storage fees',
      change: String(Number(result.storage_size) * 250),
      origin: 'block',
    });
    expect((await h.get(`/chains/main/blocks/head/context/global_constants/${hash}`)).body).toEqual(value);
    expect(
      (await run([{ kind: 'register_global_constant', value }])).contents[0].metadata.operation_result.status,
    ).toBe('failed');
    const code = JSON.parse(
      JSON.stringify(
        parser.parseScript(
          `parameter int; storage int; code { UNPAIR; ADD; constant "${hash}"; NIL operation; PAIR };`,
        ),
      ),
    );
    const orig = await run([{ kind: 'origination', balance: '0', script: { code, storage: { int: '1' } } }]);
    const kt1 = orig.contents[0].metadata.operation_result.originated_contracts[0];
    expect((await h.get(`/chains/main/blocks/head/context/contracts/${kt1}/script`)).body.code).toEqual(code);
    await run([
      {
        kind: 'transaction',
        amount: '0',
        destination: kt1,
        parameters: { entrypoint: 'default', value: { int: '5' } },
      },
    ]);
    expect((await h.get(`/chains/main/blocks/head/context/contracts/${kt1}/storage`)).body).toEqual({
      int: '7',
    });
  });

  it('delegates to a registered delegate and refuses an unregistered one', async () => {
    run = groupInjector(() => h!, b4);
    h = await openHarness();
    const b2 = BOOTSTRAP_ACCOUNTS[1]!.pkh;
    const ok = await run([{ kind: 'delegation', delegate: b2 }]);
    expect(ok.contents[0].metadata.operation_result.status).toBe('applied');
    expect((await h.get(`/chains/main/blocks/head/context/contracts/${b4.pkh}/delegate`)).body).toBe(b2);
    const bad = await run([{ kind: 'delegation', delegate: 'tz1burnburnburnburnburnburnburjAYjjX' }]);
    expect(bad.contents[0].metadata.operation_result.errors[0].id).toBe(
      'proto.024-PtTALLiN.contract.manager.unregistered_delegate',
    );
    expect((await h.get(`/chains/main/blocks/head/context/contracts/${b4.pkh}/delegate`)).body).toBe(b2);
  });
});
