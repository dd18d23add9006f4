/**
 * Share links (issue 20, capability 6): a simulation's whole input (`SharedSimulation`: entrypoint, form,
 * settings, what-if overrides and bundle, the result shown and the debugger's position) as a URL. The state is
 * JSON compressed with lz-string into the fragment (`#s=…`), so it never reaches a server; a fragment longer
 * than LINK_FRAGMENT_MAX is stored by POST /v1/shares and the link carries its id (`#share=…`).
 *
 * A link is untrusted: its fragment is capped before it is decompressed, the JSON after, and the state is
 * checked field by field (the API's SharedSimulation schema, restated here: the web imports api-types as types
 * only). A bad link is an error message, never a partial state; opening one only runs the simulation it names.
 */
import { useState } from 'react';
import LZString from 'lz-string';
import type { SharedDebugPosition, SharedSimulation } from '@michelscope/api-types';
import { inputExcess } from '@michelscope/michelson';
import type { WhatIfState } from './whatif-state';

/** Above this many characters a fragment makes the link long: the state is stored and the link gets its id. */
export const LINK_FRAGMENT_MAX = 2000;
/** The longest fragment read from a link (a stored state's fragment is short; anything longer is refused). */
export const FRAGMENT_READ_MAX = 8 * LINK_FRAGMENT_MAX;
/** The API's bound on a state's JSON (api-types SHARE_MAX_BYTES), in characters. */
export const STATE_JSON_MAX = 65_536;
/** Form data deeper than this is refused (the form's recursion stays shallow). */
const DATA_DEPTH_MAX = 64;

export type ShareState = SharedSimulation;
export type DebugPosition = SharedDebugPosition;
// the what-if part of a link is the Interact tab's WhatIfState: the two must stay the same shape
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<ShareState['what_if'], WhatIfState> = true;
void sameShape;

/** What a link's fragment holds: a state, a stored state's id, or why it cannot be read. */
export type Opened = { state: ShareState } | { id: string } | { error: string };

export const encodeState = (s: ShareState): string =>
  LZString.compressToEncodedURIComponent(JSON.stringify(s));

/** The fragment of a state, without its `#`. */
export const stateFragment = (s: ShareState): string => `s=${encodeState(s)}`;

/** The page of a state (its contract's Interact tab at its entrypoint) with a fragment. */
export const sharePath = (s: ShareState, fragment: string): string =>
  `/${encodeURIComponent(s.network)}/${encodeURIComponent(s.address)}/interact/${encodeURIComponent(s.entrypoint)}#${fragment}`;

/**
 * The link of a state: its compressed fragment, or (when longer than LINK_FRAGMENT_MAX) the id `store` gives
 * for it. `origin` is the page's (`location.origin`).
 */
export async function shareLink(
  s: ShareState,
  origin: string,
  store: (s: ShareState) => Promise<{ id: string }>,
): Promise<string> {
  const fragment = stateFragment(s);
  if (fragment.length <= LINK_FRAGMENT_MAX) return `${origin}${sharePath(s, fragment)}`;
  const { id } = await store(s);
  return `${origin}${sharePath(s, `share=${id}`)}`;
}

/** Reads a page's fragment (`location.hash`): null when it carries no share. */
export function readFragment(hash: string): Opened | null {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  if (h.startsWith('share=')) {
    const id = h.slice('share='.length);
    return /^[A-Za-z0-9_-]{22}$/.test(id) ? { id } : { error: 'the stored simulation id is not valid' };
  }
  if (!h.startsWith('s=')) return null;
  if (h.length > FRAGMENT_READ_MAX)
    return { error: `the link is longer than ${FRAGMENT_READ_MAX} characters` };
  let json: string | null;
  try {
    json = LZString.decompressFromEncodedURIComponent(h.slice(2));
  } catch {
    json = null;
  }
  if (!json) return { error: 'the link is damaged (it does not decompress)' };
  if (json.length > STATE_JSON_MAX) return { error: 'the simulation in the link is too large' };
  try {
    return { state: parseState(JSON.parse(json) as unknown) };
  } catch (e) {
    return { error: e instanceof SyntaxError ? 'the link is damaged (not JSON)' : (e as Error).message };
  }
}

class Bad extends Error {}
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function object(v: unknown, at: string, keys: readonly string[], optional: readonly string[] = []) {
  if (!isObject(v)) throw new Bad(`${at} is not an object`);
  for (const k of Object.keys(v))
    if (!keys.includes(k) && !optional.includes(k))
      throw new Bad(`${at} has an unknown field '${k.slice(0, 40)}'`);
  for (const k of keys) if (!(k in v)) throw new Bad(`${at}.${k} is missing`);
  return v;
}
function text(v: unknown, at: string, max: number, pattern?: RegExp): string {
  if (typeof v !== 'string') throw new Bad(`${at} is not a string`);
  if (v.length > max) throw new Bad(`${at} is longer than ${max} characters`);
  if (pattern && !pattern.test(v)) throw new Bad(`${at} is not valid`);
  return v;
}
function oneOf<T extends string>(v: unknown, at: string, values: readonly T[]): T {
  if (!values.includes(v as T)) throw new Bad(`${at} must be one of ${values.join(', ')}`);
  return v as T;
}
function int(v: unknown, at: string, max: number): number {
  if (!Number.isSafeInteger(v) || (v as number) < 0 || (v as number) > max)
    throw new Bad(`${at} must be a whole number from 0 to ${max}`);
  return v as number;
}
function formData(v: unknown, at: string): Record<string, unknown> {
  if (!isObject(v)) throw new Bad(`${at} is not an object`);
  const excess = inputExcess(v, DATA_DEPTH_MAX);
  if (excess) throw new Bad(`${at}: ${excess}`);
  return v;
}
function array<T>(v: unknown, at: string, max: number, item: (x: unknown, at: string) => T): T[] {
  if (!Array.isArray(v)) throw new Bad(`${at} is not a list`);
  if (v.length > max) throw new Bad(`${at} has more than ${max} items`);
  return v.map((x, i) => item(x, `${at}[${i}]`));
}

const CALL = ['entrypoint', 'data', 'amount', 'source', 'sender'] as const;
const OVERRIDES = [
  'storageMode',
  'storageText',
  'storageForm',
  'balance',
  'now',
  'level',
  'source',
  'sender',
  'amount',
  'chainId',
  'bigMaps',
] as const;

/** A state checked field by field against the API's SharedSimulation schema; throws with the first fault. */
export function parseState(v: unknown): ShareState {
  const s = object(
    v,
    'the simulation',
    ['v', 'network', 'address', 'entrypoint', 'data', 'settings', 'what_if', 'show'],
    ['debug'],
  );
  if (s.v !== 1) throw new Bad('the link was made by another version of Michelscope');
  const settings = object(s.settings, 'settings', ['source', 'sender', 'amount']);
  const w = object(s.what_if, 'what_if', ['overrides', 'bundle']);
  const o = object(w.overrides, 'overrides', OVERRIDES, ['storageLimit']);
  const d = s.debug === undefined ? undefined : object(s.debug, 'debug', ['call', 'step', 'tab']);
  return {
    v: 1,
    network: text(s.network, 'network', 32, /^[a-z][a-z0-9_-]{0,31}$/),
    address: text(s.address, 'address', 36, /^KT1[1-9A-HJ-NP-Za-km-z]{33}$/),
    entrypoint: text(s.entrypoint, 'entrypoint', 255),
    data: formData(s.data, 'data'),
    settings: {
      source: text(settings.source, 'settings.source', 64),
      sender: text(settings.sender, 'settings.sender', 64),
      amount: text(settings.amount, 'settings.amount', 20),
    },
    what_if: {
      overrides: {
        storageMode: oneOf(o.storageMode, 'overrides.storageMode', ['none', 'form', 'micheline'] as const),
        storageText: text(o.storageText, 'overrides.storageText', STATE_JSON_MAX),
        storageForm: formData(o.storageForm, 'overrides.storageForm'),
        balance: text(o.balance, 'overrides.balance', 20),
        now: text(o.now, 'overrides.now', 40),
        level: text(o.level, 'overrides.level', 12),
        source: text(o.source, 'overrides.source', 64),
        sender: text(o.sender, 'overrides.sender', 64),
        amount: text(o.amount, 'overrides.amount', 20),
        chainId: text(o.chainId, 'overrides.chainId', 64),
        ...(o.storageLimit !== undefined
          ? { storageLimit: text(o.storageLimit, 'overrides.storageLimit', 12) }
          : {}),
        bigMaps: array(o.bigMaps, 'overrides.bigMaps', 100, (x, at) => {
          const e = object(x, at, ['map', 'key', 'value', 'remove']);
          if (typeof e.remove !== 'boolean') throw new Bad(`${at}.remove is not true or false`);
          return {
            map: text(e.map, `${at}.map`, 255),
            key: text(e.key, `${at}.key`, 16_384),
            value: text(e.value, `${at}.value`, 32_768),
            remove: e.remove,
          };
        }),
      },
      bundle: array(w.bundle, 'bundle', 5, (x, at) => {
        const c = object(x, at, CALL);
        return {
          entrypoint: text(c.entrypoint, `${at}.entrypoint`, 255),
          data: formData(c.data, `${at}.data`),
          amount: text(c.amount, `${at}.amount`, 20),
          source: text(c.source, `${at}.source`, 64),
          sender: text(c.sender, `${at}.sender`, 64),
        };
      }),
    },
    show: oneOf(s.show, 'show', ['simulation', 'whatif'] as const),
    ...(d
      ? {
          debug: {
            call: int(d.call, 'debug.call', 4),
            step: int(d.step, 'debug.step', 100_000_000),
            tab: oneOf(d.tab, 'debug.tab', ['step', 'profile'] as const),
          },
        }
      : {}),
  };
}

/**
 * A share link's debugger position while it is still to be used: the debugger opens there once; after the
 * user closes it, 'Debug' opens at the start like any other run (`spend`). A new link's position is live again.
 */
export function useLinkPosition(at: DebugPosition | undefined): {
  at: DebugPosition | undefined;
  spend: () => void;
} {
  const [spent, setSpent] = useState<DebugPosition | undefined>(undefined);
  return { at: at !== spent ? at : undefined, spend: () => setSpent(at) };
}
