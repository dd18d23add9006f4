/**
 * A contract's TZIP-16 `errors`, read from its metadata for a recording: the worker gives a failed call's
 * FAILWITH value its meaning with them (error-meaning.ts).
 */
import { toMicheline } from '@michelscope/michelson';
import type { ApiContext } from '../context';
import { contractMetadataOf } from '../services/tokens';
import { storageViewOf } from '../services/views';
import type { MetadataError } from './error-meaning';

/**
 * The contract's TZIP-16 `errors`: the static ones, and those computed by an off-chain view (the view's
 * michelsonStorageView resolved from the metadata's `views`; run by the worker when the call fails).
 */
export async function metadataErrors(
  ctx: ApiContext,
  network: string,
  address: string,
): Promise<MetadataError[]> {
  const metadata = (await contractMetadataOf(ctx, network, address).catch(() => null)) as {
    errors?: unknown;
    views?: unknown;
  } | null;
  const views = Array.isArray(metadata?.views) ? (metadata.views as unknown[]) : [];
  const storageView = (name: unknown): MetadataError['storageView'] => {
    const view = views.find((v) => (v as { name?: unknown } | null)?.name === name) as
      { implementations?: unknown } | undefined;
    const impls = Array.isArray(view?.implementations) ? (view.implementations as unknown[]) : [];
    for (const impl of impls) {
      const msv = storageViewOf(impl);
      if (msv?.code === undefined || msv.returnType === undefined) continue;
      try {
        return {
          ...(msv.parameter !== undefined ? { parameter: toMicheline(msv.parameter) } : {}),
          returnType: toMicheline(msv.returnType),
          code: toMicheline(msv.code),
        };
      } catch {
        continue;
      }
    }
    return undefined;
  };
  return (Array.isArray(metadata?.errors) ? metadata.errors : [])
    .slice(0, 1000)
    .flatMap((e): MetadataError[] => {
      if (!e || typeof e !== 'object') return [];
      if ('error' in e && 'expansion' in e) return [e as MetadataError];
      const view = (e as { view?: unknown }).view;
      if (typeof view !== 'string') return [];
      const sv = storageView(view);
      return sv ? [{ view, storageView: sv, languages: (e as { languages?: unknown }).languages }] : [];
    });
}
