/**
 * Token approvals around a call (workspace spec §3 "Token approval entry", §4 "Approval ordering", §5):
 * FA1.2 `approve` and FA2 `update_operators` transactions for the called contract (the spender), and the
 * order of the batch: FA1.2 revokes, FA1.2 approves, FA2 approves, the main call, FA2 revokes.
 */
import { checkAddress, checkContract, checkNat, type Micheline } from '@michelscope/michelson';
import type { WalletTransaction } from '../../../features/wallet/wallet-ops';

export const FA12 = 1;
export const FA2 = 2;

export interface Fa12Value {
  tokenContract: string;
  /** nat as text */
  allowance: string;
}

export interface Fa2Value {
  tokenContract: string;
  owner: string;
  /** nat as text */
  tokenId: string;
}

/** One entry of the approvals list: type 1 is FA1.2, 2 is FA2. */
export type ApprovalEntry =
  | { type: typeof FA12; typeName: 'FA1.2'; value: Fa12Value }
  | { type: typeof FA2; typeName: 'FA2'; value: Fa2Value };

/** Token contract and owner inputs are cut at 36 characters. */
export const TOKEN_INPUT_MAX = 36;

export type ApprovalField = 'tokenContract' | 'allowance' | 'owner' | 'tokenId';

/** The spec's field message for one approval input, or null when it is valid (validated on blur). */
export function approvalFieldError(field: ApprovalField, text: string): string | null {
  try {
    if (field === 'tokenContract') checkContract(text);
    else if (field === 'owner') checkAddress(text);
    else checkNat(text);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** Every field error of an entry (the dialog runs this before Add / Save). */
export function approvalErrors(entry: ApprovalEntry): Partial<Record<ApprovalField, string>> {
  const fields: ApprovalField[] =
    entry.type === FA12 ? ['tokenContract', 'allowance'] : ['tokenContract', 'owner', 'tokenId'];
  const out: Partial<Record<ApprovalField, string>> = {};
  for (const f of fields) {
    const text = (entry.value as unknown as Record<string, string>)[f] ?? '';
    const err = approvalFieldError(f, text);
    if (err) out[f] = err;
  }
  return out;
}

const valid = (check: () => unknown) => {
  try {
    check();
    return true;
  } catch {
    return false;
  }
};

/** A nat written in the form; zero is accepted. */
const natText = (v: string) => {
  const t = v.trim();
  return /^\d+$/.test(t) ? BigInt(t).toString() : null;
};

const tx = (destination: string, entrypoint: string, value: Micheline): WalletTransaction => ({
  kind: 'transaction',
  destination,
  amount: '0',
  parameters: { entrypoint, value },
});

export interface ApprovalCalls {
  fa12Revokes: WalletTransaction[];
  fa12Approves: WalletTransaction[];
  fa2Approves: WalletTransaction[];
  fa2Revokes: WalletTransaction[];
}

/**
 * The approve and revoke transactions of `entries` for `spender` (the called contract). Throws with the
 * spec's building errors: 'invalid spender address: {x}', 'invalid token contract address: {x}',
 * 'invalid allowance value: {x}', 'invalid tokenId value: {x}'.
 */
export function approvalCalls(entries: ApprovalEntry[], spender: string): ApprovalCalls {
  if (!valid(() => checkAddress(spender))) throw new Error(`invalid spender address: ${spender}`);
  const out: ApprovalCalls = { fa12Revokes: [], fa12Approves: [], fa2Approves: [], fa2Revokes: [] };
  for (const entry of entries) {
    const token = entry.value.tokenContract.trim();
    if (!valid(() => checkContract(token))) throw new Error(`invalid token contract address: ${token}`);
    if (entry.type === FA12) {
      const allowance = natText(entry.value.allowance);
      if (allowance === null) throw new Error(`invalid allowance value: ${entry.value.allowance}`);
      const approve = (n: string): Micheline => ({
        prim: 'Pair',
        args: [{ string: spender }, { int: n }],
      });
      out.fa12Revokes.push(tx(token, 'approve', approve('0')));
      out.fa12Approves.push(tx(token, 'approve', approve(allowance)));
    } else {
      const owner = entry.value.owner.trim();
      if (!valid(() => checkAddress(owner))) throw new Error(`invalid spender address: ${owner}`);
      const tokenId = natText(entry.value.tokenId);
      if (tokenId === null) throw new Error(`invalid tokenId value: ${entry.value.tokenId}`);
      // update_operators takes a list of (or add_operator remove_operator), each `pair owner operator token_id`.
      const operator = (side: 'Left' | 'Right'): Micheline => [
        {
          prim: side,
          args: [
            {
              prim: 'Pair',
              args: [{ string: owner }, { prim: 'Pair', args: [{ string: spender }, { int: tokenId }] }],
            },
          ],
        },
      ];
      out.fa2Approves.push(tx(token, 'update_operators', operator('Left')));
      out.fa2Revokes.push(tx(token, 'update_operators', operator('Right')));
    }
  }
  return out;
}

/** The batch: FA1.2 revokes, FA1.2 approves, FA2 approves, the main call, FA2 revokes. */
export function approvalBatch(main: WalletTransaction, entries: ApprovalEntry[]): WalletTransaction[] {
  if (entries.length === 0) return [main];
  const c = approvalCalls(entries, main.destination);
  return [...c.fa12Revokes, ...c.fa12Approves, ...c.fa2Approves, main, ...c.fa2Revokes];
}

/** A new entry of the add dialog (default allowance and token id 0; owner from the wallet when known). */
export function newApproval(type: typeof FA12 | typeof FA2, owner = ''): ApprovalEntry {
  return type === FA12
    ? { type: FA12, typeName: 'FA1.2', value: { tokenContract: '', allowance: '0' } }
    : { type: FA2, typeName: 'FA2', value: { tokenContract: '', owner, tokenId: '0' } };
}
