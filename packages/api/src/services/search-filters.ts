/**
 * A search's filters (discovery spec §3): the indices, networks, operation, big-map, time and token filters of
 * the reference client's body (`{search: {...}}`, `{tokens: {...}}`, `operations`, `big_maps`) and of this
 * API (`verified`, issue 38), read leniently (unknown or bad values are dropped).
 */
import type { TokenFilters } from '@michelscope/db/read';
import type { ApiContext } from '../context';
import { ADDRESS_RE } from '../validate';

/** A search index the client names (`index` filter), under any of its reference aliases. */
export type Index = 'accounts' | 'operations' | 'big-maps' | 'tokens' | 'global_constants';
const INDEX_ALIASES: Record<string, Index> = {
  accounts: 'accounts',
  account: 'accounts',
  contracts: 'accounts',
  contract: 'accounts',
  operations: 'operations',
  operation: 'operations',
  'big-maps': 'big-maps',
  big_maps: 'big-maps',
  bigmaps: 'big-maps',
  bigmapkey: 'big-maps',
  tokens: 'tokens',
  token: 'tokens',
  global_constants: 'global_constants',
};
/** The kinds of search documents of each index (operations and big-map keys are read directly). */
export const DOC_KINDS: Record<Index, string[]> = {
  accounts: ['contract', 'contract_metadata', 'smart_rollup'],
  tokens: ['token'],
  global_constants: ['global_constant'],
  operations: [],
  'big-maps': [],
};
const OPERATION_STATUSES = new Set(['applied', 'failed', 'backtracked', 'skipped']);

/** A search's filters, read from the client's body. */
export interface Filters {
  networks?: string[];
  indices: Set<Index>;
  status?: string[];
  entrypoints?: string[];
  /**
   * One big map (`big_maps.big_map_id`, or `ptr`): the search lists its keys alone (on `big_maps.network`
   * when given, else the networks filter).
   */
  ptr?: number;
  /** With `ptr`: only keys currently present. */
  activeOnly?: boolean;
  /** The account whose operations are searched (operations tab). */
  address?: string;
  from?: Date;
  to?: Date;
  /** Tokens tab filters (tags, creators, minters, mime types); undefined when none is set. */
  tokens?: TokenFilters;
  /**
   * Only contracts whose script has a verified source (issue 38): `verified: true` at the top level of the
   * filters or in `search` / `tokens`.
   */
  verified?: boolean;
}

const strList = (v: unknown): string[] | undefined =>
  Array.isArray(v)
    ? v
        .filter(
          (x): x is string => typeof x === 'string' && x.length > 0 && x.length <= 255 && !x.includes('\0'),
        )
        .slice(0, 50)
    : undefined;

/** Reads the filters of the reference client (`{search: {...}}` or `{tokens: {...}}`) and of this API. */
export function readFilters(ctx: ApiContext, raw: unknown): Filters {
  const top = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const inner = [top, top.search, top.tokens].filter(
    (x): x is Record<string, unknown> => !!x && typeof x === 'object',
  );
  const pick = (k: string) => inner.map((o) => strList(o[k])).find((v) => v?.length);
  const configured = new Set(ctx.networks.names);
  const nets = (pick('networks') ?? pick('network'))?.filter((n) => configured.has(n));
  const idx = pick('index')
    ?.map((i) => INDEX_ALIASES[i])
    .filter((i): i is Index => !!i);
  const ops = (top.operations && typeof top.operations === 'object' ? top.operations : {}) as Record<
    string,
    unknown
  >;
  const bms = (top.big_maps && typeof top.big_maps === 'object' ? top.big_maps : {}) as Record<
    string,
    unknown
  >;
  // the keys tab of the BCD frontend names its network in the big-map filter: only that one (none if unknown)
  const bmNetwork =
    typeof bms.network === 'string' ? [bms.network].filter((n) => configured.has(n)) : undefined;
  return {
    networks: bmNetwork ?? (nets && nets.length ? nets : ctx.networks.names),
    indices: new Set<Index>(idx?.length ? idx : ['accounts', 'operations', 'big-maps', 'tokens']),
    status: (strList(ops.status) ?? pick('status'))?.filter((s) => OPERATION_STATUSES.has(s)),
    entrypoints: strList(ops.entrypoints) ?? pick('entrypoints') ?? pick('entrypoint'),
    address: pick('address')?.find((a) => ADDRESS_RE.test(a)),
    ...timeRange(inner.map((o) => o.timestamp).find((t) => t && typeof t === 'object')),
    ptr: bigMapId(bms.big_map_id) ?? bigMapId(bms.ptr),
    activeOnly: bms.is_active === true,
    tokens: tokenFilters(pick),
    ...(inner.some((o) => o.verified === true) ? { verified: true } : {}),
  };
}

/** A big-map pointer (the BCD frontend sends the route's pointer as a number), -1 and up. */
function bigMapId(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= -1 ? v : undefined;
}

function tokenFilters(pick: (k: string) => string[] | undefined): TokenFilters | undefined {
  const f: TokenFilters = {
    tags: pick('tags'),
    creators: pick('creators'),
    minters: pick('minters'),
    mimeTypes: pick('mime_types'),
  };
  return Object.values(f).some((v) => v?.length) ? f : undefined;
}

/** `{gte, gt, lt, lte}` as ISO dates (the reference client's range filter) → [from, to). */
function timeRange(raw: unknown): { from?: Date; to?: Date } {
  if (!raw || typeof raw !== 'object') return {};
  const r = raw as Record<string, unknown>;
  const date = (v: unknown) => {
    const d = typeof v === 'string' || typeof v === 'number' ? new Date(v) : null;
    return d && !Number.isNaN(d.getTime()) ? d : undefined;
  };
  const from = date(r.gte) ?? (date(r.gt) && new Date(date(r.gt)!.getTime() + 1));
  const to = date(r.lt) ?? (date(r.lte) && new Date(date(r.lte)!.getTime() + 1));
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}
