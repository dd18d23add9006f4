/**
 * Read pages show the data a user came for (issue 16) against the real product (the run's shared one: the
 * suite sends nothing to the chain), Debian's chromium. Big-map keys
 * and storage diffs decoded with their types, the keys filter matching readable key text, ticket updates
 * counted and listed alike, and the IPFS gateway reaching the browser. Any page error or console error of
 * the app fails the test that opened the page.
 */
import { rm } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  canBrowse,
  launchBrowser,
  startServer,
  seededDataDir,
  sharedProductUrl,
  SHARED_IPFS_GATEWAY,
  waitFor,
  wordsBrokenAcrossLines,
  type RunningServer,
} from './harness';
import { collect, offsetPages } from '@michelscope/client';
import { api, groupOf } from './sandbox-seed';

const NETWORK = 'sandboxnet';
const GATEWAY = SHARED_IPFS_GATEWAY;

describe.skipIf(!canBrowse('read-data'))('read pages show decoded data on the seeded sandbox', () => {
  let dataDir: string;
  let server: RunningServer;
  let browser: Browser;
  /** Errors of the pages the running test opened. */
  let errors: string[] = [];
  /** The product's API through its typed client (an answer other than 2xx throws its ApiError). */
  const client = () => api(server.url);
  const firstKeys = (ptr: number, size: number) =>
    client().unwrap(
      client().GET('/v1/bigmap/{network}/{ptr}/keys', {
        params: { path: { network: NETWORK, ptr }, query: { size } },
      }),
    );
  const groupsOf = (address: string, lastId?: number) =>
    client().unwrap(
      client().GET('/v1/contract/{network}/{address}/opg', {
        params: { path: { network: NETWORK, address }, query: { size: 10, last_id: lastId } },
      }),
    );
  const open = async (to: string, width = 1440): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    page.on('pageerror', (e) => errors.push(`page error on ${to}: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console error on ${to}: ${m.text()}`);
    });
    await page.goto(`${server.url}${to}`);
    return page;
  };
  const noErrors = () => {
    const seen = errors;
    errors = [];
    expect(seen).toEqual([]);
  };

  /** The seeded FA2 contract and its ledger big map (keys `Pair address nat`). */
  let fa2 = '';
  let ledger = -1;

  beforeAll(async () => {
    // the run's shared product (IPFS_GATEWAY as above: SHARED_ENV), or MS_E2E_URL (a product already running
    // so), instead of starting one: the suite sends nothing to the chain
    const reuse = sharedProductUrl('MS_E2E_URL');
    if (reuse)
      server = { url: reuse, port: Number(new URL(reuse).port), output: () => '', stop: async () => {} };
    else {
      dataDir = await seededDataDir();
      server = await startServer({ dataDir, env: { IPFS_GATEWAY: GATEWAY }, timeoutMs: 170_000 });
    }
    browser = await launchBrowser();
    // the seed is indexed once the FA2 ledger holds the keys of its last transfers
    ({ fa2, ledger } = await waitFor('the seeded FA2 ledger', 300_000, async () => {
      const found = await client().unwrap(
        client().GET('/v1/helpers/contracts/{network}', {
          params: { path: { network: NETWORK }, query: { tags: 'fa2' } },
        }),
      );
      if (!found.address) return undefined;
      for (let ptr = 0; ptr < 40; ptr++) {
        // a big map that does not exist: an ApiError (404), the next one
        const body = await client()
          .unwrap(client().GET('/v1/bigmap/{network}/{ptr}', { params: { path: { network: NETWORK, ptr } } }))
          .catch(() => undefined);
        if (!body || body.address !== found.address || body.total_keys < 8) continue;
        const keys = await firstKeys(ptr, 1);
        if (keys[0]?.data.key_string.startsWith('Pair ')) return { fa2: found.address, ledger: ptr };
      }
      return undefined;
    }).catch((e: unknown) => {
      throw new Error(`${String(e)}\n${server.output().split('\n').slice(-30).join('\n')}`);
    }));
  }, 520_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('sends the configured IPFS gateway to the browser in /v1/config', async () => {
    const config = await client().unwrap(client().GET('/v1/config'));
    expect(config.ipfs_gateway).toBe(GATEWAY);
  });

  it('lists big-map keys decoded with their type, not packed bytes', async () => {
    const keys = await firstKeys(ledger, 10);
    const page = await open(`/${NETWORK}/${fa2}/storage/big_map/${ledger}/keys`);
    const first = page.getByText(/^Pair "(tz1|KT1)/).first();
    await first.waitFor();
    const shown = await page.getByText(/^Pair /).allInnerTexts();
    expect(shown.length).toBe(keys.length);
    for (const text of shown) expect(text).toMatch(/^Pair "(tz[1-4]|KT1)[1-9A-HJ-NP-Za-km-z]{33}" \d+$/);
    expect(shown).toEqual(keys.map((k) => k.data.key_string));
    await page.close();
    noErrors();
  });

  it('finds keys by a prefix of a holder address, by the full address, and by key hash', async () => {
    const keys = await firstKeys(ledger, 10);
    const holder = /"(tz1[1-9A-HJ-NP-Za-km-z]{33})"/.exec(keys[0]!.data.key_string)![1]!;
    const expected = keys.filter((k) => k.data.key_string.includes(holder)).map((k) => k.data.key_string);
    expect(expected.length).toBeGreaterThan(0);
    const page = await open(`/${NETWORK}/${fa2}/storage/big_map/${ledger}/keys`);
    await page
      .getByText(/^Pair "/)
      .first()
      .waitFor();
    const filter = page.getByRole('searchbox', { name: 'Filter keys' });
    const rowsFor = async (text: string): Promise<string[]> => {
      await filter.fill(text);
      return waitFor(`the keys matching ${text}`, 20_000, async () => {
        const rows = await page.getByText(/^Pair /).allInnerTexts();
        return rows.length > 0 && rows.every((r) => r.includes(holder)) ? rows : undefined;
      });
    };
    // trimmed, more than two characters: the first characters of the address
    expect((await rowsFor(`  ${holder.slice(0, 8)} `)).sort()).toEqual([...expected].sort());
    expect((await rowsFor(holder)).sort()).toEqual([...expected].sort());
    // a key hash finds its one key
    await filter.fill(keys[0]!.data.key_hash);
    await waitFor('the key of the pasted hash', 20_000, async () => {
      const rows = await page.getByText(/^Pair /).allInnerTexts();
      return rows.length === 1 && rows[0] === keys[0]!.data.key_string ? rows : undefined;
    });
    await page.close();
    noErrors();
  });

  it('shows storage diffs of a transfer with readable keys', async () => {
    const opg = await groupsOf(fa2);
    const transfer = opg.find((o) => o.entrypoint === 'transfer');
    expect(transfer).toBeDefined();
    const page = await open(`/${NETWORK}/opg/${transfer!.hash}/contents`);
    await page
      .getByRole('button', { name: /show details/i })
      .first()
      .click();
    const diff = page.getByRole('tree', { name: 'Storage diff' }).first();
    await diff.waitFor();
    const text = await diff.innerText();
    expect(text).toMatch(/Pair "tz1[1-9A-HJ-NP-Za-km-z]{33}" \d+/);
    expect(text).not.toMatch(/Pair 0x/);
    await page.close();
    noErrors();
  });

  it('applies token filters in the search service and finds tokens by name, symbol or id', async () => {
    const search = async (filters: Record<string, string[]>) => {
      const { data, response } = await client().POST('/search/v1/search', {
        body: { query: 'demo', size: 10, filters: { tokens: { ...filters, index: ['token'] } } },
      });
      expect(response.status).toBe(200);
      // the token items' body (the document types it loosely)
      const body = data as unknown as { total: number; items: { body: { Name: string } }[] };
      expect(body.total).toBe(body.items.length);
      return body.items.map((i) => i.body.Name).sort();
    };
    expect(await search({ tags: ['zzzz'] })).toEqual([]);
    expect(await search({ tags: ['mineral'] })).toEqual(['Basalt #2', 'Cobalt #3']);
    expect(await search({ mime_types: ['image/svg+xml'], tags: ['aurora'] })).toEqual(['Aurora #1']);
    expect(await search({ minters: ['tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx'] })).toHaveLength(3);
    expect(await search({ creators: ['tz1b7tUupMgCNw2cCLpKTkSD1NZzB5TkP2sv'] })).toEqual([]);

    // the Tokens tab: a name prefix lists that token alone, and ?search={tokenId} (a search card) too
    const titles = async (page: Page) => {
      await page.getByRole('textbox', { name: 'Token search' }).waitFor();
      return waitFor('the token panels', 20_000, async () => {
        const shown = await page.getByText(/^(Demo Coin|Aurora #1|Basalt #2|Cobalt #3)$/).allInnerTexts();
        return shown.length > 0 ? shown : undefined;
      });
    };
    for (const [to, expected] of [
      ['?search=Bas', ['Basalt #2']],
      ['?search=3', ['Cobalt #3']],
      ['?search=0', ['Demo Coin']],
    ] as const) {
      const page = await open(`/${NETWORK}/${fa2}/tokens${to}`);
      await page.waitForTimeout(1000);
      expect([...new Set(await titles(page))]).toEqual(expected);
      await page.close();
    }
    noErrors();
  });

  it('counts, lists and shows ticket updates alike for holders, ticketers and operations', async () => {
    const contracts = await collect(
      offsetPages(
        (offset, size) =>
          client().unwrap(
            client().GET('/v1/stats/{network}/recently_called_contracts', {
              params: { path: { network: NETWORK }, query: { offset, size } },
            }),
          ),
        { limit: 30 },
      ),
    );
    const involved: { address: string; count: number }[] = [];
    for (const { address } of contracts) {
      const acc = await client().unwrap(
        client().GET('/v1/account/{network}/{address}', { params: { path: { network: NETWORK, address } } }),
      );
      if (acc.ticket_updates_count > 0) involved.push({ address, count: acc.ticket_updates_count });
    }
    const updates = await client().unwrap(
      client().GET('/v1/account/{network}/{address}/ticket_updates', {
        params: { path: { network: NETWORK, address: involved[0]?.address ?? fa2 }, query: { size: 10 } },
      }),
    );
    // the seed has a ticketer sending to a receiver: both take part
    expect(updates.length).toBeGreaterThan(0);
    const { ticketer, address: holder } = updates[0]!;
    expect(involved.map((i) => i.address)).toEqual(expect.arrayContaining([ticketer, holder]));
    for (const { address, count } of involved.filter((i) => i.address === ticketer || i.address === holder)) {
      const page = await open(`/${NETWORK}/${address}/ticket_updates`);
      const list = page.getByRole('list', { name: 'Ticket updates' });
      await list.waitFor();
      expect(await list.getByRole('listitem').count()).toBe(Math.min(count, 10));
      expect(await page.getByRole('tab', { name: /ticket updates/i }).count()).toBe(1);
      await page.close();
    }
    // the operation that moved the tickets lists them in its details
    const page = await open(`/${NETWORK}/opg/${updates[0]!.operation_hash}/contents`);
    const show = page.getByRole('button', { name: /show details/i });
    await show.first().waitFor();
    while ((await show.count()) > 0) await show.first().click();
    const list = page.getByRole('list', { name: 'Ticket updates' });
    await list.waitFor();
    const card = await list.getByRole('listitem').first().innerText();
    expect(card).toContain(
      updates[0]!.amount.startsWith('-') ? updates[0]!.amount : `+${updates[0]!.amount}`,
    );
    await page.close();
    noErrors();
  });
  it('lists a batch in the order the node applied it, with a call stack that keeps words whole', async () => {
    // the seed's backtracked batch: a tez transfer, then an FA2 transfer that fails
    let group: { hash: string; counters: number[] } | undefined;
    let lastId: number | undefined;
    for (let pages = 0; !group && pages < 20; pages++) {
      const rows = await groupsOf(fa2, lastId);
      for (const { hash } of rows) {
        const ops = (await groupOf(server.url, hash)) as { counter: number; content_index: number }[];
        if (new Set(ops.map((o) => o.content_index)).size > 1) {
          group = { hash, counters: ops.map((o) => o.counter) };
          break;
        }
      }
      if (rows.length < 10) break;
      lastId = Math.min(...rows.map((r) => r.last_id));
    }
    expect(group, 'a batch of the seed on the FA2 contract').toBeDefined();
    // the API answers counter desc (reference §3.7); the page shows them rising
    expect(group!.counters[0]).toBeGreaterThan(group!.counters[group!.counters.length - 1]!);
    for (const width of [1440, 375]) {
      const page = await open(`/${NETWORK}/opg/${group!.hash}/contents`, width);
      const cards = page.getByRole('article');
      await cards.first().waitFor();
      const shown = (await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-counter')))).map(
        Number,
      );
      expect(shown).toEqual([...group!.counters].sort((a, b) => a - b));
      // each call stack title stays on one line ('transfer', not 't ransfer')
      const titles = page
        .getByRole('list', { name: 'Call stack' })
        .locator('li > span.MuiTypography-caption');
      expect(await titles.count()).toBe(group!.counters.length);
      const lines = await titles.evaluateAll((els) => els.map((e) => e.getClientRects().length));
      expect(lines.every((n) => n === 1)).toBe(true);
      await page.close();
    }
    noErrors();
  });

  it('search page: the list on the left and the card on the right; on a phone the card opens under the tapped result', async () => {
    const wide = await open('/search?text=demo', 1440);
    const list = wide.getByRole('list', { name: 'Search results' });
    await list.getByRole('button').first().waitFor();
    const card = wide.getByTestId('search-side-card');
    await card.getByRole('region').first().waitFor();
    const [l, c] = [await list.boundingBox(), await card.boundingBox()];
    expect(l!.x + l!.width).toBeLessThanOrEqual(c!.x + 1);
    await wide.close();

    const phone = await open('/search?text=demo', 375);
    const results = phone.getByRole('list', { name: 'Search results' }).getByRole('button');
    await results.first().waitFor();
    const count = await results.count();
    expect(count).toBeGreaterThan(2);
    const last = results.nth(count - 1);
    await last.scrollIntoViewIfNeeded();
    await last.click();
    const inline = phone.getByTestId('search-inline-card');
    await inline.getByRole('region').first().waitFor();
    // the card is right under the tapped result and inside the screen
    await waitFor('the opened card inside the screen', 10_000, async () => {
      const [r, box] = [await last.boundingBox(), await inline.boundingBox()];
      return box!.y >= r!.y + r!.height - 1 && box!.y >= 0 && box!.y < 900 ? true : undefined;
    });
    expect(await phone.getByTestId('search-side-card').count()).toBe(0);
    // names wrap between words on a phone ('Michelscope Demo Collectio' / 'n' before)
    expect(await wordsBrokenAcrossLines(phone.getByRole('list', { name: 'Search results' }))).toEqual([]);
    await phone.goto(`${server.url}/${NETWORK}/${fa2}/storage`);
    const title = phone.getByRole('heading', { level: 1 });
    await title.waitFor();
    expect((await title.innerText()).length).toBeGreaterThan(20);
    expect(await wordsBrokenAcrossLines(title)).toEqual([]);
    await phone.close();
    noErrors();
  });
});
