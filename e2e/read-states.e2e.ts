/**
 * Read-page states the demo seed cannot produce (issue 9), end to end: the real product (`michelscope
 * start`) reading a real sandbox node that this test runs in-process (`michelscope sandbox`, as
 * networks.sandboxnet.rpc_url), so that the test can use the sandbox's test-only controls (baking paused:
 * operations held in the node's mempool). Contracts are originated with Taquito against the node RPC,
 * as bench/web-render.ts does; pages are read with Debian's chromium through playwright-core.
 *
 * - Operations tab: mempool rows and the spec's merge rules (operations tab, "Operation list").
 * - Value inspector: 'View Storage' for a tezos-storage URI with a valid contract, 'View IPFS' for a
 *   multihash and an ipfs URI, nothing for a tezos-storage URI without a valid contract.
 * - Code tab: 'Rendering: N%' while code above 35,000 characters is shown in chunks, then the whole code.
 * - Operation errors: a failed origination (`DROP 1024`, a count Octez refuses) shows the
 *   syntactic-constant error with 'Show mismatch', comparing the wrong expression and the expected form.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TezosToolkit } from '@taquito/taquito';
import { InMemorySigner } from '@taquito/signer';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOTSTRAP_ACCOUNTS, injectAs, startStandaloneSandbox, type Sandbox } from '@michelscope/sandbox';
import {
  ROOT,
  freePort,
  hasChromium,
  hasWebBuild,
  launchBrowser,
  startServer,
  tempDataDir,
  waitFor,
  type RunningServer,
} from './harness';
import { defaultValue, largestFixtureContract, type Prim } from './fixture-contracts';

const NETWORK = 'sandboxnet';
const FIXTURES = path.resolve(ROOT, '../shared/fixtures/contracts');
/** The chunk size of the code viewer (spec: code tab). */
const CHUNK = 35_000;
const canBrowse = hasChromium && hasWebBuild;
if (!canBrowse)
  console.warn(
    '[e2e read-states] chromium or apps/web/dist missing (npm run build:web): browser checks skipped.',
  );

const [b1, b2, b3, b4, b5] = BOOTSTRAP_ACCOUNTS as unknown as [
  (typeof BOOTSTRAP_ACCOUNTS)[number],
  (typeof BOOTSTRAP_ACCOUNTS)[number],
  (typeof BOOTSTRAP_ACCOUNTS)[number],
  (typeof BOOTSTRAP_ACCOUNTS)[number],
  (typeof BOOTSTRAP_ACCOUNTS)[number],
];

// The few browser globals the page callbacks use (the root tsconfig has no DOM library).
interface PageNode {
  textContent: string | null;
}
declare const document: {
  body: unknown;
  querySelectorAll(selector: string): Iterable<PageNode>;
};
declare class MutationObserver {
  constructor(callback: () => void);
  observe(target: unknown, options: { subtree: boolean; childList: boolean; characterData: boolean }): void;
}

const str = (s: string) => ({ string: s });
const field = (name: string) => ({ prim: 'string', annots: [`%${name}`] });
/** A contract that accepts Unit and keeps four strings (the value inspector's inputs). */
const LINKS_CODE = [
  { prim: 'parameter', args: [{ prim: 'unit' }] },
  {
    prim: 'storage',
    args: [
      {
        prim: 'pair',
        args: [field('uri'), field('cid'), field('ipfs_uri'), field('bad_uri')],
      },
    ],
  },
  {
    prim: 'code',
    args: [[{ prim: 'CDR' }, { prim: 'NIL', args: [{ prim: 'operation' }] }, { prim: 'PAIR' }]],
  },
];
/** Code Octez refuses at origination: DROP takes a 10-bit count (invalid_syntactic_constant). */
const REFUSED_COUNT_CODE = [
  { prim: 'parameter', args: [{ prim: 'unit' }] },
  { prim: 'storage', args: [{ prim: 'unit' }] },
  {
    prim: 'code',
    args: [
      [
        { prim: 'DROP', args: [{ int: '1024' }] },
        { prim: 'UNIT' },
        { prim: 'NIL', args: [{ prim: 'operation' }] },
        { prim: 'PAIR' },
      ],
    ],
  },
];
/** CIDv0 (Qm + 44 base58 characters) and a CIDv1 in base32 (b + 58 characters). */
const CID_V0 = 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG';
const CID_V1 = 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi';

async function getJson<T>(url: string): Promise<{ status: number; body: T }> {
  const res = await fetch(url);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

describe.skipIf(!canBrowse)('read-page states made on a sandbox the test drives', () => {
  let sandboxDir = '';
  let dataDir = '';
  let node: { url: string; sandbox: Sandbox; close(): Promise<void> } | undefined;
  let server: RunningServer | undefined;
  let browser: Browser;
  /** Contract keeping the inspector's strings; it also gets the held (mempool) call. */
  let links = '';
  /** The largest fixture contract (its code is above 35,000 characters), when ../shared is there. */
  let big = '';
  const pageErrors: string[] = [];

  const open = async (to: string): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (e) => pageErrors.push(`${to}: ${e.message}`));
    await page.goto(`${server!.url}${to}`);
    return page;
  };
  const api = <T>(route: string) => getJson<T>(`${server!.url}/v1${route}`);
  const toolkit = async (account: { sk: string }) => {
    const tezos = new TezosToolkit(node!.url);
    tezos.setProvider({
      signer: await InMemorySigner.fromSecretKey(account.sk),
      config: { confirmationPollingTimeoutSecond: 120 },
    });
    return tezos;
  };
  const originate = async (account: { sk: string }, code: unknown, init: unknown): Promise<string> => {
    const op = await (
      await toolkit(account)
    ).contract.originate({ code: code as object[], init: init as object });
    await op.confirmation(1);
    if (!op.contractAddress) throw new Error(`origination ${op.hash} has no contract address`);
    return op.contractAddress;
  };
  /** Waits until the product has indexed the operation group `hash`. */
  const indexed = (hash: string) =>
    waitFor(`${hash} indexed`, 120_000, async () => {
      const res = await api<unknown[]>(`/opg/${NETWORK}/${hash}`);
      return res.status === 200 && Array.isArray(res.body) && res.body.length > 0 ? true : undefined;
    });
  const contractIndexed = (address: string) =>
    waitFor(`${address} indexed`, 120_000, async () =>
      (await api(`/contract/${NETWORK}/${address}`)).status === 200 ? true : undefined,
    );

  beforeAll(async () => {
    sandboxDir = await mkdtemp(path.join(os.tmpdir(), 'ms-e2e-node-'));
    node = await startStandaloneSandbox({ dataDir: sandboxDir, port: await freePort(), blockTimeMs: 1000 });
    dataDir = await tempDataDir();
    const config = path.join(dataDir, 'michelscope.config.json');
    await writeFile(
      config,
      JSON.stringify({
        networks: { sandboxnet: { rpc_url: node.url, start_level: 0 }, mainnet: false, ghostnet: false },
      }),
    );
    server = await startServer({ dataDir, env: { MICHELSCOPE_CONFIG: config }, timeoutMs: 170_000 });
    browser = await launchBrowser();

    const fixture = largestFixtureContract(FIXTURES)?.file;
    if (fixture === undefined)
      console.warn(`[e2e read-states] ${FIXTURES} not found: the code-chunk spec skips`);
    const code = fixture ? (JSON.parse(readFileSync(fixture, 'utf8')) as Prim[]) : undefined;
    const storageType = code?.find((s) => s.prim === 'storage')?.args?.[0];
    // Bootstrap1 originates the big contract; bootstrap2 the links contract, whose tezos-storage URI names
    // bootstrap3's small contract (originated alongside).
    const [bigAddress, target] = await Promise.all([
      code && storageType ? originate(b1, code, defaultValue(storageType)) : Promise.resolve(''),
      originate(b3, LINKS_CODE, {
        prim: 'Pair',
        args: [str(''), str(''), str(''), str('')],
      }),
    ]);
    big = bigAddress;
    // Bootstrap4 delegates to bootstrap5: the product then knows bootstrap5, whose list stays empty (it is
    // neither the source nor the destination of an operation).
    await indexed(await injectAs(node.sandbox, b4, [{ kind: 'delegation', delegate: b5.pkh }]));
    links = await originate(b2, LINKS_CODE, {
      prim: 'Pair',
      args: [
        str(`tezos-storage://${target}/%7B%7D`),
        str(CID_V0),
        str(`ipfs://${CID_V1}/metadata.json`),
        str('tezos-storage://KT1short/contents'),
      ],
    });
    for (const address of [links, target, big].filter(Boolean)) await contractIndexed(address);
  }, 400_000);

  afterAll(async () => {
    node?.sandbox.resumeBaking();
    await browser?.close();
    await server?.stop();
    await node?.close();
    for (const dir of [dataDir, sandboxDir]) if (dir) await rm(dir, { recursive: true, force: true });
    if (pageErrors.length) console.warn(`[e2e read-states] page errors:\n${pageErrors.join('\n')}`);
  });

  it("operations tab: a held operation is a 'mempool' row merged on top, only without search or filter, and only into a list that has operations", async () => {
    const sandbox = node!.sandbox;
    sandbox.pauseBaking();
    // From an empty mempool (a retried run may have left its operations there).
    if (sandbox.pendingOperations().length > 0) await sandbox.bakeBlock();
    let pending = '';
    let toAccount = '';
    try {
      // A call of the links contract, and tez to bootstrap5 (an account with no operation yet).
      pending = await injectAs(sandbox, b4, [
        {
          kind: 'transaction',
          amount: '0',
          destination: links,
          parameters: { entrypoint: 'default', value: { prim: 'Unit' } },
        },
      ]);
      toAccount = await injectAs(sandbox, b4, [
        { kind: 'transaction', amount: '1000000', destination: b5.pkh },
      ]);
      const held = await api<{ hash?: string; status: string }[]>(`/contract/${NETWORK}/${links}/mempool`);
      expect(held.body.map((o) => [o.hash, o.status])).toEqual([[pending, 'pending']]);

      const page = await open(`/${NETWORK}/${links}/operations`);
      const list = page.getByRole('list', { name: 'Operation groups' });
      const rows = list.locator('[data-testid="opg-row"]');
      await rows.nth(1).waitFor({ timeout: 30_000 });
      expect(await rows.count()).toBe(2);
      // On top: the held call, 'mempool' in place of its level, status pending; then the origination.
      const top = rows.first();
      expect(await top.getByText('mempool', { exact: true }).count()).toBe(1);
      expect(await top.locator('.MuiChip-label').textContent()).toBe('pending');
      expect(
        await top.getByRole('link', { name: new RegExp(pending.slice(0, 8)) }).getAttribute('href'),
      ).toBe(`/${NETWORK}/opg/${pending}/contents`);
      const origination = (await api<{ hash: string; level: number }[]>(`/contract/${NETWORK}/${links}/opg`))
        .body;
      expect(origination).toHaveLength(1);
      await rows.nth(1).getByText(origination[0]!.level.toLocaleString('en-US'), { exact: true }).waitFor();
      expect(await rows.nth(1).getByText('mempool', { exact: true }).count()).toBe(0);

      // A search is active: no mempool row (the pending hash is not indexed, so nothing is found).
      const search = page.getByPlaceholder('Start entering hash of operation, source or destination address');
      await search.fill(pending);
      await page
        .getByText('Empty set is also a result, otherwise try a broader query')
        .waitFor({ timeout: 30_000 });
      expect(await rows.count()).toBe(0);
      await search.fill('');
      await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(2);
      expect(await rows.first().getByText('mempool', { exact: true }).count()).toBe(1);

      // A filter is active: the applied origination only.
      await page.getByRole('button', { name: 'Filters' }).click();
      const dialog = page.getByRole('dialog', { name: 'Filters' });
      await dialog.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('listbox').getByRole('option', { name: 'applied', exact: true }).click();
      await page.keyboard.press('Escape');
      await dialog.getByRole('button', { name: 'Apply' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(1);
      expect(await list.getByText('mempool', { exact: true }).count()).toBe(0);
      expect(await rows.first().locator('.MuiChip-label').textContent()).toBe('applied');
      await page.close();

      // An account whose list is empty: its pending operation is not merged.
      const forAccount = await api<{ hash?: string }[]>(`/contract/${NETWORK}/${b5.pkh}/mempool`);
      expect(forAccount.body.map((o) => o.hash)).toEqual([toAccount]);
      const empty = await open(`/${NETWORK}/${b5.pkh}/operations`);
      await empty
        .getByText('Empty set is also a result, otherwise try a broader query')
        .waitFor({ timeout: 30_000 });
      expect(await empty.getByText('Nothing found', { exact: true }).count()).toBe(1);
      expect(await empty.getByText('mempool', { exact: true }).count()).toBe(0);
      await empty.close();
    } finally {
      sandbox.resumeBaking();
    }

    // Once baked and indexed, the same group is listed once, with its level.
    await indexed(pending);
    const level = (await api<{ level: number }[]>(`/opg/${NETWORK}/${pending}`)).body[0]!.level;
    const page = await open(`/${NETWORK}/${links}/operations`);
    const rows = page.getByRole('list', { name: 'Operation groups' }).locator('[data-testid="opg-row"]');
    await rows.nth(1).waitFor({ timeout: 30_000 });
    expect(await rows.count()).toBe(2);
    await rows.first().getByText(level.toLocaleString('en-US'), { exact: true }).waitFor({ timeout: 30_000 });
    expect(await page.getByText('mempool', { exact: true }).count()).toBe(0);
    expect(
      await rows
        .first()
        .getByRole('link', { name: new RegExp(pending.slice(0, 8)) })
        .count(),
    ).toBe(1);
    await page.close();
  });

  it("value inspector: 'View Storage' for a tezos-storage URI with a valid contract, 'View IPFS' for a multihash and an ipfs URI", async () => {
    const storage = (await api<unknown>(`/contract/${NETWORK}/${links}/storage`)).body;
    const target = JSON.stringify(storage).match(/tezos-storage:\/\/(KT1\w{33})\//)?.[1];
    expect(target).toMatch(/^KT1/);
    const page = await open(`/${NETWORK}/${links}/storage`);
    const tree = page.getByRole('tree', { name: 'Storage' });
    const inspect = async (name: string) => {
      await tree.getByRole('treeitem').filter({ hasText: name }).first().click({ timeout: 30_000 });
      const dialog = page.getByRole('dialog', { name: `Inspect: ${name}` });
      await dialog.getByRole('button', { name: 'Copy' }).waitFor({ timeout: 15_000 });
      return dialog;
    };
    const close = async (dialog: ReturnType<typeof page.getByRole>) => {
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'hidden' });
    };

    // A multihash: an IPFS gateway link in a new tab, no storage link.
    let dialog = await inspect('cid');
    let ipfs = dialog.getByRole('link', { name: 'View IPFS', exact: true });
    expect(await ipfs.getAttribute('href')).toMatch(new RegExp(`^https://[^/]+(/.*)?/ipfs/${CID_V0}$`));
    expect(await ipfs.getAttribute('target')).toBe('_blank');
    expect(await dialog.getByRole('link', { name: 'View Storage' }).count()).toBe(0);
    await close(dialog);

    // An ipfs URI: the gateway link keeps its path.
    dialog = await inspect('ipfs_uri');
    ipfs = dialog.getByRole('link', { name: 'View IPFS', exact: true });
    expect(await ipfs.getAttribute('href')).toMatch(
      new RegExp(`^https://[^/]+(/.*)?/ipfs/${CID_V1}/metadata\\.json$`),
    );
    await close(dialog);

    // A tezos-storage URI without a valid contract address: no link at all.
    dialog = await inspect('bad_uri');
    for (const label of ['View', 'View Storage', 'View IPFS'])
      expect(await dialog.getByRole('link', { name: label, exact: true }).count()).toBe(0);
    await close(dialog);

    // A tezos-storage URI naming a contract: its Storage tab.
    dialog = await inspect('uri');
    expect(await dialog.getByRole('link', { name: 'View IPFS' }).count()).toBe(0);
    const view = dialog.getByRole('link', { name: 'View Storage', exact: true });
    expect(await view.getAttribute('href')).toBe(`/${NETWORK}/${target}/storage`);
    await view.click();
    await page.waitForURL(`**/${NETWORK}/${target}/storage`, { timeout: 15_000 });
    expect(await page.getByRole('tab', { name: 'Storage' }).getAttribute('aria-selected')).toBe('true');
    await page
      .getByRole('tree', { name: 'Storage' })
      .getByRole('treeitem')
      .first()
      .waitFor({ timeout: 30_000 });
    await page.close();
  });

  it("code tab: long code shows 'Rendering: N%' while it is added in chunks, then the whole code", async ({
    skip,
  }) => {
    if (!big) skip(`${FIXTURES} not found`);
    const code = (await api<string>(`/contract/${NETWORK}/${big}/code`)).body;
    expect(code.length).toBeGreaterThan(CHUNK);
    const lines = code.replace(/\n+$/, '').split('\n');

    const page = await open(`/${NETWORK}/${big}/operations`);
    const tab = page.getByRole('tablist', { name: 'Account tabs' }).getByRole('tab', { name: 'Code' });
    await tab.waitFor({ timeout: 30_000 });
    // Every progress text the page shows, recorded as the DOM changes (installed before the click).
    await page.evaluate(() => {
      const seen: string[] = [];
      (globalThis as unknown as { renderingSeen: string[] }).renderingSeen = seen;
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('[role="status"]')) {
          const text = el.textContent ?? '';
          if (/^Rendering: \d+%/.test(text) && seen[seen.length - 1] !== text) seen.push(text);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await tab.click();
    const region = page.locator('[role="region"][aria-label="Michelson code"][aria-busy="false"]');
    await region.waitFor({ timeout: 60_000 });
    expect(await page.getByText(/^Rendering: \d+%/).count()).toBe(0);
    const seen = await page.evaluate(
      () => (globalThis as unknown as { renderingSeen: string[] }).renderingSeen,
    );
    const percents = seen.map((t) => Number(/^Rendering: (\d+)%/.exec(t)?.[1]));
    expect(percents.length).toBeGreaterThan(0);
    expect(percents.every((p) => p > 0 && p < 100)).toBe(true);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);

    // The whole code (every line is in the page, drawn where it is scrolled to): the first line, then
    // after a jump to the end its last line under its number.
    await region.locator('[data-n]').first().waitFor();
    expect(await region.locator('[data-n]').first().textContent()).toBe(lines[0]);
    await region.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    expect(await region.locator('[data-n]').last().getAttribute('data-n')).toBe(String(lines.length));
    expect(await region.locator('[data-n]').last().isVisible()).toBe(true);
    expect(await region.locator('[data-n]').last().textContent()).toBe(lines[lines.length - 1]);
    await page.close();
  });

  it("operation errors: a syntactic-constant error has its title and 'Show mismatch', which shows the wrong expression and the expected form", async () => {
    // A batch: a transfer, then an origination Octez refuses (included: the transfer backtracked).
    const hash = await injectAs(node!.sandbox, b1, [
      { kind: 'transaction', amount: '1000000', destination: b3.pkh },
      { kind: 'origination', balance: '0', script: { code: REFUSED_COUNT_CODE, storage: { prim: 'Unit' } } },
    ]);
    await indexed(hash);
    // (Listed by counter, descending: the origination first.)
    const ops = (
      await api<{ kind: string; status: string; errors?: Record<string, unknown>[] }[]>(
        `/opg/${NETWORK}/${hash}`,
      )
    ).body;
    expect(ops.map((o) => [o.kind, o.status])).toEqual([
      ['origination', 'failed'],
      ['transaction', 'backtracked'],
    ]);
    expect(ops[0]!.errors?.find((e) => String(e.id).endsWith('.invalid_syntactic_constant'))).toMatchObject({
      title: 'Invalid constant (parse error)',
      wrong_expression: '1024',
      expected_form: 'a positive 10-bit integer (between 0 and 1023)',
    });

    const page = await open(`/${NETWORK}/opg/${hash}/contents`);
    const alerts = page.getByRole('alert');
    const constant = alerts.filter({ hasText: 'Invalid constant (parse error)' });
    await constant.waitFor({ timeout: 30_000 });
    expect(
      await constant.getByText('A compile-time constant was invalid for its expected form.').count(),
    ).toBe(1);
    // Only the syntactic-constant error offers the comparison (not the ill-typed contract above it).
    const illTyped = alerts.filter({ hasText: 'Ill typed contract' });
    expect(await illTyped.count()).toBe(1);
    expect(await illTyped.getByRole('button', { name: 'Show mismatch' }).count()).toBe(0);
    const show = constant.getByRole('button', { name: 'Show mismatch' });
    expect(await show.getAttribute('aria-expanded')).toBe('false');
    expect(await constant.getByText('Wrong expression', { exact: true }).count()).toBe(0);
    await show.click();
    expect(await show.getAttribute('aria-expanded')).toBe('true');
    const panel = async (title: string) =>
      (await constant.getByText(title, { exact: true }).locator('xpath=..').locator('pre').textContent()) ??
      '';
    await constant.getByText('Wrong expression', { exact: true }).waitFor();
    expect(await panel('Wrong expression')).toBe('1024');
    expect(await panel('Expected form')).toBe('a positive 10-bit integer (between 0 and 1023)');
    // A second click hides it again.
    await show.click();
    await constant.getByText('Wrong expression', { exact: true }).waitFor({ state: 'hidden' });
    await page.close();
  });
});
