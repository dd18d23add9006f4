import { afterEach, describe, expect, it } from 'vitest';
import { InMemorySigner } from '@taquito/signer';
import { encodeOpHash, validateOperation, ValidationResult } from '@taquito/utils';
import { BOOTSTRAP_ACCOUNTS } from '../src/index';
import {
  freshSecretKey,
  openHarness,
  signedOperation,
  signedTransfer,
  signedTransferAs,
  type Harness,
} from './helpers';

const [b1, b2, b3] = BOOTSTRAP_ACCOUNTS as [
  (typeof BOOTSTRAP_ACCOUNTS)[0],
  (typeof BOOTSTRAP_ACCOUNTS)[0],
  (typeof BOOTSTRAP_ACCOUNTS)[0],
];
const FRESH_SK = freshSecretKey();

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function balance(pkh: string, block = 'head'): Promise<bigint> {
  return BigInt((await h!.get(`/chains/main/blocks/${block}/context/contracts/${pkh}/balance`)).body);
}
async function counter(pkh: string): Promise<bigint> {
  return BigInt((await h!.get(`/chains/main/blocks/head/context/contracts/${pkh}/counter`)).body);
}
async function branch(): Promise<string> {
  return (await h!.get('/chains/main/blocks/head/hash')).body;
}
async function inject(hex: unknown) {
  return h!.post('/injection/operation?async&chain=main', hex);
}

describe('injection of signed transfers', () => {
  it('applies bootstrap2 -> bootstrap3 in the next block with exact balance and counter changes', async () => {
    h = await openHarness();
    const before2 = await balance(b2.pkh);
    const before3 = await balance(b3.pkh);
    const beforeBaker = await balance(b1.pkh);
    const hex = await signedTransfer({
      sk: b2.sk,
      branch: await branch(),
      counter: 1,
      destination: b3.pkh,
      amount: '1500000',
      fee: '450',
    });
    const r = await inject(hex);
    expect(r.status).toBe(200);
    expect(r.body).toBe(encodeOpHash(hex));
    expect(validateOperation(r.body)).toBe(ValidationResult.VALID);

    const pending = (await h.get('/chains/main/mempool/pending_operations?version=2')).body;
    expect(pending.validated.map((o: { hash: string }) => o.hash)).toEqual([r.body]);
    // Not applied before the block is baked.
    expect(await balance(b2.pkh)).toBe(before2);

    await h.sandbox.bakeBlock();
    const block = (await h.get('/chains/main/blocks/head')).body;
    const op = block.operations[3][0];
    expect(op.hash).toBe(r.body);
    expect(op).toMatchObject({
      protocol: block.protocol,
      chain_id: block.chain_id,
      branch: pending.validated[0].branch,
    });
    expect(op.signature).toMatch(/^sig/);
    const c = op.contents[0];
    expect(c).toMatchObject({
      kind: 'transaction',
      source: b2.pkh,
      destination: b3.pkh,
      amount: '1500000',
      fee: '450',
      counter: '1',
    });
    expect(c.metadata.operation_result.status).toBe('applied');
    expect(c.metadata.operation_result.consumed_milligas).toMatch(/^\d+$/);
    expect(c.metadata.operation_result.allocated_destination_contract).toBeUndefined();
    expect(c.metadata.balance_updates).toEqual([
      { kind: 'contract', contract: b2.pkh, change: '-450', origin: 'block' },
      { kind: 'accumulator', category: 'block fees', change: '450', origin: 'block' },
    ]);
    expect((await h.get('/chains/main/blocks/head/operation_hashes')).body).toEqual([[], [], [], [r.body]]);
    expect((await h.get('/chains/main/blocks/head/operations/3/0')).body.hash).toBe(r.body);

    expect(await balance(b2.pkh)).toBe(before2 - 1_500_000n - 450n);
    expect(await balance(b3.pkh)).toBe(before3 + 1_500_000n);
    expect(await balance(b1.pkh)).toBe(beforeBaker + 450n); // the baker gets the fee
    expect(await counter(b2.pkh)).toBe(1n);
    expect((await h.get('/chains/main/mempool/pending_operations?version=2')).body.validated).toEqual([]);
    // The state at the previous block is still served.
    expect(await balance(b2.pkh, 'head~1')).toBe(before2);
  });

  it('applies bootstrap1 -> a fresh tz1 with the allocation burn, then the fresh account reveals and sends back', async () => {
    h = await openHarness();
    const fresh = await InMemorySigner.fromSecretKey(FRESH_SK);
    const freshPkh = await fresh.publicKeyHash();
    const before1 = await balance(b1.pkh); // bootstrap1 is also the baker: it gets its fee back
    const r = await inject(
      await signedTransfer({
        sk: b1.sk,
        branch: await branch(),
        counter: 1,
        destination: freshPkh,
        amount: '10000000',
        fee: '600',
        storageLimit: '277',
      }),
    );
    expect(r.status).toBe(200);
    await h.sandbox.bakeBlock();
    const c = (await h.get('/chains/main/blocks/head/operations/3/0')).body.contents[0];
    expect(c.metadata.operation_result).toMatchObject({
      status: 'applied',
      allocated_destination_contract: true,
    });
    expect(c.metadata.operation_result.balance_updates).toEqual([
      { kind: 'contract', contract: b1.pkh, change: '-10000000', origin: 'block' },
      { kind: 'contract', contract: freshPkh, change: '10000000', origin: 'block' },
      { kind: 'contract', contract: b1.pkh, change: '-64250', origin: 'block' },
      { kind: 'burned', category: 'storage fees', change: '64250', origin: 'block' },
    ]);
    expect(await balance(b1.pkh)).toBe(before1 - 10_000_000n - 64_250n);
    expect(await balance(freshPkh)).toBe(10_000_000n);
    expect((await h.get(`/chains/main/blocks/head/context/contracts/${freshPkh}`)).body).toEqual({
      balance: '10000000',
      counter: '0',
      revealed: false,
    });

    // Without a reveal the fresh account cannot send; with reveal + transaction in one batch it can.
    const noReveal = await inject(
      await signedTransfer({
        sk: FRESH_SK,
        branch: await branch(),
        counter: 1,
        destination: b1.pkh,
        amount: '1000',
      }),
    );
    expect(noReveal.status).toBe(500);
    expect(noReveal.body[0].id).toMatch(/unrevealed_key$/);
    const withReveal = await inject(
      await signedTransfer({
        sk: FRESH_SK,
        branch: await branch(),
        counter: 1,
        destination: b2.pkh,
        amount: '1000',
        fee: '500',
        reveal: true,
      }),
    );
    expect(withReveal.status).toBe(200);
    const before2 = await balance(b2.pkh);
    await h.sandbox.bakeBlock();
    const contents = (await h.get('/chains/main/blocks/head/operations/3/0')).body.contents;
    expect(contents.map((x: { kind: string }) => x.kind)).toEqual(['reveal', 'transaction']);
    expect(contents.map((x: any) => x.metadata.operation_result.status)).toEqual(['applied', 'applied']);
    expect((await h.get(`/chains/main/blocks/head/context/contracts/${freshPkh}/manager_key`)).body).toBe(
      await fresh.publicKey(),
    );
    expect(await balance(freshPkh)).toBe(10_000_000n - 1000n - 500n - 1000n);
    expect(await balance(b2.pkh)).toBe(before2 + 1000n);
    expect(await counter(freshPkh)).toBe(2n);
  });

  it('accepts consecutive counters from one source in the same block', async () => {
    h = await openHarness();
    const br = await branch();
    expect(
      (
        await inject(
          await signedTransfer({ sk: b2.sk, branch: br, counter: 1, destination: b3.pkh, amount: '1' }),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await inject(
          await signedTransfer({ sk: b2.sk, branch: br, counter: 2, destination: b3.pkh, amount: '2' }),
        )
      ).status,
    ).toBe(200);
    await h.sandbox.bakeBlock();
    expect((await h.get('/chains/main/blocks/head/operation_hashes')).body[3]).toHaveLength(2);
    expect(await counter(b2.pkh)).toBe(2n);
  });

  it('rejects a bad signature, wrong counters, an unknown branch and insufficient balances with node errors', async () => {
    h = await openHarness();
    const br = await branch();
    const good = await signedTransfer({
      sk: b2.sk,
      branch: br,
      counter: 1,
      destination: b3.pkh,
      amount: '1000',
    });
    const tampered = good.slice(0, -2) + (good.endsWith('00') ? '01' : '00');
    const bad = await inject(tampered);
    expect(bad.status).toBe(500);
    expect(bad.body).toEqual([{ kind: 'permanent', id: 'proto.024-PtTALLiN.operation.invalid_signature' }]);
    // bootstrap2's transfer signed with bootstrap3's key.
    const wrongKey = await signedTransferAs(b3.sk, {
      sk: b2.sk,
      branch: br,
      counter: 1,
      destination: b3.pkh,
      amount: '1000',
    });
    expect((await inject(wrongKey)).body[0].id).toBe('proto.024-PtTALLiN.operation.invalid_signature');
    // A valid operation from another source is accepted meanwhile.
    expect(
      (
        await inject(
          await signedTransfer({ sk: b3.sk, branch: br, counter: 1, destination: b1.pkh, amount: '1000' }),
        )
      ).status,
    ).toBe(200);

    const future = await inject(
      await signedTransfer({ sk: b2.sk, branch: br, counter: 5, destination: b3.pkh, amount: '1000' }),
    );
    expect(future.status).toBe(500);
    expect(future.body[0]).toMatchObject({
      id: 'proto.024-PtTALLiN.contract.counter_in_the_future',
      expected: '1',
      found: '5',
    });
    const past = await inject(
      await signedTransfer({ sk: b2.sk, branch: br, counter: 0, destination: b3.pkh, amount: '1000' }),
    );
    expect(past.body[0]).toMatchObject({
      kind: 'branch',
      id: 'proto.024-PtTALLiN.contract.counter_in_the_past',
    });

    const feeTooHigh = await inject(
      await signedTransfer({
        sk: b2.sk,
        branch: br,
        counter: 1,
        destination: b3.pkh,
        amount: '1',
        fee: '4000000000001',
      }),
    );
    expect(feeTooHigh.status).toBe(500);
    expect(feeTooHigh.body[0].id).toBe('proto.024-PtTALLiN.contract.balance_too_low');

    const unknownBranch = await inject(
      await signedTransfer({
        sk: b2.sk,
        branch: 'BLvxCa7Wimg4JCJMR62EvCrBWhzALEJRbDWHhcYtmyAL1y4ikry',
        counter: 1,
        destination: b3.pkh,
        amount: '1',
      }),
    );
    expect(unknownBranch.status).toBe(500);
    expect(unknownBranch.body[0].kind).toBe('branch');

    // None of the refused operations reached the mempool; the valid one did.
    const mempool = (await h.get('/chains/main/mempool/pending_operations')).body;
    expect(mempool.validated).toHaveLength(1);
    expect(await counter(b2.pkh)).toBe(0n);
    // They are listed as the node classifies them: permanent errors refused, branch errors
    // branch_refused, temporary ones branch_delayed, each with its hash, contents and error.
    const hashes = (list: Array<{ hash: string }>): string[] => list.map((o) => o.hash);
    expect(hashes(mempool.refused)).toEqual(
      expect.arrayContaining([encodeOpHash(tampered), encodeOpHash(wrongKey)]),
    );
    const refusedEntry = mempool.refused.find((o: { hash: string }) => o.hash === encodeOpHash(tampered));
    expect(refusedEntry).toMatchObject({
      protocol: 'PtTALLiNtPec7mE7yY4m3k26J8Qukef3E3ehzhfXgFZKGtDdAXu',
      branch: br,
      contents: [expect.objectContaining({ kind: 'transaction', source: b2.pkh, counter: '1' })],
      error: [{ kind: 'permanent', id: 'proto.024-PtTALLiN.operation.invalid_signature' }],
    });
    expect(mempool.branch_refused.map((o: { error: Array<{ id: string }> }) => o.error[0]!.id)).toEqual(
      expect.arrayContaining(['proto.024-PtTALLiN.contract.counter_in_the_past']),
    );
    expect(mempool.branch_delayed.map((o: { error: Array<{ id: string }> }) => o.error[0]!.id)).toEqual(
      expect.arrayContaining(['proto.024-PtTALLiN.contract.counter_in_the_future']),
    );
    expect(hashes(mempool.validated)).not.toContain(encodeOpHash(tampered));
    // At the next block the branch classes are dropped (not retried); refused ones stay.
    await h.sandbox.bakeBlock();
    const after = (await h.get('/chains/main/mempool/pending_operations')).body;
    expect(after.branch_delayed).toEqual([]);
    expect(hashes(after.refused)).toContain(encodeOpHash(tampered));
  });

  it('lists an operation whose branch is too old as outdated', async () => {
    h = await openHarness();
    const old = await branch();
    for (let i = 0; i < 240; i++) await h.sandbox.bakeBlock();
    const op = await signedTransfer({ sk: b2.sk, branch: old, counter: 1, destination: b3.pkh, amount: '1' });
    const r = await inject(op);
    expect(r.status).toBe(500);
    expect(r.body[0].id).toBe('node.prevalidation.outdated_operation');
    const mempool = (await h.get('/chains/main/mempool/pending_operations')).body;
    expect(mempool.outdated.map((o: { hash: string }) => o.hash)).toEqual([encodeOpHash(op)]);
    expect(mempool.validated).toEqual([]);
  }, 60_000);

  it('includes operations that fail when applied with a failed receipt, fees kept and nothing else changed', async () => {
    h = await openHarness();
    const br = await branch();
    const fresh = await (await InMemorySigner.fromSecretKey(FRESH_SK)).publicKeyHash();
    const b4 = BOOTSTRAP_ACCOUNTS[3]!;
    const cases = [
      {
        sk: b2.sk,
        destination: b3.pkh,
        amount: '5000000000000',
        error: 'proto.024-PtTALLiN.contract.balance_too_low',
      },
      // Enough for the amount but not for the 64,250 mutez allocation burn of a new account.
      {
        sk: b3.sk,
        destination: fresh,
        amount: String(4_000_000_000_000n - 500n),
        error: 'proto.024-PtTALLiN.contract.cannot_pay_storage_fee',
      },
      {
        sk: b4.sk,
        destination: fresh,
        amount: '1000',
        storageLimit: '0',
        error: 'proto.024-PtTALLiN.storage_exhausted.operation',
      },
      {
        sk: b1.sk,
        destination: 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5',
        amount: '1',
        error: 'proto.024-PtTALLiN.contract.non_existing_contract',
      },
    ];
    const before = new Map<string, bigint>();
    for (const c of cases) {
      const r = await inject(
        await signedTransfer({
          sk: c.sk,
          branch: br,
          counter: 1,
          destination: c.destination,
          amount: c.amount,
          ...(c.storageLimit ? { storageLimit: c.storageLimit } : {}),
        }),
      );
      expect(r.status, c.error).toBe(200);
    }
    for (const a of [b1, b2, b3, b4])
      before.set(
        a.pkh,
        BigInt((await h.get(`/chains/main/blocks/head/context/contracts/${a.pkh}/balance`)).body),
      );
    const block = await h.sandbox.bakeBlock();
    const ops = block.operations[3]!;
    expect(ops).toHaveLength(cases.length);
    ops.forEach((op, i) => {
      const result = op.contents[0]!.metadata!.operation_result;
      expect(result.status).not.toBe('applied');
      expect(result.errors!.map((e) => e.id)).toContain(cases[i]!.error);
    });
    // Only the fees moved (to the baker, bootstrap1, whose own fee is paid back to itself).
    expect(BigInt((await h.get(`/chains/main/blocks/head/context/contracts/${b2.pkh}/balance`)).body)).toBe(
      before.get(b2.pkh)! - 500n,
    );
    expect(BigInt((await h.get(`/chains/main/blocks/head/context/contracts/${b3.pkh}/balance`)).body)).toBe(
      before.get(b3.pkh)! - 500n,
    );
    expect((await h.get(`/chains/main/blocks/head/context/contracts/${fresh}/balance`)).body).toBe('0');
    expect(await counter(b2.pkh)).toBe(1n);
  });

  it('refuses an operation whose parameter is a 68,000-digit int with the parse error, and goes on baking', async () => {
    h = await openHarness();
    // ~32 KB of forged bytes, within Octez's operation size: local-forging's quadratic codec took minutes
    // over such an int in the chain thread; the sandbox's forger reads it in milliseconds and the boundary's
    // int limit refuses it.
    const int = '9'.repeat(68_000);
    const hex = await signedOperation(b2.sk, await branch(), [
      {
        kind: 'transaction',
        source: b2.pkh,
        fee: '100000',
        counter: String((await counter(b2.pkh)) + 1n),
        gas_limit: '100000',
        storage_limit: '0',
        amount: '0',
        destination: 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn',
        parameters: { entrypoint: 'default', value: { int } },
      },
    ]);
    expect(hex.length / 2).toBeLessThan(32_768);
    const r = await inject(hex);
    expect(r.status).toBe(500);
    expect(r.body[0].id).toBe('node.prevalidation.parse_error');
    expect(r.body[0].msg).toMatch(/int literal longer than 1000 digits/);
    const level = (await h.get('/chains/main/blocks/head/header')).body.level;
    const ok = await inject(
      await signedTransfer({
        sk: b2.sk,
        branch: await branch(),
        counter: String((await counter(b2.pkh)) + 1n),
        destination: b3.pkh,
        amount: '1',
      }),
    );
    expect(ok.status).toBe(200);
    await h.sandbox.bakeBlock();
    expect((await h.get('/chains/main/blocks/head/header')).body.level).toBe(level + 1);
    expect((await h.get('/chains/main/blocks/head')).body.operations[3][0].hash).toBe(ok.body);
  });

  it('refuses malformed bodies without crashing', async () => {
    h = await openHarness();
    const bodies: unknown[] = [
      'zz',
      '',
      'abcd',
      '00'.repeat(200),
      42,
      { hex: 'ab' },
      null,
      ['ab'],
      'ab'.repeat(40000),
    ];
    for (const body of bodies) {
      const r = await inject(body);
      expect([400, 500]).toContain(r.status);
      expect(Array.isArray(r.body)).toBe(true);
      expect(r.body[0].id).toEqual(expect.any(String));
    }
    const raw = await h.app.inject({
      method: 'POST',
      url: '/rpc/sandboxnet/injection/operation',
      headers: { 'content-type': 'application/json' },
      payload: '"unterminated',
    });
    expect(raw.statusCode).toBe(400);
    expect((await h.get('/chains/main/blocks/head/header')).status).toBe(200);
  });
});
