import { describe, expect, it } from 'vitest';
import {
  approvalBatch,
  approvalCalls,
  approvalErrors,
  approvalFieldError,
  FA12,
  FA2,
  newApproval,
  type ApprovalEntry,
} from './approvals';
import type { WalletTransaction } from '../../../features/wallet/wallet-ops';

const SPENDER = 'KT1LuuuC4AA5eDbKtdpkB8gZurbwAgxX6NNf';
const TOKEN_A = 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn';
const TOKEN_B = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';
const OWNER = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';

const fa12 = (tokenContract: string, allowance: string): ApprovalEntry => ({
  type: FA12,
  typeName: 'FA1.2',
  value: { tokenContract, allowance },
});
const fa2 = (tokenContract: string, owner: string, tokenId: string): ApprovalEntry => ({
  type: FA2,
  typeName: 'FA2',
  value: { tokenContract, owner, tokenId },
});
const MAIN: WalletTransaction = {
  kind: 'transaction',
  destination: SPENDER,
  amount: '0',
  parameters: { entrypoint: 'default', value: { int: '5' } },
};
const describeTx = (t: WalletTransaction) =>
  `${t.destination.slice(0, 6)}.${t.parameters.entrypoint}:${JSON.stringify(t.parameters.value)}`;

describe('token approvals', () => {
  it('orders the batch: FA1.2 revokes, FA1.2 approves, FA2 approves, the call, FA2 revokes', () => {
    const batch = approvalBatch(MAIN, [fa2(TOKEN_B, OWNER, '3'), fa12(TOKEN_A, '100')]);
    const approve = (n: string) => `{"prim":"Pair","args":[{"string":"${SPENDER}"},{"int":"${n}"}]}`;
    const operator = (side: string) =>
      `[{"prim":"${side}","args":[{"prim":"Pair","args":[{"string":"${OWNER}"},{"prim":"Pair","args":[{"string":"${SPENDER}"},{"int":"3"}]}]}]}]`;
    expect(batch.map(describeTx)).toEqual([
      `KT1PWx.approve:${approve('0')}`,
      `KT1PWx.approve:${approve('100')}`,
      `KT1RJ6.update_operators:${operator('Left')}`,
      `KT1Luu.default:{"int":"5"}`,
      `KT1RJ6.update_operators:${operator('Right')}`,
    ]);
    expect(batch.every((t) => t.amount === '0')).toBe(true);
  });

  it('sends the call alone when there are no approvals', () => {
    expect(approvalBatch(MAIN, [])).toEqual([MAIN]);
  });

  it("gives the spec's building errors and accepts zero", () => {
    expect(() => approvalCalls([], 'nope')).toThrow('invalid spender address: nope');
    expect(() => approvalCalls([fa12('KT1bad', '1')], SPENDER)).toThrow(
      'invalid token contract address: KT1bad',
    );
    expect(() => approvalCalls([fa12(TOKEN_A, 'x')], SPENDER)).toThrow('invalid allowance value: x');
    expect(() => approvalCalls([fa2(TOKEN_A, OWNER, '-1')], SPENDER)).toThrow('invalid tokenId value: -1');
    const zero = approvalCalls([fa12(TOKEN_A, '0'), fa2(TOKEN_B, OWNER, '0')], SPENDER);
    expect(zero.fa12Approves).toHaveLength(1);
    expect(zero.fa2Approves).toHaveLength(1);
  });

  it('validates each field with the form texts', () => {
    expect(approvalFieldError('tokenContract', '')).toBe('Required field');
    expect(approvalFieldError('tokenContract', 'KT1')).toBe(
      'The length of the contract address is 36 characters',
    );
    expect(approvalFieldError('tokenContract', OWNER)).toBe(
      'In this field you should write the address of the contract. It begins with KT.',
    );
    expect(approvalFieldError('owner', 'tz1')).toBe('The length of the address is 36 characters');
    expect(approvalFieldError('allowance', 'a1')).toBe('Only digits are allowed');
    expect(approvalFieldError('tokenId', '')).toBe('Nat field is required');
    expect(approvalFieldError('tokenId', '01')).toBe("Nat can't starts from zero");
    expect(approvalFieldError('allowance', '0')).toBeNull();
    expect(approvalErrors(newApproval(FA2, OWNER))).toEqual({ tokenContract: 'Required field' });
  });
});
