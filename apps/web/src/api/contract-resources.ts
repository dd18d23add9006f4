/**
 * The registry's entries (./resources.ts) of a contract: the contract and its same-code twins, its code,
 * storage (at a level, its diffs, the levels it changed at), forms, views, events, constants and migrations.
 */
import type {
  ContractWithStats,
  EntrypointSchema,
  Event,
  GlobalConstant,
  Micheline,
  Migration,
  MiguelNode,
  SameContractsResponse,
  SecuritySummary,
  StorageDiff,
  StorageLevel,
  ViewSchema,
} from '@michelscope/api-types';
import { contract, enc, offsetFirst, resource, type At, type Page } from './resource-builders';

/** `?level=N` of the storage answers (none: the latest storage). */
const atLevel = (p: { level: number | null }) => (p.level === null ? '' : `?level=${p.level}`);

/** A contract: its code, storage (at a level, diffs), forms, views, events, migrations. */
export const CONTRACT_RESOURCES = {
  /** The contract with its same-code count; 204 (unknown contract): null. */
  contract: resource<At, ContractWithStats | null>((p) => `${contract(p)}?stats=true`),
  sameContracts: resource<At & Page, SameContractsResponse | null>(
    (p) => `${contract(p)}/same?${offsetFirst(p)}`,
  ),
  /** The code as Michelson text; with a protocol, the code the contract ran under it. */
  code: resource<At & { protocol: string | null }, string>(
    (p) => `${contract(p)}/code${p.protocol === null ? '' : `?protocol=${enc(p.protocol)}`}`,
  ),
  /** The storage as Miguel trees (big maps as pointers) at a level (null: the latest). */
  storage: resource<At & { level: number | null }, MiguelNode[]>(
    (p) => `${contract(p)}/storage${atLevel(p)}`,
  ),
  /** The storage as Michelson text. */
  storageRaw: resource<At & { level: number | null }, string>(
    (p) => `${contract(p)}/storage/raw${atLevel(p)}`,
  ),
  /** The storage as Micheline with every big map's entries in place of its pointer. */
  storageRich: resource<At & { level: number | null }, Micheline>(
    (p) => `${contract(p)}/storage/rich${atLevel(p)}`,
  ),
  /** Storage diff between the ends of two levels (time travel, issue 21). */
  storageDiff: resource<{ network: string; address: string; from: number; to: number }, StorageDiff>(
    (p) => `/contract/${enc(p.network)}/${enc(p.address)}/storage/diff?from=${p.from}&to=${p.to}`,
  ),
  /** The levels at which the storage changed, newest first. */
  storageLevels: resource<At, StorageLevel[] | null>((p) => `${contract(p)}/storage/levels`),
  /** The storage form: type docs and schema, with a model of the current or initial storage (`fillType`). */
  storageSchema: resource<At & { fillType: 'empty' | 'current' | 'initial' | null }, EntrypointSchema>(
    (p) => `${contract(p)}/storage/schema${p.fillType === null ? '' : `?fill_type=${p.fillType}`}`,
  ),
  /** The entrypoints' forms. */
  entrypoints: resource<At, EntrypointSchema[]>((p) => `${contract(p)}/entrypoints`),
  /** One entrypoint's form with a model: the latest call's parameter, or that of operation `hash` / `counter`. */
  entrypointSchema: resource<
    At & { entrypoint: string; fillType: 'latest' | 'operation'; hash?: string; counter?: number },
    EntrypointSchema
  >((p) => {
    const q = new URLSearchParams({ entrypoint: p.entrypoint, fill_type: p.fillType });
    if (p.hash) q.set('hash', p.hash);
    if (p.counter !== undefined) q.set('counter', String(p.counter));
    return `${contract(p)}/entrypoints/schema?${q.toString()}`;
  }),
  /** On-chain views with their forms. */
  views: resource<At, ViewSchema[] | null>((p) => `${contract(p)}/views/schema`),
  events: resource<At & Page, Event[] | null>((p) => `${contract(p)}/events?${offsetFirst(p)}`),
  /** Global constants the contract's code uses. */
  contractConstants: resource<At & Page, GlobalConstant[] | null>(
    (p) => `${contract(p)}/global_constants?${offsetFirst(p)}`,
  ),
  migrations: resource<At, Migration[] | null>((p) => `${contract(p)}/migrations`),
  /** The permission and upgrade-risk summary, computed from the code and storage (issue 37). */
  security: resource<At, SecuritySummary>((p) => `${contract(p)}/security`),
};
