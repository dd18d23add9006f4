// Operations the mempool did not accept, classified as the node does (mempool version 2 lists):
// `refused` (permanent errors, e.g. a bad signature), `branch_refused` (branch errors, e.g. a
// counter in the past), `branch_delayed` (temporary errors, e.g. a counter in the future or an
// unrevealed key) and `outdated` (a branch too old). In memory only, like the mempool.
import { b58Encode, encodeOpHash, PrefixV2 } from '@taquito/utils';
import { parseUnsigned } from './decode';
import type { RpcError } from './operation-types';
import { PROTOCOL } from './protocol';

export interface RejectedOperation {
  hash: string;
  protocol: string;
  branch: string;
  contents: unknown[];
  signature: string;
  error: unknown[];
}

export type RejectionClass = 'refused' | 'outdated' | 'branch_refused' | 'branch_delayed';

/** How many operations each list keeps (the oldest are dropped first), like the node's ring buffers. */
const MAX_KEPT = 1000;

function classify(error: RpcError): RejectionClass | undefined {
  const ids = error.errors.map((e) => String(e.id));
  if (ids.some((id) => id.endsWith('operation_already_known') || id === 'rpc.invalid_body')) return undefined;
  if (ids.some((id) => id.endsWith('outdated_operation'))) return 'outdated';
  const kinds = error.errors.map((e) => String(e.kind));
  if (kinds.includes('permanent')) return 'refused';
  if (kinds.includes('branch')) return 'branch_refused';
  return 'branch_delayed';
}

export class MempoolRejections {
  private readonly lists: Record<RejectionClass, RejectedOperation[]> = {
    refused: [],
    outdated: [],
    branch_refused: [],
    branch_delayed: [],
  };

  /**
   * Records the operation `body` (the injection's JSON string of signed hex) refused with `error`.
   * Bytes that cannot be parsed into an operation are not recorded (the node cannot list them
   * either: they have no hash). Returns the list it went to, if any.
   */
  async record(body: unknown, error: RpcError): Promise<RejectionClass | undefined> {
    const kind = classify(error);
    if (!kind || typeof body !== 'string') return undefined;
    const hex = body.trim().toLowerCase();
    if (!/^([0-9a-f]{2})+$/.test(hex) || hex.length < 2 * (32 + 1 + 64)) return undefined;
    let parsed: Awaited<ReturnType<typeof parseUnsigned>>;
    try {
      parsed = await parseUnsigned(hex.slice(0, -128));
    } catch {
      return undefined;
    }
    const hash = encodeOpHash(hex);
    const list = this.lists[kind];
    const entry: RejectedOperation = {
      hash,
      protocol: PROTOCOL,
      branch: parsed.branch,
      contents: parsed.contents,
      signature: b58Encode(hex.slice(-128), PrefixV2.GenericSignature),
      error: error.errors,
    };
    const at = list.findIndex((o) => o.hash === hash);
    if (at >= 0) list.splice(at, 1);
    list.push(entry);
    if (list.length > MAX_KEPT) list.shift();
    return kind;
  }

  /**
   * A new head: branch-refused and branch-delayed operations are dropped (the node would
   * re-validate them; the sandbox does not retry, so they leave the lists).
   */
  newHead(): void {
    this.lists.branch_refused = [];
    this.lists.branch_delayed = [];
  }

  /** The four lists in the node's version 2 shape (copies). */
  snapshot(): Record<RejectionClass, RejectedOperation[]> {
    return {
      refused: [...this.lists.refused],
      outdated: [...this.lists.outdated],
      branch_refused: [...this.lists.branch_refused],
      branch_delayed: [...this.lists.branch_delayed],
    };
  }
}
