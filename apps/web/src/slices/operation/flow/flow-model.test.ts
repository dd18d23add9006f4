import { describe, expect, it } from 'vitest';
import {
  edgeLabel,
  focusOrder,
  formatUnits,
  isFailure,
  nodeLabel,
  nodeName,
  nodesByAddress,
  statusMark,
} from './flow-model';
import { FA12, SWAP, SWAP_FLOW, USER } from './flow.fixture';

const byAddress = nodesByAddress(SWAP_FLOW);
const names = (a: string) => nodeName(byAddress.get(a), a);

describe('flow graph texts (issue 37)', () => {
  it('applies token decimals exactly, for amounts of any size', () => {
    expect(formatUnits('1002000000', 6)).toBe('1,002');
    expect(formatUnits('100000000', 8)).toBe('1');
    expect(formatUnits('123', 6)).toBe('0.000123');
    expect(formatUnits('-1500', 3)).toBe('−1.5');
    expect(formatUnits('123456789012345678901234567890', 18)).toBe('123,456,789,012.34567890123456789');
    expect(formatUnits('7')).toBe('7');
    expect(formatUnits('x')).toBe('—');
  });

  it('names each edge with its number, ends, entrypoint, amounts and status', () => {
    expect(SWAP_FLOW.edges.map((e) => edgeLabel(e, names))).toEqual([
      '1. tz1VSUr…jcjb → Swap <b>pool</b> swap',
      '2. Swap <b>pool</b> → KT1PWx2…Xitn transfer, 1 tzBTC',
      '3. Swap <b>pool</b> → KT1XnTn…WR8o transfer, 1,002 USDt',
      '4. Swap <b>pool</b> → tz1VSUr…jcjb transfer, 1.5 ꜩ',
      '5. Swap <b>pool</b> → KT1TxqZ…pQU5 mint, +5 ticket "demo" of KT1TxqZ…pQU5, backtracked',
      '6. Swap <b>pool</b> event swapped, failed',
    ]);
  });

  it("marks a debugged call's emitted operations as not run, not as failed", () => {
    const edge = SWAP_FLOW.edges[1]!;
    const emitted = { ...edge, status: 'emitted' as const };
    expect(statusMark(emitted)).toBe('EMITTED, NOT RUN');
    expect(isFailure(emitted)).toBe(false);
    expect(isFailure({ ...edge, status: 'backtracked' as const })).toBe(true);
    expect(statusMark(edge)).toBe('');
  });

  it('names each node with its kind, tags and summed changes', () => {
    expect(nodeLabel(byAddress.get(SWAP)!)).toBe(
      'Swap <b>pool</b> (KT1RJ6P…xton), contract, tags view_nat, changes −1.5 ꜩ, +1 tzBTC, −1,002 USDt',
    );
    expect(nodeLabel(byAddress.get(USER)!)).toBe(
      'tz1VSUr…jcjb, account, changes +1.5 ꜩ, −1 tzBTC, +1,002 USDt',
    );
    expect(nodeLabel(byAddress.get(FA12)!)).toBe('KT1PWx2…Xitn, contract, tags fa1-2, no balance change');
  });

  it('orders the keyboard focus by execution: each edge after the nodes it first reaches', () => {
    expect(focusOrder(SWAP_FLOW).map((i) => (i.kind === 'node' ? names(i.address) : i.index + 1))).toEqual([
      'tz1VSUr…jcjb',
      'Swap <b>pool</b>',
      1,
      'KT1PWx2…Xitn',
      2,
      'KT1XnTn…WR8o',
      3,
      4,
      'KT1TxqZ…pQU5',
      5,
      6,
    ]);
  });
});
