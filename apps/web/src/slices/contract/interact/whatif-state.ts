/**
 * The what-if state of the Interact tab (issue 20, capability 5): the overrides and the bundle of calls, in
 * one plain, JSON-serialisable object (`WhatIfState`) — what a share link carries. This module is its only
 * definition: checks of each field (the messages shown under the inputs) and the API request built from it.
 */
import type { WhatIfCall, WhatIfRequest } from '@michelscope/api-types';
import {
  formToMicheline,
  isAddressLiteral,
  isChainIdValue,
  parseMichelsonExpression,
  type Micheline,
} from '@michelscope/michelson';

/** Most calls in a bundle (the API's bound). */
export const MAX_BUNDLE = 5;

/** One call of the bundle: an entrypoint of this contract with its form and settings. */
export interface BundleCall {
  entrypoint: string;
  /** the entrypoint form's data (as the form holds it) */
  data: Record<string, unknown>;
  /** mutez, digits ('' for none) */
  amount: string;
  source: string;
  sender: string;
}

/** An overridden big-map entry: the map (its id or field name), key and value as Michelson or Micheline JSON. */
export interface BigMapOverride {
  map: string;
  key: string;
  /** ignored when `remove` */
  value: string;
  remove: boolean;
}

export interface WhatIfOverrides {
  /** the storage as typed in the form ('form') or as Michelson / Micheline JSON text ('micheline'); 'none' keeps the head's */
  storageMode: 'none' | 'form' | 'micheline';
  storageText: string;
  storageForm: Record<string, unknown>;
  /** mutez */
  balance: string;
  /** ISO 8601 time or seconds */
  now: string;
  level: string;
  source: string;
  sender: string;
  /** mutez */
  amount: string;
  chainId: string;
  bigMaps: BigMapOverride[];
  /** bytes of paid storage each call may use ('' or absent: not checked; older links have none) */
  storageLimit?: string;
}

/** The overrides and the bundle: serialisable as JSON (a share link puts it in the URL). */
export interface WhatIfState {
  overrides: WhatIfOverrides;
  bundle: BundleCall[];
}

export function emptyWhatIf(): WhatIfState {
  return {
    overrides: {
      storageMode: 'none',
      storageText: '',
      storageForm: {},
      balance: '',
      now: '',
      level: '',
      source: '',
      sender: '',
      amount: '',
      chainId: '',
      bigMaps: [],
      storageLimit: '',
    },
    bundle: [],
  };
}

/** Whether anything is overridden (then a simulation runs as a what-if). */
export function hasOverrides(o: WhatIfOverrides): boolean {
  return (
    o.storageMode !== 'none' ||
    [o.balance, o.now, o.level, o.source, o.sender, o.amount, o.chainId, o.storageLimit ?? ''].some(
      (v) => v.trim() !== '',
    ) ||
    o.bigMaps.length > 0
  );
}

/** Michelson expression text (`Pair 1 "a"`) or Micheline JSON (`{"int": "1"}`) → Micheline. */
export function parseValueText(text: string): Micheline {
  const t = text.trim();
  if (t === '') throw new Error('enter a value');
  if (t.startsWith('{"') || t.startsWith('[')) return JSON.parse(t) as Micheline;
  return parseMichelsonExpression(t);
}

const MUTEZ = /^\d{1,19}$/;
type Field = keyof Omit<WhatIfOverrides, 'storageMode' | 'storageText' | 'storageForm' | 'bigMaps'>;

/** The message under an override input, or null when it is fine (empty is fine: not overridden). */
export function fieldError(
  field: Field | 'storage' | `bigMaps.${number}`,
  o: WhatIfOverrides,
): string | null {
  const v = (s: string) => s.trim();
  switch (field) {
    case 'balance':
    case 'amount':
      return v(o[field]) === '' || MUTEZ.test(v(o[field])) ? null : 'Mutez: a whole number of mutez';
    case 'now': {
      const t = v(o.now);
      if (t === '' || /^\d{1,12}$/.test(t)) return null;
      return /^\d{4}-\d{2}-\d{2}T/.test(t) && Number.isFinite(Date.parse(t))
        ? null
        : 'A time such as 2030-01-31T12:00:00Z, or seconds since 1970';
    }
    case 'level':
      return v(o.level) === '' || (/^\d{1,10}$/.test(v(o.level)) && Number(v(o.level)) <= 2147483647)
        ? null
        : 'A block level (a whole number)';
    case 'source':
      return v(o.source) === '' || (isAddressLiteral(v(o.source)) && /^tz[1-4]/.test(v(o.source)))
        ? null
        : 'An implicit account (tz1…, tz2…, tz3…, tz4…)';
    case 'sender':
      return v(o.sender) === '' || isAddressLiteral(v(o.sender)) ? null : 'An address (tz… or KT1…)';
    case 'storageLimit': {
      const t = v(o.storageLimit ?? '');
      return t === '' || /^\d{1,9}$/.test(t) ? null : 'Bytes: a whole number';
    }
    case 'chainId':
      return v(o.chainId) === '' || (v(o.chainId).startsWith('Net') && isChainIdValue(v(o.chainId)))
        ? null
        : 'A chain id (Net…)';
    case 'storage':
      if (o.storageMode !== 'micheline') return null;
      try {
        parseValueText(o.storageText);
        return null;
      } catch (e) {
        return `Storage: ${e instanceof Error ? e.message : String(e)}`;
      }
    default: {
      const e = o.bigMaps[Number(field.slice('bigMaps.'.length))];
      if (!e) return null;
      if (e.map.trim() === '') return 'Choose the big map';
      try {
        parseValueText(e.key);
      } catch (x) {
        return `Key: ${x instanceof Error ? x.message : String(x)}`;
      }
      if (e.remove) return null;
      try {
        parseValueText(e.value);
      } catch (x) {
        return `Value: ${x instanceof Error ? x.message : String(x)}`;
      }
      return null;
    }
  }
}

const FIELDS: Field[] = ['balance', 'now', 'level', 'source', 'sender', 'amount', 'chainId', 'storageLimit'];

/** Every message of the overrides form, or [] when the overrides can be sent. */
export function overridesErrors(o: WhatIfOverrides): string[] {
  return [
    ...FIELDS.map((f) => fieldError(f, o)),
    fieldError('storage', o),
    ...o.bigMaps.map((_, i) => fieldError(`bigMaps.${i}`, o)),
  ].filter((m): m is string => m !== null);
}

function call(c: BundleCall, storageLimit: string): WhatIfCall {
  return {
    name: c.entrypoint,
    data: c.data,
    ...(c.amount.trim() ? { amount: c.amount.trim() } : {}),
    ...(c.source.trim() ? { source: c.source.trim() } : {}),
    ...(c.sender.trim() ? { sender: c.sender.trim() } : {}),
    ...(storageLimit ? { storage_limit: Number(storageLimit) } : {}),
  };
}

type Prim = { prim: string; args?: Micheline[] };
const prim = (m: Micheline | undefined): Prim | undefined =>
  m !== undefined && !Array.isArray(m) && 'prim' in m ? m : undefined;

/** A pair's two sides, a right comb (`Pair a b c`, `{a; b; c}`) read as `Pair a (Pair b c)`. */
function sides(v: Micheline | undefined): [Micheline, Micheline] | undefined {
  const items = Array.isArray(v) ? v : prim(v)?.prim === 'Pair' ? prim(v)!.args : undefined;
  if (!items || items.length < 2) return undefined;
  return [items[0]!, items.length === 2 ? items[1]! : { prim: 'Pair', args: items.slice(1) }];
}

/**
 * The storage form shows a big map empty (its keys are not loaded): a big map left empty gets the current
 * storage's back (its id), found through the pairs of the storage type.
 */
export function keepBigMaps(type: Micheline, value: Micheline, current: Micheline | undefined): Micheline {
  const t = prim(type);
  if (!t || current === undefined) return value;
  // an empty big map in the form keeps the contract's; entries typed there make a new one
  if (t.prim === 'big_map') return Array.isArray(value) && value.length === 0 ? current : value;
  if (t.prim !== 'pair' || !t.args || t.args.length < 2) return value;
  const [tl, tr] = [t.args[0]!, t.args.length === 2 ? t.args[1]! : { prim: 'pair', args: t.args.slice(1) }];
  const v = sides(value);
  const c = sides(current);
  if (!v || !c) return value;
  return { prim: 'Pair', args: [keepBigMaps(tl, v[0], c[0]), keepBigMaps(tr, v[1], c[1])] };
}

/**
 * The API request of a what-if: the bundle's calls (or, with an empty bundle, `current`), and the overrides.
 * Throws with the first message when a field is not valid. `storageType` is needed for a storage form.
 */
export function whatIfRequest(
  state: WhatIfState,
  current: BundleCall,
  storageType: Micheline | undefined,
  currentStorage?: Micheline,
): WhatIfRequest {
  const o = state.overrides;
  const bad = overridesErrors(o);
  if (bad.length > 0) throw new Error(bad[0]);
  const t = (s: string) => s.trim();
  const overrides: NonNullable<WhatIfRequest['overrides']> = {};
  if (o.storageMode === 'micheline') overrides.storage = parseValueText(o.storageText);
  if (o.storageMode === 'form') {
    if (!storageType) throw new Error('The storage type is not loaded yet');
    overrides.storage = keepBigMaps(storageType, formToMicheline(storageType, o.storageForm), currentStorage);
  }
  if (t(o.balance)) overrides.balance = t(o.balance);
  if (t(o.now)) overrides.now = t(o.now);
  if (t(o.level)) overrides.level = Number(t(o.level));
  if (t(o.source)) overrides.source = t(o.source);
  if (t(o.sender)) overrides.sender = t(o.sender);
  if (t(o.amount)) overrides.amount = t(o.amount);
  if (t(o.chainId)) overrides.chain_id = t(o.chainId);
  if (o.bigMaps.length > 0)
    overrides.big_maps = o.bigMaps.map((e) => ({
      ...(/^\d+$/.test(t(e.map)) ? { ptr: Number(t(e.map)) } : { path: t(e.map) }),
      key: parseValueText(e.key),
      value: e.remove ? null : parseValueText(e.value),
    }));
  const limit = t(o.storageLimit ?? '');
  const calls = (state.bundle.length > 0 ? state.bundle : [current]).map((c) => call(c, limit));
  return { calls, ...(Object.keys(overrides).length > 0 ? { overrides } : {}) };
}

/** Moves bundle call `i` by `delta` places (−1 up, +1 down); out of range: unchanged. */
export function moveCall(bundle: readonly BundleCall[], i: number, delta: number): BundleCall[] {
  const j = i + delta;
  if (i < 0 || j < 0 || i >= bundle.length || j >= bundle.length) return [...bundle];
  const next = [...bundle];
  [next[i], next[j]] = [next[j]!, next[i]!];
  return next;
}
