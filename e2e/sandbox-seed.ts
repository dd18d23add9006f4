/**
 * The seeded sandbox as the workspace e2e tests find it through the API (contracts by tag or entrypoint),
 * and the sandbox wallet's connect dialog.
 */
import type { Page } from 'playwright-core';
import { createClient, type MichelscopeClient } from '@michelscope/client';
import { UI_TIMEOUT } from './harness';

/** A GET of anything but the API (the node's RPC through the product): its JSON, or undefined unless 200. */
export async function json(url: string): Promise<unknown> {
  const res = await fetch(url);
  if (res.status !== 200) return undefined;
  return res.json();
}

const clients = new Map<string, MichelscopeClient>();
/**
 * The product's API at `url` through its typed client (@michelscope/client, generated from the OpenAPI
 * document), one per server: the tests call the API as an integrator does, so the client runs on every CI run.
 * An answer other than 2xx throws its ApiError (status and message).
 */
export function api(url: string): MichelscopeClient {
  let c = clients.get(url);
  if (!c) clients.set(url, (c = createClient({ baseUrl: url })));
  return c;
}

/** A contract's API record on sandboxnet (`GET /v1/contract/{network}/{address}`). */
export const contractOf = (url: string, address: string) =>
  api(url).unwrap(
    api(url).GET('/v1/contract/{network}/{address}', {
      params: { path: { network: 'sandboxnet', address } },
    }),
  );

/** An operation group's operations on sandboxnet (`GET /v1/opg/{network}/{hash}`). */
export const groupOf = (url: string, hash: string) =>
  api(url).unwrap(
    api(url).GET('/v1/opg/{network}/{hash}', { params: { path: { network: 'sandboxnet', hash } } }),
  );

/** The storage of a sandboxnet contract as the API names it (`GET …/storage`). */
export const storageOf = (url: string, address: string) =>
  api(url).unwrap(
    api(url).GET('/v1/contract/{network}/{address}/storage', {
      params: { path: { network: 'sandboxnet', address } },
    }),
  );

/** A page of sandboxnet's recently called contracts. */
const recentlyCalled = (url: string, offset: number) =>
  api(url).unwrap(
    api(url).GET('/v1/stats/{network}/recently_called_contracts', {
      params: { path: { network: 'sandboxnet' }, query: { size: 10, offset } },
    }),
  );

/** A seeded contract with an `increment` entrypoint (the sandbox's counter). */
export async function counterContract(url: string): Promise<string> {
  for (const { address } of await recentlyCalled(url, 0)) {
    const eps = await api(url).unwrap(
      api(url).GET('/v1/contract/{network}/{address}/entrypoints', {
        params: { path: { network: 'sandboxnet', address } },
      }),
    );
    if (eps.some((e) => e.name === 'increment')) return address;
  }
  throw new Error('no seeded contract with an increment entrypoint');
}

/** The seeded splitter (it forwards the tez it gets to a beneficiary and calls %increment of a counter). */
export async function splitterContract(
  url: string,
): Promise<{ splitter: string; beneficiary: string; counter: string }> {
  for (const { address } of await seededContracts(url)) {
    const s = (await storageOf(url, address)) as { children?: { name?: string; value?: unknown }[] }[];
    const fields = Array.isArray(s) ? (s[0]?.children ?? []) : [];
    const beneficiary = fields.find((f) => f.name === 'beneficiary')?.value;
    const counter = fields.find((f) => f.name === 'counter')?.value;
    if (typeof beneficiary === 'string' && typeof counter === 'string')
      return { splitter: address, beneficiary, counter };
  }
  throw new Error('no seeded splitter');
}

/** Seeded contracts found through the API: every recently called contract with its tags and entrypoints. */
export async function seededContracts(
  url: string,
): Promise<{ address: string; tags: string[]; entrypoints: string[] }[]> {
  const out: { address: string; tags: string[]; entrypoints: string[] }[] = [];
  for (let offset = 0; offset < 100; offset += 10) {
    const rows = await recentlyCalled(url, offset);
    if (!rows.length) break;
    for (const { address } of rows) {
      const c = await contractOf(url, address);
      out.push({ address, tags: c.tags ?? [], entrypoints: c.entrypoints ?? [] });
    }
  }
  return out;
}

/** The seed's FA1.2 and FA2 tokens and the swap contract that pulls FA1.2 tokens (storage: fa12, fa2). */
export async function tokensAndSwap(url: string) {
  const all = await seededContracts(url);
  const fa12 = all.find((c) => c.tags.includes('fa1-2'))?.address;
  const fa2 = all.find((c) => c.tags.includes('fa2'))?.address;
  if (!fa12 || !fa2) throw new Error('no seeded FA1.2 / FA2 token');
  for (const { address, tags } of all) {
    if (!tags.includes('view_nat')) continue;
    // The swap's storage is the pair of the two token addresses.
    const storage = JSON.stringify(await storageOf(url, address));
    if (storage.includes(fa12) && storage.includes(fa2)) return { fa12, fa2, swap: address };
  }
  throw new Error('no seeded swap contract');
}

export async function connectSandboxWallet(page: Page, account = 'bootstrap2') {
  const dialog = page.getByRole('dialog', { name: 'Connect a wallet' });
  // Either the wallet dialog opens, or the page says why it cannot go on.
  const failure = page.locator('.MuiAlert-standardError, .MuiAlert-colorError');
  await dialog.or(failure).first().waitFor({ timeout: UI_TIMEOUT });
  if (!(await dialog.isVisible())) throw new Error(`no wallet dialog: ${await failure.first().innerText()}`);
  await dialog.getByRole('radio', { name: new RegExp(`${account} `) }).check();
  await dialog.getByRole('button', { name: 'Connect' }).click();
}
