import { describe, expect, it } from 'vitest';
import type { ApproveData } from '@michelscope/api-types';
import type { Micheline } from '@michelscope/michelson';
import {
  approvalBatch,
  approvalErrors,
  approvalFieldError,
  approveDataBody,
  FA12,
  FA2,
  newApproval,
  parseApprovalSchema,
  type ApprovalEntry,
} from './approvals';
import { APPROVE_SCHEMA } from './approvals.fixture';
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

const call = (destination: string, entrypoint: string, value: Micheline) => ({
  entrypoint,
  value,
  destination,
});
const approve = (n: string): Micheline => ({ prim: 'Pair', args: [{ string: SPENDER }, { int: n }] });
const operator = (side: string): Micheline => [
  {
    prim: side,
    args: [
      {
        prim: 'Pair',
        args: [{ string: OWNER }, { prim: 'Pair', args: [{ string: SPENDER }, { int: '3' }] }],
      },
    ],
  },
];

describe('token approvals', () => {
  it('reads the form shape (token types, fields, max lengths, defaults) from the schema', () => {
    const shape = parseApprovalSchema(APPROVE_SCHEMA);
    expect(shape).toEqual([
      {
        type: FA12,
        typeName: 'FA1.2',
        fields: [
          { field: 'tokenContract', maxLength: 36, default: '' },
          { field: 'allowance', maxLength: undefined, default: '0' },
        ],
      },
      {
        type: FA2,
        typeName: 'FA2',
        fields: [
          { field: 'tokenContract', maxLength: 36, default: '' },
          { field: 'owner', maxLength: 36, default: '' },
          { field: 'tokenId', maxLength: undefined, default: '0' },
        ],
      },
    ]);
    expect(newApproval(FA2, OWNER, shape)).toEqual(fa2('', OWNER, '0'));
    const none = structuredClone(APPROVE_SCHEMA);
    none.properties.allowances.items.properties.token_type.oneOf = [];
    expect(() => parseApprovalSchema(none)).toThrow('no token types');
  });

  it('asks POST /helpers/approve/data with the called contract as spender', () => {
    expect(approveDataBody([fa2(TOKEN_B, ` ${OWNER}`, '3'), fa12(TOKEN_A, '100 ')], SPENDER)).toEqual({
      spender: SPENDER,
      allowances: [
        { token_type: { schema_key: 2, token_contract: TOKEN_B, owner: OWNER, token_id: '3' } },
        { token_type: { schema_key: 1, token_contract: TOKEN_A, allowance: '100' } },
      ],
    });
  });

  it('orders the batch: FA1.2 revokes, FA1.2 approves, FA2 approves, the call, FA2 revokes', () => {
    const data: ApproveData = {
      fa1_2: [
        {
          allows: [call(TOKEN_A, 'approve', approve('100'))],
          revokes: [call(TOKEN_A, 'approve', approve('0'))],
        },
      ],
      fa2: [
        {
          allows: [call(TOKEN_B, 'update_operators', operator('Left'))],
          revokes: [call(TOKEN_B, 'update_operators', operator('Right'))],
        },
      ],
    };
    const batch = approvalBatch(MAIN, data);
    expect(batch.map(describeTx)).toEqual([
      `KT1PWx.approve:${JSON.stringify(approve('0'))}`,
      `KT1PWx.approve:${JSON.stringify(approve('100'))}`,
      `KT1RJ6.update_operators:${JSON.stringify(operator('Left'))}`,
      `KT1Luu.default:{"int":"5"}`,
      `KT1RJ6.update_operators:${JSON.stringify(operator('Right'))}`,
    ]);
    expect(batch.every((t) => t.amount === '0' || t === MAIN)).toBe(true);
  });

  it('sends the call alone when there are no approvals', () => {
    expect(approvalBatch(MAIN, null)).toEqual([MAIN]);
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
