import type { JsonSchema as ApiJsonSchema, Micheline as ApiMicheline } from '@michelscope/api-types';
import type { FormModel, JsonSchema, Micheline } from '@michelscope/michelson';
import type { EntrypointSchema } from '@michelscope/api-types';
import { describe, expectTypeOf, it } from 'vitest';

describe('the Micheline of api-types', () => {
  it('is the same type as the one core’s (michelson) Micheline', () => {
    expectTypeOf<ApiMicheline>().toEqualTypeOf<Micheline>();
    const value: ApiMicheline = { prim: 'Pair', args: [{ int: '1' }, [{ string: 'a' }, { bytes: '00' }]] };
    expectTypeOf(value).toMatchTypeOf<Micheline>();
  });

  it('has the form JSON schema and model of michelson', () => {
    expectTypeOf<ApiJsonSchema>().toEqualTypeOf<JsonSchema>();
    expectTypeOf<EntrypointSchema['schema']>().toEqualTypeOf<JsonSchema | null>();
    expectTypeOf<NonNullable<EntrypointSchema['default_model']>>().toEqualTypeOf<FormModel>();
  });
});
