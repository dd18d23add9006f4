/**
 * Token approvals around a call (workspace spec §3 "Token approval entry", §4 "Approval ordering", §5):
 * the form shape read from GET /v1/helpers/approve/schema, the body of POST /v1/helpers/approve/data (whose
 * answer holds the FA1.2 `approve` and FA2 `update_operators` calls for the called contract, the spender),
 * and the order of the batch: FA1.2 revokes, FA1.2 approves, FA2 approves, the main call, FA2 revokes.
 */
import type {
  ApproveCall,
  ApproveData,
  ApproveGroup,
  ApproveRequest,
  ApproveSchema,
} from '@michelscope/api-types';
import { checkAddress, checkContract, checkNat } from '@michelscope/michelson';
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

/** A field of one token type in the form shape: its input, max length and default text. */
export interface ApprovalFieldShape {
  field: ApprovalField;
  maxLength?: number | undefined;
  default: string;
}

/** One token type of the form shape (a `oneOf` branch of GET /v1/helpers/approve/schema). */
export interface ApprovalTypeShape {
  type: typeof FA12 | typeof FA2;
  typeName: 'FA1.2' | 'FA2';
  fields: ApprovalFieldShape[];
}

/** Schema property → form input. */
const SCHEMA_FIELDS: Record<string, ApprovalField> = {
  token_contract: 'tokenContract',
  allowance: 'allowance',
  owner: 'owner',
  token_id: 'tokenId',
};

/**
 * The approval form shape read from GET /v1/helpers/approve/schema:
 * `allowances[].token_type` is a `oneOf` of FA1.2 (schemaKey 1) and FA2 (schemaKey 2), each with its fields.
 */
export function parseApprovalSchema(schema: ApproveSchema): ApprovalTypeShape[] {
  const out: ApprovalTypeShape[] = [];
  for (const branch of schema.properties.allowances.items.properties.token_type.oneOf) {
    const { schemaKey, ...props } = branch.properties;
    const key = schemaKey.const;
    if (key !== FA12 && key !== FA2) continue;
    const fields: ApprovalFieldShape[] = [];
    for (const [name, prop] of Object.entries(props)) {
      const field = SCHEMA_FIELDS[name];
      if (!field || !prop) continue;
      fields.push({ field, maxLength: prop.maxLength, default: String(prop.default) });
    }
    out.push({ type: key, typeName: key === FA12 ? 'FA1.2' : 'FA2', fields });
  }
  if (out.length === 0) throw new Error('The token approval form schema has no token types');
  return out;
}

/** The body of POST /v1/helpers/approve/data; `spender` is the called contract (our extension). */
export function approveDataBody(entries: ApprovalEntry[], spender: string): ApproveRequest {
  return {
    spender,
    allowances: entries.map((e) => ({
      token_type:
        e.type === FA12
          ? {
              schema_key: FA12,
              token_contract: e.value.tokenContract.trim(),
              allowance: e.value.allowance.trim(),
            }
          : {
              schema_key: FA2,
              token_contract: e.value.tokenContract.trim(),
              owner: e.value.owner.trim(),
              token_id: e.value.tokenId.trim(),
            },
    })),
  };
}

const tx = ({ destination, entrypoint, value }: ApproveCall): WalletTransaction => ({
  kind: 'transaction',
  destination,
  amount: '0',
  parameters: { entrypoint, value },
});

/** The batch: FA1.2 revokes, FA1.2 approves, FA2 approves, the main call, FA2 revokes. */
export function approvalBatch(main: WalletTransaction, data: ApproveData | null): WalletTransaction[] {
  if (!data) return [main];
  const all = (g: ApproveGroup[], side: 'allows' | 'revokes') => g.flatMap((x) => x[side].map(tx));
  return [
    ...all(data.fa1_2, 'revokes'),
    ...all(data.fa1_2, 'allows'),
    ...all(data.fa2, 'allows'),
    main,
    ...all(data.fa2, 'revokes'),
  ];
}

/**
 * A new entry of the add dialog with the defaults of the form shape (allowance and token id 0); the FA2
 * owner is the wallet's address when known.
 */
export function newApproval(
  type: typeof FA12 | typeof FA2,
  owner = '',
  shape?: ApprovalTypeShape[],
): ApprovalEntry {
  const defaults: Partial<Record<ApprovalField, string>> = {};
  for (const f of shape?.find((t) => t.type === type)?.fields ?? []) defaults[f.field] = f.default;
  const d = (f: ApprovalField, fallback: string) => defaults[f] ?? fallback;
  return type === FA12
    ? {
        type: FA12,
        typeName: 'FA1.2',
        value: { tokenContract: d('tokenContract', ''), allowance: d('allowance', '0') },
      }
    : {
        type: FA2,
        typeName: 'FA2',
        value: {
          tokenContract: d('tokenContract', ''),
          owner: owner || d('owner', ''),
          tokenId: d('tokenId', '0'),
        },
      };
}
