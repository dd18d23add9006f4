/** Parsers for operation answers (untrusted: malformed items are dropped, wrong types fall back). */
import { invalid, isObject, type Json } from './parse';
import { num, optStr, str } from './json-fields';
import { listOf, parseMiguel, parseMiguelList } from './contract-parse';
import type { ErrorLocation, OpgRow, Operation, OperationError } from './opg-types';

function text(o: Json, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = o[key];
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return null;
}

export function parseOperationError(o: Json): OperationError {
  const id = str(o, 'id');
  return {
    id,
    kind: str(o, 'kind'),
    title: str(o, 'title') || id || 'Error',
    descr: str(o, 'descr'),
    with: text(o, 'with'),
    balance: text(o, 'balance'),
    amount: text(o, 'amount'),
    wrong_expression: text(o, 'wrong_expression', 'wrongExpression'),
    expected_form: text(o, 'expected_form', 'expectedForm'),
    location: typeof o.location === 'number' ? o.location : null,
  };
}

export function parseOperation(o: Json): Operation {
  return {
    id: typeof o.id === 'number' && o.id > 0 ? o.id : null,
    level: num(o, 'level'),
    fee: num(o, 'fee'),
    counter: typeof o.counter === 'number' ? o.counter : null,
    gas_limit: num(o, 'gas_limit'),
    storage_limit: num(o, 'storage_limit'),
    amount: num(o, 'amount'),
    burned: num(o, 'burned'),
    allocated_destination_contract_burned: num(o, 'allocated_destination_contract_burned'),
    content_index: num(o, 'content_index'),
    consumed_gas: num(o, 'consumed_gas'),
    storage_size: num(o, 'storage_size'),
    paid_storage_size_diff: num(o, 'paid_storage_size_diff'),
    ticket_updates_count: num(o, 'ticket_updates_count'),
    big_map_diffs_count: num(o, 'big_map_diffs_count'),
    errors: Array.isArray(o.errors) ? o.errors.filter(isObject).map(parseOperationError) : [],
    parameters: parseMiguelList(o.parameters),
    storage_diff: parseMiguel(o.storage_diff),
    payload: parseMiguelList(o.payload),
    timestamp: str(o, 'timestamp'),
    protocol: str(o, 'protocol'),
    hash: str(o, 'hash'),
    network: str(o, 'network'),
    kind: str(o, 'kind'),
    source: optStr(o, 'source'),
    destination: optStr(o, 'destination'),
    delegate: optStr(o, 'delegate'),
    status: str(o, 'status', 'unknown'),
    entrypoint: optStr(o, 'entrypoint'),
    tag: optStr(o, 'tag'),
    internal: o.internal === true,
    mempool: o.mempool === true,
  };
}

/** Operation[]; 204 / empty gives []. */
export function parseOperations(body: unknown): Operation[] {
  return listOf(body, 'operations', parseOperation);
}

export function parseOpgRows(body: unknown): OpgRow[] {
  return listOf(body, 'operation groups', (o) => ({
    last_id: num(o, 'last_id'),
    content_index: num(o, 'content_index'),
    counter: num(o, 'counter'),
    level: num(o, 'level'),
    total_cost: num(o, 'total_cost'),
    flow: num(o, 'flow'),
    internals: num(o, 'internals'),
    hash: str(o, 'hash'),
    entrypoint: str(o, 'entrypoint'),
    timestamp: str(o, 'timestamp'),
    status: str(o, 'status', 'unknown'),
    kind: str(o, 'kind'),
    mempool: o.mempool === true,
  }));
}

export function parseErrorLocation(body: unknown): ErrorLocation {
  if (!isObject(body)) throw invalid('error location', 'not an object');
  return {
    text: str(body, 'text'),
    failed_row: num(body, 'failed_row'),
    first_row: num(body, 'first_row'),
    start_col: num(body, 'start_col'),
    end_col: num(body, 'end_col'),
  };
}
