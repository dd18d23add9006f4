/**
 * Share links (issue 20, capability 6): a simulation's whole input (`SharedSimulation`: entrypoint, form,
 * settings, what-if overrides and bundle, the result shown and the debugger's position) as a URL. The state is
 * JSON compressed with lz-string into the fragment (`#s=…`), so it never reaches a server; a fragment longer
 * than LINK_FRAGMENT_MAX is stored by POST /v1/shares and the link carries its id (`#share=…`).
 *
 * A state is a call of the Interact tab, a view of the Views tab or the deploy page (SharedSimulation's kinds).
 *
 * A link is untrusted: its fragment is capped before it is decompressed, the JSON after, and the state is
 * checked against the API's own schema (share-schema.ts). A bad link is an error message, never a partial
 * state; opening one only runs the simulation it names.
 */
import { useState } from 'react';
import LZString from 'lz-string';
import type {
  SharedCall,
  SharedDebugPosition,
  SharedDeploy,
  SharedSimulation,
  SharedView,
} from '@michelscope/api-types';
import { inputExcess } from '@michelscope/michelson';
import type { WhatIfState } from './whatif-state';
import { SHARE_MAX_BYTES, ShareError, shareChecks } from './share-schema';

/** Above this many characters a fragment makes the link long: the state is stored and the link gets its id. */
export const LINK_FRAGMENT_MAX = 2000;
/** The longest fragment read from a link (a stored state's fragment is short; anything longer is refused). */
export const FRAGMENT_READ_MAX = 8 * LINK_FRAGMENT_MAX;
/** The API's bound on a state's JSON (api-types SHARE_MAX_BYTES, read from its schema), in bytes. */
export const STATE_JSON_MAX = SHARE_MAX_BYTES;
/** Form data deeper than this is refused (the form's recursion stays shallow). */
const DATA_DEPTH_MAX = 64;

/** A call of the Interact tab. */
export type ShareState = SharedCall;
/** Any shared state: a call, a view, the deploy page. */
export type AnyShare = SharedSimulation;
export type { SharedView, SharedDeploy };
export type DebugPosition = SharedDebugPosition;
// the what-if part of a link is the Interact tab's WhatIfState: the two must stay the same shape
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<ShareState['what_if'], WhatIfState> = true;
void sameShape;

/** What a link's fragment holds: a state, a stored state's id, or why it cannot be read. */
export type Opened<S = ShareState> = { state: S } | { id: string } | { error: string };

export const encodeState = (s: AnyShare): string => LZString.compressToEncodedURIComponent(JSON.stringify(s));

/** The fragment of a state, without its `#`. */
export const stateFragment = (s: AnyShare): string => `s=${encodeState(s)}`;

/**
 * The page of a state with a fragment: a call's contract Interact tab at its entrypoint, a view's Views tab at
 * the view, the deploy page.
 */
export function sharePath(s: AnyShare, fragment: string): string {
  if ('kind' in s && s.kind === 'deploy') return `/deploy#${fragment}`;
  const base = `/${encodeURIComponent(s.network)}/${encodeURIComponent(s.address)}`;
  if (!('kind' in s)) return `${base}/interact/${encodeURIComponent(s.entrypoint)}#${fragment}`;
  const offChain = s.view.kind === 'off-chain' ? '?kind=off-chain' : '';
  return `${base}/views/${encodeURIComponent(s.view.name)}${offChain}#${fragment}`;
}

/**
 * The link of a state: its compressed fragment, or (when longer than LINK_FRAGMENT_MAX) the id `store` gives
 * for it. `origin` is the page's (`location.origin`).
 */
export async function shareLink<S extends AnyShare>(
  s: S,
  origin: string,
  store: (s: S) => Promise<{ id: string }>,
): Promise<string> {
  const fragment = stateFragment(s);
  if (fragment.length <= LINK_FRAGMENT_MAX) return `${origin}${sharePath(s, fragment)}`;
  const { id } = await store(s);
  return `${origin}${sharePath(s, `share=${id}`)}`;
}

/**
 * Reads a page's fragment (`location.hash`) for a state of the kind the page opens (a call by default): null
 * when it carries no share.
 */
export function readFragment(hash: string): Opened | null;
export function readFragment<K extends ShareKind>(hash: string, kind: K): Opened<Of<K>> | null;
export function readFragment(hash: string, kind: ShareKind = 'call'): Opened<AnyShare> | null {
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
  if (json.length > STATE_JSON_MAX || new TextEncoder().encode(json).length > STATE_JSON_MAX)
    return { error: 'the simulation in the link is too large' };
  try {
    return { state: parseShare(JSON.parse(json) as unknown, kind) };
  } catch (e) {
    return { error: e instanceof SyntaxError ? 'the link is damaged (not JSON)' : (e as Error).message };
  }
}

/** The kind of a state: a call has no `kind` field (the first links had none). */
export type ShareKind = 'call' | 'view' | 'deploy';
type Of<K extends ShareKind> = K extends 'call' ? SharedCall : K extends 'view' ? SharedView : SharedDeploy;
const KIND_NAMES: Record<ShareKind, string> = { call: 'a call', view: 'a view', deploy: 'the deploy page' };

/** The form data of a state (checked for depth: the schema leaves their values open). */
function forms(s: AnyShare): [unknown, string][] {
  if (!('kind' in s))
    return [
      [s.data, 'data'],
      [s.what_if.overrides.storageForm, 'overrides.storageForm'],
      ...s.what_if.bundle.map((c, i): [unknown, string] => [c.data, `bundle[${i}].data`]),
    ];
  if (s.kind === 'view') return [[s.data, 'data']];
  return [[s.storage, 'storage'], ...(s.call ? [[s.call.data, 'call.data'] as [unknown, string]] : [])];
}

/**
 * A state checked against the API's SharedSimulation schema (its JSON, compiled once: share-schema.ts) and
 * its form data for depth; throws with the first fault. `kind` is the kind the page opens.
 */
export function parseShare<K extends ShareKind>(v: unknown, kind: K): Of<K> {
  if (!isObject(v)) throw new ShareError('the simulation is not an object');
  if (v.v !== 1) throw new ShareError('the link was made by another version of Michelscope');
  const found: unknown = v.kind ?? 'call';
  if (found !== 'call' && found !== 'view' && found !== 'deploy')
    throw new ShareError('kind must be one of view, deploy');
  if (found !== kind) throw new ShareError(`it is a link to ${KIND_NAMES[found]}, not ${KIND_NAMES[kind]}`);
  shareChecks[kind](v, '');
  const s = v as unknown as Of<K>;
  for (const [data, at] of forms(s)) {
    const excess = inputExcess(data, DATA_DEPTH_MAX);
    if (excess) throw new ShareError(`${at}: ${excess}`);
  }
  return s;
}

/** A call's state (the Interact tab's). */
export const parseState = (v: unknown): ShareState => parseShare(v, 'call');

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

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
