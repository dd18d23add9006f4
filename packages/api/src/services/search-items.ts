/**
 * The search's items (discovery spec §7): a search document, an operation or a big-map key as the `SearchItem`
 * the reference client reads, with the highlight of what matched.
 */
import type { AccountSearchBody, SearchItem } from '@michelscope/api-types';
import type { KeyHit, OperationHit, SearchDocHit } from '@michelscope/db/read';
import type { Micheline } from '@michelscope/michelson';
import { formatTime } from '../time';
import { EXPR_RE } from '../validate';
import { highlights } from './search-highlight';

/** A search hit for an operation (its group's hash and counter), found by its hash or its entrypoint. */
export function operationItem(
  o: OperationHit,
  highlight: boolean,
  foundBy: 'Hash' | 'Entrypoint',
): SearchItem {
  return {
    type: 'operation',
    value: o.hash,
    body: {
      Network: o.network,
      Hash: o.hash,
      Counter: o.counter,
      Level: o.level,
      '@timestamp': formatTime(o.timestamp),
      Status: o.status,
      Entrypoint: o.entrypoint ?? '',
      Destination: o.destination ?? '',
      Type: o.kind,
      mempool: false,
      // an account's operation search (the operations tab's filters): the group's figures the list shows
      ...(o.total_cost === undefined
        ? {}
        : { TotalCost: o.total_cost, Flow: o.flow ?? 0, Internals: o.internals ?? 0 }),
    },
    ...(highlight
      ? {
          highlights:
            foundBy === 'Entrypoint'
              ? { Entrypoint: highlights(o.entrypoint ?? '', o.entrypoint ?? '') }
              : { Hash: [`<em>${o.hash}</em>`] },
        }
      : {}),
    found_by: foundBy,
  };
}

/** A big-map key's item, found by its hash or its readable text. */
export function keyItem(
  k: KeyHit,
  query: string,
  highlight: boolean,
  foundBy: 'KeyHash' | 'Key' = EXPR_RE.test(query) ? 'KeyHash' : 'Key',
): SearchItem {
  return {
    type: 'bigmapkey',
    value: k.key_hash,
    body: {
      Network: k.network,
      BigMapID: k.ptr,
      KeyHash: k.key_hash,
      Key: k.key as Micheline,
      // the readable key: filled by withKeyNames from the big map's key type
      Name: '',
      Address: k.contract,
      IsActive: !k.removed,
      '@timestamp': formatTime(k.last_update_time),
    },
    ...(highlight ? { highlights: { KeyHash: [`<em>${k.key_hash}</em>`] } } : {}),
    ...(query ? { found_by: foundBy } : {}),
  };
}

/** A search document's item: a token, or an account (contract, smart rollup, global constant). */
export function docItem(d: SearchDocHit, query: string, highlight: boolean): SearchItem {
  const [address = d.key, tokenId] = d.kind === 'token' ? d.key.split(':') : [d.key];
  const foundBy = d.matched === 'key' ? 'Address' : d.matched === 'title' ? 'Name' : 'Body';
  const highlighted = (): Pick<SearchItem, 'highlights'> => {
    if (!highlight) return {};
    const text = d.matched === 'key' ? address : d.matched === 'title' ? d.title : d.body;
    return { highlights: { [foundBy]: highlights(text, query) } };
  };
  if (d.kind === 'token') {
    const body = { Network: d.network, Address: address, TokenID: tokenId ?? '0', Name: d.title };
    return { type: 'token', value: address, body, found_by: foundBy, ...highlighted() };
  }
  const body: AccountSearchBody = { Network: d.network, Address: address };
  if (d.kind === 'contract' || d.kind === 'contract_metadata') body.IsContract = true;
  if (d.kind === 'smart_rollup') body.IsContract = false;
  if (d.kind === 'global_constant') body.Hash = d.key;
  return { type: 'account', value: address, body, found_by: foundBy, ...highlighted() };
}
