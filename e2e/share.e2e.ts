import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  appPages,
  canBrowse,
  heads,
  showDetails,
  syncedSandboxSession,
  UI_TIMEOUT,
  waitFor,
} from './harness';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { api, connectSandboxWallet, counterContract, groupOf, json } from './sandbox-seed';
import { fillCall, paramField as param, simulateCall, simulateForm } from './workspace-steps';
import { callAsBootstrap, originateAsBootstrap } from './fixture-contracts';

// Share links (issue 20, capability 6), driven on the seeded sandbox: a what-if bundle debugged at some step,
// its link copied from the debugger and opened in a fresh page (at 375 px): the same what-if result and the
// same debugger step, line and stack; a state too long for a fragment goes through a stored id (listed by the
// API) and reruns to the same figures; a damaged link says so in the page.
const canRun = canBrowse('share');

const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: UI_TIMEOUT, interval: 250 });
const flat = async (l: Locator) => (await l.innerText()).replace(/\s+/g, ' ').trim();
const shots = process.env.MS_SHOTS_DIR;

/** The debugger's position as a user sees it: the step counter, the highlighted line and the stack. */
async function debuggerAt(dbg: Locator) {
  const facts = dbg.getByLabel('Debugger state');
  const row = dbg.locator('[aria-current="step"][data-line]');
  return {
    facts: await flat(facts),
    line: await row.getAttribute('data-line'),
    mark: (await row.locator('mark').innerText()).trim(),
    stack: await flat(dbg.getByRole('tree', { name: 'Stack items, top first' })),
  };
}

/** Clicks 'Copy link' in `scope` and reads the link it shows. */
async function copyLink(scope: Locator): Promise<string> {
  await scope.getByRole('button', { name: 'Copy link' }).click();
  const field = scope.getByLabel('Share link');
  await poll(() => field.inputValue()).toMatch(/^http/);
  return field.inputValue();
}

describe.skipIf(!canRun)('share links on sandboxnet', () => {
  const session = syncedSandboxSession();
  const pages = appPages(session);

  it(
    '1. a what-if bundle debugged at a step: its link reopens the same result, step, line and stack',
    { timeout: 300_000 },
    async () => {
      const url = session.server.url;
      const counter = await counterContract(url);
      const page = await pages.open();
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${url}/sandboxnet/${counter}/interact/increment`);
      await page.getByRole('button', { name: /^Overrides/ }).click();
      const region = page.getByRole('region', { name: /^Overrides/ });
      await region.getByRole('button', { name: 'Edit as Michelson' }).click();
      const storage = region.getByLabel('Storage (Michelson or Micheline JSON)');
      // the editor is filled with the current storage once it comes (an empty one blocked the bundle once)
      await poll(() => storage.inputValue()).toMatch(/^Pair -?\d+ /);
      const current = await storage.inputValue();
      await storage.fill(current.replace(/^Pair -?\d+/, 'Pair 1000'));
      await region.getByLabel('Balance (mutez)').fill('777');
      await param(page, 'increment').fill('5');
      await page.getByRole('button', { name: 'Add call to bundle' }).click();
      await param(page, 'increment').fill('7');
      await page.getByRole('button', { name: 'Add call to bundle' }).click();
      await page.getByRole('button', { name: 'Simulate bundle (2)' }).click();
      const dlg = page.getByRole('dialog', { name: 'What-if result' });
      const diff = dlg.getByRole('region', { name: 'Storage diff' });
      await poll(() => flat(diff)).toContain('1,000 ➛ 1,012');
      const diffText = await flat(diff);
      // a link reruns at the head it is opened at: all but the level and time are the same
      const atHead = (t: string) => t.replace(/Level \d+ Now \S+/, '');
      const inputs = atHead(await flat(dlg.getByLabel('What-if inputs')));
      const simulatedAt = await flat(dlg.getByLabel('Simulated at'));
      expect(simulatedAt).toMatch(/^Simulated at level [\d,]+$/);
      expect(inputs).toContain('Balance before 0.000777 ꜩ');

      // the second call, six steps in
      await dlg.getByRole('button', { name: 'Debug call 2' }).click();
      const dbg = page.getByRole('dialog', { name: /^Debugger/ });
      await dbg.getByRole('toolbar', { name: 'Debugger controls' }).waitFor();
      for (let i = 0; i < 6; i++) await dbg.getByRole('button', { name: 'Step', exact: true }).click();
      await poll(async () => (await debuggerAt(dbg)).facts).toMatch(/^Step 7 \/ \d+/);
      const at = await debuggerAt(dbg);
      const link = await copyLink(dbg);
      expect(link).toMatch(new RegExp(`^${url}/sandboxnet/${counter}/interact/increment#s=`));
      expect(link.length).toBeLessThan(2200);
      if (shots) await page.screenshot({ path: `${shots}/share-debugger-1440.png` });

      // a fresh page on a phone: the what-if runs again and the debugger opens where it stood
      const phone = await pages.open();
      await phone.setViewportSize({ width: 375, height: 800 });
      await phone.goto(link);
      const dbg2 = phone.getByRole('dialog', { name: /^Debugger/ });
      await dbg2.getByRole('toolbar', { name: 'Debugger controls' }).waitFor();
      await poll(async () => (await debuggerAt(dbg2)).facts).toMatch(/^Step 7 \/ \d+/);
      expect(await debuggerAt(dbg2)).toEqual(at);
      // the link's rerun is pinned to the level it was made at: its debugger says so, as its result does
      expect(await flat(dbg2.getByLabel('Simulated at'))).toBe(simulatedAt);
      expect(await phone.title()).toBeTruthy();
      if (shots) await phone.screenshot({ path: `${shots}/share-debugger-375.png` });
      await dbg2.getByRole('button', { name: 'Close' }).click();
      const dlg2 = phone.getByRole('dialog', { name: 'What-if result' });
      await poll(() => flat(dlg2.getByRole('region', { name: 'Storage diff' }))).toBe(diffText);
      expect(atHead(await flat(dlg2.getByLabel('What-if inputs')))).toBe(inputs);
      // the link's position is used once: 'Debug' again starts at the first step
      await dlg2.getByRole('button', { name: 'Debug call 2' }).click();
      await poll(async () => (await debuggerAt(dbg2)).facts).toMatch(/^Step 1 \/ \d+/);
      await dbg2.getByRole('button', { name: 'Close' }).click();
      if (shots) await phone.screenshot({ path: `${shots}/share-whatif-375.png` });
      // the form holds the link's inputs: the bundle and the overrides
      await dlg2.getByRole('button', { name: 'Close' }).click();
      await poll(() => phone.getByRole('list', { name: 'Bundle calls' }).getByRole('listitem').count()).toBe(
        2,
      );
      expect(await phone.getByRole('button', { name: /^Overrides · set/ }).count()).toBe(1);
    },
  );

  it(
    '2. a state too long for a fragment: the link carries a stored id, listed by the API, and reruns the same',
    { timeout: 300_000 },
    async () => {
      const url = session.server.url;
      const counter = await counterContract(url);
      const page = await pages.open();
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${url}/sandboxnet/${counter}/interact/note`);
      // a note of 3,000 hardly compressible characters
      const text = Array.from({ length: 600 }, (_, i) => ((i * 7919) % 100_003).toString(36))
        .join('-')
        .slice(0, 3000);
      const fields = page.getByRole('region', { name: 'Parameters' }).getByRole('textbox');
      await fields.nth(0).fill(text);
      await fields.nth(1).fill('42');
      await page.getByRole('button', { name: 'Simulate', exact: true }).click();
      const sim = page.getByRole('dialog', { name: 'Simulation result' });
      const totals = await flat(sim.getByLabel('Simulation totals'));
      expect(totals).toMatch(/Consumed gas [\d,]+/);
      const diff = await flat(sim.getByRole('region', { name: 'Storage diff' }));
      expect(diff).toContain(text.slice(0, 40));
      const link = await copyLink(sim);
      const id = /#share=([A-Za-z0-9_-]{22})$/.exec(link)?.[1];
      expect(id, link).toBeTruthy();
      // stored under that id (unlisted: the link alone reads it)
      const stored = await api(url).unwrap(
        api(url).GET('/v1/shares/{id}', { params: { path: { id: id! } } }),
      );
      expect((stored.state as { entrypoint: string }).entrypoint).toBe('note');
      // the same state again: the same link
      await sim.getByRole('button', { name: 'Copy link' }).click();
      expect(await sim.getByLabel('Share link').inputValue()).toBe(link);

      const other = await pages.open();
      await other.goto(link);
      const sim2 = other.getByRole('dialog', { name: 'Simulation result' });
      await poll(() => flat(sim2.getByLabel('Simulation totals'))).toBe(totals);
      expect(await flat(sim2.getByRole('region', { name: 'Storage diff' }))).toBe(diff);
    },
  );

  it(
    '2b. a simulation with a storage limit: its link keeps the limit, which the rerun fills in and runs out of storage with',
    { timeout: 300_000 },
    async () => {
      const url = session.server.url;
      const counter = await counterContract(url);
      const page = await pages.open();
      await page.goto(`${url}/sandboxnet/${counter}/interact/note`);
      const fields = page.getByRole('region', { name: 'Parameters' }).getByRole('textbox');
      await fields.nth(0).fill(`shared storage limit ${Date.now()}`);
      await fields.nth(1).fill('9'.repeat(600));
      const sim = page.getByRole('dialog', { name: 'Simulation result' });
      // without a limit: the bytes the call pays for
      await page.getByRole('button', { name: 'Simulate', exact: true }).click();
      const totals = sim.getByLabel('Simulation totals');
      await poll(() => flat(totals)).toMatch(/Storage size diff [\d,]+ bytes/);
      const paid = Number(/Storage size diff ([\d,]+) bytes/.exec(await flat(totals))![1]!.replace(/,/g, ''));
      expect(paid).toBeGreaterThan(0);
      await sim.getByRole('button', { name: 'Close' }).click();
      // one byte less: it runs out of storage
      const limit = paid - 1;
      await page.getByLabel('Storage limit (bytes)', { exact: true }).fill(String(limit));
      await page.getByRole('button', { name: 'Simulate', exact: true }).click();
      const n = (x: number) => x.toLocaleString('en-US');
      const why = `Ran out of storage: limit ${n(limit)} bytes, used ${n(paid)} bytes · grew: ${counter} (+${n(paid)} bytes)`;
      await poll(() => flat(sim.getByRole('alert', { name: 'Why it failed' }))).toContain(why);
      const link = await copyLink(sim);

      // a fresh page: the limit is back in its input and the rerun runs out of storage the same way
      const other = await pages.open();
      await other.goto(link);
      const sim2 = other.getByRole('dialog', { name: 'Simulation result' });
      await poll(() => flat(sim2.getByRole('alert', { name: 'Why it failed' }))).toContain(why);
      expect(await flat(sim2.getByLabel('Simulation totals'))).toContain(`Storage limit ${n(limit)}`);
      // its debugger runs at the link's level with the limit: the same level, the same figures
      const pinnedAt = await flat(sim2.getByLabel('Simulated at'));
      expect(pinnedAt).toBe(await flat(sim.getByLabel('Simulated at')));
      await sim2.getByRole('button', { name: 'Debug' }).click();
      const dbg = other.getByRole('dialog', { name: /^Debugger/ });
      await dbg.getByRole('toolbar', { name: 'Debugger controls' }).waitFor();
      expect(await flat(dbg.getByLabel('Simulated at'))).toBe(pinnedAt);
      await poll(() => flat(dbg.getByRole('alert', { name: 'Why it failed' }))).toContain(
        `Ran out of storage: limit ${n(limit)} bytes, used ${n(paid)} bytes`,
      );
      await dbg.getByRole('button', { name: 'Close' }).click();
      await sim2.getByRole('button', { name: 'Close' }).click();
      expect(await other.getByLabel('Storage limit (bytes)', { exact: true }).inputValue()).toBe(
        String(limit),
      );
    },
  );

  it('3. a damaged link says so in the page, and the form still works', { timeout: 300_000 }, async () => {
    const url = session.server.url;
    const counter = await counterContract(url);
    const page = await pages.open();
    await page.goto(`${url}/sandboxnet/${counter}/interact/increment#s=NoIgdghg9gTg1gZwF4EMA2iA`);
    const alert = page.getByRole('alert').filter({ hasText: 'This shared simulation cannot be opened' });
    await poll(() => alert.count()).toBe(1);
    expect(await alert.innerText()).toMatch(/damaged|not an object|missing/);
    await param(page, 'increment').fill('2');
    await simulateForm(page);
  });

  it(
    "4. a view's result and its debugger position: each link reopens the same value and step",
    { timeout: 300_000 },
    async () => {
      const url = session.server.url;
      const counter = await counterContract(url);
      const page = await pages.open();
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${url}/sandboxnet/${counter}/views/get_note`);
      await page.getByRole('region', { name: 'Parameters' }).getByRole('textbox').first().fill('genesis');
      await page.getByRole('button', { name: 'Execute' }).click();
      const result = page.getByRole('dialog', { name: 'View result' });
      const tree = result.getByRole('tree', { name: 'Result' });
      await tree.waitFor({ timeout: UI_TIMEOUT });
      const value = await flat(tree);
      expect(value.length).toBeGreaterThan(0);
      const link = await copyLink(result);
      expect(link).toMatch(new RegExp(`^${url}/sandboxnet/${counter}/views/get_note#s=`));
      if (shots) await page.screenshot({ path: `${shots}/share-view-1440.png` });
      // the debugger three steps in, and its link
      await result.getByRole('button', { name: 'Debug' }).click();
      const dbg = page.getByRole('dialog', { name: /^Debugger/ });
      await dbg.getByRole('toolbar', { name: 'Debugger controls' }).waitFor({ timeout: UI_TIMEOUT });
      for (let i = 0; i < 3; i++) await dbg.getByRole('button', { name: 'Step', exact: true }).click();
      await poll(async () => (await debuggerAt(dbg)).facts).toMatch(/^Step 4 \/ \d+/);
      const at = await debuggerAt(dbg);
      // the recording's level (the indexed head then), which its link keeps
      const dbgAt = await flat(dbg.getByLabel('Simulated at'));
      expect(dbgAt).toMatch(/^Simulated at level [\d,]+$/);
      const dbgLink = await copyLink(dbg);

      const phone = await pages.open();
      await phone.setViewportSize({ width: 375, height: 800 });
      await phone.goto(link);
      const result2 = phone.getByRole('dialog', { name: 'View result' });
      await poll(() => flat(result2.getByRole('tree', { name: 'Result' }))).toBe(value);
      if (shots) await phone.screenshot({ path: `${shots}/share-view-375.png` });
      // the form holds the link's input
      await result2.getByRole('button', { name: 'Close' }).click();
      expect(
        await phone.getByRole('region', { name: 'Parameters' }).getByRole('textbox').first().inputValue(),
      ).toBe('genesis');

      const other = await pages.open();
      await other.goto(dbgLink);
      const dbg2 = other.getByRole('dialog', { name: /^Debugger/ });
      await dbg2.getByRole('toolbar', { name: 'Debugger controls' }).waitFor({ timeout: UI_TIMEOUT });
      await poll(async () => (await debuggerAt(dbg2)).facts).toMatch(/^Step 4 \/ \d+/);
      expect(await debuggerAt(dbg2)).toEqual(at);
      expect(await flat(dbg2.getByLabel('Simulated at'))).toBe(dbgAt);
      await dbg2.getByRole('button', { name: 'Close' }).click();
      await poll(() =>
        flat(other.getByRole('dialog', { name: 'View result' }).getByRole('tree', { name: 'Result' })),
      ).toBe(value);
      // a damaged link says so, and the tab still works
      const wrong = await pages.open();
      await wrong.goto(`${url}/sandboxnet/${counter}/views/get_note#s=NoIgdghg9gTg1gZwF4EMA2iA`);
      const alert = wrong.getByRole('alert').filter({ hasText: 'This shared simulation cannot be opened' });
      await poll(() => alert.count()).toBe(1);
      await wrong.getByRole('button', { name: 'Execute' }).waitFor();
    },
  );

  it(
    '5. the deploy page: its simulation and its debugged call (a form of the parameter type) reopen by link',
    { timeout: 300_000 },
    async () => {
      const url = session.server.url;
      const file = path.join(session.dataDir, 'adder-share.tz');
      await writeFile(
        file,
        'parameter (or (int %add) (unit %reset));\nstorage (pair (int %total) (string %label));\ncode { UNPAIR; IF_LEFT { DIP { UNPAIR }; ADD; PAIR } { DROP; CDR; PUSH int 0; PAIR }; NIL operation; PAIR }\n',
      );
      const page = await pages.open();
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${url}/deploy`);
      await page.getByLabel('Michelson code file').setInputFiles(file);
      await page.getByRole('button', { name: 'Continue' }).click();
      const storageForm = page.getByRole('region', { name: 'Initial storage' });
      await storageForm.getByLabel('total').fill('40');
      await storageForm.getByLabel('label').fill('e2e');
      await page.getByRole('button', { name: 'Simulate' }).click();
      const sim = page.getByRole('region', { name: 'Origination simulation' });
      await sim.getByRole('region', { name: 'Simulation result' }).waitFor({ timeout: UI_TIMEOUT });
      const simText = await flat(sim.getByRole('region', { name: 'Simulation result' }).getByRole('table'));
      expect(simText).toMatch(/\d/);
      // where it ran (the node's head then): the link keeps it
      const simAt = await flat(sim.getByLabel('Simulated at'));
      expect(simAt).toMatch(/^Simulated at level [\d,]+$/);
      const simLink = await copyLink(sim);
      expect(simLink).toMatch(new RegExp(`^${url}/deploy#s=`));

      // the debugged call: entrypoint add, its int from the form
      const form = page.getByRole('region', { name: 'Debug a call of the script' });
      await form.getByLabel('Entrypoint').click();
      await page.getByRole('option', { name: 'add' }).click();
      await form.getByRole('region', { name: 'Parameters' }).getByRole('textbox').first().fill('2');
      await form.getByRole('button', { name: 'Debug' }).click();
      const dbg = page.getByRole('dialog', { name: /^Debugger/ });
      await dbg.getByRole('toolbar', { name: 'Debugger controls' }).waitFor({ timeout: UI_TIMEOUT });
      await page.keyboard.press('e');
      await poll(async () => (await debuggerAt(dbg)).facts).toMatch(/^Step (\d+) \/ \1\b/);
      const at = await debuggerAt(dbg);
      // the new storage's total, 40 + 2, on the stack
      expect(at.stack).toContain('42');
      // the recording's level (the indexed head then), which its link keeps
      const dbgAt = await flat(dbg.getByLabel('Simulated at'));
      expect(dbgAt).toMatch(/^Simulated at level [\d,]+$/);
      const dbgLink = await copyLink(dbg);
      expect(dbgLink).toMatch(new RegExp(`^${url}/deploy#s=`));
      if (shots) await page.screenshot({ path: `${shots}/share-deploy-1440.png` });

      const phone = await pages.open();
      await phone.setViewportSize({ width: 375, height: 800 });
      await phone.goto(simLink);
      const sim2 = phone.getByRole('region', { name: 'Origination simulation' });
      // the same result at the same level (its block's time in the table)
      await poll(() => flat(sim2.getByRole('region', { name: 'Simulation result' }).getByRole('table'))).toBe(
        simText,
      );
      expect(await flat(sim2.getByLabel('Simulated at'))).toBe(simAt);
      expect(
        await phone.getByRole('region', { name: 'Initial storage' }).getByLabel('total').inputValue(),
      ).toBe('40');
      if (shots) await phone.screenshot({ path: `${shots}/share-deploy-375.png` });

      const other = await pages.open();
      await other.goto(dbgLink);
      const dbg2 = other.getByRole('dialog', { name: /^Debugger/ });
      await dbg2.getByRole('toolbar', { name: 'Debugger controls' }).waitFor({ timeout: UI_TIMEOUT });
      await poll(async () => (await debuggerAt(dbg2)).facts).toBe(at.facts);
      expect(await debuggerAt(dbg2)).toEqual(at);
      expect(await flat(dbg2.getByLabel('Simulated at'))).toBe(dbgAt);
      await dbg2.getByRole('button', { name: 'Close' }).click();
      // the form holds the link's call; the Michelson switch keeps the raw text input
      const form2 = other.getByRole('region', { name: 'Debug a call of the script' });
      expect(
        await form2.getByRole('region', { name: 'Parameters' }).getByRole('textbox').first().inputValue(),
      ).toBe('2');
      await form2.getByLabel('Michelson', { exact: true }).check();
      // the entrypoint's own parameter (add takes an int)
      await form2.getByLabel('Parameter (Michelson)').fill('5');
      await form2.getByRole('button', { name: 'Debug' }).click();
      await dbg2.getByRole('toolbar', { name: 'Debugger controls' }).waitFor({ timeout: UI_TIMEOUT });
      await other.keyboard.press('e');
      await poll(async () => flat(dbg2.getByRole('tree', { name: 'Stack items, top first' }))).toContain(
        '45',
      );
    },
  );

  it(
    "6. an operation's debugger: its link reopens the operation page's debugger at the same step",
    { timeout: 300_000 },
    async () => {
      const url = session.server.url;
      const counter = await counterContract(url);
      const groups = await api(url).unwrap(
        api(url).GET('/v1/contract/{network}/{address}/opg', {
          params: { path: { network: 'sandboxnet', address: counter } },
        }),
      );
      let found: { hash: string; id: number } | undefined;
      for (const g of groups) {
        const ops = (await groupOf(url, g.hash)) as {
          id: number;
          kind: string;
          destination?: string;
          status: string;
        }[];
        if (
          ops.length === 1 &&
          ops[0]!.kind === 'transaction' &&
          ops[0]!.destination === counter &&
          ops[0]!.status === 'applied'
        ) {
          found = { hash: g.hash, id: ops[0]!.id };
          break;
        }
      }
      if (!found) throw new Error('no single call of the counter is indexed');
      const page = await pages.open();
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${url}/sandboxnet/opg/${found.hash}/contents`);
      await showDetails(page.getByRole('button', { name: 'Show details' }).first());
      await page.getByRole('button', { name: 'Debug' }).click();
      const dbg = page.getByRole('dialog', { name: /^Debugger/ });
      await dbg.getByRole('toolbar', { name: 'Debugger controls' }).waitFor({ timeout: UI_TIMEOUT });
      for (let i = 0; i < 4; i++) await dbg.getByRole('button', { name: 'Step', exact: true }).click();
      await poll(async () => (await debuggerAt(dbg)).facts).toMatch(/^Step 5 \/ \d+/);
      const at = await debuggerAt(dbg);
      const link = await copyLink(dbg);
      expect(link).toBe(`${url}/sandboxnet/opg/${found.hash}/contents#debug=${found.id}.4.step`);
      if (shots) await page.screenshot({ path: `${shots}/share-operation-1440.png` });

      const phone = await pages.open();
      await phone.setViewportSize({ width: 375, height: 800 });
      await phone.goto(link);
      const dbg2 = phone.getByRole('dialog', { name: /^Debugger/ });
      await dbg2.getByRole('toolbar', { name: 'Debugger controls' }).waitFor({ timeout: UI_TIMEOUT });
      await poll(async () => (await debuggerAt(dbg2)).facts).toMatch(/^Step 5 \/ \d+/);
      expect(await debuggerAt(dbg2)).toEqual(at);
      if (shots) await phone.screenshot({ path: `${shots}/share-operation-375.png` });
      await dbg2.getByRole('button', { name: 'Close' }).click();

      // a damaged one, and one naming an operation not in the group: said so, the page still works
      for (const hash of ['#debug=1.x.step', `#debug=${found.id + 100_000}.1.step`]) {
        const bad = await pages.open();
        await bad.goto(`${url}/sandboxnet/opg/${found.hash}/contents${hash}`);
        const alert = bad.getByRole('alert').filter({ hasText: 'This shared simulation cannot be opened' });
        await poll(() => alert.count()).toBe(1);
        expect(await alert.innerText()).toMatch(/damaged|no contract call/);
        await bad.getByRole('button', { name: 'Show details' }).first().click();
        await bad.getByRole('button', { name: 'Debug' }).waitFor();
      }
    },
  );

  it(
    '7. a simulation pinned to its level: after a real call changes the contract, its link shows the first result',
    { timeout: 300_000 },
    async () => {
      const url = session.server.url;
      const counter = await counterContract(url);
      // bounds of the indexed head while simulating: GET /v1/head (cached, never ahead) before, the node's
      // head (never behind the indexer) after
      const indexedHead = async () => (await heads(url)).find((h) => h.network === 'sandboxnet')!.level;
      const nodeHead = async () =>
        ((await json(`${url}/rpc/sandboxnet/chains/main/blocks/head/header`)) as { level: number }).level;
      const page = await pages.open();
      await page.setViewportSize({ width: 1440, height: 900 });
      const headBefore = await indexedHead();
      const sim = await simulateCall(page, {
        url,
        address: counter,
        entrypoint: 'increment',
        fields: { increment: '5' },
      });
      const headAfter = await nodeHead();
      // the counter moves by 5 from its value at the head
      const diff = /([\d,]+) ➛ ([\d,]+)/.exec(await flat(sim.getByRole('region', { name: 'Storage diff' })));
      expect(diff, 'the storage diff shows the counter moving').toBeTruthy();
      const [, from, to] = diff!;
      const n = (s: string) => Number(s.replace(/,/g, ''));
      expect(n(to!)).toBe(n(from!) + 5);
      // simulated at the indexed head of the moment
      const shown = /^Simulated at level ([\d,]+)$/.exec(await flat(sim.getByLabel('Simulated at')));
      expect(shown, 'the result says its level').toBeTruthy();
      const level = n(shown![1]!);
      expect(level).toBeGreaterThanOrEqual(headBefore);
      expect(level).toBeLessThanOrEqual(headAfter);
      expect(shown![1]).toBe(level.toLocaleString('en-US'));
      const link = await copyLink(sim);
      if (shots) await page.screenshot({ path: `${shots}/share-pinned-1440.png` });
      await sim.getByRole('button', { name: 'Close' }).click();

      // the contract changes on chain: a real call adds 3 to the counter, and the indexer takes it
      await fillCall(page, { url, address: counter, entrypoint: 'increment', fields: { increment: '3' } });
      await page.getByRole('button', { name: 'Send with wallet' }).click();
      await connectSandboxWallet(page);
      const sent = page.getByRole('alert').filter({ hasText: 'sucessfully injected' }).getByRole('link');
      const hash = (await sent.innerText()).trim();
      const [op] = (await waitFor('the call indexed', 120_000, () =>
        groupOf(url, hash).then((g) => (Array.isArray(g) && g.length ? g : undefined)),
      )) as { level: number; status: string }[];
      expect(op!.status).toBe('applied');
      expect(op!.level).toBeGreaterThan(level);

      // the link, opened on a phone: the same diff at the same level, and a note that the contract changed
      const phone = await pages.open();
      await phone.setViewportSize({ width: 375, height: 800 });
      await phone.goto(link);
      const rerun = phone.getByRole('dialog', { name: 'What-if result' });
      const rerunDiff = rerun.getByRole('region', { name: 'Storage diff' });
      await poll(() => flat(rerunDiff)).toContain(`${from} ➛ ${to}`);
      expect(await flat(rerun.getByLabel('Simulated at'))).toBe(`Simulated at level ${shown![1]}`);
      const moved = await flat(rerun.getByLabel('Head moved'));
      const head = /The contract has changed since: head is at level ([\d,]+)\./.exec(moved);
      expect(head, moved).toBeTruthy();
      expect(n(head![1]!)).toBeGreaterThanOrEqual(op!.level);
      if (shots) await phone.screenshot({ path: `${shots}/share-pinned-375.png` });
      // 'Rerun at head': the node's simulation now starts from the counter the call left (3 more)
      await rerun.getByRole('button', { name: 'Rerun at head' }).click();
      const atHead = phone.getByRole('dialog', { name: 'Simulation result' });
      await poll(() => flat(atHead.getByRole('region', { name: 'Storage diff' }))).toContain(
        `${(n(from!) + 3).toLocaleString('en-US')} ➛ ${(n(to!) + 3).toLocaleString('en-US')}`,
      );
      expect(await atHead.getByLabel('Head moved').count()).toBe(0);
    },
  );

  it(
    '8. a view pinned to its level: after a real call changes the counter, its link shows the first result',
    { timeout: 300_000 },
    async () => {
      const url = session.server.url;
      const counter = await counterContract(url);
      const n = (s: string) => Number(s.replace(/,/g, ''));
      const page = await pages.open();
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${url}/sandboxnet/${counter}/views/get_counter`);
      await page.getByRole('button', { name: 'Execute' }).click();
      const result = page.getByRole('dialog', { name: 'View result' });
      const tree = result.getByRole('tree', { name: 'Result' });
      await tree.waitFor({ timeout: UI_TIMEOUT });
      const valueText = await flat(tree);
      const value = /(\d[\d,]*)$/.exec(valueText);
      expect(value, valueText).toBeTruthy();
      // the counter as the indexed storage has it at that moment
      const raw = await api(url).unwrap(
        api(url).GET('/v1/contract/{network}/{address}/storage/raw', {
          params: { path: { network: 'sandboxnet', address: counter } },
        }),
      );
      expect(n(value![1]!)).toBe(Number(/^Pair (\d+)/.exec(raw)![1]));
      const shown = /^Simulated at level ([\d,]+)$/.exec(await flat(result.getByLabel('Simulated at')));
      expect(shown, 'the result says its level').toBeTruthy();
      const level = n(shown![1]!);
      const link = await copyLink(result);
      expect(link).toMatch(new RegExp(`^${url}/sandboxnet/${counter}/views/get_counter#s=`));
      await result.getByRole('button', { name: 'Close' }).click();

      // the counter changes on chain: a real call adds 3, and the indexer takes it
      await fillCall(page, { url, address: counter, entrypoint: 'increment', fields: { increment: '3' } });
      await page.getByRole('button', { name: 'Send with wallet' }).click();
      await connectSandboxWallet(page);
      const sent = page.getByRole('alert').filter({ hasText: 'sucessfully injected' }).getByRole('link');
      const hash = (await sent.innerText()).trim();
      const [op] = (await waitFor('the call indexed', 120_000, () =>
        groupOf(url, hash).then((g) => (Array.isArray(g) && g.length ? g : undefined)),
      )) as { level: number; status: string }[];
      expect(op!.status).toBe('applied');
      expect(op!.level).toBeGreaterThan(level);

      // the link, opened on a phone: the same value at the same level, and a note that the contract changed
      const phone = await pages.open();
      await phone.setViewportSize({ width: 375, height: 800 });
      await phone.goto(link);
      const rerun = phone.getByRole('dialog', { name: 'View result' });
      const rerunTree = rerun.getByRole('tree', { name: 'Result' });
      await rerunTree.waitFor({ timeout: UI_TIMEOUT });
      expect(await flat(rerunTree)).toBe(valueText);
      expect(await flat(rerun.getByLabel('Simulated at'))).toBe(`Simulated at level ${shown![1]}`);
      const moved = await flat(rerun.getByLabel('Head moved'));
      const head = /The contract has changed since: head is at level ([\d,]+)\./.exec(moved);
      expect(head, moved).toBeTruthy();
      expect(n(head![1]!)).toBeGreaterThanOrEqual(op!.level);
      if (shots) await phone.screenshot({ path: `${shots}/share-view-pinned-375.png` });
      // its Debug runs at that level too: the view returns the first value
      await rerun.getByRole('button', { name: 'Debug' }).click();
      const dbg = phone.getByRole('dialog', { name: 'Debugger · view get_counter' });
      await dbg.getByRole('toolbar', { name: 'Debugger controls' }).waitFor({ timeout: UI_TIMEOUT });
      expect(await flat(dbg.getByLabel('Debugger state'))).toContain(`Returned ${n(value![1]!)}`);
      await dbg.getByRole('button', { name: 'Close' }).click();

      // 'Rerun at head': the same view at the head gives the counter the call left (3 more), and a new link
      await rerun.getByRole('button', { name: 'Rerun at head' }).click();
      await poll(() => flat(rerunTree)).toBe(
        valueText.replace(value![1]!, (n(value![1]!) + 3).toLocaleString('en-US')),
      );
      const atHead = /^Simulated at level ([\d,]+)$/.exec(await flat(rerun.getByLabel('Simulated at')));
      expect(n(atHead![1]!)).toBeGreaterThanOrEqual(op!.level);
      expect(await rerun.getByLabel('Head moved').count()).toBe(0);
      const headLink = await copyLink(rerun);
      expect(headLink).not.toBe(link);
      const again = await pages.open();
      await again.goto(headLink);
      const third = again.getByRole('dialog', { name: 'View result' });
      await poll(() => flat(third.getByRole('tree', { name: 'Result' }))).toBe(await flat(rerunTree));
      expect(await flat(third.getByLabel('Simulated at'))).toBe(`Simulated at level ${atHead![1]}`);
    },
  );

  it(
    "9. a failed view says where it ran: its error has 'Simulated at level N', its link reruns it there",
    { timeout: 300_000 },
    async () => {
      const url = session.server.url;
      const n = (s: string) => Number(s.replace(/,/g, ''));
      // a contract whose view refuses while its storage is positive; a call sets the storage
      const kt = await originateAsBootstrap(
        `${url}/rpc/sandboxnet`,
        [
          { prim: 'parameter', args: [{ prim: 'int' }] },
          { prim: 'storage', args: [{ prim: 'int' }] },
          {
            prim: 'code',
            args: [[{ prim: 'CAR' }, { prim: 'NIL', args: [{ prim: 'operation' }] }, { prim: 'PAIR' }]],
          },
          {
            prim: 'view',
            args: [
              { string: 'settled' },
              { prim: 'unit' },
              { prim: 'int' },
              [
                { prim: 'CDR' },
                { prim: 'DUP' },
                { prim: 'GT' },
                {
                  prim: 'IF',
                  args: [
                    [
                      { prim: 'PUSH', args: [{ prim: 'string' }, { string: 'still owed' }] },
                      { prim: 'FAILWITH' },
                    ],
                    [],
                  ],
                },
              ],
            ],
          },
        ],
        { int: '5' },
      );
      // 204 (not indexed yet) is a success for the client: wait for the 200 of the contract's record
      await waitFor(`${kt} indexed`, 120_000, async () => {
        const { response } = await api(url).GET('/v1/contract/{network}/{address}', {
          params: { path: { network: 'sandboxnet', address: kt } },
        });
        return response.status === 200 ? true : undefined;
      });
      // the view's failure is a 400 answer, which chromium logs as a failed resource
      const failedView = { allow: /the server responded with a status of 400 \(Bad Request\)/ };
      const page = await pages.open(failedView);
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${url}/sandboxnet/${kt}/views/settled`);
      await page.getByRole('button', { name: 'Execute' }).click();
      const failed = page.getByRole('dialog', { name: 'Bad Request — 400' });
      await failed.waitFor({ timeout: UI_TIMEOUT });
      expect(await flat(failed)).toContain('still owed');
      const shown = /^Simulated at level ([\d,]+)$/.exec(await flat(failed.getByLabel('Simulated at')));
      expect(shown, 'the failure says its level').toBeTruthy();
      const level = n(shown![1]!);
      expect(await failed.getByLabel('Head moved').count()).toBe(0);
      const link = await copyLink(failed);
      expect(link).toMatch(new RegExp(`^${url}/sandboxnet/${kt}/views/settled#s=`));
      if (shots) await page.screenshot({ path: `${shots}/share-view-failed-1440.png` });

      // the storage is settled on chain (a real call sets it to 0) and indexed: the view now returns 0
      const hash = await callAsBootstrap(`${url}/rpc/sandboxnet`, kt, { int: '0' });
      const [op] = (await waitFor('the call indexed', 120_000, () =>
        groupOf(url, hash).then((g) => (Array.isArray(g) && g.length ? g : undefined)),
      )) as { level: number; status: string }[];
      expect(op!.status).toBe('applied');
      expect(op!.level).toBeGreaterThan(level);

      // the link, on a phone: the same failure at the same level, with the changed-since note
      const phone = await pages.open(failedView);
      await phone.setViewportSize({ width: 375, height: 800 });
      await phone.goto(link);
      const again = phone.getByRole('dialog', { name: 'Bad Request — 400' });
      await again.waitFor({ timeout: UI_TIMEOUT });
      expect(await flat(again)).toContain('still owed');
      expect(await flat(again.getByLabel('Simulated at'))).toBe(`Simulated at level ${shown![1]}`);
      const moved = await flat(again.getByLabel('Head moved'));
      const movedTo = /The contract has changed since: head is at level ([\d,]+)\./.exec(moved);
      expect(movedTo, moved).toBeTruthy();
      expect(n(movedTo![1]!)).toBeGreaterThanOrEqual(op!.level);
      if (shots) await phone.screenshot({ path: `${shots}/share-view-failed-375.png` });
      // 'Rerun at head': the view at the head returns the settled 0, at a level after the call
      await again.getByRole('button', { name: 'Rerun at head' }).click();
      const result = phone.getByRole('dialog', { name: 'View result' });
      await poll(() => flat(result.getByRole('tree', { name: 'Result' }))).toMatch(/\b0$/);
      const atHead = /^Simulated at level ([\d,]+)$/.exec(await flat(result.getByLabel('Simulated at')));
      expect(n(atHead![1]!)).toBeGreaterThanOrEqual(op!.level);
      expect(await result.getByLabel('Head moved').count()).toBe(0);
      expect(await again.count()).toBe(0);
    },
  );
});
