/**
 * One resolution attempt: TZIP-16 contract metadata from its link, TZIP-12 token metadata from the
 * token_metadata big map (or the contract's `token_metadata` off-chain view, which TZIP-12 says takes
 * precedence) plus the off-chain JSON its "" key points to. Throws MetadataError on failure.
 */
import { createHash } from 'node:crypto';
import type { Db } from '@michelscope/db';
import {
  bigMapPtrByName,
  bigMapValue,
  contractMetadataOf,
  queueTokens,
  type ContractMetadataJob,
  type ResolvedMetadata,
  type TokenMetadataJob,
} from '@michelscope/db/write';
import { bigMapKeyHash } from '@michelscope/michelson';
import { fetchLimited, type FetchLimits } from './fetch';
import { findStorageView, runStorageView, tokenInfoOfViewResult } from './offchain-view';
import { ipfsUrl, MetadataError, parseMetadataUri } from './uri';
import {
  contractSearchBody,
  decimalsField,
  parseMetadataJson,
  textField,
  tokenSearchBody,
  type JsonObject,
} from './validate';

export interface ResolveContext {
  db: Db;
  network: string;
  /** Node RPC base, for big-map values the database does not hold. */
  rpcUrl?: string;
  ipfsGateway: string;
  limits: FetchLimits;
  /** Limits for the node RPC and the configured gateway (operator-chosen, may be local). */
  trustedLimits: FetchLimits;
}

const MAX_NESTING = 3;

/** The bytes a metadata URI designates. `contract` is the one whose `metadata` big map `tezos-storage:<key>` reads. */
export async function loadUri(
  ctx: ResolveContext,
  contract: string,
  raw: string,
  depth = 0,
): Promise<Buffer> {
  if (depth > MAX_NESTING) throw new MetadataError('too many nested sha256:// URIs', true);
  const uri = parseMetadataUri(raw, { allowHttp: ctx.limits.allowHttp });
  switch (uri.kind) {
    case 'https':
      return fetchLimited(uri.url, ctx.limits);
    case 'ipfs':
      return fetchLimited(ipfsUrl(ctx.ipfsGateway, uri.cid, uri.path), ctx.trustedLimits);
    case 'sha256': {
      const body = await loadUri(ctx, contract, uri.inner, depth + 1);
      const actual = createHash('sha256').update(body).digest('hex');
      if (actual !== uri.hash)
        throw new MetadataError(`sha256 mismatch: expected ${uri.hash}, got ${actual}`, true);
      return body;
    }
    case 'tezos-storage':
      return storageValue(ctx, uri.contract ?? contract, uri.key);
  }
}

/** Value of key `key` in the `metadata` big map of `contract` (bytes), from the database or else the node. */
async function storageValue(ctx: ResolveContext, contract: string, key: string): Promise<Buffer> {
  const ptr = await bigMapPtrByName(ctx.db, ctx.network, contract, 'metadata');
  if (ptr === null) throw new MetadataError(`no metadata big map of ${contract} is indexed`, false);
  const keyHash = bigMapKeyHash({ string: key }, { prim: 'string' });
  let value: unknown = await bigMapValue(ctx.db, ctx.network, ptr, keyHash);
  if (value === undefined && ctx.rpcUrl) {
    const url = new URL(
      `${ctx.rpcUrl.replace(/\/+$/, '')}/chains/main/blocks/head/context/big_maps/${ptr}/${keyHash}`,
    );
    try {
      value = JSON.parse((await fetchLimited(url, ctx.trustedLimits)).toString('utf8')) as unknown;
    } catch (e) {
      if (!(e instanceof MetadataError && /HTTP 404/.test(e.message))) throw e;
    }
  }
  const bytes = value && typeof value === 'object' ? (value as { bytes?: unknown }).bytes : undefined;
  if (typeof bytes !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(bytes)) {
    throw new MetadataError(
      `key ${JSON.stringify(key.slice(0, 100))} not found as bytes in the metadata big map of ${contract}`,
      false,
    );
  }
  return Buffer.from(bytes, 'hex');
}

const MAX_ENUMERATED_TOKENS = 10_000;

/**
 * Tokens of a contract that has `token_metadata` and `all_tokens` off-chain views: queued from
 * `all_tokens` (TZIP-12), since they may have no token_metadata big map to be found from. Best effort:
 * a failing view leaves the contract's own resolution alone.
 */
async function enumerateTokens(
  ctx: ResolveContext,
  job: ContractMetadataJob,
  metadata: JsonObject,
): Promise<void> {
  const all = findStorageView(metadata, 'all_tokens');
  if (!all || !findStorageView(metadata, 'token_metadata')) return;
  try {
    const data = await runStorageView({ db: ctx.db, network: ctx.network, contract: job.address }, all, null);
    if (!Array.isArray(data)) return;
    const ids = data
      .map((x) => (x && typeof x === 'object' && 'int' in x ? String(x.int) : ''))
      .filter((x) => /^\d{1,78}$/.test(x))
      .slice(0, MAX_ENUMERATED_TOKENS);
    await queueTokens(ctx.db, ctx.network, job.address, job.level, ids);
  } catch {
    // the view cannot run here (storage not indexed, unsupported code): tokens come from the big map only
  }
}

export async function resolveContract(
  ctx: ResolveContext,
  job: ContractMetadataJob,
): Promise<ResolvedMetadata> {
  if (!job.link) throw new MetadataError('no metadata link', true);
  const metadata = parseMetadataJson(await loadUri(ctx, job.address, job.link));
  await enumerateTokens(ctx, job, metadata);
  const name = textField(metadata, 'name');
  return { metadata, name, searchTitle: name ?? '', searchBody: contractSearchBody(metadata) };
}

const textOfHex = (hex: string): string => Buffer.from(hex, 'hex').toString('utf8').replaceAll('\u0000', '');

export async function resolveToken(ctx: ResolveContext, job: TokenMetadataJob): Promise<ResolvedMetadata> {
  let info = job.tokenInfo;
  const contractMeta = await contractMetadataOf(ctx.db, ctx.network, job.contract);
  const view = contractMeta?.status === 3 ? findStorageView(contractMeta.metadata, 'token_metadata') : null;
  if (view) {
    if (!/^\d{1,78}$/.test(job.tokenId)) throw new MetadataError(`invalid token id ${job.tokenId}`, true);
    try {
      const data = await runStorageView({ db: ctx.db, network: ctx.network, contract: job.contract }, view, {
        int: job.tokenId,
      });
      info = tokenInfoOfViewResult(data);
    } catch (e) {
      // The big map is the fallback when the view cannot run here (e.g. storage not indexed yet).
      if (!info) throw e;
    }
  }
  if (!info) throw new MetadataError('no token_info for this token', true);
  const onChain: JsonObject = {};
  for (const [k, hex] of Object.entries(info))
    if (k !== '' && /^([0-9a-fA-F]{2})*$/.test(hex)) onChain[k] = onChainField(textOfHex(hex));
  const link = info[''] !== undefined ? textOfHex(info['']) : null;
  // On-chain fields override the off-chain JSON (they are what the contract itself states).
  const offChain = link ? parseMetadataJson(await loadUri(ctx, job.contract, link)) : {};
  const metadata: JsonObject = { ...offChain, ...onChain };
  if (typeof onChain.decimals === 'string' && /^\d+$/.test(onChain.decimals))
    metadata.decimals = Number(onChain.decimals);
  const name = textField(metadata, 'name');
  const symbol = textField(metadata, 'symbol', 64);
  return {
    metadata,
    name,
    symbol,
    decimals: decimalsField(metadata),
    searchTitle: name ?? symbol ?? '',
    searchBody: tokenSearchBody(metadata),
  };
}

/**
 * An on-chain TZIP-21 field: arrays and objects (tags, creators, formats, attributes…) are stored JSON-encoded
 * (TZIP-21 "Token metadata values"), so a text that parses as a JSON array or object is that value.
 */
function onChainField(text: string): JsonObject[string] {
  if (!/^\s*[[{]/.test(text)) return text;
  try {
    return JSON.parse(text) as JsonObject[string];
  } catch {
    return text;
  }
}
