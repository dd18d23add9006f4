/** Emitted operations in the JSON shape of Octez's internal operations (`run_code` / receipts). */
import type { UnparseMode } from './data';
import { unparse } from './data';
import type { Expr } from './types';
import type { Operation, V } from './values';

export type InternalOperationJson =
  | {
      kind: 'transaction';
      source: string;
      nonce: number;
      amount: string;
      destination: string;
      parameters?: { entrypoint: string; value: Expr };
    }
  | {
      kind: 'origination';
      source: string;
      nonce: number;
      balance: string;
      delegate?: string;
      script: { code: Expr; storage: Expr };
    }
  | { kind: 'delegation'; source: string; nonce: number; delegate?: string }
  | { kind: 'event'; source: string; nonce: number; type: Expr; tag?: string; payload?: Expr };

function isUnit(v: V): boolean {
  return v.k === 'unit';
}

export function operationToJson(op: Operation, mode: UnparseMode): InternalOperationJson {
  switch (op.kind) {
    case 'transaction': {
      const out: InternalOperationJson = {
        kind: 'transaction',
        source: op.source,
        nonce: op.nonce,
        amount: op.amount.toString(),
        destination: op.destination,
      };
      if (op.entrypoint !== 'default' || !isUnit(op.parameter)) {
        out.parameters = { entrypoint: op.entrypoint, value: unparse(op.parameter, mode) };
      }
      return out;
    }
    case 'origination': {
      const out: InternalOperationJson = {
        kind: 'origination',
        source: op.source,
        nonce: op.nonce,
        balance: op.amount.toString(),
        script: { code: op.code, storage: unparse(op.storage, mode) },
      };
      if (op.delegate) out.delegate = op.delegate;
      return out;
    }
    case 'delegation':
      return op.delegate
        ? { kind: 'delegation', source: op.source, nonce: op.nonce, delegate: op.delegate }
        : { kind: 'delegation', source: op.source, nonce: op.nonce };
    case 'event': {
      const out: InternalOperationJson = { kind: 'event', source: op.source, nonce: op.nonce, type: op.type };
      if (op.tag) out.tag = op.tag;
      if (!isUnit(op.payload)) out.payload = unparse(op.payload, mode);
      return out;
    }
  }
}
