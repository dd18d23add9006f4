import type { Micheline as ApiMicheline } from '@michelscope/api-types';
import type { Micheline } from '@michelscope/michelson';
import { describe, expectTypeOf, it } from 'vitest';

describe('the Micheline of api-types', () => {
  it('is the same type as the one core’s (michelson) Micheline', () => {
    expectTypeOf<ApiMicheline>().toEqualTypeOf<Micheline>();
    const value: ApiMicheline = { prim: 'Pair', args: [{ int: '1' }, [{ string: 'a' }, { bytes: '00' }]] };
    expectTypeOf(value).toMatchTypeOf<Micheline>();
  });
});
