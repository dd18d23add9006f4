/**
 * Test support: turns a real node-RPC operation group (../shared/fixtures/rpc/operations) into the API's
 * Operation[] shape (bcd-api.md §3.0: main contents then their internal operations, milligas, errors),
 * so that component tests run over real chain data. Not a re-implementation of the server: only the
 * fields the pages read, mapped one to one.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Operation } from '@michelscope/api-types';

export const SHARED_DIR = path.resolve(__dirname, '../../../../../../../shared');
export const hasShared = existsSync(path.join(SHARED_DIR, 'fixtures/rpc/operations'));

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === 'object' ? (v as Json) : {});
const n = (v: unknown): number | undefined =>
  typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined;

function apiOp(content: Json, result: Json, extra: Json): Json {
  const params = obj(content.parameters);
  const errors = Array.isArray(result.errors)
    ? result.errors.map((e) => ({ id: obj(e).id, kind: obj(e).kind }))
    : undefined;
  return {
    kind: content.kind,
    source: content.source,
    destination:
      content.destination ??
      (Array.isArray(result.originated_contracts) ? result.originated_contracts[0] : undefined),
    delegate: content.delegate,
    amount: n(content.amount ?? content.balance),
    fee: n(content.fee),
    gas_limit: n(content.gas_limit),
    storage_limit: n(content.storage_limit),
    consumed_gas: n(result.consumed_milligas) ?? (n(result.consumed_gas) ?? 0) * 1000,
    storage_size: n(result.storage_size),
    paid_storage_size_diff: n(result.paid_storage_size_diff),
    status: result.status,
    entrypoint: typeof params.entrypoint === 'string' ? params.entrypoint : undefined,
    errors,
    ticket_updates_count: 0,
    big_map_diffs_count: 0,
    ...extra,
  };
}

/**
 * The fixture group `hash` as GET /v1/opg/{network}/{hash} would answer it (the node's untyped JSON mapped
 * field by field: typed as the API's Operation here, once).
 */
export function apiGroup(hash: string, network = 'mainnet'): Operation[] {
  const group = obj(
    JSON.parse(readFileSync(path.join(SHARED_DIR, 'fixtures/rpc/operations', `${hash}.json`), 'utf8')),
  );
  const contents = Array.isArray(group.contents) ? group.contents.map(obj) : [];
  const out: Json[] = [];
  let id = 1;
  contents.forEach((content, index) => {
    const meta = obj(content.metadata);
    const common = {
      hash,
      network,
      content_index: index,
      timestamp: '2020-02-01T00:00:00Z',
      protocol: group.protocol,
      level: 839681,
    };
    out.push(
      apiOp(content, obj(meta.operation_result), {
        ...common,
        id: id++,
        counter: n(content.counter),
        internal: false,
      }),
    );
    const internals = Array.isArray(meta.internal_operation_results)
      ? meta.internal_operation_results.map(obj)
      : [];
    for (const internal of internals) {
      out.push(
        apiOp(internal, obj(internal.result), {
          ...common,
          id: id++,
          counter: n(content.counter),
          internal: true,
        }),
      );
    }
  });
  return out as Operation[];
}
