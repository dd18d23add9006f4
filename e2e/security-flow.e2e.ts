import { describe, expect, it } from 'vitest';
import { appPages, canBrowse, syncedSandboxSession, UI_TIMEOUT } from './harness';
import { seededContracts, tokensAndSwap } from './sandbox-seed';

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
