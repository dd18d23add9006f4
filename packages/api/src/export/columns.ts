/**
 * The columns of each table export (issue 21 part 3): for every exported row schema of api-types, the getter
 * of each column from the row the database's `…All` reader gives. The export routes (routes/export.ts) send
 * them through the writer (writer.ts); the OpenAPI description lists them.
 */
import {
  BigMapKeyExportRow,
  BigMapKeyHistoryExportRow,
  EventExportRow,
  MigrationExportRow,
  OperationExportRow,
  RecentlyCalledExportRow,
  SameContractExportRow,
  TicketUpdateExportRow,
  TokenExportRow,
  TokenHolderExportRow,
} from '@michelscope/api-types';
import type {
  ExportEventRow,
  ExportKeyDiffRow,
  ExportKeyRow,
  ExportMigrationRow,
  ExportOperationRow,
  ExportRecentRow,
  ExportSameRow,
  ExportTicketUpdateRow,
  ExportTokenRow,
} from '@michelscope/db/read';
import { keyString } from '../render/big-map-keys';
import { formatTime } from '../time';
import { mutezToTez, tableColumns } from './writer';

const orNull = <T>(v: T | null | undefined): T | null => v ?? null;

export const OPERATION_COLUMNS = tableColumns<ExportOperationRow>()(OperationExportRow, {
  id: (r) => r.id,
  level: (r) => r.level,
  timestamp: (r) => formatTime(r.timestamp),
  hash: (r) => r.hash,
  counter: (r) => r.counter,
  content_index: (r) => r.content_index,
  internal: (r) => r.internal,
  kind: (r) => r.kind,
  status: (r) => r.status,
  source: (r) => r.source,
  destination: (r) => r.destination,
  entrypoint: (r) => r.entrypoint,
  amount_mutez: (r) => r.amount,
  amount_tez: (r) => mutezToTez(r.amount),
  fee_mutez: (r) => r.fee,
  fee_tez: (r) => mutezToTez(r.fee),
  burned_mutez: (r) => r.burned,
  burned_tez: (r) => mutezToTez(r.burned),
  consumed_milligas: (r) => r.consumed_gas,
  storage_size: (r) => r.storage_size,
  paid_storage_size_diff: (r) => r.paid_storage_size_diff,
});

/** Big-map key columns: the readable key needs the big map's key type. */
export const keyColumns = (keyType: Parameters<typeof keyString>[0]) =>
  tableColumns<ExportKeyRow>()(BigMapKeyExportRow, {
    key_hash: (r) => r.key_hash,
    key: (r) => keyString(keyType, r.key),
    key_micheline: (r) => r.key,
    value_micheline: (r) => (r.removed ? null : orNull(r.value)),
    active: (r) => !r.removed,
    last_update_level: (r) => r.last_update_level,
    last_update_time: (r) => formatTime(r.last_update_time),
    updates_count: (r) => r.count,
  });

export const KEY_HISTORY_COLUMNS = tableColumns<ExportKeyDiffRow>()(BigMapKeyHistoryExportRow, {
  level: (r) => r.level,
  timestamp: (r) => formatTime(r.timestamp),
  operation_hash: (r) => r.operation_hash,
  removed: (r) => r.value == null,
  value_micheline: (r) => orNull(r.value),
});

export const EVENT_COLUMNS = tableColumns<ExportEventRow>()(EventExportRow, {
  level: (r) => r.level,
  timestamp: (r) => formatTime(r.timestamp),
  hash: (r) => r.hash,
  status: (r) => r.status,
  tag: (r) => r.tag ?? '',
  payload_micheline: (r) => orNull(r.payload),
  payload_type_micheline: (r) => orNull(r.payload_type),
});

export const TICKET_UPDATE_COLUMNS = tableColumns<ExportTicketUpdateRow>()(TicketUpdateExportRow, {
  id: (r) => r.id,
  level: (r) => r.level,
  timestamp: (r) => formatTime(r.timestamp),
  operation_hash: (r) => r.operation_hash,
  ticketer: (r) => r.ticketer,
  ticket_id: (r) => r.ticket_id,
  content_type_micheline: (r) => r.content_type,
  content_micheline: (r) => r.content,
  account: (r) => r.account,
  amount: (r) => r.amount,
});

export const TOKEN_COLUMNS = tableColumns<ExportTokenRow>()(TokenExportRow, {
  token_id: (r) => r.token_id,
  name: (r) => r.name,
  symbol: (r) => r.symbol,
  decimals: (r) => r.decimals,
  level: (r) => r.level,
  link: (r) => r.link,
  metadata: (r) => orNull(r.metadata),
});

/** A token holder: a ledger entry of the token (the holders export). */
export type Holder = { token_id: string; owner: string; amount: string };
export const HOLDER_COLUMNS = tableColumns<Holder>()(TokenHolderExportRow, {
  token_id: (r) => r.token_id,
  address: (r) => r.owner,
  balance: (r) => r.amount,
});

export const SAME_COLUMNS = tableColumns<ExportSameRow>()(SameContractExportRow, {
  network: (r) => r.network,
  address: (r) => r.address,
  level: (r) => r.level,
  timestamp: (r) => formatTime(r.timestamp),
  last_action: (r) => (r.last_action ? formatTime(r.last_action) : null),
  manager: (r) => r.manager,
  delegate: (r) => r.delegate,
});

export const MIGRATION_COLUMNS = tableColumns<ExportMigrationRow>()(MigrationExportRow, {
  level: (r) => r.level,
  timestamp: (r) => formatTime(r.timestamp),
  kind: (r) => r.kind,
  hash: (r) => r.hash,
  protocol: (r) => r.protocol,
  prev_protocol: (r) => r.prev_protocol,
});

export const RECENT_COLUMNS = tableColumns<ExportRecentRow>()(RecentlyCalledExportRow, {
  address: (r) => r.address,
  operations_count: (r) => r.operations_count,
  last_action: (r) => formatTime(r.last_action),
});
