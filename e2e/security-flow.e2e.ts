import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appPages, canBrowse, syncedSandboxSession, UI_TIMEOUT } from './harness';
import { api, groupOf, seededContracts, splitterContract, tokensAndSwap } from './sandbox-seed';
import { fillCall, simulateForm } from './workspace-steps';

// The contract page's security summary (issue 37, part 2) on the seeded sandbox, read as a user reads it: the
// headline under the contract's header, the Security tab's entrypoints, and an evidence link that opens the
// code at its line. The expected values come from reading the seed's Michelson
// (packages/sandbox/src/seed/contracts): the FA1.2's `mint` fails with "NotAdmin" unless SENDER is the
// address at %admin (bootstrap1, its originator); the upgradable contract's `upgrade` replaces the lambda it
// keeps at %logic and checks no one; the multisig's `main` counts CHECK_SIGNATUREs of %keys against %threshold.
const canRun = canBrowse('security-flow');
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: UI_TIMEOUT, interval: 250 });
const BOOTSTRAP1 = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
const shots = process.env.MS_SHOTS_DIR;

describe.skipIf(!canRun)('security summary on sandboxnet', () => {
  const session = syncedSandboxSession({ shared: true });
  const pages = appPages(session);

  it('1. the FA1.2: its headline names the admin-only mint; the evidence link opens the failing check in the code', async () => {
    const url = session.server.url;
    const { fa12 } = await tokensAndSwap(url);
    const page = await pages.open();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${url}/sandboxnet/${fa12}/operations`);
    const headline = page.getByTestId('security-headline');
    await poll(() => headline.innerText()).toContain(
      'Security: Immutable; privileged entrypoints: mint (admin)',
    );
    await headline.getByRole('link', { name: 'View the security summary' }).click();
    await page.waitForURL(`${url}/sandboxnet/${fa12}/security`);

    const table = page.getByRole('table', { name: 'Entrypoints' });
    const mint = table.locator('tr[data-entrypoint="mint"]');
    await poll(() => mint.locator('td').nth(1).innerText()).toMatch(/^admin at %admin/);
    // the admin's address links to its account page
    expect(await mint.locator(`a[href="/sandboxnet/${BOOTSTRAP1}/operations"]`).count()).toBeGreaterThan(0);
    // anyone may transfer and approve
    for (const ep of ['transfer', 'approve'])
      expect(await table.locator(`tr[data-entrypoint="${ep}"] td`).nth(1).innerText()).toBe('anyone');
    if (shots) await page.screenshot({ path: `${shots}/security-fa12-1440.png`, fullPage: true });

    // the evidence: the IF whose else-branch fails with "NotAdmin", on its line of the Code tab
    const evidence = mint.getByRole('link', { name: /^line \d+ IF$/ });
    const line = Number(/line (\d+)/.exec(await evidence.innerText())![1]);
    await evidence.click();
    await page.waitForURL(`${url}/sandboxnet/${fa12}/code?line=${line}`);
    const row = page.locator(`[data-n="${line}"]`);
    await poll(() => row.locator('[data-failed="true"]').count()).toBeGreaterThan(0);
    expect(await row.innerText()).toContain('"NotAdmin"');
    // scrolled to: the line is within the window
    await poll(async () => ((await row.boundingBox())?.y ?? Infinity) < page.viewportSize()!.height).toBe(
      true,
    );
  });

  it('2. the upgradable contract and the multisig say who can change the code and who may spend', async () => {
    const url = session.server.url;
    const all = await seededContracts(url);
    const upgradable = all.find((c) => c.entrypoints.includes('upgrade') && c.entrypoints.includes('apply'));
    const multisig = all.find((c) => c.entrypoints.includes('main') && c.entrypoints.includes('default'));
    if (!upgradable || !multisig) throw new Error('the seed lacks its upgradable contract or its multisig');
    const page = await pages.open();
    await page.setViewportSize({ width: 375, height: 812 });

    await page.goto(`${url}/sandboxnet/${upgradable.address}/security`);
    await poll(() => page.getByTestId('security-headline').innerText()).toContain(
      'Upgradable by anyone (through upgrade)',
    );
    const upgrade = page.getByRole('region', { name: 'Upgradeability' });
    const facts = async () => (await upgrade.innerText()).replace(/\s+/g, ' ');
    await poll(facts).toContain('Code can change yes');
    expect(await facts()).toContain('%logic, written by upgrade');
    // `upgrade` is not 'no effects': it replaces the code the contract runs
    const entrypoints = page.getByRole('table', { name: 'Entrypoints' });
    expect(await entrypoints.locator('tr[data-entrypoint="upgrade"] td').nth(2).innerText()).toBe(
      'replaces the code at %logic',
    );
    if (shots) await page.screenshot({ path: `${shots}/security-upgradable-375.png`, fullPage: true });

    await page.goto(`${url}/sandboxnet/${multisig.address}/security`);
    const main = page.getByRole('table', { name: 'Entrypoints' }).locator('tr[data-entrypoint="main"]');
    await poll(() => main.locator('td').nth(1).innerText()).toMatch(
      /^multisig: threshold \d+ of \d+ keys at %keys/,
    );
    expect(
      await page
        .getByRole('table', { name: 'Entrypoints' })
        .locator('tr[data-entrypoint="default"] td')
        .nth(1)
        .innerText(),
    ).toBe('anyone');
  });
});

// The operation flow graph (issue 37, part 1) on the seeded groups, read in its table (the text alternative of the
// graph, with the same facts): every edge's accounts, entrypoint, amount, tokens and tickets. The expected
// values come from the seed's Michelson and its calls (packages/sandbox/src/seed): the swap takes n and pulls n
// FA1.2 tokens from its caller, then sends n FA2 tokens back (DMC, 6 decimals); the splitter forwards the tez
// it gets to its beneficiary and calls its counter's %increment, which emits an event; the ticketer mints n
// "demo" tickets to the receiver it is given.

/** The 'Flow edges' table as a reader sees it: per edge its number, accounts (by their links), and texts. */
async function flowEdges(scope: Page | Locator) {
  const table = scope.getByRole('table', { name: 'Flow edges' });
  await table.locator('tbody tr').first().waitFor();
  const out: Record<string, string>[] = [];
  for (const row of await table.locator('tbody tr').all()) {
    const cells = row.getByRole('cell');
    const addr = async (i: number) => {
      const link = cells.nth(i).getByRole('link');
      return (await link.count())
        ? ((await link.getAttribute('title')) ?? '')
        : (await cells.nth(i).innerText()).trim();
    };
    const text = async (i: number) => (await cells.nth(i).innerText()).replace(/\s+/g, ' ').trim();
    out.push({
      n: await text(0),
      from: await addr(1),
      to: await addr(2),
      action: await text(3),
      amount: await text(4),
      tokens: await text(5),
      tickets: await text(6),
      status: await text(7),
    });
  }
  return out;
}

/** The latest operation group of `address` whose first operation is called by `from` with `entrypoint`. */
async function latestGroup(url: string, address: string) {
  for await (const g of api(url).operations('sandboxnet', address, { size: 10, limit: 10 })) {
    const ops = (await groupOf(url, g.hash)) as {
      source?: string;
      destination?: string;
      amount?: number;
      status?: string;
      parameters?: unknown;
    }[];
    if (ops[0]?.destination === address && ops[0].status === 'applied') return { hash: g.hash, ops };
  }
  throw new Error(`no applied call of ${address}`);
}

const n = (v: number) => v.toLocaleString('en-US');

describe.skipIf(!canRun)('operation flow graph on sandboxnet', () => {
  const session = syncedSandboxSession({ shared: true });
  const pages = appPages(session);

  it('1. the swap, the splitter and the ticketer groups: every edge, amount, token and ticket', async () => {
    const url = session.server.url;
    const page = await pages.open();
    await page.setViewportSize({ width: 1440, height: 900 });
    // the graph's code (the view and dagre) is not part of the group page's first visit: it comes with the view
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    const graphCode = () => scripts.filter((s) => /\/(FlowView|dagre)[-.]/.test(s)); // not the small LazyFlowView
    let firstVisit = true;
    const open = async (hash: string) => {
      await page.goto(`${url}/sandboxnet/opg/${hash}/contents`);
      const views = page.getByRole('tablist', { name: 'Group views' });
      await views.waitFor();
      if (firstVisit) {
        await page.getByRole('heading', { name: 'Contents' }).waitFor();
        expect(scripts.length).toBeGreaterThan(0);
        expect(graphCode()).toEqual([]);
        firstVisit = false;
      }
      await views.getByRole('tab', { name: 'Flow' }).click();
      await page.waitForURL(/view=flow/);
      await page.getByRole('region', { name: 'Flow graph' }).waitFor();
      expect(graphCode().length).toBeGreaterThan(0);
      return flowEdges(page);
    };

    // the swap: n from the caller in FA1.2, n back in FA2 (DMC, 6 decimals)
    const { fa12, fa2, swap } = await tokensAndSwap(url);
    const sg = await latestGroup(url, swap);
    const caller = sg.ops[0]!.source!;
    const amount = Number(JSON.stringify(sg.ops[0]!.parameters).match(/"value":"(\d+)"/)![1]);
    const swapEdges = await open(sg.hash);
    expect(swapEdges.map((e) => [e.n, e.from, e.to, e.action, e.status])).toEqual([
      ['1', caller, swap, 'default', 'applied'],
      ['2', swap, fa12, 'transfer', 'applied'],
      ['3', swap, fa2, 'transfer', 'applied'],
    ]);
    expect(swapEdges[1]!.tokens).toContain(`${n(amount)} `);
    expect(swapEdges[2]!.tokens).toContain(`${(amount / 1e6).toFixed(6)} DMC`);
    if (shots) await page.screenshot({ path: `${shots}/flow-swap-1440.png`, fullPage: true });
    // the graph: every edge is a focusable label, numbered in execution order
    const labels = page.getByRole('region', { name: 'Flow graph' }).locator('[data-flow-edge]');
    expect(await labels.count()).toBe(3);
    expect(await labels.nth(2).getAttribute('aria-label')).toMatch(
      /^#3 transfer, 0\.00\d+ DMC, from KT1\S+ to Michelscope Demo Collection$/,
    );

    // the splitter: 2 tez in, 2 tez to the beneficiary, increment of the counter, the counter's event
    const { splitter, beneficiary, counter } = await splitterContract(url);
    const pg = await latestGroup(url, splitter);
    const splitEdges = await open(pg.hash);
    expect(splitEdges.map((e) => [e.n, e.from, e.to, e.action, e.amount, e.status])).toEqual([
      ['1', pg.ops[0]!.source!, splitter, 'default', '2 ꜩ', 'applied'],
      ['2', splitter, beneficiary, 'transfer', '2 ꜩ', 'applied'],
      ['3', splitter, counter, 'increment', '—', 'applied'],
      ['4', counter, '—', 'event changed', '—', 'applied'],
    ]);

    // the ticketer: n "demo" tickets minted to the receiver
    // the ticketer is the contract whose code mints tickets (TICKET) for a %receive entrypoint
    let ticketer: string | undefined;
    for (const c of await seededContracts(url)) {
      const code = JSON.stringify(
        await api(url).unwrap(
          api(url).GET('/v1/contract/{network}/{address}/code', {
            params: { path: { network: 'sandboxnet', address: c.address } },
          }),
        ),
      );
      if (/\bTICKET\b/.test(code) && code.includes('%receive')) ticketer = c.address;
    }
    if (!ticketer) throw new Error('the seed has no ticketer');
    const tg = await latestGroup(url, ticketer);
    const params = JSON.stringify(tg.ops[0]!.parameters);
    const receiver = params.match(/KT1\w{33}/)![0];
    const minted = Number(params.match(/"value":"(\d+)"/)![1]);
    const ticketEdges = await open(tg.hash);
    expect(ticketEdges.map((e) => [e.n, e.from, e.to, e.action, e.status])).toEqual([
      ['1', tg.ops[0]!.source!, ticketer, 'default', 'applied'],
      ['2', ticketer, receiver, 'receive', 'applied'],
    ]);
    expect(ticketEdges[1]!.tickets).toContain(`+${n(minted)} ticket "demo"`);
  });

  it('2. a simulation before sending shows the same flow: the splitter called with 3 tez from bootstrap2', async () => {
    const url = session.server.url;
    const { splitter, beneficiary, counter } = await splitterContract(url);
    const page = await pages.open();
    await page.setViewportSize({ width: 375, height: 812 });
    const source = 'tz1gjaF81ZRRvdzjobyfVNsAeSC6PScjfQwN';
    await fillCall(page, { url, address: splitter, entrypoint: 'default', source });
    await page.getByLabel('Amount (mutez)').fill('3000000');
    const sim = await simulateForm(page);
    const flow = sim.getByRole('region', { name: 'Flow' });
    await flow.getByRole('button', { name: 'Show the flow graph' }).click();
    const edges = await flowEdges(flow);
    expect(edges.map((e) => [e.n, e.from, e.to, e.action, e.amount, e.status])).toEqual([
      ['1', source, splitter, 'default', '3 ꜩ', 'applied'],
      ['2', splitter, beneficiary, 'transfer', '3 ꜩ', 'applied'],
      ['3', splitter, counter, 'increment', '—', 'applied'],
      ['4', counter, '—', 'event changed', '—', 'applied'],
    ]);
    if (shots) await page.screenshot({ path: `${shots}/flow-simulation-375.png`, fullPage: true });
  });
});
