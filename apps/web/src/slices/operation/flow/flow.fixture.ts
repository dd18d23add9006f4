/**
 * A swap-like flow graph (issue 37), for the flow view's tests: a user calls a swap, which pulls 1 tzBTC
 * (FA1.2, 8 decimals) from the user and sends 1,002 USDt (FA2, 6 decimals) back with 1.5 ꜩ, then asks a
 * ticketer to mint 5 tickets (backtracked) and emits an event (failed).
 */
import type { FlowGraph } from '@michelscope/api-types';

export const USER = 'tz1VSUr8wwNhLAzempoch5d6hLRiTh8Cjcjb';
export const SWAP = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';
export const FA12 = 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn';
export const FA2 = 'KT1XnTn74bUtxHfDtBmm2bGZAQfhPbvKWR8o';
export const TICKETER = 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5';

const tzBTC = { contract: FA12, token_id: '0', standard: 'fa1.2' as const, symbol: 'tzBTC', decimals: 8 };
const USDt = { contract: FA2, token_id: '0', standard: 'fa2' as const, symbol: 'USDt', decimals: 6 };
const base = { internal: true, content_index: 0, counter: 7, tokens: [], tickets: [], amount: '0' };

export const SWAP_FLOW: FlowGraph = {
  status: 'failed',
  truncated: false,
  total_operations: 6,
  nodes: [
    {
      address: USER,
      kind: 'implicit',
      tez: '1500000',
      fees: '1200',
      tokens: [
        { token: tzBTC, change: '-100000000' },
        { token: USDt, change: '1002000000' },
      ],
      tickets: [],
    },
    {
      address: SWAP,
      kind: 'contract',
      alias: 'Swap <b>pool</b>',
      tags: ['view_nat'],
      tez: '-1500000',
      tokens: [
        { token: tzBTC, change: '100000000' },
        { token: USDt, change: '-1002000000' },
      ],
      tickets: [],
    },
    { address: FA12, kind: 'contract', tags: ['fa1-2'], tez: '0', tokens: [], tickets: [] },
    { address: FA2, kind: 'contract', tags: ['fa2'], tez: '0', tokens: [], tickets: [] },
    { address: TICKETER, kind: 'contract', tez: '0', tokens: [], tickets: [] },
  ],
  edges: [
    {
      ...base,
      index: 0,
      kind: 'transaction',
      from: USER,
      to: SWAP,
      internal: false,
      status: 'applied',
      entrypoint: 'swap',
      parameters: [{ prim: 'nat', type: 'nat', name: 'min_out', value: '1000000000' }],
    },
    {
      ...base,
      index: 1,
      kind: 'transaction',
      from: SWAP,
      to: FA12,
      nonce: 0,
      status: 'applied',
      entrypoint: 'transfer',
      tokens: [{ token: tzBTC, from: USER, to: SWAP, amount: '100000000', checked: true }],
    },
    {
      ...base,
      index: 2,
      kind: 'transaction',
      from: SWAP,
      to: FA2,
      nonce: 1,
      status: 'applied',
      entrypoint: 'transfer',
      tokens: [{ token: USDt, from: SWAP, to: USER, amount: '1002000000', checked: true }],
    },
    {
      ...base,
      index: 3,
      kind: 'transaction',
      from: SWAP,
      to: USER,
      nonce: 2,
      status: 'applied',
      amount: '1500000',
    },
    {
      ...base,
      index: 4,
      kind: 'transaction',
      from: SWAP,
      to: TICKETER,
      nonce: 3,
      status: 'backtracked',
      entrypoint: 'mint',
      tickets: [
        {
          ticketer: TICKETER,
          account: USER,
          amount: '5',
          content_type: { prim: 'string' },
          content: { prim: 'string', type: 'string', name: '@string_1', value: 'demo' },
        },
      ],
    },
    {
      ...base,
      index: 5,
      kind: 'event',
      from: SWAP,
      nonce: 4,
      status: 'failed',
      event: { tag: 'swapped', payload: [{ prim: 'nat', type: 'nat', name: '@nat_1', value: '5' }] },
    },
  ],
};
