/**
 * Issue 16 items 5-7 against the real product (`michelscope start` on a fresh DATA_DIR, the seeded sandbox,
 * Debian's chromium): the storage tab's versions are the levels at which the storage changed and show that
 * storage; the code tab offers the protocols under which the code differs; home opens on the synced network
 * when the default one (mainnet, here pointed at an unreachable node) is not, remembers the choice, and an
 * unsynced network's info panel shows dashes; statistics charts draw a single point with readable axes in
 * the accent colour; a tab is either shown and reachable or neither. Any page error or console error fails
 * the test that opened the page. Screenshots (1440 and 375 px) go to /tmp/wt16b-shots/.
 */
import { mkdir } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { canBrowse, syncedSandboxSession, waitFor } from './harness';
import { api, counterContract, seededContracts } from './sandbox-seed';

const NETWORK = 'sandboxnet';
const SHOTS = process.env.MS_SHOTS_DIR ?? '/tmp/wt16b-shots';
/** The theme's primary colour, dark (the default) and light. */
const ACCENT = ['rgb(79, 195, 161)', 'rgb(15, 123, 97)'];

describe.skipIf(!canBrowse('read-versions'))('versions, first network, charts and tab rules', () => {
  // the shared product's configuration has mainnet and ghostnet unreachable (harness SHARED_CONFIG)
  const session = syncedSandboxSession({ shared: true });
  let errors: string[] = [];
  /** The product's API through its typed client (an answer other than 2xx throws its ApiError). */
  const client = () => api(session.server.url);
  const rawStorage = (address: string, level?: number) =>
    client().unwrap(
      client().GET('/v1/contract/{network}/{address}/storage/raw', {
        params: { path: { network: NETWORK, address }, query: { level } },
      }),
    );
  const watch = (page: Page, what: string) => {
    page.on('pageerror', (e) => errors.push(`page error on ${what}: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console error on ${what}: ${m.text()}`);
    });
  };
  /** A page in a context of its own (fresh local storage), unless one is given. */
  const open = async (to: string, width = 1440, context?: BrowserContext): Promise<Page> => {
    const ctx = context ?? (await session.browser.newContext());
    const page = await ctx.newPage();
    await page.setViewportSize({ width, height: 900 });
    watch(page, to);
    await page.goto(`${session.server.url}${to}`);
    return page;
  };
  const close = async (page: Page) => {
    await page.context().close();
  };
  const noErrors = () => {
    const seen = errors;
    errors = [];
    expect(seen).toEqual([]);
  };
  const shot = async (page: Page, name: string) => {
    await mkdir(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  };
  const formatLevel = (n: number) => n.toLocaleString('en-US');

  /** The seeded counter (storage changes every round) once the seed is indexed. */
  const counterWithVersions = () =>
    waitFor('the seeded counter with several storage versions', 240_000, async () => {
      const counter = await counterContract(session.server.url).catch(() => undefined);
      if (!counter) return undefined;
      const levels = await client().unwrap(
        client().GET('/v1/contract/{network}/{address}/storage/levels', {
          params: { path: { network: NETWORK, address: counter } },
        }),
      );
      return levels.length >= 4 ? { counter, levels } : undefined;
    });

  it('storage tab: the versions are the levels at which the storage changed, and show that storage', async () => {
    const { counter, levels } = await counterWithVersions();
    const page = await open(`/${NETWORK}/${counter}/storage`);
    await page.getByRole('tree', { name: 'Storage' }).waitFor({ timeout: 30_000 });
    await page.getByRole('combobox', { name: 'Version' }).click();
    const listbox = page.getByRole('listbox');
    await listbox.getByRole('option', { name: `At ${formatLevel(levels[0]!.level)}` }).waitFor();
    expect(await listbox.getByRole('option').allInnerTexts()).toEqual([
      'Latest',
      ...levels.map((l) => `At ${formatLevel(l.level)}`),
    ]);
    await shot(page, 'storage-versions-1440');
    // an older version: the URL, the breadcrumb and the storage of that level
    const older = levels[2]!.level;
    await listbox.getByRole('option', { name: `At ${formatLevel(older)}` }).click();
    await page.waitForURL(`**/${NETWORK}/${counter}/storage?level=${older}`);
    await page
      .getByRole('navigation', { name: 'Storage path' })
      .getByText(`Storage / At ${formatLevel(older)}`)
      .waitFor();
    await page.getByRole('button', { name: 'Micheline' }).click();
    const text = page.getByLabel('Storage in Micheline');
    const expected = await rawStorage(counter, older);
    const latest = await rawStorage(counter);
    expect(expected).not.toBe(latest);
    await expect.poll(() => text.innerText(), { timeout: 15_000 }).toBe(expected);
    // back to Latest: the query parameter goes
    await page.getByRole('combobox', { name: 'Version' }).click();
    await page.getByRole('listbox').getByRole('option', { name: 'Latest' }).click();
    await page.waitForURL(`**/${NETWORK}/${counter}/storage`);
    await expect.poll(() => text.innerText(), { timeout: 15_000 }).toBe(latest);
    await close(page);

    const phone = await open(`/${NETWORK}/${counter}/storage?level=${older}`, 375);
    await phone.getByRole('tree', { name: 'Storage' }).waitFor({ timeout: 30_000 });
    await phone.getByRole('combobox', { name: 'Version' }).click();
    await phone.getByRole('listbox').waitFor();
    await shot(phone, 'storage-versions-375');
    await close(phone);
    noErrors();
  });

  it('code tab: only Latest where no protocol change gave the contract other code', async () => {
    const { counter } = await counterWithVersions();
    // the sandbox runs one protocol: no update migration, the code never differed
    expect(
      await client().unwrap(
        client().GET('/v1/contract/{network}/{address}/migrations', {
          params: { path: { network: NETWORK, address: counter } },
        }),
      ),
    ).toEqual([]);
    const page = await open(`/${NETWORK}/${counter}/code`);
    await page.getByRole('region', { name: 'Michelson code' }).waitFor({ timeout: 30_000 });
    await page.getByRole('combobox', { name: 'Protocol' }).click();
    const listbox = page.getByRole('listbox');
    await listbox.getByRole('option', { name: 'Latest' }).waitFor();
    expect(await listbox.getByRole('option').allInnerTexts()).toEqual(['Latest']);
    await shot(page, 'code-versions-1440');
    await close(page);
    noErrors();
  });

  it('home opens on the synced sandbox when mainnet is unreachable, and remembers the choice', async () => {
    const heads = await client().unwrap(client().GET('/v1/head'));
    expect(heads.find((h) => h.network === 'mainnet')?.synced ?? false).toBe(false);
    const page = await open('/');
    const table = page.getByRole('table', { name: `Recently called contracts on ${NETWORK}` });
    await table.locator('tbody tr').first().waitFor({ timeout: 30_000 });
    expect(await table.getByRole('link').count()).toBeGreaterThan(0);
    const pressed = async () => {
      const out: string[] = [];
      for (const n of ['mainnet', NETWORK, 'ghostnet'])
        if (
          (await page.getByRole('button', { name: n, exact: true }).getAttribute('aria-pressed')) === 'true'
        )
          out.push(n);
      return out;
    };
    expect(await pressed()).toEqual([NETWORK]);
    expect(await page.getByRole('link', { name: 'Networks' }).getAttribute('href')).toBe(`/${NETWORK}`);
    await shot(page, 'home-1440');
    // choosing ghostnet is remembered across visits, for home and the Networks link
    await page.getByRole('button', { name: 'ghostnet', exact: true }).click();
    await page.getByRole('table', { name: 'Recently called contracts on ghostnet' }).waitFor();
    await page.reload();
    await page
      .getByRole('table', { name: 'Recently called contracts on ghostnet' })
      .waitFor({ timeout: 30_000 });
    expect(await pressed()).toEqual(['ghostnet']);
    expect(await page.getByRole('link', { name: 'Networks' }).getAttribute('href')).toBe('/ghostnet');
    await close(page);

    const phone = await open('/', 375);
    await phone
      .getByRole('table', { name: `Recently called contracts on ${NETWORK}` })
      .locator('tbody tr')
      .first()
      .waitFor({ timeout: 30_000 });
    await shot(phone, 'home-375');
    await close(phone);
    noErrors();
  });

  it("an unsynced network's info panel says so, with dashes instead of zeros", async () => {
    for (const width of [1440, 375]) {
      const page = await open('/mainnet/recently_called', width);
      const info = page.getByRole('region', { name: 'Network Info' });
      await info.getByText('Unsynced', { exact: true }).waitFor({ timeout: 30_000 });
      await expect
        .poll(() => info.locator('dd').allInnerTexts(), { timeout: 15_000 })
        .toEqual(Array(8).fill('—'));
      expect(await info.innerText()).not.toMatch(/\b0 s\b|0 mutez/);
      const sidebar = page.getByRole('navigation', { name: 'Networks' });
      await sidebar
        .getByRole('link', { name: /^mainnet/ })
        .getByText('not synced yet')
        .waitFor();
      await shot(page, `network-unsynced-${width}`);
      await close(page);
    }
    // a synced one shows its values
    const page = await open(`/${NETWORK}/recently_called`);
    const info = page.getByRole('region', { name: 'Network Info' });
    await info.getByText('Synced', { exact: true }).waitFor({ timeout: 30_000 });
    const level = (await info.locator('dd').allInnerTexts())[2]!;
    expect(level).toMatch(/^\d[\d,]*$/);
    await close(page);
    noErrors();
  });

  /** The tick labels of a chart's value axis, and the colour of its line. */
  const chartFacts = async (page: Page, region: string) => {
    const chart = page.getByRole('region', { name: region });
    // a lone point's line is a zero-length path (attached, not visible): its mark is what shows
    await chart.locator('svg .MuiLineChart-line').first().waitFor({ state: 'attached', timeout: 30_000 });
    const yTicks = await chart
      .locator('.MuiChartsAxis-directionY .MuiChartsAxis-tickLabel')
      .allTextContents();
    const xTicks = await chart
      .locator('.MuiChartsAxis-directionX .MuiChartsAxis-tickLabel')
      .allTextContents();
    const colour = await chart
      .locator('svg .MuiLineChart-line')
      .first()
      .evaluate(
        (el) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { stroke: string } }).getComputedStyle(el)
            .stroke,
      );
    const marks = await chart.locator('svg .MuiLineChart-mark').count();
    console.log(`[e2e read-versions] ${region}: y ${yTicks.join(' | ')}; x ${xTicks.join(' | ')}; ${colour}`);
    return { yTicks, xTicks, colour, marks };
  };

  it('contract statistics: one point per series still draws a marked point on readable axes', async () => {
    const { counter } = await counterWithVersions();
    const page = await open(`/${NETWORK}/${counter}/stats`);
    const tabs = page.getByRole('tablist', { name: 'Account tabs' });
    await tabs.getByRole('tab', { name: 'Statistics', selected: true }).waitFor({ timeout: 30_000 });
    // the seed's calls all fall in this month: one point
    const calls = await chartFacts(page, 'Contract calls');
    expect(calls.marks).toBe(1);
    expect(calls.xTicks.length).toBeGreaterThan(1);
    expect(calls.yTicks.length).toBeGreaterThan(1);
    expect(new Set(calls.yTicks).size).toBe(calls.yTicks.length);
    expect(ACCENT).toContain(calls.colour);
    const gas = await chartFacts(page, 'Consumed gas');
    expect(new Set(gas.yTicks).size).toBe(gas.yTicks.length);
    for (const t of gas.yTicks) expect(t).toMatch(/^-?[\d.]+[KMB]?$/);
    await shot(page, 'contract-stats-1440');
    await close(page);
    const phone = await open(`/${NETWORK}/${counter}/stats`, 375);
    await chartFacts(phone, 'Contract calls');
    await shot(phone, 'contract-stats-375');
    await close(phone);
    noErrors();
  });

  it('network statistics: the gas chart labels its axis readably (not 0, 0, 0)', async () => {
    await counterWithVersions();
    for (const width of [1440, 375]) {
      const page = await open(`/${NETWORK}/stats`, width);
      await page.getByRole('tab', { name: 'Statistics', selected: true }).waitFor({ timeout: 30_000 });
      // gas in millions (spec: 'consumed gas (x10^6)'): small totals read 0.0042…, not 0, 0, 0
      const gas = await chartFacts(page, 'Consumed gas ×10⁶');
      expect(gas.yTicks.length).toBeGreaterThan(1);
      expect(new Set(gas.yTicks).size).toBe(gas.yTicks.length);
      for (const t of gas.yTicks) expect(t).toMatch(/^-?[\d.]+[KMB]?$/);
      expect(gas.yTicks.some((t) => Number(t.replace(/[KMB]$/, '')) > 0)).toBe(true);
      expect(ACCENT).toContain(gas.colour);
      await shot(page, `network-stats-${width}`);
      await close(page);
    }
    noErrors();
  });

  it('a tab is either shown and reachable, or neither', async () => {
    const { counter } = await counterWithVersions();
    const all = await seededContracts(session.server.url);
    const withoutEvents: string[] = [];
    for (const c of all) {
      const account = await client().unwrap(
        client().GET('/v1/account/{network}/{address}', {
          params: { path: { network: NETWORK, address: c.address } },
        }),
      );
      if (account.events_count === 0) withoutEvents.push(c.address);
    }
    expect(withoutEvents.length).toBeGreaterThan(0);
    const address = withoutEvents.includes(counter) ? counter : withoutEvents[0]!;
    const page = await open(`/${NETWORK}/${address}/events`);
    await page.waitForURL(`**/${NETWORK}/${address}/operations`, { timeout: 30_000 });
    const tabs = page.getByRole('tablist', { name: 'Account tabs' });
    await tabs.getByRole('tab', { name: /^Operations/, selected: true }).waitFor();
    expect(await tabs.getByRole('tab', { name: 'Events' }).count()).toBe(0);
    // the sandbox has statistics now: its tab is listed and opens
    await tabs.getByRole('tab', { name: 'Statistics' }).click();
    await page.waitForURL(`**/${NETWORK}/${address}/stats`);
    await tabs.getByRole('tab', { name: 'Statistics', selected: true }).waitFor();
    await close(page);
    noErrors();
  });
});
