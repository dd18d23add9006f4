/**
 * The closed set of failures the interpreter can produce, and their Octez JSON shape
 * (`{kind, id: "proto.<protocol>.<id>", ...}` as found in operation receipts and RPC errors).
 */
import type { Micheline as Expr } from '@michelscope/michelson';

export type ErrorKind =
  /** FAILWITH (or a failing macro); carries the failing value. */
  | 'script_rejected'
  /** Arithmetic result out of range (shifts, timestamps, nat to int conversions...). */
  | 'overflow'
  | 'mutez_overflow'
  | 'mutez_underflow'
  | 'gas_exhausted'
  /** Ill-typed code or data, found before or while running. */
  | 'ill_typed'
  /** The parameter does not match the entrypoint type, or the entrypoint does not exist. */
  | 'bad_contract_parameter'
  /** Feature not supported by this interpreter (Sapling, timelock OPEN_CHEST). */
  | 'not_supported'
  /**
   * SAPLING_VERIFY_UPDATE: the sandbox cannot verify Sapling proofs. Our own Octez-style id
   * (`michelson_v1.sapling_verify_update_unsupported`), a deliberate difference documented in ARCHITECTURE §8.
   */
  | 'sapling_unverifiable'
  /** Something the chain context could not give (unknown big map id, missing contract...). */
  | 'runtime';

/**
 * The protocol the product targets (Tallinn, PtTALLiNtPec7mE7yY4m3k26J8Qukef3E3ehzhfXgFZKGtDdAXu), as the
 * `<number>-<short hash>` prefix of Octez error ids. The one default for every Octez-style error.
 */
export const DEFAULT_PROTOCOL_PREFIX = '024-PtTALLiN';

export interface OctezError {
  kind: 'temporary' | 'permanent' | 'branch';
  id: string;
  [k: string]: unknown;
}

export class MichelsonError extends Error {
  override readonly name = 'MichelsonError';
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** Extra fields: `with` (Expr) for script_rejected, `location`, `amounts`, `detail` for ill_typed... */
    readonly data: {
      with?: Expr;
      location?: number;
      /** gas_exhausted: location of the instruction that ran out (not in Octez's error, which has none). */
      ranOutAt?: number;
      amounts?: [string, string];
      detail?: string;
      prim?: string;
      contract?: string;
      /** ill_typed: a count argument Octez refuses (`invalid_syntactic_constant` at `location`). */
      syntactic?: { expectedForm: string; wrongExpression: Expr };
      /** ill_typed_contract: the whole script (Octez's `ill_typed_code`). */
      code?: Expr;
      /** ill_typed: two memo sizes that must agree (Octez's `inconsistent_memo_sizes`, first then other). */
      memoSizes?: [number, number];
      /** ill_typed: Octez's whole trace, outermost first (ids without the `proto.<protocol>.` prefix). */
      trace?: { id: string; [k: string]: unknown }[];
    } = {},
  ) {
    super(message);
  }

  /** The error as Octez would print it in a receipt (`errors` array), for the given protocol hash prefix. */
  toOctez(protocol: string = DEFAULT_PROTOCOL_PREFIX): OctezError[] {
    const p = `proto.${protocol}.`;
    const loc = this.data.location ?? 0;
    switch (this.kind) {
      case 'script_rejected':
        return [
          {
            kind: 'temporary',
            id: `${p}michelson_v1.script_rejected`,
            location: loc,
            with: this.data.with ?? { prim: 'Unit' },
          },
        ];
      case 'overflow':
        return [{ kind: 'temporary', id: `${p}michelson_v1.script_overflow`, location: loc }];
      case 'mutez_overflow':
        return [
          { kind: 'temporary', id: `${p}tez.addition_overflow`, amounts: this.data.amounts ?? ['0', '0'] },
        ];
      case 'mutez_underflow':
        return [
          {
            kind: 'temporary',
            id: `${p}tez.subtraction_underflow`,
            amounts: this.data.amounts ?? ['0', '0'],
          },
        ];
      case 'gas_exhausted':
        return [{ kind: 'temporary', id: `${p}gas_exhausted.operation` }];
      case 'bad_contract_parameter':
        return [
          {
            kind: 'permanent',
            id: `${p}michelson_v1.bad_contract_parameter`,
            contract: this.data.contract ?? '',
          },
        ];
      case 'ill_typed':
        if (this.data.trace)
          return this.data.trace.map(({ id, ...fields }) => ({
            kind: 'permanent',
            id: `${p}${id}`,
            ...fields,
          }));
        if (this.data.syntactic) {
          // As Octez traces it: the toplevel error of what was being typechecked, then the precise one.
          const constant: OctezError = {
            kind: 'permanent',
            id: `${p}michelson_v1.invalid_syntactic_constant`,
            location: loc,
            expected_form: this.data.syntactic.expectedForm,
            wrong_expression: this.data.syntactic.wrongExpression,
          };
          const top: OctezError =
            this.data.code !== undefined
              ? {
                  kind: 'permanent',
                  id: `${p}michelson_v1.ill_typed_contract`,
                  ill_typed_code: this.data.code,
                  type_map: [],
                }
              : { kind: 'permanent', id: `${p}michelson_v1.ill_typed_contract`, location: loc };
          return [top, constant];
        }
        return [
          {
            kind: 'permanent',
            id: `${p}michelson_v1.ill_typed_contract`,
            location: loc,
            message: this.message,
          },
          // Octez's memo_size_eq (script_ir_translator.ml) ends the trace with the two sizes.
          ...(this.data.memoSizes
            ? [
                {
                  kind: 'permanent' as const,
                  id: `${p}michelson_v1.inconsistent_memo_sizes`,
                  first_memo_size: this.data.memoSizes[0],
                  other_memo_size: this.data.memoSizes[1],
                },
              ]
            : []),
        ];
      case 'not_supported':
        return [
          {
            kind: 'permanent',
            id: `${p}michelson_v1.unsupported_instruction`,
            location: loc,
            prim: this.data.prim ?? '',
          },
        ];
      case 'sapling_unverifiable':
        return [
          {
            kind: 'permanent',
            id: `${p}michelson_v1.sapling_verify_update_unsupported`,
            location: loc,
            message: this.message,
          },
        ];
      case 'runtime':
        return [
          { kind: 'temporary', id: `${p}michelson_v1.runtime_error`, location: loc, message: this.message },
        ];
    }
  }
}

export function staticError(detail: string, message: string): MichelsonError {
  return new MichelsonError('ill_typed', message, { detail });
}

/** Octez's `invalid_syntactic_constant` (a refused count argument) at `location`, under `detail`. */
export function syntacticConstantError(
  detail: string,
  c: { ins: { prim: string }; node: Expr; expectedForm: string },
  location: number,
  code?: Expr,
): MichelsonError {
  return new MichelsonError('ill_typed', `${c.ins.prim}: expected ${c.expectedForm}`, {
    detail,
    location,
    // A plain copy: parsed nodes carry the parser's source references.
    syntactic: { expectedForm: c.expectedForm, wrongExpression: JSON.parse(JSON.stringify(c.node)) as Expr },
    ...(code !== undefined && { code }),
  });
}

/** Octez's `Inconsistent_memo_sizes (first, other)`: Sapling states or transactions of different memo sizes. */
export function inconsistentMemoSizes(first: number, other: number): MichelsonError {
  return new MichelsonError('ill_typed', `inconsistent memo sizes: ${first} and ${other}`, {
    detail: 'inconsistent_memo_sizes',
    memoSizes: [first, other],
  });
}

export function runtimeError(message: string): MichelsonError {
  return new MichelsonError('runtime', message);
}

export function notSupported(prim: string): MichelsonError {
  return new MichelsonError('not_supported', `${prim} is not supported by this interpreter`, { prim });
}
