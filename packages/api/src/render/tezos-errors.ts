/**
 * Operation errors as the API shows them (reference §6.13): `{id, kind, title, descr, …}` with the FAILWITH
 * value (`with`) as Michelson text and the balance/amount of a `balance_too_low`. Titles and descriptions of
 * the common errors are our own short texts; unknown ids keep `title = id` and `descr = kind`.
 */
import type { OperationError } from '@michelscope/api-types';
import { formatFailwithValue, formatMichelsonInline, toMicheline } from '@michelscope/michelson';

const DESCRIPTIONS: Record<string, [string, string]> = {
  'michelson_v1.script_rejected': ['Script failed', 'A FAILWITH instruction was reached'],
  'michelson_v1.runtime_error': ['Script runtime error', 'Toplevel error for all runtime script errors'],
  'michelson_v1.bad_contract_parameter': [
    'Contract supplied an invalid parameter',
    'Either no parameter was supplied to a contract with a non-unit parameter type, a non-unit parameter was passed to an account, or a parameter was supplied of the wrong type',
  ],
  'michelson_v1.script_overflow': [
    'Script failed (overflow error)',
    'A FAIL instruction was reached due to the detection of an overflow',
  ],
  'michelson_v1.ill_typed_argument': [
    'Ill typed argument',
    'An operation was given an argument of the wrong type',
  ],
  'michelson_v1.ill_typed_data': ['Ill typed data', 'The input data is ill formed for the given type'],
  'michelson_v1.ill_typed_contract': ['Ill typed contract', 'The given contract is ill typed'],
  'michelson_v1.invalid_constant': [
    'Invalid constant',
    'A data expression was invalid for its expected type',
  ],
  'michelson_v1.invalid_primitive': [
    'Invalid primitive',
    'In a script or data expression, a primitive was unknown',
  ],
  'contract.balance_too_low': [
    'Balance too low',
    'An operation tried to spend more tokens than the contract has',
  ],
  'contract.counter_in_the_past': [
    'Invalid counter (already used) in a manager operation',
    'The counter of the operation is lower than the counter of the account',
  ],
  'contract.counter_in_the_future': [
    'Invalid counter (not yet reached) in a manager operation',
    'The counter of the operation is higher than the next expected counter',
  ],
  'contract.non_existing_contract': [
    'Non existing contract',
    'A contract handle is not present in the context',
  ],
  'contract.unspendable_contract': [
    'Unspendable contract',
    'An operation tried to spend tokens from an unspendable contract',
  ],
  'contract.empty_transaction': ['Empty transaction', 'Forbidden to credit 0ꜩ to a contract without code'],
  'gas_exhausted.operation': [
    'Gas quota exceeded for the operation',
    'A script or one of its callees took more time than the operation said it would',
  ],
  'gas_exhausted.block': [
    'Gas quota exceeded for the block',
    'The sum of gas consumed by all the operations in the block exceeds the hard gas limit per block',
  ],
  'storage_exhausted.operation': [
    'Storage quota exceeded',
    'A script or one of its callees wrote more bytes than the operation said it would',
  ],
  storage_limit_too_high: [
    'Storage limit out of protocol hard bounds',
    'A transaction tried to exceed the hard limit on storage',
  ],
  gas_limit_too_high: [
    'Gas limit out of protocol hard bounds',
    'A transaction tried to exceed the hard limit on gas',
  ],
  'tez.subtraction_underflow': [
    'Underflowing tez subtraction',
    'A subtraction of two tez amounts underflowed',
  ],
  'tez.addition_overflow': ['Overflowing tez addition', 'An addition of two tez amounts overflowed'],
  'implicit.empty_implicit_contract': [
    'Empty implicit contract',
    'No manager operations are allowed on an empty implicit contract',
  ],
  cannot_pay_storage_fee: ['Cannot pay storage fee', 'The storage fee is higher than the contract balance'],
};

/** The id without its `proto.<n>-<hash>.` prefix. */
export function shortErrorId(id: string): string {
  return id.replace(/^proto\.[^.]+\./, '');
}

function michelson(v: unknown): string | undefined {
  try {
    return formatMichelsonInline(toMicheline(v));
  } catch {
    return undefined;
  }
}

export function formatErrors(raw: unknown): OperationError[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  return raw.slice(0, 100).map((e): OperationError => {
    const o = (e && typeof e === 'object' ? e : {}) as Record<string, unknown>;
    const id = typeof o.id === 'string' ? o.id : 'unknown';
    const kind = typeof o.kind === 'string' ? o.kind : 'temporary';
    const short = shortErrorId(id);
    const [title, descr] = DESCRIPTIONS[short] ?? [id, kind];
    const out: OperationError = { id, kind, title, descr };
    if (typeof o.location === 'number') out.location = o.location;
    if (o.with !== undefined) {
      try {
        out.with = formatFailwithValue(toMicheline(o.with));
      } catch {
        out.with = michelson(o.with);
      }
    }
    if (short === 'contract.balance_too_low') {
      if (typeof o.balance === 'string' || typeof o.balance === 'number') out.balance = String(o.balance);
      if (typeof o.amount === 'string' || typeof o.amount === 'number') out.amount = String(o.amount);
    }
    if (o.wrongExpression !== undefined) out.wrong_expression = michelson(o.wrongExpression);
    if (o.expectedForm !== undefined) out.expected_form = michelson(o.expectedForm);
    return out;
  });
}

/** Whether the errors contain an error whose id ends with `suffix`. */
export function hasError(raw: unknown, suffix: string): boolean {
  return (
    Array.isArray(raw) &&
    raw.some(
      (e) => typeof (e as { id?: unknown })?.id === 'string' && (e as { id: string }).id.endsWith(suffix),
    )
  );
}
