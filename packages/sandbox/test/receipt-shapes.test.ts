// Compares the receipts the sandbox writes with real node receipts (../shared/fixtures: mainnet
// blocks and operations, Octez's own encoding samples) field by field: every field we write must
// exist in real receipts of the same kind and status with the same JSON type, and every field real
// receipts always carry must be in ours.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Parser } from '@taquito/michel-codec';
import { BOOTSTRAP_ACCOUNTS } from '../src/index';
import { contractSource, groupInjector, openHarness, tempDir, type Harness } from './helpers';
import { seedContractSource } from '../src/seed/index';
import { openSeededSandbox } from '../src/testing';

const shared = path.resolve(import.meta.dirname, '../../../../shared/fixtures');
const hasShared = fs.existsSync(path.join(shared, 'rpc/operations'));
if (!hasShared)
  console.warn(`receipt-shapes: skipped, ${shared} is absent (the shared fixtures are not in a fresh clone)`);

/**
 * Fields the node's encoding has that the fixtures only show in their pre-Oxford form: an origination
 * with big maps has `lazy_storage_diff` (reference §5.2); the one fixture with big maps is from
 * Delphi and has `big_map_diff`. Their content is still checked under the lazy_storage_diff categories.
 */
const DOCUMENTED: Record<string, string[]> = { 'result:origination:applied': ['lazy_storage_diff'] };

/** Optional in the node's encodings (`opt`/`dft`): absent when empty or zero, whatever the samples show. */
const OPTIONAL = new Set([
  'lazy_storage_diff',
  'balance_updates',
  'paid_storage_size_diff',
  'allocated_destination_contract',
  'storage',
  'parameters',
  'delegate',
  'payload',
  'tag',
  'errors',
  'ticket_updates',
  'ticket_receipt',
  'address_registry_diff',
]);

/** Deprecated fields (gone from Oxford on) that old fixtures still carry. */
const DEPRECATED = new Set(['consumed_gas', 'big_map_diff']);

type Shapes = Map<string, { count: number; fields: Map<string, { types: Set<string>; count: number }> }>;

function jsonType(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

function record(shapes: Shapes, category: string, obj: Record<string, unknown>): void {
  const s = shapes.get(category) ?? { count: 0, fields: new Map() };
  shapes.set(category, s);
  s.count++;
  for (const [key, v] of Object.entries(obj)) {
    // Receipts from before Ithaca had `consumed_gas` where later ones have `consumed_milligas`.
    const k = key === 'consumed_gas' && !('consumed_milligas' in obj) ? 'consumed_milligas' : key;
    if (DEPRECATED.has(k)) continue;
    const f = s.fields.get(k) ?? { types: new Set<string>(), count: 0 };
    s.fields.set(k, f);
    f.types.add(jsonType(v));
    f.count++;
  }
}

/** Walks manager contents (with metadata) and records the shape of each part. */
function walkContents(shapes: Shapes, contents: any[]): void {
  const result = (prefix: string, r: any) => {
    record(shapes, `${prefix}:${r.status}`, r);
    for (const u of r.balance_updates ?? []) record(shapes, `balance_update:${u.kind}`, u);
    for (const d of r.lazy_storage_diff ?? []) {
      if (d.kind !== 'big_map') continue;
      record(shapes, 'lazy_storage_diff', d);
      record(shapes, `lazy_storage_diff:${d.diff.action}`, d.diff);
      for (const u of d.diff.updates ?? []) record(shapes, 'lazy_storage_diff:update_item', u);
    }
    for (const e of r.errors ?? []) record(shapes, `error:${String(e.id).replace(/^proto\.[^.]+\./, '')}`, e);
  };
  for (const c of contents) {
    if (!c.metadata || typeof c.metadata !== 'object') continue;
    const { metadata, ...content } = c;
    record(shapes, `content:${c.kind}`, content);
    for (const u of metadata.balance_updates ?? []) record(shapes, `balance_update:${u.kind}`, u);
    if (metadata.operation_result) result(`result:${c.kind}`, metadata.operation_result);
    for (const i of metadata.internal_operation_results ?? []) {
      const { result: r, ...entry } = i;
      record(shapes, `internal:${i.kind}`, entry);
      result(`internal_result:${i.kind}`, r);
    }
  }
}

function readJson(file: string): any {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function realShapes(): Shapes {
  const shapes: Shapes = new Map();
  const opsDir = path.join(shared, 'rpc/operations');
  for (const f of fs.readdirSync(opsDir)) {
    if (!f.endsWith('.json') || f === 'index.json') continue;
    const d = readJson(path.join(opsDir, f));
    for (const op of Array.isArray(d) ? d : [d]) if (op?.contents) walkContents(shapes, op.contents);
  }
  for (const level of ['11610082', '11680082']) {
    const block = readJson(path.join(shared, 'rpc/blocks/mainnet', level, 'block.json'));
    for (const op of block.operations[3]) walkContents(shapes, op.contents);
  }
  const u025 = path.join(shared, 'protocol-encoding-samples/u025');
  for (const f of fs.readdirSync(path.join(u025, 'operation.data_and_metadata'))) {
    const d = readJson(path.join(u025, 'operation.data_and_metadata', f));
    walkContents(shapes, d.contents ?? []);
  }
  for (const f of fs.readdirSync(path.join(u025, 'operation.internal_and_metadata'))) {
    const d = readJson(path.join(u025, 'operation.internal_and_metadata', f));
    walkContents(shapes, [
      { kind: 'transaction', metadata: { balance_updates: [], internal_operation_results: [d] } },
    ]);
  }
  // Contents of kinds no fixture has with metadata: the real operations of the forging vectors.
  for (const kind of ['smart_rollup_originate']) {
    const vector = readJson(path.join(shared, 'rpc/forging', `${kind}.json`));
    for (const c of vector.unsigned.contents) if (c.kind === kind) record(shapes, `content:${kind}`, c);
  }
  // No fixture has a smart_rollup_originate receipt: its applied result is the node's encoding
  // (Octez apply_results: obj5 balance_updates, address, genesis_commitment_hash,
  // consumed_milligas, size; reference §5.2 lists the last three), written here as two samples.
  for (let i = 0; i < 2; i++)
    record(shapes, 'result:smart_rollup_originate:applied', {
      status: 'applied',
      balance_updates: [],
      address: 'sr1…',
      genesis_commitment_hash: 'src1…',
      consumed_milligas: '0',
      size: '0',
    });
  for (const f of fs.readdirSync(path.join(u025, 'lazy_storage_diff'))) {
    walkContents(shapes, [
      {
        kind: 'transaction',
        metadata: {
          balance_updates: [],
          operation_result: {
            status: 'applied',
            lazy_storage_diff: readJson(path.join(u025, 'lazy_storage_diff', f)),
          },
        },
      },
    ]);
  }
  return shapes;
}

/** Checks `ours` against `real`; returns the categories compared. */
function compareShapes(ours: Shapes, real: Shapes): string[] {
  const checked: string[] = [];
  for (const [category, mine] of ours) {
    const ref = real.get(category);
    if (!ref) continue;
    checked.push(category);
    for (const [field, f] of mine.fields) {
      if (DOCUMENTED[category]?.includes(field)) continue;
      // A backtracked result has the fields of an applied one (plus, maybe, errors).
      const r =
        ref.fields.get(field) ??
        (category.endsWith(':backtracked')
          ? real.get(category.replace(/backtracked$/, 'applied'))?.fields.get(field)
          : undefined);
      expect(r, `${category}.${field} does not exist in real receipts`).toBeDefined();
      for (const t of f.types) expect([...r!.types], `${category}.${field} type`).toContain(t);
    }
    // "Always" needs at least two real examples (a single sample shows its optional fields too).
    for (const [field, r] of ref.fields) {
      if (ref.count >= 2 && r.count === ref.count && !OPTIONAL.has(field))
        expect(mine.fields.has(field), `${category}.${field} is always in real receipts`).toBe(true);
    }
  }
  return checked;
}

const b3 = BOOTSTRAP_ACCOUNTS[2]!;
let h: Harness;
const ours: Shapes = new Map();

const inject = groupInjector(() => h, b3);
async function run(contents: Array<Record<string, unknown>>): Promise<any[]> {
  const { contents: included } = await inject(contents);
  walkContents(ours, included);
  return included;
}

describe.skipIf(!hasShared)('receipt shapes against real node receipts', () => {
  beforeAll(async () => {
    h = await openHarness();
    const parser = new Parser();
    const code = async (n: string) => parser.parseScript(await contractSource(n));
    const call = (destination: string, entrypoint: string, value: unknown) => ({
      kind: 'transaction',
      amount: '0',
      destination,
      parameters: { entrypoint, value },
    });
    const origin = await run([
      {
        kind: 'origination',
        balance: '1000',
        script: {
          code: await code('counter'),
          storage: {
            prim: 'Pair',
            args: [{ int: '5' }, [{ prim: 'Elt', args: [{ string: 'a' }, { int: '1' }] }]],
          },
        },
      },
    ]);
    const kt1 = origin[0].metadata.operation_result.originated_contracts[0];
    await run([call(kt1, 'set_entry', { prim: 'Pair', args: [{ string: 'b' }, { int: '2' }] })]);
    await run([call(kt1, 'increment', { int: '1' })]);
    await run([call(kt1, 'decrement', { int: '100' })]);
    await run([
      { kind: 'transaction', amount: '5', destination: BOOTSTRAP_ACCOUNTS[3]!.pkh },
      call(kt1, 'decrement', { int: '100' }),
      call(kt1, 'increment', { int: '1' }),
    ]);
    const relay = (
      await run([
        { kind: 'origination', balance: '0', script: { code: await code('relay'), storage: { int: '0' } } },
      ])
    )[0].metadata.operation_result.originated_contracts[0];
    await run([call(relay, 'default', { prim: 'Pair', args: [{ string: kt1 }, { int: '1' }] })]);
    await run([call(relay, 'default', { prim: 'Pair', args: [{ string: kt1 }, { int: '100' }] })]);
    const factory = (
      await run([{ kind: 'origination', balance: '0', script: { code: await code('factory'), storage: [] } }])
    )[0].metadata.operation_result.originated_contracts[0];
    await run([call(factory, 'default', { int: '1' })]);
    await run([
      { kind: 'transaction', amount: '1000000', destination: 'tz1burnburnburnburnburnburnburjAYjjX' },
    ]);
    const sender = (
      await run([
        {
          kind: 'origination',
          balance: '0',
          script: { code: await code('ticket-sender'), storage: { prim: 'Unit' } },
        },
      ])
    )[0].metadata.operation_result.originated_contracts[0];
    const receiver = (
      await run([
        {
          kind: 'origination',
          balance: '0',
          script: { code: parser.parseScript(seedContractSource('receiver')), storage: { prim: 'None' } },
        },
      ])
    )[0].metadata.operation_result.originated_contracts[0];
    await run([call(sender, 'default', { prim: 'Pair', args: [{ string: b3.pkh }, { int: '3' }] })]);
    await run([
      {
        kind: 'transfer_ticket',
        ticket_contents: { string: 'demo' },
        ticket_ty: { prim: 'string' },
        ticket_ticketer: sender,
        ticket_amount: '2',
        destination: receiver,
        entrypoint: 'receive',
      },
    ]);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('writes only fields real receipts have, with the same JSON types, and every field they always have', () => {
    const checked = compareShapes(ours, realShapes());
    // The comparison covered every kind of receipt the chain above produced that fixtures show.
    for (const c of [
      'content:origination',
      'content:transaction',
      'result:origination:applied',
      'result:transaction:applied',
      'result:transaction:failed',
      'result:transaction:backtracked',
      'result:transaction:skipped',
      'internal:transaction',
      'internal:event',
      'internal_result:transaction:applied',
      'internal_result:event:applied',
      'lazy_storage_diff',
      'lazy_storage_diff:alloc',
      'lazy_storage_diff:update',
      'lazy_storage_diff:update_item',
      'balance_update:contract',
      'balance_update:burned',
      'balance_update:accumulator',
      'content:transfer_ticket',
      'result:transfer_ticket:applied',
    ]) {
      expect(checked, c).toContain(c);
    }
  });

  it('does the same for every receipt of the demo seed', async () => {
    const seeded = await openSeededSandbox({ dataDir: await tempDir(), blockTimeMs: 60_000 });
    const shapes: Shapes = new Map();
    for (let l = 1; l <= seeded.headLevel; l++)
      for (const op of seeded.block(l)!.operations[3]!) walkContents(shapes, op.contents);
    await seeded.stop();
    const checked = compareShapes(shapes, realShapes());
    for (const c of [
      'content:delegation',
      'result:delegation:applied',
      'content:register_global_constant',
      'result:register_global_constant:applied',
      'internal:origination',
      'internal_result:origination:applied',
      'internal:event',
      'content:smart_rollup_originate',
      'result:smart_rollup_originate:applied',
      'content:transfer_ticket',
      'result:transfer_ticket:applied',
    ]) {
      expect(checked, c).toContain(c);
    }
  }, 60_000);
});
