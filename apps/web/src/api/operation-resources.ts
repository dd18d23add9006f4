/**
 * The registry's entries (./resources.ts) of operations: a group and one of its contents, an account's
 * groups and pending operations, an operation's storage diff, error location and ticket updates.
 */
import type {
  ErrorLocation,
  FlowGraph,
  MiguelNode,
  OPGResponse,
  Operation,
  TicketUpdate,
} from '@michelscope/api-types';
import { enc, resource } from './resource-builders';

/** Operation groups, an account's list and mempool, an operation's diff, error location and tickets. */
export const OPERATION_RESOURCES = {
  /** An operation group with its storage diffs (an unknown hash: `[]`). */
  opg: resource<{ network: string; hash: string }, Operation[]>(
    (p) => `/opg/${enc(p.network)}/${enc(p.hash)}?with_storage_diff=true`,
  ),
  /** An operation group as a flow graph: its accounts and its operations in execution order (issue 37). */
  opgFlow: resource<{ network: string; hash: string }, FlowGraph>(
    (p) => `/opg/${enc(p.network)}/${enc(p.hash)}/flow`,
  ),
  /**
   * One top-level content of a group and its internal operations; implicit operations have no hash and are
   * found by block level (`counter` is then the level).
   */
  opgContent: resource<{ network: string; hash: string; counter: number }, Operation[]>((p) =>
    p.hash === ''
      ? `/implicit/${enc(p.network)}/${p.counter}`
      : `/opg/${enc(p.network)}/${enc(p.hash)}/${p.counter}`,
  ),
  /** A page of an account's operation groups, after `last_id` (null: the first page). */
  opgList: resource<{ network: string; address: string; size: number; lastId: number | null }, OPGResponse[]>(
    (p) =>
      `/contract/${enc(p.network)}/${enc(p.address)}/opg?` +
      (p.lastId === null ? '' : `last_id=${p.lastId}&`) +
      `size=${p.size}`,
  ),
  /** Pending operations of an account. */
  mempool: resource<{ network: string; address: string }, Operation[]>(
    (p) => `/contract/${enc(p.network)}/${enc(p.address)}/mempool`,
  ),
  operationDiff: resource<{ network: string; id: number }, MiguelNode | null>(
    (p) => `/operation/${enc(p.network)}/${p.id}/diff`,
  ),
  errorLocation: resource<{ network: string; id: number }, ErrorLocation>(
    (p) => `/operation/${enc(p.network)}/${p.id}/error_location`,
  ),
  operationTicketUpdates: resource<{ network: string; id: number }, TicketUpdate[] | null>(
    (p) => `/operation/${enc(p.network)}/${p.id}/ticket_updates`,
  ),
};
