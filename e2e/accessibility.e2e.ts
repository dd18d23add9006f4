/**
 * Every screen is accessible in the two states a reader meets it in: while its data is on its way (the
 * app's shell, as a server too busy to render the page sends it, with the API's answers held) and once it
 * has its data. axe (serious and critical rules) on the seeded sandbox, on a phone's width, in Debian's
 * chromium. A loading state nobody had checked failed the project's CI: the constant page's placeholders
 * sat directly in its description list, and axe ran on it while a loaded machine was still answering.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { BOOTSTRAP_ACCOUNTS } from '@michelscope/sandbox';
import { appPages, axeViolations, canBrowse, syncedSandboxSession } from './harness';
import { api, counterContract, seededContracts, tokensAndSwap } from './sandbox-seed';

const NETWORK = 'sandboxnet';
/** What the app needs before any screen shows (the heads, the product's settings): never held. */
const NEVER_HELD = /\/v1\/(head|config)\b/;

interface Seed {
  fa2: string;
  counter: string;
  tickets: string;
  hash: string;
  constant: string;
  bigMapOwner: string;
}

/** The seed's contracts, operation, constant and big map that the screens below are opened on. */
async function seedOf(url: string): Promise<Seed> {
  const { fa2 } = await tokensAndSwap(url);
  const counter = await counterContract(url);
  const client = api(url);
  const network = { network: NETWORK };
  let tickets: string | undefined;
  for (const { address } of await seededContracts(url)) {
    const updates = await client
      .unwrap(
        client.GET('/v1/contract/{network}/{address}/ticket_updates', {
          params: { path: { ...network, address } },
        }),
      )
      .catch(() => undefined); // an answer other than 2xx: not this contract, as before
    if (Array.isArray(updates) && updates.length > 0) tickets = address;
    if (tickets) break;
  }
  const opg = await client.unwrap(
    client.GET('/v1/contract/{network}/{address}/opg', {
      params: { path: { ...network, address: counter } },
    }),
  );
  const hash = opg.find((o) => o.hash && o.status === 'applied')?.hash;
  const constants = await client.unwrap(
    client.GET('/v1/global_constants/{network}', { params: { path: network } }),
  );
  const constant = constants[0]?.address;
  const bigMap = await client.unwrap(
    client.GET('/v1/bigmap/{network}/{ptr}', { params: { path: { ...network, ptr: 0 } } }),
  );
  if (!hash || !constant || !bigMap || !tickets)
    throw new Error('the seed lacks an applied operation, a global constant, big map 0 or ticket updates');
  return { fa2, counter, tickets, hash, constant, bigMapOwner: bigMap.address };
}

/** Screens whose loading state shows placeholders (the others show their frame and fill it in). */
const WAITS = new Set(['global constant', 'contract storage', 'contract interact', 'big map keys']);

const TABS = [
  'operations',
  'storage',
  'code',
  'security',
  'interact',
  'views',
  'metadata',
  'fork',
  'tokens',
  'stats',
];
/** Every kind of screen, on the seed's contracts, account, operation, constant and big map. */
const SCREENS: [name: string, path: (s: Seed) => string][] = [
  ['home', () => '/'],
  ['search', () => '/search?text=Demo'],
  ['recently called', () => `/${NETWORK}/recently_called`],
  ['network constants', () => `/${NETWORK}/constants`],
  ['network stats', () => `/${NETWORK}/stats`],
  ['global constant', (s) => `/constant/${NETWORK}/${s.constant}`],
  ['operation group', (s) => `/${NETWORK}/opg/${s.hash}/contents`],
  ['operation group flow', (s) => `/${NETWORK}/opg/${s.hash}/contents?view=flow`],
  ...TABS.map((t): [string, (s: Seed) => string] => [`contract ${t}`, (s) => `/${NETWORK}/${s.fa2}/${t}`]),
  ['contract events', (s) => `/${NETWORK}/${s.counter}/events`],
  ['contract details', (s) => `/${NETWORK}/${s.counter}/details`],
  ['ticket updates', (s) => `/${NETWORK}/${s.tickets}/ticket_updates`],
  ['big map keys', (s) => `/${NETWORK}/${s.bigMapOwner}/storage/big_map/0/keys`],
  ['account operations', () => `/${NETWORK}/${BOOTSTRAP_ACCOUNTS[1]!.pkh}/operations`],
  ['deploy', () => '/deploy'],
];

describe.skipIf(!canBrowse('accessibility'))('every screen, loading and loaded, at 375 px', () => {
  const session = syncedSandboxSession({ shared: true });
  const pages = appPages(session);

  const open = async (path: string, hold: boolean): Promise<Page> => {
    const page = await pages.open();
    await page.setViewportSize({ width: 375, height: 812 });
    if (hold) {
      // the app's shell, not the server's rendering (which carries the data)
      await page.route(`${session.server.url}${path}`, (route) =>
        route.continue({ headers: { ...route.request().headers(), accept: '*/*' } }),
      );
      // the answers never come while the test looks (the page is closed with them pending)
      await page.route(
        (u) => u.pathname.startsWith('/v1/') && !NEVER_HELD.test(u.pathname),
        () => new Promise<void>(() => {}),
      );
    }
    // held answers the shell preloads would hold its load event: the document is enough
    await page.goto(`${session.server.url}${path}`, { waitUntil: hold ? 'domcontentloaded' : 'load' });
    return page;
  };

  let seed: Seed;
  beforeAll(async () => {
    seed = await seedOf(session.server.url);
  });

  it.each(SCREENS)('%s: no serious violation while its data loads, nor once it has it', async (_name, at) => {
    const path = at(seed);
    const found: string[] = [];
    const loading = await open(path, true);
    // the screen's code has run: its heading (or the home page's) is there
    await loading.getByRole('heading', { level: 1 }).first().waitFor();
    const placeholders = await loading.locator('.MuiSkeleton-root, [role="progressbar"]').count();
    for (const v of await axeViolations(loading))
      found.push(`${path} (loading, ${placeholders} placeholders): ${v}`);
    await loading.close();

    const loaded = await open(path, false);
    await loaded.getByRole('heading', { level: 1 }).first().waitFor();
    await loaded.waitForLoadState('networkidle');
    for (const v of await axeViolations(loaded)) found.push(`${path} (loaded): ${v}`);
    await loaded.close();
    expect(found).toEqual([]);
    // a screen that asks for data shows it is waiting (the held answers proved something)
    if (WAITS.has(_name)) expect(placeholders, `placeholders on ${path} while loading`).toBeGreaterThan(0);
  });
});
