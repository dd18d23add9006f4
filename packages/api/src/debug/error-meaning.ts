/**
 * What a failed call's FAILWITH value means, by the contract's TZIP-16 metadata `errors`: a static entry's
 * expansion, or the text an off-chain view the entry names returns for the value (run bounded in gas and time).
 * The recorder (record.ts) gives a failure its `meaning` with them; the API reads the entries
 * (metadata-errors.ts).
 */
import { runContract, type ChainContext } from '@michelscope/interpreter';
import type { Micheline } from '@michelscope/michelson';
import { canonical } from './canonical';
import { storageViewResult, storageViewScript } from './storage-view';

/**
 * A TZIP-16 `errors` entry: static (a FAILWITH value and its expansion, both Micheline), or computed by an
 * off-chain view of the metadata (`view`), whose michelsonStorageView the API resolved (`storageView`).
 */
export interface MetadataError {
  error?: unknown;
  expansion?: unknown;
  languages?: unknown;
  view?: string;
  storageView?: { parameter?: Micheline; returnType: Micheline; code: Micheline };
}

/** Bounds of the error views run for one failure: how many, the gas and the wall-clock time of each. */
export const ERROR_VIEW_LIMITS = { views: 3, milligas: 200_000_000, ms: 1_000 };

/** An expansion as text (a string, UTF-8 bytes, else its JSON), at most 2,000 characters. */
function expansionText(x: unknown): string {
  const e = x as { string?: unknown; bytes?: unknown } | undefined;
  let text: string;
  if (typeof e?.string === 'string') text = e.string;
  else if (typeof e?.bytes === 'string' && /^([0-9a-f]{2})*$/i.test(e.bytes))
    text = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.from(e.bytes, 'hex'));
  else text = JSON.stringify(x);
  return text.slice(0, 2000);
}

const languagesOf = (entry: MetadataError) => {
  const languages = Array.isArray(entry.languages)
    ? entry.languages.filter((l): l is string => typeof l === 'string')
    : undefined;
  return languages?.length ? { languages } : {};
};

/** The expansion of the static `errors` entry of `value`, as text (a string, or UTF-8 bytes). */
export function errorMeaning(
  errors: readonly MetadataError[],
  value: Micheline,
): { text: string; languages?: string[] } | undefined {
  const key = canonical(value);
  const hit = errors.find((e) => e.error !== undefined && canonical(e.error) === key);
  if (!hit || hit.expansion === undefined) return undefined;
  return { text: expansionText(hit.expansion), ...languagesOf(hit) };
}

/** What an error view runs with, of the failed call (a DebugCall): its script, storage, self, time and chain. */
export interface ErrorViewCall {
  script: Micheline[];
  storage: Micheline;
  self: string;
  now: string;
  level: string;
  chainId: string;
}

/**
 * The meaning of `value` computed by the `errors` entries that name an off-chain view: each view (at most
 * {@link ERROR_VIEW_LIMITS}.views) runs with the value as its input and the contract's storage, bounded in gas
 * and time; the first that returns a string or bytes gives the meaning. A view that fails, or whose input type
 * does not take the value, gives none.
 */
export function viewErrorMeaning(
  errors: readonly MetadataError[],
  value: Micheline,
  call: ErrorViewCall,
  chain: ChainContext,
  limits = ERROR_VIEW_LIMITS,
): { text: string; languages?: string[]; view: string } | undefined {
  const storageType = (
    call.script.find((s) => !Array.isArray(s) && 'prim' in s && s.prim === 'storage') as
      { args?: Micheline[] } | undefined
  )?.args?.[0];
  if (!storageType) return undefined;
  for (const entry of errors.filter((e) => e.view && e.storageView).slice(0, limits.views)) {
    const v = entry.storageView!;
    const until = Date.now() + limits.ms;
    let steps = 0;
    const run = runContract({
      script: storageViewScript(v.parameter, storageType, v.returnType, v.code),
      storage: { prim: 'None' },
      parameter: v.parameter ? { prim: 'Pair', args: [value, call.storage] } : call.storage,
      entrypoint: 'default',
      amount: 0n,
      balance: 0n,
      self: call.self,
      now: BigInt(call.now),
      level: BigInt(call.level),
      chainId: call.chainId,
      gasLimit: limits.milligas,
      chain,
      // the wall-clock bound: a step past it stops the run (a failed run: no meaning)
      onStep: () => {
        if (++steps % 1024 === 0 && Date.now() > until) throw new Error('error view: time limit');
      },
    });
    const out = run.ok ? storageViewResult(run.storage) : undefined;
    const x = out as { string?: unknown; bytes?: unknown } | undefined;
    if (typeof x?.string === 'string' || typeof x?.bytes === 'string')
      return { text: expansionText(out), ...languagesOf(entry), view: entry.view! };
  }
  return undefined;
}
