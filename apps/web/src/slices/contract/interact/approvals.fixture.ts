/** Test fixture: the form schema GET /v1/helpers/approve/schema answers (reference §4.7). */
import type { ApproveSchema, ApproveSchemaField } from '@michelscope/api-types';

const address = (title: string): ApproveSchemaField => ({
  type: 'string',
  prim: 'address',
  title,
  minLength: 36,
  maxLength: 36,
  default: '',
});
const nat = (title: string): ApproveSchemaField => ({ type: 'integer', prim: 'nat', title, default: 0 });
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
              },
              {
                title: 'FA2',
                properties: {
                  schemaKey: { type: 'integer', const: 2 },
                  token_contract: address('token_contract'),
                  owner: address('owner'),
                  token_id: nat('token_id'),
                },
              },
            ],
          },
        },
      },
    },
  },
};
