/**
 * Issue 21 part 3 against the real product (`michelscope start` on a fresh DATA_DIR, the seeded sandbox,
 * Debian's chromium): 'Export' on the lists — big-map keys, a token's holders, events (of calls made during
 * the test), search results — downloads the file the API streams, and its rows are the list's rows (read
 * back from the file with a CSV parser). The progress line counts the rows. Any page error or console error
 * fails the test. Screenshots (1440 and 375 px) go to MS_SHOTS_DIR (default /tmp/wt21a-shots).
 */
import { mkdir, readFile } from 'node:fs/promises';
import { InMemorySigner } from '@taquito/signer';
import { TezosToolkit } from '@taquito/taquito';
import { BOOTSTRAP_ACCOUNTS } from '@michelscope/sandbox';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appPages, canBrowse, heads, syncedSandboxSession, waitFor } from './harness';
import { collect, offsetPages } from '@michelscope/client';
import { api, counterContract } from './sandbox-seed';

// The browser globals the page callbacks use (the root tsconfig has no DOM library).
declare const document: { documentElement: { scrollWidth: number } };
declare const window: { innerWidth: number };

const NETWORK = 'sandboxnet';
const SHOTS = process.env.MS_SHOTS_DIR ?? '/tmp/wt21a-shots';
const UNREACHABLE = 'http://127.0.0.1:9';

type Row = Record<string, string>;
const csvRows = (text: string): Row[] => parse<Row>(text, { columns: true, record_delimiter: '\r\n' });

/** Opens the Export menu of `what` and picks the format; the downloaded file's name and text. */
async function exportAs(page: Page, what: string, format: 'CSV' | 'JSON') {
  await page.getByRole('button', { name: `Export ${what}`, exact: true }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: `Export ${what} as ${format}` }).click(),
  ]);
  return { name: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
}

/** The page does not scroll sideways at its width. */
const noOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe.skipIf(!canBrowse('exports'))('exports: every list as CSV and JSON', () => {
  const session = syncedSandboxSession({
    config: { networks: { mainnet: { rpc_url: UNREACHABLE }, ghostnet: { rpc_url: UNREACHABLE } } },
  });
  const pages = appPages(session);
  /** The product's API through its typed client (an answer other than 2xx throws its ApiError). */
  const client = () => api(session.server.url);
  const fa2Contract = () =>
    client().unwrap(
      client().GET('/v1/helpers/contracts/{network}', {
        params: { path: { network: NETWORK }, query: { tags: 'fa2' } },
      }),
    );
  const open = async (to: string, width = 1440) => {
    const page = await pages.open();
    await page.setViewportSize({ width, height: 1000 });
    await page.goto(`${session.server.url}${to}`);
    return page;
  };
  const status = (page: Page, what: string) =>
    page.getByRole('status', { name: `Export progress of ${what}`, exact: true });

  it(
    'exports the keys of a big map as CSV and JSON: the rows of the keys list',
    { timeout: 300_000 },
    async () => {
      await mkdir(SHOTS, { recursive: true });
      const { address: fa2 } = await fa2Contract();
      // the FA2 ledger: the big map of the contract whose keys are `Pair address nat`
      let ledger = -1;
      for (let ptr = 0; ptr < 60 && ledger < 0; ptr++) {
        // a big map that does not exist: an ApiError (404), the next one
        const body = await client()
          .unwrap(client().GET('/v1/bigmap/{network}/{ptr}', { params: { path: { network: NETWORK, ptr } } }))
          .catch(() => undefined);
        if (body?.address !== fa2) continue;
        const keys = await collect(client().bigMapKeys(NETWORK, ptr, { size: 1, limit: 1 }));
        if (keys[0]?.data.key_string.startsWith('Pair ')) ledger = ptr;
      }
      expect(ledger).toBeGreaterThanOrEqual(0);
      const list = await collect(client().bigMapKeys(NETWORK, ledger));
      expect(list.length).toBeGreaterThan(3);

      const page = await open(`/${NETWORK}/${fa2}/storage/big_map/${ledger}/keys`);
      await page.getByRole('list', { name: 'Keys' }).getByRole('listitem').first().waitFor();
      const csv = await exportAs(page, 'keys', 'CSV');
      expect(csv.name).toMatch(new RegExp(`^${NETWORK}-big_map-${ledger}-keys-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
      const rows = csvRows(csv.text);
      expect(rows.map((r) => [r.key_hash, r.key, r.active])).toEqual(
        list.map((k) => [k.data.key_hash, k.data.key_string, String(k.data.is_active)]),
      );
      // each key with its value (the ledger's balances: nat)
      for (const r of rows.filter((x) => x.active === 'true'))
        expect(JSON.parse(r.value_micheline!)).toHaveProperty('int');
      await expect.poll(() => status(page, 'keys').innerText()).toBe(`Exported ${list.length} rows`);

      // 'Only active' is a filter of the export too
      await page.getByRole('switch', { name: 'Only active' }).check();
      const json = JSON.parse((await exportAs(page, 'keys', 'JSON')).text) as Array<Record<string, unknown>>;
      expect(json.map((k) => k.key_hash)).toEqual(
        list.filter((k) => k.data.is_active).map((k) => k.data.key_hash),
      );
      expect(json.every((k) => k.active === true)).toBe(true);
      await page.screenshot({ path: `${SHOTS}/export-keys-1440.png` });
      await page.setViewportSize({ width: 375, height: 800 });
      await page.getByRole('button', { name: 'Export keys', exact: true }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/export-keys-375.png` });
      expect(await noOverflow(page)).toBeLessThanOrEqual(0);
    },
  );

  it("exports a token's holders from its panel on the tokens tab", { timeout: 300_000 }, async () => {
    const { address: fa2 } = await fa2Contract();
    const holders = await client().unwrap(
      client().GET('/v1/contract/{network}/{address}/tokens/holders', {
        params: { path: { network: NETWORK, address: fa2 }, query: { token_id: 0 } },
      }),
    );
    expect(Object.keys(holders).length).toBeGreaterThan(0);
    const page = await open(`/${NETWORK}/${fa2}/tokens?search=0`);
    await page.getByText('Demo Coin', { exact: true }).first().click();
    // keyboard: the menu opens with Enter and the format is picked with the arrow keys
    const button = page.getByRole('button', { name: 'Export holders of token 0', exact: true });
    await button.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Export holders of token 0 as CSV' }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    const rows = csvRows(await readFile(await download.path(), 'utf8'));
    expect(Object.fromEntries(rows.map((r) => [r.address, r.balance]))).toEqual(holders);
    expect(rows.every((r) => r.token_id === '0')).toBe(true);
    await expect
      .poll(() => status(page, 'holders of token 0').innerText())
      .toBe(`Exported ${rows.length} rows`);
    // the focus is back on Export after the download
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            (globalThis as unknown as { document: { activeElement: { textContent: string } | null } })
              .document.activeElement?.textContent,
        ),
      )
      .toBe('Export');
    await page.screenshot({ path: `${SHOTS}/export-holders-1440.png` });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: `${SHOTS}/export-holders-375.png` });
    expect(await noOverflow(page)).toBeLessThanOrEqual(0);

    // the tokens themselves, with the tab's search
    await page.setViewportSize({ width: 1440, height: 1000 });
    const tokens = JSON.parse((await exportAs(page, 'tokens', 'JSON')).text) as Array<
      Record<string, unknown>
    >;
    expect(tokens.map((t) => [t.token_id, t.name])).toEqual([['0', 'Demo Coin']]);
  });

  it(
    'exports the events of a contract, with the ones emitted during the test',
    { timeout: 300_000 },
    async () => {
      const counter = await counterContract(session.server.url);
      const tezos = new TezosToolkit(`${session.server.url}/rpc/${NETWORK}`);
      tezos.setProvider({
        signer: await InMemorySigner.fromSecretKey(BOOTSTRAP_ACCOUNTS[0]!.sk),
        config: { confirmationPollingTimeoutSecond: 120 },
      });
      const op = await tezos.contract.transfer({
        to: counter,
        amount: 0,
        parameter: { entrypoint: 'increment', value: { int: '41' } },
      });
      const level = await op.confirmation(1);
      await waitFor(`${NETWORK} indexed up to ${level}`, 120_000, async () =>
        (await heads(session.server.url)).find((h) => h.network === NETWORK && h.level >= level)
          ? true
          : undefined,
      );
      const where = { network: NETWORK, address: counter };
      const account = await client().unwrap(
        client().GET('/v1/account/{network}/{address}', { params: { path: where } }),
      );
      const list = await collect(
        offsetPages((offset, size) =>
          client().unwrap(
            client().GET('/v1/contract/{network}/{address}/events', {
              params: { path: where, query: { offset, size } },
            }),
          ),
        ),
      );
      expect(list[0]).toMatchObject({ hash: op.hash, tag: 'changed', level });

      const page = await open(`/${NETWORK}/${counter}/events`);
      await page.getByRole('list', { name: 'Events' }).waitFor();
      const rows = csvRows((await exportAs(page, 'events', 'CSV')).text);
      expect(rows).toHaveLength(account.events_count);
      expect(rows.map((r) => [r.hash, r.tag, Number(r.level)])).toEqual(
        list.map((e) => [e.hash, e.tag, e.level]),
      );
      expect(JSON.parse(rows[0]!.payload_micheline!)).toHaveProperty('int');
      expect(JSON.parse(rows[0]!.payload_type_micheline!)).toEqual({ prim: 'int' });
      await expect
        .poll(() => status(page, 'events').innerText())
        .toBe(`Exported ${account.events_count} rows`);
      await page.screenshot({ path: `${SHOTS}/export-events-1440.png` });
      await page.setViewportSize({ width: 375, height: 800 });
      await page.screenshot({ path: `${SHOTS}/export-events-375.png` });
      expect(await noOverflow(page)).toBeLessThanOrEqual(0);
    },
  );

  it(
    'exports search results: the results the search answers, in its order',
    { timeout: 300_000 },
    async () => {
      const found = await client().unwrap(
        client().POST('/search/v1/search', {
          body: { query: 'demo', size: 100, filters: { networks: [NETWORK] } },
        }),
      );
      expect(found.items.length).toBeGreaterThan(1);
      const page = await open(`/search?text=demo`);
      // the search page asks every configured network: keep the sandbox alone, as the API call above
      for (const other of ['mainnet', 'ghostnet']) {
        const chip = page.getByRole('checkbox', { name: other });
        if ((await chip.count()) && (await chip.getAttribute('aria-checked')) === 'true') await chip.click();
      }
      await page.getByRole('list', { name: 'Search results' }).waitFor();
      const json = JSON.parse((await exportAs(page, 'search results', 'JSON')).text) as Array<
        Record<string, unknown>
      >;
      expect(json.map((r) => [r.type, r.value])).toEqual(found.items.map((i) => [i.type, i.value]));
      expect(json.every((r) => r.network === NETWORK)).toBe(true);
      const csv = csvRows((await exportAs(page, 'search results', 'CSV')).text);
      expect(csv.map((r) => r.value)).toEqual(found.items.map((i) => i.value));
      await page.screenshot({ path: `${SHOTS}/export-search-1440.png` });
      await page.setViewportSize({ width: 375, height: 800 });
      await page.screenshot({ path: `${SHOTS}/export-search-375.png` });
      expect(await noOverflow(page)).toBeLessThanOrEqual(0);
    },
  );
});
