/**
 * Rows of the exports (issue 21 part 3, Michelscope extension): each table the app lists can be exported as
 * CSV or JSON (`…/export?format=csv|json`). A JSON export is an array of these objects; a CSV export has the
 * same columns in the same order (the header row names them), JSON values (Micheline, metadata) as their JSON
 * text, null as an empty field. Amounts in tez come twice: `<name>_mutez` (integer text) and `<name>_tez`
 * (exact decimal text with six places).
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { SearchFilters } from './services';

const Int = (description: string) => Type.Integer({ description });
const Str = (description: string) => Type.String({ description });
const Bool = (description: string) => Type.Boolean({ description });
const OrNull = <T extends TSchema>(t: T, description: string) =>
  Type.Union([t, Type.Null()], { description });
const Json = (description: string) => Type.Unknown({ description });
const Time = (description: string) => Type.String({ description: `${description} (UTC, RFC 3339)` });
const Mutez = (description: string) =>
  Type.String({ pattern: '^-?[0-9]+$', description: `${description}, mutez (integer text)` });
const Tez = (description: string) =>
  Type.String({ pattern: '^-?[0-9]+\\.[0-9]{6}$', description: `${description}, tez (exact decimal text)` });

export const OperationExportRow = Type.Object(
  {
    id: Int('operation id in this explorer (stable, grows with the level)'),
    level: Int('block level'),
    timestamp: Time('block time'),
    hash: OrNull(Type.String(), 'operation group hash (null for implicit operations)'),
    counter: OrNull(Type.Integer(), 'counter of the manager operation'),
    content_index: Int('index of the content in its group'),
    internal: Bool('true for an internal operation'),
    kind: Str('transaction, origination, delegation, event, …'),
    status: Str('applied, failed, backtracked or skipped'),
    source: OrNull(Type.String(), 'source address'),
    destination: OrNull(Type.String(), 'destination address'),
    entrypoint: OrNull(Type.String(), 'called entrypoint'),
    amount_mutez: Mutez('amount sent'),
    amount_tez: Tez('amount sent'),
    fee_mutez: Mutez('fee'),
    fee_tez: Tez('fee'),
    burned_mutez: Mutez('storage burn'),
    burned_tez: Tez('storage burn'),
    consumed_milligas: Str('consumed gas, milligas (integer text)'),
    storage_size: Str('storage size after the operation, bytes (integer text)'),
    paid_storage_size_diff: Str('paid storage growth, bytes (integer text)'),
  },
  { title: 'OperationExportRow' },
);
export type OperationExportRow = Static<typeof OperationExportRow>;

export const BigMapKeyExportRow = Type.Object(
  {
    key_hash: Str('key hash (expr…)'),
    key: Str('the key as readable text (`Pair "tz1…" 1`), as the keys list shows it'),
    key_micheline: Json('the key as Micheline JSON'),
    value_micheline: OrNull(Type.Unknown(), 'the current value as Micheline JSON; null when removed'),
    active: Bool('false when the key was removed'),
    last_update_level: Int('level of the last update'),
    last_update_time: Time('time of the last update'),
    updates_count: Int('number of updates of the key'),
  },
  { title: 'BigMapKeyExportRow' },
);
export type BigMapKeyExportRow = Static<typeof BigMapKeyExportRow>;

export const BigMapKeyHistoryExportRow = Type.Object(
  {
    level: Int('level of the update'),
    timestamp: Time('block time'),
    operation_hash: OrNull(Type.String(), 'operation group that wrote it (null for implicit operations)'),
    removed: Bool('true when this update removed the key'),
    value_micheline: OrNull(Type.Unknown(), 'the value written, Micheline JSON; null for a removal'),
  },
  { title: 'BigMapKeyHistoryExportRow' },
);
export type BigMapKeyHistoryExportRow = Static<typeof BigMapKeyHistoryExportRow>;

export const EventExportRow = Type.Object(
  {
    level: Int('block level'),
    timestamp: Time('block time'),
    hash: OrNull(Type.String(), 'operation group hash'),
    status: Str('applied, failed, backtracked or skipped'),
    tag: Str('event tag (empty when none)'),
    payload_micheline: OrNull(Type.Unknown(), 'payload, Micheline JSON'),
    payload_type_micheline: OrNull(Type.Unknown(), 'payload type, Micheline JSON'),
  },
  { title: 'EventExportRow' },
);
export type EventExportRow = Static<typeof EventExportRow>;

export const TicketUpdateExportRow = Type.Object(
  {
    id: Int('ticket update id in this explorer'),
    level: Int('block level'),
    timestamp: Time('block time'),
    operation_hash: OrNull(Type.String(), 'operation group hash'),
    ticketer: Str('contract that issued the ticket'),
    ticket_id: Int('ticket id in this explorer'),
    content_type_micheline: Json('ticket content type, Micheline JSON'),
    content_micheline: Json('ticket content, Micheline JSON'),
    account: Str('holder whose balance changed'),
    amount: Str('balance change in ticket units (integer text, negative for a decrease)'),
  },
  { title: 'TicketUpdateExportRow' },
);
export type TicketUpdateExportRow = Static<typeof TicketUpdateExportRow>;

export const TokenExportRow = Type.Object(
  {
    token_id: Str('token id (integer text)'),
    name: OrNull(Type.String(), 'name from the token metadata'),
    symbol: OrNull(Type.String(), 'symbol from the token metadata'),
    decimals: OrNull(Type.Integer(), 'decimals from the token metadata'),
    level: Int('level at which the token metadata was set'),
    link: OrNull(Type.String(), 'URI of the metadata (token_info "" entry)'),
    metadata: OrNull(Type.Unknown(), 'the resolved TZIP-21 metadata JSON'),
  },
  { title: 'TokenExportRow' },
);
export type TokenExportRow = Static<typeof TokenExportRow>;

export const TokenHolderExportRow = Type.Object(
  {
    token_id: Str('token id (integer text)'),
    address: Str('holder'),
    balance: Str('balance in the token’s smallest unit (integer text, from the ledger big map)'),
  },
  { title: 'TokenHolderExportRow' },
);
export type TokenHolderExportRow = Static<typeof TokenHolderExportRow>;

export const SameContractExportRow = Type.Object(
  {
    network: Str('network of the contract'),
    address: Str('contract address'),
    level: Int('origination level'),
    timestamp: Time('origination time'),
    last_action: OrNull(Type.String(), 'time of the last operation (UTC, RFC 3339)'),
    manager: OrNull(Type.String(), 'originator'),
    delegate: OrNull(Type.String(), 'delegate'),
  },
  { title: 'SameContractExportRow' },
);
export type SameContractExportRow = Static<typeof SameContractExportRow>;

export const MigrationExportRow = Type.Object(
  {
    level: Int('level of the migration'),
    timestamp: Time('block time'),
    kind: Str('bootstrap, lambda or update'),
    hash: OrNull(Type.String(), 'operation hash, when the migration came with one'),
    protocol: Str('protocol hash after the migration'),
    prev_protocol: Str('protocol hash before it (empty when none)'),
  },
  { title: 'MigrationExportRow' },
);
export type MigrationExportRow = Static<typeof MigrationExportRow>;

export const RecentlyCalledExportRow = Type.Object(
  {
    address: Str('contract address'),
    operations_count: Int('number of operations of the contract'),
    last_action: Time('time of the last operation'),
  },
  { title: 'RecentlyCalledExportRow' },
);
export type RecentlyCalledExportRow = Static<typeof RecentlyCalledExportRow>;

export const SearchResultExportRow = Type.Object(
  {
    type: Str('account, operation, bigmapkey, token, global_constant, smart_rollup'),
    network: Str('network of the result'),
    value: Str('its identifier: address, operation hash, key hash, …'),
    name: OrNull(Type.String(), 'its name (alias, token name, readable key) when one is known'),
    found_by: OrNull(Type.String(), 'the field the query matched'),
    level: OrNull(Type.Integer(), 'level, for results that have one'),
    timestamp: OrNull(Type.String(), 'time, for results that have one (UTC, RFC 3339)'),
    body: Json('the whole result body as the search answers it'),
  },
  { title: 'SearchResultExportRow' },
);
export type SearchResultExportRow = Static<typeof SearchResultExportRow>;

/** The body of `POST /search/v1/search/export`: the search of the search page, without paging. */
export const SearchExportRequest = Type.Object(
  {
    query: Type.String({ maxLength: 100_000 }),
    filters: Type.Optional(SearchFilters),
  },
  { title: 'SearchExportRequest' },
);
export type SearchExportRequest = Static<typeof SearchExportRequest>;
