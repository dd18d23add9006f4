// The sandbox's operation forger (src/forging.ts): local-forging's envelope with the repository's linear
// codec for integers and Micheline. The bytes must be the ones local-forging itself produces (computed
// here before the codecs are replaced: this file imports forging.ts only after), and operations with
// huge integers, which local-forging takes minutes over, must decode to the right value.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const shared = path.resolve(
  import.meta.dirname,
  '../../../../shared/fixtures/protocol-encoding-samples/u025',
);
const hasShared = fs.existsSync(path.join(shared, 'operation.unsigned'));
if (!hasShared) console.warn(`forging: Octez encoding samples skipped, ${shared} is absent`);

const BRANCH = 'BLvxCa7Wimg4JCJMR62EvCrBWhzALEJRbDWHhcYtmyAL1y4ikry';
const SOURCE = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
const manager = (counter: number) => ({
  source: SOURCE,
  fee: '1420',
  counter: String(counter),
  gas_limit: '10600',
  storage_limit: '300',
});

type Op = { branch: string; contents: Array<Record<string, unknown>> };

/** Operations of the kinds the sandbox applies, with every Micheline node form (as local-forging encodes them). */
const ours: Op[] = [
  {
    branch: BRANCH,
    contents: [
      {
        kind: 'reveal',
        ...manager(1),
        public_key: 'edpkuBknW28nW72KG6RoHtYW7p12T6GKc7nAbwYX5m8Wd9sDVC9yav',
      },
      {
        kind: 'transaction',
        ...manager(2),
        amount: '18446744073709551616',
        destination: 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn',
        parameters: {
          entrypoint: 'transfer',
          value: [
            {
              prim: 'Pair',
              args: [
                { string: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx' },
                [{ prim: 'Pair', args: [{ int: '-98765432109876543210987654321' }, { bytes: '00ff10' }] }],
              ],
            },
            { string: 'ꜩ tezos ✓' },
            { prim: 'Left', args: [{ prim: 'Unit' }], annots: ['%left'] },
          ],
        },
      },
      {
        kind: 'transaction',
        ...manager(3),
        amount: '0',
        destination: 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn',
        parameters: { entrypoint: 'default', value: { int: '8192' } },
      },
      {
        kind: 'transaction',
        ...manager(4),
        amount: '1',
        destination: SOURCE,
      },
      { kind: 'delegation', ...manager(5), delegate: SOURCE },
      { kind: 'delegation', ...manager(6) },
      {
        kind: 'register_global_constant',
        ...manager(7),
        value: { prim: 'PUSH', args: [{ prim: 'int' }, { int: '-64' }] },
      },
      {
        kind: 'transfer_ticket',
        ...manager(8),
        ticket_contents: { string: 'ticket' },
        ticket_ty: { prim: 'string' },
        ticket_ticketer: 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn',
        ticket_amount: '10',
        destination: 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn',
        entrypoint: 'receive',
      },
      {
        kind: 'origination',
        ...manager(9),
        balance: '1000000',
        script: {
          code: [
            { prim: 'parameter', args: [{ prim: 'nat', annots: [':amount'] }] },
            { prim: 'storage', args: [{ prim: 'int' }] },
            {
              prim: 'code',
              args: [
                [
                  { prim: 'CAR' },
                  { prim: 'INT' },
                  { prim: 'NIL', args: [{ prim: 'operation' }] },
                  { prim: 'PAIR' },
                ],
              ],
            },
          ],
          storage: { int: '-1' },
        },
      },
    ],
  },
];

function samples(): Op[] {
  if (!hasShared) return [];
  const dir = path.join(shared, 'operation.unsigned');
  const kinds = [
    'transaction-to-implicit',
    'transaction-to-originated',
    'origination',
    'delegation',
    'reveal',
  ];
  return kinds.map((k) =>
    JSON.parse(fs.readFileSync(path.join(dir, `operation.unsigned-${k}.sample.json`), 'utf8')),
  );
}

// What local-forging produces with its own codecs, before forging.ts replaces them.
const { LocalForger } = await import('@taquito/local-forging');
const reference = new LocalForger();
const cases = [...ours, ...samples()];
const expected = await Promise.all(cases.map((op) => reference.forge(op as never)));
const { forgeOperation, parseOperation } = await import('../src/forging');

describe('sandbox forger', () => {
  it('forges every kind the sandbox applies to the bytes local-forging gives, and parses them back', async () => {
    expect(cases.length).toBeGreaterThanOrEqual(hasShared ? 6 : 1);
    for (const [i, op] of cases.entries()) {
      const bytes = await forgeOperation(op);
      expect(bytes, `case ${i}`).toBe(expected[i]);
      const parsed = await parseOperation(bytes);
      expect(await forgeOperation(parsed)).toBe(bytes);
      expect(parsed.contents.map((c) => c.kind)).toEqual(op.contents.map((c) => c.kind));
    }
    const parsed = await parseOperation(expected[0]!);
    const tx = parsed.contents[1]!;
    expect(tx.amount).toBe('18446744073709551616');
    expect(JSON.stringify(tx.parameters)).toContain('{"int":"-98765432109876543210987654321"}');
    expect(JSON.stringify(tx.parameters)).toContain('ꜩ tezos ✓');
  });

  it("forges and parses an operation holding a 68,000-digit int (near Octez's 32 KB limit) exactly", async () => {
    const int = '7' + '1234567890'.repeat(6_800).slice(1);
    const op: Op = {
      branch: BRANCH,
      contents: [
        {
          kind: 'transaction',
          ...manager(1),
          amount: '0',
          destination: 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn',
          parameters: { entrypoint: 'default', value: { int } },
        },
      ],
    };
    const bytes = await forgeOperation(op);
    expect(bytes.length / 2).toBeLessThan(32_768);
    const parsed = await parseOperation(bytes);
    expect((parsed.contents[0]!.parameters as { value: { int: string } }).value.int).toBe(int);
  });

  it('refuses malformed bytes with a message instead of reading past them', async () => {
    const good = expected[0]!;
    await expect(parseOperation(good.slice(0, good.length - 10))).rejects.toThrow();
    // A non-canonical integer (a trailing 0x00 continuation byte) in a Micheline int is refused like Octez.
    const op: Op = {
      branch: BRANCH,
      contents: [
        {
          kind: 'transaction',
          ...manager(1),
          amount: '0',
          destination: 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn',
          parameters: { entrypoint: 'default', value: { int: '5' } },
        },
      ],
    };
    const bytes = await forgeOperation(op);
    // The value is `00 05` (int tag, zarith 5) at the end, preceded by its 4-byte length 00000002.
    expect(bytes.endsWith('000000020005')).toBe(true);
    const bad = bytes.slice(0, -12) + '00000003008500';
    await expect(parseOperation(bad)).rejects.toThrow(/non-canonical/);
  });
});
