/**
 * The flow graph builder (issue 37) on hand-made groups: a batch whose second content fails (the first is
 * backtracked, a third skipped), FA1.2 and FA2 movements checked or not against ledger deltas, tickets,
 * fees and burns, and the edge cap.
 */
import type { MiguelNode } from '@michelscope/api-types';
import { describe, expect, it } from 'vitest';
import { buildFlow, enrichFlow, ledgerKey, tokenTransfers, type FlowOp } from '../src/flow/build';
import { whatIfFlow } from '../src/flow/whatif';

const ALICE = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
const BOB = 'tz1gjaF81ZRRvdzjobyfVNsAeSC6PScjfQwN';
const DEX = 'KT1DexDexDexDexDexDexDexDexDexDexDex';
const FA12 = 'KT1Fa12Fa12Fa12Fa12Fa12Fa12Fa12Fa12F';
const FA2 = 'KT1Fa2Fa2Fa2Fa2Fa2Fa2Fa2Fa2Fa2Fa2Fa2';
const TICKETER = 'KT1TicketerTicketerTicketerTicketerT';

const addr = (value: string, name = '@address'): MiguelNode => ({
  prim: 'address',
  type: 'address',
  name,
  value,
});
const nat = (value: string, name = '@nat'): MiguelNode => ({ prim: 'nat', type: 'nat', name, value });
const pair = (...children: MiguelNode[]): MiguelNode => ({
  prim: 'pair',
  type: 'namedtuple',
  name: '@pair',
  children,
});
const list = (...children: MiguelNode[]): MiguelNode => ({
  prim: 'list',
  type: 'list',
  name: 'transfer',
  children,
});
const fa12Transfer = (from: string, to: string, value: string) => [
  pair(addr(from), pair(addr(to), nat(value))),
];
const fa2Transfer = (from: string, txs: Array<[string, string, string]>) => [
  list(
    pair(addr(from), {
      prim: 'list',
      type: 'list',
      name: 'txs',
      children: txs.map(([t, i, a]) => pair(addr(t), nat(i), nat(a))),
    }),
  ),
];

describe('buildFlow', () => {
  it('recognises FA1.2 and FA2 transfers, nested or flat, and nothing else', () => {
    expect(tokenTransfers(FA12, 'transfer', fa12Transfer(ALICE, BOB, '5'))).toEqual([
      {
        token: { contract: FA12, token_id: '0', standard: 'fa1.2' },
        from: ALICE,
        to: BOB,
        amount: '5',
        checked: false,
      },
    ]);
    expect(
      tokenTransfers(
        FA2,
        'transfer',
        fa2Transfer(ALICE, [
          [BOB, '1', '2'],
          [DEX, '3', '4'],
        ]),
      ).map((m) => [m.to, m.token.token_id, m.amount]),
    ).toEqual([
      [BOB, '1', '2'],
      [DEX, '3', '4'],
    ]);
    expect(tokenTransfers(FA12, 'approve', fa12Transfer(ALICE, BOB, '5'))).toEqual([]);
    expect(tokenTransfers(FA12, 'transfer', [pair(addr(ALICE), nat('5'))])).toEqual([]);
    expect(tokenTransfers(FA12, 'transfer', undefined)).toEqual([]);
  });

  it('a failed batch: backtracked and skipped edges keep their movements, marked, out of the sums', () => {
    const ops: FlowOp[] = [
      // content 0: applied by itself, backtracked by content 1's failure
      {
        kind: 'transaction',
        status: 'backtracked',
        source: ALICE,
        destination: BOB,
        amount: '700',
        internal: false,
        content_index: 0,
        counter: 10,
        fee: '100',
        burned: '0',
      },
      // content 1: a DEX call whose internal FA1.2 transfer is backtracked and whose FA2 transfer fails
      {
        kind: 'transaction',
        status: 'failed',
        source: ALICE,
        destination: DEX,
        amount: '1000',
        entrypoint: 'swap',
        internal: false,
        content_index: 1,
        counter: 11,
        fee: '200',
        burned: '500',
      },
      {
        kind: 'transaction',
        status: 'backtracked',
        source: DEX,
        destination: FA12,
        entrypoint: 'transfer',
        internal: true,
        content_index: 1,
        nonce: 0,
        parameters: fa12Transfer(ALICE, DEX, '50'),
        ledger: new Map([
          [ledgerKey(ALICE, '0'), -50n],
          [ledgerKey(DEX, '0'), 50n],
        ]),
      },
      {
        kind: 'transaction',
        status: 'failed',
        source: DEX,
        destination: FA2,
        entrypoint: 'transfer',
        internal: true,
        content_index: 1,
        nonce: 1,
        parameters: fa2Transfer(DEX, [[ALICE, '7', '9']]),
      },
      {
        kind: 'event',
        status: 'backtracked',
        source: DEX,
        tag: 'swapped',
        payload: [nat('1')],
        internal: true,
        content_index: 1,
        nonce: 2,
      },
      // content 2: skipped
      {
        kind: 'delegation',
        status: 'skipped',
        source: ALICE,
        delegate: BOB,
        internal: false,
        content_index: 2,
        counter: 12,
        fee: '50',
      },
    ];
    const g = buildFlow(ops);
    expect(g.status).toBe('failed');
    expect(g.truncated).toBe(false);
    expect(g.total_operations).toBe(6);
    expect(
      g.edges.map((e) => [
        e.index,
        e.kind,
        e.from,
        e.to,
        e.status,
        e.content_index,
        e.counter,
        e.nonce,
        e.amount,
      ]),
    ).toEqual([
      [0, 'transaction', ALICE, BOB, 'backtracked', 0, 10, undefined, '700'],
      [1, 'transaction', ALICE, DEX, 'failed', 1, 11, undefined, '1000'],
      [2, 'transaction', DEX, FA12, 'backtracked', 1, undefined, 0, '0'],
      [3, 'transaction', DEX, FA2, 'failed', 1, undefined, 1, '0'],
      [4, 'event', DEX, undefined, 'backtracked', 1, undefined, 2, '0'],
      [5, 'delegation', ALICE, BOB, 'skipped', 2, 12, undefined, '0'],
    ]);
    // movements kept: the FA1.2 one matches its ledger deltas, the FA2 one has none
    expect(g.edges[2]!.tokens).toEqual([
      {
        token: { contract: FA12, token_id: '0', standard: 'fa1.2' },
        from: ALICE,
        to: DEX,
        amount: '50',
        checked: true,
      },
    ]);
    expect(g.edges[3]!.tokens).toEqual([
      {
        token: { contract: FA2, token_id: '7', standard: 'fa2' },
        from: DEX,
        to: ALICE,
        amount: '9',
        checked: false,
      },
    ]);
    expect(g.edges[4]!.event).toEqual({ tag: 'swapped', payload: [nat('1')] });
    // nothing applied: no tez, token or ticket sums; the fees are paid all the same, the burns are not
    for (const n of g.nodes) {
      expect(n.tez).toBe('0');
      expect(n.tokens).toEqual([]);
      expect(n.tickets).toEqual([]);
      expect(n.burned).toBeUndefined();
    }
    expect(g.nodes.find((n) => n.address === ALICE)!.fees).toBe('350');
    expect(g.nodes.map((n) => [n.address, n.kind])).toEqual([
      [ALICE, 'implicit'],
      [BOB, 'implicit'],
      [DEX, 'contract'],
      [FA12, 'contract'],
      [FA2, 'contract'],
    ]);
  });

  it('an applied group: sums over the edges, a ledger that disagrees leaves the movement unchecked', () => {
    const ops: FlowOp[] = [
      {
        kind: 'transaction',
        status: 'applied',
        source: ALICE,
        destination: DEX,
        amount: '1000',
        internal: false,
        content_index: 0,
        counter: 1,
        fee: '10',
        burned: '0',
      },
      {
        kind: 'transaction',
        status: 'applied',
        source: DEX,
        destination: FA2,
        entrypoint: 'transfer',
        internal: true,
        content_index: 0,
        nonce: 0,
        burned: '250',
        parameters: fa2Transfer(DEX, [
          [ALICE, '7', '9'],
          [BOB, '7', '1'],
        ]),
        ledger: new Map([
          [ledgerKey(DEX, '7'), -10n],
          [ledgerKey(ALICE, '7'), 9n],
        ]), // BOB's +1 missing
      },
      {
        kind: 'transaction',
        status: 'applied',
        source: DEX,
        destination: BOB,
        amount: '400',
        internal: true,
        content_index: 0,
        nonce: 1,
      },
      {
        kind: 'transaction',
        status: 'applied',
        source: TICKETER,
        destination: BOB,
        internal: true,
        content_index: 0,
        nonce: 2,
        tickets: [
          {
            ticketer: TICKETER,
            content_type: { prim: 'string' },
            content: { prim: 'string', value: 'x' },
            account: BOB,
            amount: '5',
          },
          {
            ticketer: TICKETER,
            content_type: { prim: 'string' },
            content: { prim: 'string', value: 'x' },
            account: BOB,
            amount: '2',
          },
        ],
      },
    ];
    const g = enrichFlow(buildFlow(ops), {
      aliases: new Map([[DEX, 'The DEX']]),
      tags: new Map([[FA2, ['fa2']]]),
      tokens: new Map([[`${FA2}|7`, { symbol: 'SEVEN', decimals: 3 }]]),
    });
    expect(g.status).toBe('applied');
    expect(g.edges[1]!.tokens.map((m) => [m.to, m.checked, m.token.symbol, m.token.decimals])).toEqual([
      [ALICE, false, 'SEVEN', 3],
      [BOB, false, 'SEVEN', 3],
    ]);
    const by = Object.fromEntries(g.nodes.map((n) => [n.address, n]));
    expect(by[ALICE]).toMatchObject({
      tez: '-1000',
      fees: '10',
      burned: '250',
      tokens: [{ token: { token_id: '7', symbol: 'SEVEN' }, change: '9' }],
    });
    expect(by[DEX]).toMatchObject({ alias: 'The DEX', tez: '600', tokens: [{ change: '-10' }] });
    expect(by[BOB]).toMatchObject({
      tez: '400',
      tokens: [{ change: '1' }],
      tickets: [{ ticketer: TICKETER, content: { value: 'x' }, change: '7' }],
    });
    expect(by[FA2]).toMatchObject({ tags: ['fa2'], tokens: [] });
  });

  it('a debugger recording: emitted internal operations are counted in the sums and fail nothing', () => {
    const g = buildFlow([
      { kind: 'transaction', status: 'applied', source: ALICE, destination: DEX, amount: 5, internal: false },
      {
        kind: 'transaction',
        status: 'emitted',
        source: DEX,
        destination: FA12,
        entrypoint: 'transfer',
        parameters: fa12Transfer(ALICE, DEX, '7'),
        internal: true,
        nonce: 0,
      },
      { kind: 'transaction', status: 'emitted', source: DEX, destination: BOB, amount: 5, internal: true },
    ]);
    expect(g.status).toBe('applied');
    expect(g.edges.map((e) => e.status)).toEqual(['applied', 'emitted', 'emitted']);
    expect(g.nodes.map((n) => [n.address, n.tez, n.tokens.map((t) => t.change)])).toEqual([
      [ALICE, '-5', ['-7']],
      [DEX, '0', ['7']],
      [FA12, '0', []],
      [BOB, '5', []],
    ]);
  });

  it('caps the edges (truncated) and stays linear on a large group', () => {
    const ops: FlowOp[] = [
      {
        kind: 'transaction',
        status: 'applied',
        source: ALICE,
        destination: DEX,
        internal: false,
        content_index: 0,
      },
    ];
    for (let i = 0; i < 20_000; i++)
      ops.push({
        kind: 'transaction',
        status: 'applied',
        source: DEX,
        destination: BOB,
        amount: '1',
        internal: true,
        content_index: 0,
        nonce: i,
      });
    const t0 = Date.now();
    const g = buildFlow(ops, 500);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(g).toMatchObject({ truncated: true, total_operations: 20_001 });
    expect(g.edges).toHaveLength(500);
    expect(g.nodes.find((n) => n.address === BOB)!.tez).toBe('499');
    expect(buildFlow(ops.slice(0, 3)).truncated).toBe(false);
  });

  it('a what-if bundle: calls then their internal operations; a later failure backtracks what ran before', () => {
    const g = whatIfFlow(
      DEX,
      [{ amount: '5' }, { source: BOB, amount: '0' }],
      [
        {
          entrypoint: 'swap',
          status: 'backtracked',
          fees: { fee: '300', burn: '20' },
          operations: [
            {
              kind: 'transaction',
              source: DEX,
              status: 'applied',
              destination: FA12,
              entrypoint: 'transfer',
              parameters: fa12Transfer(DEX, ALICE, '3'),
            },
            { kind: 'event', source: DEX, status: 'applied', tag: 'done' },
          ],
        },
        { entrypoint: 'swap', status: 'failed', operations: [] },
      ],
      [
        new Map([
          [
            FA12,
            new Map([
              [ledgerKey(DEX, '0'), { before: 10n, after: 7n }],
              [ledgerKey(ALICE, '0'), { before: 0n, after: 3n }],
            ]),
          ],
        ]),
      ],
    );
    expect(
      g.edges.map((e) => [e.from, e.to ?? null, e.status, e.content_index, e.internal, e.amount]),
    ).toEqual([
      ['tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU', DEX, 'backtracked', 0, false, '5'],
      [DEX, FA12, 'backtracked', 0, true, '0'],
      [DEX, null, 'backtracked', 0, true, '0'],
      [BOB, DEX, 'failed', 1, false, '0'],
    ]);
    expect(g.edges[1]!.tokens.map((m) => [m.from, m.to, m.amount, m.checked])).toEqual([
      [DEX, ALICE, '3', true],
    ]);
    expect(g.edges[2]!.event).toEqual({ tag: 'done' });
    expect(g.status).toBe('failed');
    expect(g.nodes.every((n) => n.tez === '0' && n.tokens.length === 0)).toBe(true);
    expect(g.nodes[0]!.fees).toBe('300');
  });
});
