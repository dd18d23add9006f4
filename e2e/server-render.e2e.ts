/**
 * Pages rendered on the server (issue 18): the product sends a page with its data in the HTML, so that the
 * reader sees it before the app's code has run; the app then takes the page over. Driven on the seeded
 * sandbox in Debian's chromium, with scripts off (what the HTML alone shows) and on (the app replaces it
 * without errors and the page works).
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PageRenderer } from '../apps/server/src/ssr';
import { appPages, canBrowse, ROOT, syncedSandboxSession, UI_TIMEOUT } from './harness';
import { api } from './sandbox-seed';

interface OpgRow {
  hash: string;
  last_id: number;
}

/** A contract's first two pages of operation groups (the client's keyset pages, `last_id`, ten a page). */
async function firstGroups(url: string, address: string, limit = 20): Promise<OpgRow[]> {
  const groups: OpgRow[] = [];
  for await (const g of api(url).operations('sandboxnet', address, { size: 10, limit })) groups.push(g);
  return groups;
}

/** A seeded contract with more than one page (10) of operation groups, and its first two pages. */
async function busyContract(url: string): Promise<{ address: string; groups: OpgRow[] }> {
  const rows = await api(url).unwrap(
    api(url).GET('/v1/stats/{network}/recently_called_contracts', {
      params: { path: { network: 'sandboxnet' }, query: { size: 10 } },
    }),
  );
  for (const { address } of rows) {
    const groups = await firstGroups(url, address);
    if (groups.length > 10) return { address, groups };
  }
  throw new Error('no seeded contract with more than 10 operation groups');
}

const MARKUP = '<div id="ms-ssr" inert>';
/**
 * A page misses its budget when the server is busy (CI runs the unit tests beside it on two cores: a page that
 * renders in 0.1 s took over 1.5 s there) and is then sent without its rendering, as it should. The tests of
 * what a rendered page shows visit it until the server has rendered it, ten times at most.
 */
const VISITS = 10;

/**
 * Waits until the server renders `path` (the first rendering of a kind of page loads its code in the
 * renderer; a loaded machine may take longer than a page's budget): the tests then see a rendered page.
 */
async function rendered(url: string, path: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    const html = await (await fetch(`${url}${path}`, { headers: { accept: 'text/html' } })).text();
    if (html.includes(MARKUP)) return;
    await new Promise((r) => setTimeout(r, 1_000));
  }
  throw new Error(`the server never rendered ${path}`);
}

/**
 * Holds `page`'s live stream quiet: an empty stream that asks the browser to reconnect in an hour. A call to the
 * contract indexed during the test would otherwise make the operations tab ask for its first page again and put
 * the new group on top (live updates, checked in live.e2e.ts); on a loaded host calls sent by earlier files are
 * still being included. The takeover tests check the page the server sent and the app's own, nothing newer.
 */
async function quietLive(page: Page): Promise<void> {
  await page.route(/\/v1\/live\//, (route) =>
    route.fulfill({ status: 200, contentType: 'text/event-stream', body: 'retry: 3600000\n\n' }),
  );
}

const rgbSum = (css: string) => (css.match(/\d+/g) ?? []).slice(0, 3).reduce((sum, n) => sum + Number(n), 0);

const canRun = canBrowse('server-render');

describe.skipIf(!canRun)('pages rendered on the server', () => {
  const session = syncedSandboxSession({ shared: true });
  const pages = appPages(session);

  it("shows a contract's operation groups with scripts off, newest first, in the reader's theme", async () => {
    const { address } = await busyContract(session.server.url);
    const path = `/sandboxnet/${address}/operations`;
    await rendered(session.server.url, path);
    for (const dark of [true, false]) {
      const context = await session.browser.newContext({ javaScriptEnabled: false });
      try {
        if (!dark) await context.addCookies([{ name: 'ms_dark', value: '0', url: session.server.url }]);
        const page = await context.newPage();
        // the groups as they are when the page is asked for (the sandbox keeps including operations)
        let groups: OpgRow[] = [];
        for (let visit = 1; visit <= VISITS; visit++) {
          groups = await firstGroups(session.server.url, address);
          const response = await page.goto(`${session.server.url}${path}`);
          if ((await response?.text())?.includes(MARKUP)) break;
        }
        const rows = page.locator('ul[aria-label="Operation groups"] li[data-testid="opg-row"]');
        expect(await rows.count()).toBe(10);
        for (const [i, group] of groups.slice(0, 10).entries())
          expect(await rows.nth(i).locator(`a[href="/sandboxnet/opg/${group.hash}/contents"]`).count()).toBe(
            1,
          );
        // the address and the tabs are there too, and nothing of it can be used before the app runs
        await expect.poll(() => page.getByText(address).first().isVisible()).toBe(true);
        expect(await page.locator('#ms-ssr').getAttribute('inert')).toBe('');
        const background = await page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
        if (dark) expect(rgbSum(background)).toBeLessThan(200);
        else expect(rgbSum(background)).toBeGreaterThan(600);
      } finally {
        await context.close();
      }
    }
  });

  it("shows home's recently called contracts with scripts off", async () => {
    const client = api(session.server.url);
    await rendered(session.server.url, '/');
    const context = await session.browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      // the contracts as they are when the page is asked for, and a page the server rendered (a busy server
      // sends it without its rendering: then it is asked for again)
      let rows: { address: string }[] = [];
      for (let visit = 1; visit <= VISITS; visit++) {
        rows = await client.unwrap(
          client.GET('/v1/stats/{network}/recently_called_contracts', {
            params: { path: { network: 'sandboxnet' }, query: { size: 3, offset: 0 } },
          }),
        );
        const response = await page.goto(`${session.server.url}/`);
        if ((await response?.text())?.includes(MARKUP)) break;
      }
      expect(rows.length).toBe(3);
      const table = page.locator('table[aria-label^="Recently called contracts"]');
      for (const { address } of rows)
        expect(
          await table.locator(`tbody a[href="/sandboxnet/${address}/operations"]`).count(),
        ).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });

  it('is taken over by the app: the same rows, one page, and it works (Load more)', async () => {
    const { address } = await busyContract(session.server.url);
    let groups: OpgRow[] = [];
    const path = `/sandboxnet/${address}/operations`;
    await rendered(session.server.url, path);
    const page = await pages.open();
    await quietLive(page);
    // the page's own data (the contract, its first groups) comes with the HTML: the browser asks for none
    const api: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.includes(`/${address}`) && /^\/(v1|search)\//.test(url.pathname))
        api.push(url.pathname);
    });
    let sent = '';
    for (let visit = 1; visit <= VISITS && !sent.includes(MARKUP); visit++) {
      api.length = 0;
      groups = await firstGroups(session.server.url, address);
      const response = await page.goto(`${session.server.url}${path}`);
      sent = (await response?.text()) ?? '';
    }
    expect(sent).toContain(MARKUP);
    expect(sent).toContain('<script type="application/json" id="ms-ssr-data">');
    expect(sent).not.toContain('as="fetch"');
    // the app's own page replaced the server's
    await expect.poll(() => page.locator('#ms-ssr').count(), { timeout: 90_000 }).toBe(0);
    expect(await page.locator('main').count()).toBe(1);
    const rows = page.locator('ul[aria-label="Operation groups"] li[data-testid="opg-row"]');
    expect(await rows.count()).toBe(10);
    expect(await rows.first().locator(`a[href="/sandboxnet/opg/${groups[0]!.hash}/contents"]`).count()).toBe(
      1,
    );
    await page.waitForLoadState('networkidle');
    expect(
      api.filter((p) => /\/opg$|\/views\/schema$|\/account\/|\/contract\/sandboxnet\/KT1\w+$/.test(p)),
    ).toEqual([]);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows.count(), { timeout: 90_000 }).toBeGreaterThan(10);
    // the next page follows the first one's last group: the indexed rows are the contract's groups newest first,
    // none missed or twice at the pages' seam. Pending groups (the node's mempool, read when the page opened) come
    // first; a busy contract's groups included since the page opened are newer than its rows (on a loaded host
    // dozens are), so the API's list is read as deep as the rows shown go.
    const shownRows = await rows.evaluateAll((items) =>
      items.map((item) => ({
        href: item.querySelector('a[href*="/opg/"]')?.getAttribute('href') ?? '',
        pending: item.getAttribute('data-mempool') === 'true',
      })),
    );
    const indexed = shownRows.findIndex((r) => !r.pending);
    expect(indexed).toBeGreaterThanOrEqual(0);
    expect(
      shownRows.slice(indexed).some((r) => r.pending),
      'a pending row below the indexed ones',
    ).toBe(false);
    const shown = shownRows.slice(indexed).map((r) => r.href);
    let fresh: string[] = [];
    for (let depth = 60; depth <= 3_840; depth *= 4) {
      const deep = await firstGroups(session.server.url, address, depth);
      fresh = deep.map((g) => `/sandboxnet/opg/${g.hash}/contents`);
      if (deep.length < depth || fresh.includes(shown.at(-1) ?? '')) break;
    }
    const listed = `${shown.join('\n')}\n— the API now —\n${fresh.join('\n')}`;
    const from = fresh.indexOf(shown[0] ?? '');
    expect(from, listed).toBeGreaterThanOrEqual(0);
    expect(shown, listed).toEqual(fresh.slice(from, from + shown.length));
    expect(shown).toContain(`/sandboxnet/opg/${groups[10]!.hash}/contents`);
  });

  it("a click on the server's page before the app takes over is not lost: the group opens once it has", async () => {
    const { address } = await busyContract(session.server.url);
    const path = `/sandboxnet/${address}/operations`;
    await rendered(session.server.url, path);
    const page = await pages.open();
    await quietLive(page);
    // the app's code after its entry arrives late (a slow network): only once the reader has clicked (a fixed
    // delay let a loaded host's app take the page over before the click, and the toggle was gone)
    let arrive = () => {};
    const clicked = new Promise<void>((resolve) => (arrive = resolve));
    await page.route(/\/assets\/.+\.js$/, async (route) => {
      if (!/\/assets\/(index|rolldown-runtime)-/.test(route.request().url())) await clicked;
      // a request of a visit left for the next one is gone by then
      await route.continue().catch(() => {});
    });
    // until the server sends the page rendered (a loaded host misses its budget and sends it bare)
    let sent = '';
    for (let visit = 1; visit <= VISITS && !sent.includes(MARKUP); visit++) {
      const response = await page.goto(`${session.server.url}${path}`, { waitUntil: 'commit' });
      sent = (await response?.text()) ?? '';
    }
    expect(sent).toContain(MARKUP);
    const first = page.locator('#ms-ssr li[data-testid="opg-row"]').first();
    const toggle = first.locator('button[aria-expanded="false"]').first();
    await toggle.waitFor();
    const group = await first.locator('a[href*="/opg/"]').first().getAttribute('href');
    // where the reader sees the toggle once the page stands still (it may still be arriving)
    let box = await toggle.boundingBox();
    for (let still = 0; still < 2;) {
      await page.waitForTimeout(100);
      const next = await toggle.boundingBox();
      still = JSON.stringify(next) === JSON.stringify(box) ? still + 1 : 0;
      box = next;
    }
    if (!box) throw new Error("the server's page shows no toggle of the first group");
    // the page is inert until the app runs: a reader's click (at the button's place), not an element's click
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    expect(await page.locator('#ms-ssr').count()).toBe(1);
    arrive();

    await expect.poll(() => page.locator('#ms-ssr').count(), { timeout: UI_TIMEOUT }).toBe(0);
    // the click opened that group in the app's page, and only it: its toggle says so and its operations show
    const opened = page
      .locator('ul[aria-label="Operation groups"] li[data-testid="opg-row"]')
      .filter({ has: page.locator('button[aria-expanded="true"]') });
    await expect.poll(() => opened.count(), { timeout: UI_TIMEOUT }).toBe(1);
    expect(await opened.locator('a[href*="/opg/"]').first().getAttribute('href')).toBe(group);
    await opened.getByRole('article').first().waitFor();
  });

  it("renders from a copy of the web build outside the checkout (an operator's WEB_DIST_DIR)", async () => {
    // the renderer's build carries its packages: a copy where no node_modules is above it renders the same page
    const copy = mkdtempSync(path.join(os.tmpdir(), 'ms-web-build-'));
    cpSync(path.join(ROOT, 'apps/web/dist-ssr'), path.join(copy, 'dist-ssr'), { recursive: true });
    const url = session.server.url;
    const logs: string[] = [];
    const renderer = new PageRenderer({
      entry: path.join(copy, 'dist-ssr/entry-server.js'),
      log: (line) => logs.push(line),
      api: async ({ method, path: p, body }) => {
        const res = await fetch(`${url}${p}`, {
          method,
          ...(body !== undefined ? { body, headers: { 'content-type': 'application/json' } } : {}),
        });
        return {
          status: res.status,
          headers: { 'content-type': res.headers.get('content-type') ?? '' },
          body: await res.text(),
        };
      },
    });
    try {
      const { address } = await busyContract(url);
      const config: unknown = await (await fetch(`${url}/v1/config`)).json();
      renderer.start('http://localhost/', config);
      const before = await firstGroups(url, address);
      const page = await renderer.render(
        `http://localhost/sandboxnet/${address}/operations`,
        config,
        true,
        60_000,
      );
      // the sandbox keeps including operations: every row shown is one of the groups before or after
      const known = new Set([...before, ...(await firstGroups(url, address))].map((g) => g.hash));
      const shown = [...(page?.html ?? '').matchAll(/href="\/sandboxnet\/opg\/(\w+)\/contents"/g)].map(
        (m) => m[1],
      );
      expect(new Set(shown).size, `rendered: ${page?.html.length ?? 'nothing'}; ${logs.join('; ')}`).toBe(10);
      expect(shown.filter((h) => !known.has(h!))).toEqual([]);
      expect(page?.html).toContain(address);
    } finally {
      await renderer.close();
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
