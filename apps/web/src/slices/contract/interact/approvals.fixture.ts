/** Test fixture: the form schema GET /v1/helpers/approve/schema answers (reference §4.7). */
const address = (title: string) => ({
  type: 'string',
  prim: 'address',
  title,
  minLength: 36,
  maxLength: 36,
  default: '',
});
const nat = (title: string) => ({ type: 'integer', prim: 'nat', title, default: 0 });
export const APPROVE_SCHEMA = {
  type: 'object',
  properties: {
    allowances: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          token_type: {
            type: 'object',
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
