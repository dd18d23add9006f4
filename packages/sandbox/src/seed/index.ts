// The demo seed: on the first start of a chain, originates the contracts this project wrote
// (seed/contracts/*.tz) and calls them over many blocks, so that every screen of the explorer
// has data: big-map keys added, updated, removed; internal calls; CREATE_CONTRACT; events;
// delegations; a registered global constant; failed calls, a backtracked batch, a call backtracked for
// exceeding its storage limit, and two failed groups whose earlier contents the failing one depends on (one of
// them backtracked for its storage after an internal call).
// Over ~400 lines because it is one seed script: the blocks it bakes depend on the ones before (addresses
// originated earlier, big-map keys added then updated then removed), so its steps read top to bottom as one
// scenario; its contracts, metadata and kernel are files of their own.
import fs from 'node:fs';
import path from 'node:path';
import { Parser } from '@taquito/michel-codec';
import { forgeOperation } from '../forging';
import { InMemorySigner } from '@taquito/signer';
import { defaultEnv, Interpreter, packValue, toTy, type Expr } from '@michelscope/interpreter';
import { BOOTSTRAP_ACCOUNTS } from '../accounts';
import { globalConstantHash } from '@michelscope/michelson';
import { originatedAddress } from '../execute';
import { CHAIN_ID } from '../protocol';
import { smartRollupAddress } from '../smart-rollups';
import { DEMO_KERNEL } from './kernel';
import { contractMetadata, FA12_METADATA, FA2_METADATA, tokenMetadataMap } from './metadata';

type Account = (typeof BOOTSTRAP_ACCOUNTS)[number];

/** What the seed needs from the chain (implemented by Sandbox). */
export interface SeedTarget {
  readonly headLevel: number;
  readonly head: { hash: string };
  inject(body: unknown): Promise<string>;
  /** Bakes the next block (timestamps one second apart). */
  bakeNext(): Promise<unknown>;
}

export interface SeedResult {
  contracts: Record<string, string>;
  operations: number;
  constant: string;
  /** The smart rollup originated in the first block. */
  rollup: string;
}

const parser = new Parser();
const CONSTANT_CODE: Expr = [{ prim: 'PUSH', args: [{ prim: 'int' }, { int: '1' }] }, { prim: 'ADD' }];

export function seedContractSource(name: string): string {
  return fs.readFileSync(path.join(import.meta.dirname, 'contracts', `${name}.tz`), 'utf8');
}

function code(name: string, replace: Record<string, string> = {}): Expr {
  let src = seedContractSource(name);
  for (const [k, v] of Object.entries(replace)) src = src.replaceAll(k, v);
  const parsed = parser.parseScript(src);
  if (!parsed) throw new Error(`seed contract ${name} is empty`);
  return parsed;
}

const str = (s: string): Expr => ({ string: s });
const int = (n: number | bigint): Expr => ({ int: String(n) });
const pair = (...args: Expr[]): Expr =>
  args.length <= 2 ? { prim: 'Pair', args } : { prim: 'Pair', args: [args[0]!, pair(...args.slice(1))] };
const left = (e: Expr): Expr => ({ prim: 'Left', args: [e] });
const right = (e: Expr): Expr => ({ prim: 'Right', args: [e] });

class Seeder {
  private readonly counters = new Map<string, number>();
  operations = 0;

  constructor(private readonly chain: SeedTarget) {}

  /** Signs and injects one operation of `from`; returns its hash. */
  async send(from: Account, contents: Array<Record<string, unknown>>): Promise<string> {
    let counter = this.counters.get(from.pkh) ?? 0;
    const full = contents.map((c) => ({
      source: from.pkh,
      fee: '5000',
      counter: String(++counter),
      gas_limit: '80000',
      storage_limit: '8000',
      ...c,
    }));
    this.counters.set(from.pkh, counter);
    const bytes = await forgeOperation({ branch: this.chain.head.hash, contents: full });
    const signed = await (await InMemorySigner.fromSecretKey(from.sk)).sign(bytes, Uint8Array.of(3));
    this.operations += contents.length;
    return this.chain.inject(signed.sbytes);
  }

  async originate(from: Account, script: Expr, storage: Expr, balance = '0'): Promise<string> {
    const hash = await this.send(from, [{ kind: 'origination', balance, script: { code: script, storage } }]);
    return originatedAddress(hash, 0);
  }

  call(from: Account, destination: string, entrypoint: string, value: Expr, amount = '0'): Promise<string> {
    return this.send(from, [{ kind: 'transaction', amount, destination, parameters: { entrypoint, value } }]);
  }

  bake(): Promise<unknown> {
    return this.chain.bakeNext();
  }
}

/** The bytes multisig.tz checks signatures against: PACK(Pair (Pair chain_id self) payload). */
function multisigBytes(self: string, payload: Expr): string {
  const type = {
    prim: 'pair',
    args: [
      { prim: 'pair', args: [{ prim: 'chain_id' }, { prim: 'address' }] },
      {
        prim: 'pair',
        args: [
          { prim: 'nat' },
          { prim: 'lambda', args: [{ prim: 'unit' }, { prim: 'list', args: [{ prim: 'operation' }] }] },
        ],
      },
    ],
  };
  const it = new Interpreter({ env: defaultEnv({ chainId: CHAIN_ID }) });
  return packValue(it.parseValue(pair(pair(str(CHAIN_ID), str(self)), payload), toTy(type)));
}

/** A multisig call of `action` at `counter`, signed by `signers` (in the order of the keys). */
async function multisigCall(
  self: string,
  counter: number,
  action: Expr,
  keys: Account[],
  signers: Account[],
): Promise<Expr> {
  const payload = pair(int(counter), action);
  const bytes = multisigBytes(self, payload);
  const sigs: Expr[] = [];
  for (const k of keys) {
    if (!signers.includes(k)) sigs.push({ prim: 'None' });
    else
      sigs.push({
        prim: 'Some',
        args: [str((await (await InMemorySigner.fromSecretKey(k.sk)).sign(bytes)).prefixSig)],
      });
  }
  return pair(payload, sigs);
}

/** Number of blocks `runSeed` bakes for `rounds` (the caller may start genesis that far back). */
export function seedBlocks(rounds: number): number {
  return 6 + rounds;
}

export async function runSeed(chain: SeedTarget, rounds = 24): Promise<SeedResult> {
  const [b1, b2, b3, b4, b5] = BOOTSTRAP_ACCOUNTS as [Account, Account, Account, Account, Account];
  const s = new Seeder(chain);

  // Block 1: a registered global constant, tez transfers, a delegation, a smart rollup.
  await s.send(b1, [{ kind: 'register_global_constant', value: CONSTANT_CODE }]);
  await s.send(b2, [{ kind: 'transaction', amount: '25000000', destination: b3.pkh }]);
  await s.send(b5, [{ kind: 'delegation', delegate: b2.pkh }]);
  const rollupOp = await s.send(b4, [
    {
      kind: 'smart_rollup_originate',
      pvm_kind: 'wasm_2_0_0',
      kernel: DEMO_KERNEL,
      parameters_ty: { prim: 'bytes' },
    },
  ]);
  const rollup = smartRollupAddress({ hash: rollupOp, originations: 0 });
  await s.bake();

  // Block 2: originations.
  const constant = globalConstantHash(CONSTANT_CODE);
  const fa12 = await s.originate(
    b1,
    code('fa12'),
    pair(
      [{ prim: 'Elt', args: [str(b1.pkh), int(1_000_000_000)] }],
      [],
      str(b1.pkh),
      int(1_000_000_000),
      contractMetadata(FA12_METADATA),
    ),
  );
  const ledger = [
    { prim: 'Elt', args: [pair(str(b1.pkh), int(0)), int(500_000_000)] },
    { prim: 'Elt', args: [pair(str(b1.pkh), int(1)), int(1)] },
    { prim: 'Elt', args: [pair(str(b1.pkh), int(2)), int(1)] },
    { prim: 'Elt', args: [pair(str(b2.pkh), int(3)), int(1)] },
  ]; // sorted: bootstrap1's key hash is below bootstrap2's
  const fa2 = await s.originate(
    b2,
    code('fa2'),
    pair(ledger, [], tokenMetadataMap(), contractMetadata(FA2_METADATA)),
  );
  const counter = await s.originate(
    b3,
    code('counter'),
    pair(int(0), [{ prim: 'Elt', args: [str('genesis'), int(1)] }]),
  );
  const factory = await s.originate(b4, code('factory'), []);
  const delegator = await s.originate(b5, code('delegator'), { prim: 'Unit' }, '10000000');
  const upgradable = await s.originate(
    b4,
    code('upgradable'),
    pair(
      [{ prim: 'Elt', args: [int(0), [{ prim: 'PUSH', args: [{ prim: 'int' }, int(2)] }, { prim: 'MUL' }]] }],
      int(0),
    ),
  );
  await s.bake();
  const adder = await s.originate(b3, code('adder', { __CONSTANT__: constant }), int(0));
  const splitter = await s.originate(b2, code('splitter'), pair(str(b4.pkh), str(counter)));
  const ticketer = await s.originate(b1, code('ticketer'), int(0));
  const receiver = await s.originate(b5, code('receiver'), { prim: 'None' });
  const swap = await s.originate(b1, code('swap'), pair(str(fa12), str(fa2)));
  const minter = await s.originate(b1, code('minter'), { prim: 'Unit' });
  const vault = await s.originate(b4, code('receiver'), { prim: 'None' });
  const signers = [b1, b2, b3];
  const multisig = await s.originate(
    b1,
    code('multisig'),
    pair(
      int(0),
      int(2),
      signers.map((a) => str(a.pk)),
    ),
    '50000000',
  );
  await s.bake();

  // Block 4: one call of each kind of contract.
  await s.call(b1, fa12, 'approve', pair(str(b2.pkh), int(5_000_000)));
  await s.call(b2, fa2, 'update_operators', [left(pair(str(b2.pkh), str(b3.pkh), int(3)))]);
  await s.call(b5, delegator, 'set_delegate', { prim: 'Some', args: [str(b3.pkh)] });
  await s.call(b4, factory, 'default', int(42));
  await s.call(b4, upgradable, 'apply', int(5));
  await s.call(b3, adder, 'default', int(41));
  // The swap holds FA2 token 0 and may pull bootstrap3's FA1.2 tokens.
  await s.call(b1, fa2, 'transfer', [pair(str(b1.pkh), [pair(str(swap), int(0), int(1_000_000))])]);
  await s.call(b3, fa12, 'approve', pair(str(swap), int(1_000_000)));
  await s.bake();

  // Rounds: token transfers (keys added, updated, removed), notes, counters, factory children.
  const holders = [b1, b2, b3, b4, b5];
  /** The counter's value (its increments; its decrements all fail). */
  let count = 0;
  for (let r = 0; r < rounds; r++) {
    const to = holders[(r % 4) + 1]!;
    await s.call(b1, fa12, 'transfer', pair(str(b1.pkh), str(to.pkh), int(1_000_000 + r * 1000)));
    if (r % 3 === 0)
      await s.call(to, fa12, 'transfer', pair(str(to.pkh), str(holders[(r + 2) % 5]!.pkh), int(500_000)));
    if (r < 15) await s.call(b2, fa12, 'transfer', pair(str(b1.pkh), str(b5.pkh), int(10_000)));
    await s.call(b1, fa2, 'transfer', [pair(str(b1.pkh), [pair(str(to.pkh), int(0), int(100_000 + r))])]);
    await s.call(b3, counter, 'increment', int(r + 1));
    count += r + 1;
    await s.call(b3, counter, 'note', pair(str(`note-${r % 6}`), int(r)));
    if (r % 6 === 5) await s.call(b3, counter, 'forget', str(`note-${r % 6}`));
    if (r % 4 === 0) await s.call(b4, factory, 'default', int(r));
    if (r % 3 === 1) {
      await s.call(b5, splitter, 'default', { prim: 'Unit' }, '2000000');
      count += 1; // the splitter's internal %increment 1
    }
    if (r % 4 === 2) await s.call(b3, swap, 'default', int(1000 + r));
    if (r % 5 === 2) await s.call(b1, ticketer, 'default', pair(str(receiver), int(10 + r)));
    if (r % 5 === 1) await s.call(b4, upgradable, 'apply', int(r));
    if (r === 6)
      await s.call(b4, upgradable, 'upgrade', [
        { prim: 'PUSH', args: [{ prim: 'int' }, int(3)] },
        { prim: 'MUL' },
      ]);
    // Plain tez traffic, one of them a batch of two transfers.
    await s.send(holders[(r + 3) % 5]!, [
      { kind: 'transaction', amount: String(100_000 + r), destination: holders[(r + 4) % 5]!.pkh },
    ]);
    await s.send(b5, [
      { kind: 'transaction', amount: '250000', destination: b1.pkh },
      { kind: 'transaction', amount: '250000', destination: b2.pkh },
    ]);
    if (r % 4 === 2)
      await s.send(holders[r % 5]!, [
        { kind: 'transaction', amount: String(1_000_000 * (r + 1)), destination: holders[(r + 1) % 5]!.pkh },
      ]);
    if (r === 3) {
      // NFTs change hands: b1 sends token 1 to b4; b3, operator of b2 for token 3, moves it to b5.
      await s.call(b1, fa2, 'transfer', [pair(str(b1.pkh), [pair(str(b4.pkh), int(1), int(1))])]);
      await s.call(b3, fa2, 'transfer', [pair(str(b2.pkh), [pair(str(b5.pkh), int(3), int(1))])]);
      await s.call(b2, fa2, 'update_operators', [right(pair(str(b2.pkh), str(b3.pkh), int(3)))]);
    }
    if (r === 8) {
      // Failures: FAILWITH with a pair and with a string, a backtracked batch, tez the source lacks.
      await s.call(b4, fa12, 'transfer', pair(str(b4.pkh), str(b1.pkh), int(999_999_999_999)));
      await s.call(b4, fa12, 'mint', pair(str(b4.pkh), int(1)));
      await s.call(b3, counter, 'decrement', int(1_000_000));
      // A note whose new big-map entry (65 bytes plus its 600-digit value) needs more bytes than the call's
      // storage limit, beyond those the forgotten note-5 had paid for: the call runs, then Octez backtracks it with storage_exhausted.operation.
      await s.send(b3, [
        {
          kind: 'transaction',
          amount: '0',
          destination: counter,
          parameters: {
            entrypoint: 'note',
            value: pair(str('over the storage limit'), { int: '9'.repeat(600) }),
          },
          storage_limit: '40',
        },
      ]);
      await s.send(b5, [
        { kind: 'transaction', amount: '1000000', destination: b1.pkh },
        {
          kind: 'transaction',
          amount: '0',
          destination: fa2,
          parameters: {
            entrypoint: 'transfer',
            value: [pair(str(b5.pkh), [pair(str(b1.pkh), int(2), int(1))])],
          },
        },
      ]);
      await s.send(b4, [{ kind: 'transaction', amount: '999999999999999', destination: b1.pkh }]);
      await s.send(b2, [
        {
          kind: 'transaction',
          amount: '0',
          destination: delegator,
          parameters: { entrypoint: 'default', value: { prim: 'Unit' } },
        },
      ]);
    }
    // Tickets to an implicit account, which sends some on with transfer_ticket.
    if (r === 4) await s.call(b1, minter, 'default', pair(str(b4.pkh), int(20)));
    if (r === 9) {
      await s.send(b4, [
        {
          kind: 'transfer_ticket',
          ticket_contents: str('coupon'),
          ticket_ty: { prim: 'string' },
          ticket_ticketer: minter,
          ticket_amount: '8',
          destination: vault,
          entrypoint: 'receive',
        },
      ]);
    }
    if (r === 10) {
      // An arithmetic overflow (LSL by more than 256 bits) in a new logic, then the logic is restored.
      await s.call(b4, upgradable, 'upgrade', [
        { prim: 'ABS' },
        { prim: 'PUSH', args: [{ prim: 'nat' }, int(300)] },
        { prim: 'SWAP' },
        { prim: 'LSL' },
        { prim: 'INT' },
      ]);
      await s.call(b4, upgradable, 'apply', int(1));
      await s.call(b4, upgradable, 'upgrade', [
        { prim: 'PUSH', args: [{ prim: 'int' }, int(3)] },
        { prim: 'MUL' },
      ]);
    }
    if (r === 5 || r === 11) {
      // 2-of-3: pay 1 tez to bootstrap4 (signed by bootstrap1 and bootstrap3), sent by bootstrap2.
      const pay: Expr = [
        { prim: 'DROP' },
        { prim: 'NIL', args: [{ prim: 'operation' }] },
        { prim: 'PUSH', args: [{ prim: 'address' }, str(b4.pkh)] },
        { prim: 'CONTRACT', args: [{ prim: 'unit' }] },
        [{ prim: 'IF_NONE', args: [[[{ prim: 'UNIT' }, { prim: 'FAILWITH' }]], []] }],
        { prim: 'PUSH', args: [{ prim: 'mutez' }, int(1_000_000)] },
        { prim: 'UNIT' },
        { prim: 'TRANSFER_TOKENS' },
        { prim: 'CONS' },
      ];
      await s.call(
        b2,
        multisig,
        'main',
        await multisigCall(multisig, r === 5 ? 0 : 1, pay, signers, [b1, b3]),
      );
      // One signature is not enough: FAILWITH "not enough signatures".
      if (r === 11) await s.call(b2, multisig, 'main', await multisigCall(multisig, 2, pay, signers, [b2]));
    }
    if (r === 12) await s.call(b5, delegator, 'set_delegate', { prim: 'None' });
    if (r === 13) {
      const increment = (n: number) => ({
        kind: 'transaction',
        amount: '0',
        destination: counter,
        parameters: { entrypoint: 'increment', value: int(n) },
      });
      // A group whose second content depends on the first and fails: the counter plus 7, then minus 10 more
      // than it had: FAILWITH (Pair "negative" -3), and the first content is backtracked.
      await s.send(b3, [
        increment(7),
        {
          kind: 'transaction',
          amount: '0',
          destination: counter,
          parameters: { entrypoint: 'decrement', value: int(count + 10) },
        },
      ]);
      // A call backtracked for its storage that emits an internal call: the counter plus 7 and a new note (its
      // bytes paid), then the multisig (2-of-3) runs a lambda whose internal %note writes a 600-digit value past
      // the content's 40-byte limit.
      const note: Expr = [
        { prim: 'DROP' },
        { prim: 'NIL', args: [{ prim: 'operation' }] },
        { prim: 'PUSH', args: [{ prim: 'address' }, str(counter)] },
        {
          prim: 'CONTRACT',
          args: [{ prim: 'pair', args: [{ prim: 'string' }, { prim: 'nat' }] }],
          annots: ['%note'],
        },
        [{ prim: 'IF_NONE', args: [[[{ prim: 'UNIT' }, { prim: 'FAILWITH' }]], []] }],
        { prim: 'PUSH', args: [{ prim: 'mutez' }, int(0)] },
        {
          prim: 'PUSH',
          args: [
            { prim: 'pair', args: [{ prim: 'string' }, { prim: 'nat' }] },
            pair(str('via the multisig'), { int: '9'.repeat(600) }),
          ],
        },
        { prim: 'TRANSFER_TOKENS' },
        { prim: 'CONS' },
      ];
      await s.send(b2, [
        increment(7),
        {
          kind: 'transaction',
          amount: '0',
          destination: counter,
          parameters: { entrypoint: 'note', value: pair(str('before the multisig'), int(5)) },
        },
        {
          kind: 'transaction',
          amount: '0',
          destination: multisig,
          parameters: { entrypoint: 'main', value: await multisigCall(multisig, 2, note, signers, [b1, b3]) },
          storage_limit: '40',
        },
      ]);
    }
    // b1 withdraws b2's allowance: the allowance key is removed from the big map.
    if (r === 15) await s.call(b1, fa12, 'approve', pair(str(b2.pkh), int(0)));
    await s.bake();
  }
  return {
    contracts: {
      fa12,
      fa2,
      counter,
      factory,
      delegator,
      upgradable,
      adder,
      splitter,
      ticketer,
      receiver,
      swap,
      multisig,
      minter,
      vault,
    },
    operations: s.operations,
    constant,
    rollup,
  };
}
