/**
 * Issue 21 against the real product (`michelscope start` on a fresh DATA_DIR, the seeded sandbox, Debian's
 * chromium). Storage compare: the test originates a contract with a big map (ledger) and a counter, then calls
 * it once (one group of three calls in one block: a key changed, one removed, one added), and compares the
 * origination level with the call's level on the storage tab — the counter's old ➛ new value, every changed
 * key with its old ➛ new value, the counts, the levels in the URL (a reload shows the same). Any page error or
 * console error fails the test. Screenshots (1440 and 375 px) go to MS_SHOTS_DIR (default /tmp/wt21-shots).
 */
import { mkdir, readFile } from 'node:fs/promises';
import { InMemorySigner } from '@taquito/signer';
import { OpKind, TezosToolkit } from '@taquito/taquito';
import { BOOTSTRAP_ACCOUNTS } from '@michelscope/sandbox';
import { describe, expect, it } from 'vitest';
import { appPages, canBrowse, heads, syncedSandboxSession, waitFor } from './harness';
import { api, contractOf, groupOf } from './sandbox-seed';

// The browser globals the page callbacks use (the root tsconfig has no DOM library).
declare const document: { documentElement: { scrollWidth: number } };
declare const window: { innerWidth: number };

const NETWORK = 'sandboxnet';
const SHOTS = process.env.MS_SHOTS_DIR ?? '/tmp/wt21-shots';
const UNREACHABLE = 'http://127.0.0.1:9';

/** parameter (pair string (option nat)): ledger[key] := value (None removes the key) and total + 1. */
const LEDGER_CODE = [
  {
    prim: 'parameter',
    args: [{ prim: 'pair', args: [{ prim: 'string' }, { prim: 'option', args: [{ prim: 'nat' }] }] }],
  },
  {
    prim: 'storage',
    args: [
      {
        prim: 'pair',
        args: [
          { prim: 'big_map', args: [{ prim: 'string' }, { prim: 'nat' }], annots: ['%ledger'] },
          { prim: 'nat', annots: ['%total'] },
        ],
      },
    ],
  },
  {
    prim: 'code',
    args: [
      [
        { prim: 'UNPAIR' },
        { prim: 'UNPAIR' },
        { prim: 'DIG', args: [{ int: '2' }] },
        { prim: 'UNPAIR' },
        { prim: 'SWAP' },
        { prim: 'PUSH', args: [{ prim: 'nat' }, { int: '1' }] },
        { prim: 'ADD' },
        { prim: 'DUG', args: [{ int: '3' }] },
        { prim: 'DUG', args: [{ int: '2' }] },
        { prim: 'UPDATE' },
        { prim: 'PAIR' },
        { prim: 'NIL', args: [{ prim: 'operation' }] },
        { prim: 'PAIR' },
      ],
    ],
  },
];
const elt = (k: string, v: number) => ({ prim: 'Elt', args: [{ string: k }, { int: String(v) }] });
const INITIAL = { prim: 'Pair', args: [[elt('alice', 10), elt('bob', 20)], { int: '0' }] };
const call = (key: string, value: number | null) => ({
  entrypoint: 'default',
  value: {
    prim: 'Pair',
    args: [
      { string: key },
      value === null ? { prim: 'None' } : { prim: 'Some', args: [{ int: String(value) }] },
    ],
  },
});

/** parameter (or (nat %add) (nat %sub)); storage nat: `sub` is the branch that differs between A and B. */
const calculator = (sub: string[]) => [
  {
    prim: 'parameter',
    args: [
      {
        prim: 'or',
        args: [
          { prim: 'nat', annots: ['%add'] },
          { prim: 'nat', annots: ['%sub'] },
        ],
      },
    ],
  },
  { prim: 'storage', args: [{ prim: 'nat' }] },
  {
    prim: 'code',
    args: [
      [
        { prim: 'UNPAIR' },
        { prim: 'IF_LEFT', args: [[{ prim: 'ADD' }], sub.map((prim) => ({ prim }))] },
        { prim: 'NIL', args: [{ prim: 'operation' }] },
        { prim: 'PAIR' },
      ],
    ],
  },
];
const CALC_A = calculator(['SWAP', 'SUB', 'ABS']);
const CALC_B = calculator(['SUB', 'ABS']);

describe.skipIf(!canBrowse('time-travel'))('time travel: storage compare', () => {
  const session = syncedSandboxSession({
    config: { networks: { mainnet: { rpc_url: UNREACHABLE }, ghostnet: { rpc_url: UNREACHABLE } } },
  });
  const pages = appPages(session);
  /** The ledger contract test 1 originates and calls (later tests export its operations). */
  let ledgerAddress = '';
  const toolkit = async () => {
    const tezos = new TezosToolkit(`${session.server.url}/rpc/${NETWORK}`);
    tezos.setProvider({
      signer: await InMemorySigner.fromSecretKey(BOOTSTRAP_ACCOUNTS[0]!.sk),
      config: { confirmationPollingTimeoutSecond: 120 },
    });
    return tezos;
  };
  const indexedAt = (level: number) =>
    waitFor(`${NETWORK} indexed up to ${level}`, 120_000, async () =>
      (await heads(session.server.url)).find((h) => h.network === NETWORK && h.level >= level)
        ? true
        : undefined,
    );

  it(
    'compares the storage at two levels: field old ➛ new, big-map keys added, changed, removed with counts',
    {
      timeout: 400_000,
    },
    async () => {
      await mkdir(SHOTS, { recursive: true });
      const tezos = await toolkit();
      const orig = await tezos.contract.originate({ code: LEDGER_CODE, init: INITIAL });
      await orig.confirmation(1);
      const address = orig.contractAddress!;
      ledgerAddress = address;
      // one group, one block: alice 10 ➛ 11, bob removed, carol added with 7
      const batch = await tezos.contract
        .batch([
          { kind: OpKind.TRANSACTION, to: address, amount: 0, parameter: call('alice', 11) },
          { kind: OpKind.TRANSACTION, to: address, amount: 0, parameter: call('bob', null) },
          { kind: OpKind.TRANSACTION, to: address, amount: 0, parameter: call('carol', 7) },
        ])
        .send();
      await batch.confirmation(1);
      const group = await waitFor('the calls indexed', 120_000, async () => {
        // not indexed yet: no data (204) or an ApiError thrown, both 'not yet'
        const rows = ((await groupOf(session.server.url, batch.hash)) ?? []) as Array<{ level: number }>;
        return rows.length > 0 ? rows : undefined;
      });
      const callLevel = group[0]!.level;
      const contract = await contractOf(session.server.url, address);
      const origLevel = contract.level;
      expect(callLevel).toBeGreaterThan(origLevel);
      await indexedAt(callLevel);

      // Open the storage tab, 'Compare', pick the two ends by their operations
      const page = await pages.open();
      await page.setViewportSize({ width: 1440, height: 1000 });
      await page.goto(`${session.server.url}/${NETWORK}/${address}/storage`);
      await page.getByRole('button', { name: 'Compare', exact: true }).click();
      const form = page.getByRole('form', { name: 'Compare storage' });
      await form.getByLabel('From level').fill(String(origLevel));
      await form.getByRole('combobox', { name: 'To: after operation' }).click();
      await page
        .getByRole('option', { name: new RegExp(`^${callLevel.toLocaleString('en-US')} · `) })
        .click();
      expect(await form.getByLabel('To level').inputValue()).toBe(String(callLevel));
      await form.getByRole('button', { name: 'Compare', exact: true }).click();

      // the levels are in the URL
      await page.waitForURL((u) => u.searchParams.get('from') === String(origLevel));
      expect(new URL(page.url()).searchParams.get('to')).toBe(String(callLevel));

      const check = async () => {
        await page
          .getByRole('heading', {
            name: `Storage at ${origLevel.toLocaleString('en-US')} ➛ ${callLevel.toLocaleString('en-US')}`,
          })
          .waitFor();
        // the counter field: 0 ➛ 3
        const fields = page.getByRole('tree', { name: 'Storage diff' });
        await expect.poll(() => fields.innerText()).toMatch(/total:\s*0\s*➛\s*3/);
        // the ledger: counts and each key with its old ➛ new value
        const ledger = page.getByRole('region', { name: /^ledger · Big Map \d+$/ });
        const chips = ledger.getByLabel('Key changes');
        await expect.poll(() => chips.innerText()).toMatch(/1 added[\s\S]*1 changed[\s\S]*1 removed/);
        const keys = ledger.getByRole('list', { name: /^Changed keys of ledger/ });
        await expect.poll(() => keys.getByRole('listitem').count()).toBe(3);
        const alice = keys.getByRole('listitem', { name: 'Changed key alice' });
        await expect.poll(() => alice.getByRole('tree').innerText()).toMatch(/10\s*➛\s*11/);
        const carol = keys.getByRole('listitem', { name: 'Added key carol' });
        expect(await carol.getByRole('tree').innerText()).toContain('7');
        const bob = keys.getByRole('listitem', { name: 'Removed key bob' });
        expect(await bob.getByRole('tree').innerText()).toContain('20');
        expect(await ledger.getByText('1–3 of 3').count()).toBe(1);
      };
      await check();
      await page.screenshot({ path: `${SHOTS}/storage-compare-1440.png`, fullPage: true });

      // the class filter keeps the removed key only
      const ledger = page.getByRole('region', { name: /^ledger · Big Map \d+$/ });
      await ledger.getByRole('button', { name: 'Removed', exact: true }).click();
      await expect.poll(() => ledger.getByRole('listitem').count()).toBe(1);
      expect(await ledger.getByRole('listitem').first().getAttribute('aria-label')).toBe('Removed key bob');

      // the URL alone brings the comparison back (reload), on a phone too
      await page.setViewportSize({ width: 375, height: 800 });
      await page.reload();
      await check();
      await page.screenshot({ path: `${SHOTS}/storage-compare-375.png`, fullPage: true });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);

      // closing returns to the storage tree (without the levels in the URL)
      await page.getByRole('button', { name: 'Close comparison' }).click();
      // exact: the comparison's own 'Storage diff' tree has 'Storage' in its name, and matched at once while
      // the comparison was still shown (the URL then still had its levels: failed both tries, session 20)
      await page.getByRole('tree', { name: 'Storage', exact: true }).waitFor();
      await expect.poll(() => new URL(page.url()).searchParams.has('from')).toBe(false);
    },
  );

  it(
    "compares code: another contract's changed entrypoint side by side and unified, a same contract equal",
    { timeout: 400_000 },
    async () => {
      await mkdir(SHOTS, { recursive: true });
      const tezos = await toolkit();
      // A twice (same code), B with another `sub` branch; originated one after the other (one signer)
      const addresses: string[] = [];
      for (const code of [CALC_A, CALC_A, CALC_B]) {
        const op = await tezos.contract.originate({ code, init: { int: '0' } });
        await op.confirmation(1);
        addresses.push(op.contractAddress!);
      }
      const [a1, a2, b] = addresses as [string, string, string];
      await waitFor('the originations indexed', 120_000, async () => {
        // 204 (not indexed yet) is a success for the client: wait for the 200 of the contract's record
        const { response } = await api(session.server.url).GET('/v1/contract/{network}/{address}', {
          params: { path: { network: NETWORK, address: b } },
        });
        return response.status === 200 ? true : undefined;
      });

      const page = await pages.open();
      await page.setViewportSize({ width: 1440, height: 1000 });
      await page.goto(`${session.server.url}/${NETWORK}/${a1}/code`);
      await page.getByRole('button', { name: 'Compare code' }).click();
      const form = page.getByRole('form', { name: 'Another contract' });
      await form.getByLabel('Contract address').fill(b);
      await form.getByRole('button', { name: 'Compare', exact: true }).click();
      await page.waitForURL((u) => u.searchParams.get('compare') === `${NETWORK}:${b}`);

      // the changed entrypoint is named, and only its block differs
      const named = page.getByRole('region', { name: 'Changed entrypoints' });
      await expect.poll(() => named.getByRole('listitem').allInnerTexts()).toEqual(['sub']);
      const sub = page.getByRole('region', { name: 'Block entrypoint sub' });
      expect(await sub.innerText()).toContain('changed');
      expect(await page.getByRole('region', { name: 'Block entrypoint add' }).innerText()).toMatch(
        /unchanged/,
      );
      const split = sub.getByRole('table', { name: 'Side-by-side diff of entrypoint sub' });
      const cells = await split.getByRole('cell').allInnerTexts();
      expect(cells.join('\n')).toMatch(/SWAP/);
      expect(cells.filter((c) => c.includes('SWAP'))).toHaveLength(1);
      await page.screenshot({ path: `${SHOTS}/code-compare-1440.png`, fullPage: true });

      await page.getByRole('button', { name: 'Unified' }).click();
      const unified = sub.getByRole('list', { name: 'Unified diff of entrypoint sub' });
      const lines = await unified.getByRole('listitem').allInnerTexts();
      expect(lines.find((l) => l.startsWith('-'))).toMatch(/SWAP ; SUB ; ABS/);
      expect(lines.find((l) => l.startsWith('+'))).toMatch(/SUB ; ABS/);
      expect(lines.find((l) => l.startsWith('+'))).not.toMatch(/SWAP/);
      await page.setViewportSize({ width: 375, height: 800 });
      await page.screenshot({ path: `${SHOTS}/code-compare-375.png`, fullPage: true });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);

      // a member of 'Same contracts': the same code
      await page.setViewportSize({ width: 1440, height: 1000 });
      await page.getByRole('button', { name: 'Same contracts' }).click();
      await page
        .getByRole('list', { name: 'Same contracts' })
        .getByRole('button', { name: new RegExp(a2) })
        .click();
      await page.waitForURL((u) => u.searchParams.get('compare') === `${NETWORK}:${a2}`);
      await page.getByText('The two codes are the same.').waitFor();
      // another protocol: the sandbox never migrated this contract
      await page.getByRole('button', { name: 'Another protocol' }).click();
      await page.getByText('No protocol change gave this contract other code.').waitFor();
    },
  );

  it(
    'exports the operations tab as CSV and JSON, streamed with a row count, amounts in mutez and tez',
    { timeout: 300_000 },
    async () => {
      expect(ledgerAddress).not.toBe('');
      const ledger = ledgerAddress;
      const page = await pages.open();
      await page.setViewportSize({ width: 1440, height: 1000 });
      await page.goto(`${session.server.url}/${NETWORK}/${ledger}/operations`);
      await page.getByRole('list', { name: 'Operation groups' }).waitFor();
      const exportAs = async (format: 'CSV' | 'JSON') => {
        await page.getByRole('button', { name: 'Export operations', exact: true }).click();
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('menuitem', { name: `Export operations as ${format}` }).click(),
        ]);
        return { name: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
      };
      const csv = await exportAs('CSV');
      expect(csv.name).toMatch(new RegExp(`^${ledger}-operations-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
      const [header, ...lines] = csv.text.trimEnd().split('\r\n');
      const cols = header!.split(',');
      const rows = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])));
      // the origination and the group of three calls, newest first
      expect(rows.map((r) => r.kind)).toEqual(['transaction', 'transaction', 'transaction', 'origination']);
      expect(rows.every((r) => r.status === 'applied')).toBe(true);
      const fee = rows.at(-1)!;
      expect(Number(fee.fee_mutez)).toBeGreaterThan(0);
      expect(fee.fee_tez).toBe((Number(fee.fee_mutez) / 1e6).toFixed(6));
      expect(rows[0]).toMatchObject({ amount_mutez: '0', amount_tez: '0.000000', destination: ledger });
      await expect
        .poll(() => page.getByRole('status', { name: 'Export progress' }).innerText())
        .toBe('Exported 4 rows');

      const json = await exportAs('JSON');
      const items = JSON.parse(json.text) as Array<Record<string, unknown>>;
      expect(items.map((i) => i.id)).toEqual(rows.map((r) => Number(r.id)));
      expect(items[3]).toMatchObject({ kind: 'origination', fee_tez: fee.fee_tez });

      // the tab's search text is a filter of the export too: the start of the origination's group hash
      await page.getByRole('searchbox', { name: 'Search operations' }).fill(fee.hash!.slice(0, 12));
      await expect
        .poll(() => page.getByRole('list', { name: 'Operation groups' }).getByRole('listitem').count())
        .toBe(1);
      const found = await exportAs('JSON');
      expect((JSON.parse(found.text) as Array<Record<string, unknown>>).map((i) => [i.kind, i.hash])).toEqual(
        [['origination', fee.hash]],
      );
      await page.getByRole('searchbox', { name: 'Search operations' }).fill('');
      await page.screenshot({ path: `${SHOTS}/export-1440.png` });
      await page.setViewportSize({ width: 375, height: 800 });
      await page.screenshot({ path: `${SHOTS}/export-375.png` });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    },
  );
});
