/**
 * Token approvals (reference §4.7, never merged upstream): a static form schema, and the approve / revoke
 * calls for FA1.2 (`approve`) and FA2 (`update_operators`) tokens, with the spec's error texts.
 */
import {
  ApproveRequest,
  type ApproveData,
  type ApproveSchema,
  type ApproveSchemaField,
  type Micheline,
} from '@michelscope/api-types';
import { HttpError } from '../errors';
import { CONTRACT_RE, ADDRESS_RE } from '../validate';

const address = (title: string): ApproveSchemaField => ({
  type: 'string',
  prim: 'address',
  title,
  minLength: 36,
  maxLength: 36,
  default: '',
});
const nat = (title: string): ApproveSchemaField => ({ type: 'integer', prim: 'nat', title, default: 0 });

/** The answer of GET /helpers/approve/schema (static). */
export const APPROVE_SCHEMA: ApproveSchema = {
  type: 'object',
  properties: {
    allowances: {
      type: 'array',
      title: 'allowances',
      default: [],
      items: {
        type: 'object',
        required: ['token_type'],
        properties: {
          token_type: {
            type: 'object',
            title: 'token_type',
            oneOf: [
              {
                title: 'FA1.2',
                properties: {
                  schemaKey: { type: 'integer', const: 1 },
                  token_contract: address('token_contract'),
                  allowance: nat('allowance'),
                },
                'x-options': { sectionsClass: 'pl-0' },
              },
              {
                title: 'FA2',
                properties: {
                  schemaKey: { type: 'integer', const: 2 },
                  token_contract: address('token_contract'),
                  owner: address('owner'),
                  token_id: nat('token_id'),
                },
                'x-options': { sectionsClass: 'pl-0' },
              },
            ],
          },
        },
      },
    },
  },
};

/** The body of POST /helpers/approve/data (api-types). */
export const ApproveBody = ApproveRequest;

type Call = ApproveData['fa2'][number]['allows'][number];

function uint(v: number | string | undefined, what: string): string {
  const s = String(v ?? 0).trim();
  if (!/^\d{1,78}$/.test(s)) throw new HttpError(400, `invalid ${what} value: ${s.slice(0, 80)}`);
  return BigInt(s).toString();
}

export function approvalData(body: ApproveRequest): ApproveData {
  const fa12: Array<{ allows: Call[]; revokes: Call[] }> = [];
  const fa2: Array<{ allows: Call[]; revokes: Call[] }> = [];
  const { spender } = body;
  if (spender !== undefined && !ADDRESS_RE.test(spender))
    throw new HttpError(400, `invalid spender address: ${spender}`);
  for (const { token_type: t } of body.allowances) {
    if (!CONTRACT_RE.test(t.token_contract))
      throw new HttpError(400, `invalid token contract address: ${t.token_contract}`);
    if (t.schema_key === 1) {
      const amount = uint(t.allowance, 'allowance');
      const pair = (n: string): Micheline => ({
        prim: 'Pair',
        args: [{ string: spender ?? t.token_contract }, { int: n }],
      });
      fa12.push({
        allows: [{ entrypoint: 'approve', value: pair(amount), destination: t.token_contract }],
        revokes: [{ entrypoint: 'approve', value: pair('0'), destination: t.token_contract }],
      });
    } else {
      if (!t.owner || !ADDRESS_RE.test(t.owner))
        throw new HttpError(400, `invalid spender address: ${t.owner ?? ''}`);
      const id = uint(t.token_id, 'tokenId');
      const op = (side: 'Left' | 'Right'): Micheline => [
        {
          prim: side,
          args: [
            {
              prim: 'Pair',
              args: [
                { string: t.owner! },
                { prim: 'Pair', args: [{ string: spender ?? t.token_contract }, { int: id }] },
              ],
            },
          ],
        },
      ];
      fa2.push({
        allows: [{ entrypoint: 'update_operators', value: op('Left'), destination: t.token_contract }],
        revokes: [{ entrypoint: 'update_operators', value: op('Right'), destination: t.token_contract }],
      });
    }
  }
  return { fa1_2: fa12, fa2 };
}
