// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import type { SecuritySummary } from '@michelscope/api-types';
import { renderApp } from '../../../app/testing/render-app';
import { anyQueryRoute, mockFetch, resourceRoute, type Route } from '../../../app/testing/mock-fetch';
import { contractFrame } from '../../../app/testing/contract-page';
import { evidenceHref, fieldRef, whoText } from './security-text';

const KT = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';
const ADMIN = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
const EXPR = 'exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC';
const at = { network: 'mainnet', address: KT };

const SUMMARY: SecuritySummary = {
  headline: 'Upgradable by admin tz1KqTpE…',
  upgradable: true,
  admins: [{ field: 'admin', address: ADMIN }],
  entrypoints: [
    {
      name: 'mint',
      who: 'admin',
      admin: { field: 'admin', address: ADMIN },
      can: ['mint_tickets', 'call_contracts'],
      writes: ['ledger'],
      evidence: [{ instruction: 'SENDER', path: 'code.args[0][1]', line: 7 }],
    },
    {
      name: 'main',
      who: 'multisig',
      multisig: { keys_field: 'keys', threshold_field: 'threshold', threshold: 2, keys: 3 },
      can: ['transfer_tez'],
      writes: null,
      evidence: [{ instruction: 'CHECK_SIGNATURE', path: 'code.args[0][4]', line: 12 }],
    },
    { name: 'frozen', who: 'nobody', can: [], writes: [], reason: 'every path fails', evidence: [] },
    {
      name: 'upgrade',
      who: 'unknown',
      can: ['exec_stored_lambda'],
      writes: null,
      reason: 'SENDER compared with a big-map value',
      evidence: [{ instruction: 'EXEC', path: 'code.args[0][9]', line: null }],
    },
    { name: 'deposit', who: 'anyone', can: [], writes: [], evidence: [] },
  ],
  upgrade: {
    stored_lambdas: [
      {
        field: 'logic',
        written_by: ['upgrade'],
        evidence: [{ instruction: 'EXEC', path: 'code.args[0][9]', line: 20 }],
      },
    ],
    global_constants: [EXPR],
    set_delegate: true,
    admin_replaceable: [{ field: 'admin', entrypoint: 'set_admin', who: 'admin' }],
    code_migrations: [{ level: 2_490_369, protocol: 'PtJakart2xVj7pYXJBXrqHgd82rdkLey5ZeeGikgPkLX7SNJZF4' }],
  },
  findings: [
    {
      kind: 'stored_lambda',
      sentence: 'The code runs a lambda stored at %logic, which upgrade replaces.',
      evidence: [{ instruction: 'EXEC', path: 'code.args[0][9]', line: 20 }],
    },
    {
      kind: 'privileged',
      sentence: '<b>mint</b> can only be called by the admin at %admin; it mints tickets.',
      evidence: [{ instruction: 'SENDER', path: 'code.args[0][1]', line: 7 }],
    },
  ],
  complete: true,
  steps: 1234,
};

function routes(security: SecuritySummary | Response, extra: Route[] = []) {
  return mockFetch([
    ...contractFrame('mainnet', KT),
    ['GET /search/v1/account/', new Response(null, { status: 204 })],
    anyQueryRoute('opgList', { ...at, size: 10, lastId: null }, []),
    resourceRoute('security', at, security),
    ...extra,
  ]);
}

beforeEach(() => vi.stubGlobal('scrollTo', vi.fn()));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('security words', () => {
  it('names who may call and links only well-formed code lines', () => {
    expect(fieldRef('admin')).toBe('%admin');
    expect(fieldRef('storage.1.0')).toBe('storage.1.0');
    expect(SUMMARY.entrypoints.map((e) => whoText(e))).toEqual([
      `admin at %admin (${ADMIN})`,
      'multisig: threshold 2 of 3 keys at %keys',
      'nobody',
      'unknown: SENDER compared with a big-map value',
      'anyone',
    ]);
    expect(evidenceHref('mainnet', KT, { instruction: 'X', path: 'p', line: 7 })).toBe(
      `/mainnet/${KT}/code?line=7`,
    );
    expect(evidenceHref('mainnet', KT, { instruction: 'X', path: 'p', line: null })).toBeNull();
    expect(evidenceHref('mainnet', KT, { instruction: 'X', path: 'p', line: 0 })).toBeNull();
  });
});

describe('security summary on the contract page', () => {
  it('shows the headline under the header, asked for after the contract, with a link to the tab', async () => {
    const mock = routes(SUMMARY);
    renderApp(`/mainnet/${KT}/operations`);
    const headline = await screen.findByTestId('security-headline');
    await within(headline).findByText('Upgradable by admin tz1KqTpE…');
    expect(
      within(headline).getByRole('link', { name: 'View the security summary' }).getAttribute('href'),
    ).toBe(`/mainnet/${KT}/security`);
    const urls = mock.calls.map((c) => c.url);
    const contract = urls.findIndex((u) => u.endsWith(`/v1/contract/mainnet/${KT}?stats=true`));
    const security = urls.findIndex((u) => u.endsWith(`/v1/contract/mainnet/${KT}/security`));
    expect(contract).toBeGreaterThanOrEqual(0);
    expect(security).toBeGreaterThan(contract);
    expect(screen.getByRole('tab', { name: 'Security' }).getAttribute('href')).toBe(
      `/mainnet/${KT}/security`,
    );
  });

  it('says quietly that the summary is unavailable when it fails, and the page stays', async () => {
    routes(Response.json({ message: 'boom' }, { status: 500 }));
    renderApp(`/mainnet/${KT}/operations`);
    const headline = await screen.findByTestId('security-headline');
    await within(headline).findByText('Security summary unavailable');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain(KT);
    expect(screen.queryByText('boom')).toBeNull();
  });

  it('the Security tab: findings, who may call each entrypoint, evidence linked to code lines, upgradeability', async () => {
    routes(SUMMARY);
    const { router } = renderApp(`/mainnet/${KT}/security`);
    await screen.findByRole('heading', { name: 'Findings' });
    expect(router.state.matches.at(-1)?.route.id).toBe('security');
    // sentences are text, never markup
    expect(
      screen.getByText('<b>mint</b> can only be called by the admin at %admin; it mints tickets.'),
    ).toBeTruthy();
    expect(document.querySelector('#account-tabpanel b')).toBeNull();

    const table = screen.getByRole('table', { name: 'Entrypoints' });
    const row = (name: string) => table.querySelector<HTMLElement>(`tr[data-entrypoint="${name}"]`)!;
    expect(row('mint').textContent).toContain('admin at %admin (tz1KqT');
    const admin = within(row('mint')).getByRole('link', { name: /tz1KqT/ });
    expect(admin.getAttribute('href')).toBe(`/mainnet/${ADMIN}/operations`);
    expect(within(row('mint')).getByText('mints tickets')).toBeTruthy();
    expect(within(row('mint')).getByRole('link', { name: 'line 7 SENDER' }).getAttribute('href')).toBe(
      `/mainnet/${KT}/code?line=7`,
    );
    expect(row('main').textContent).toContain('multisig: threshold 2 of 3 keys at %keys');
    expect(row('frozen').textContent).toContain('nobody');
    expect(row('upgrade').textContent).toContain('unknown: SENDER compared with a big-map value');
    expect(row('upgrade').textContent).toContain('EXEC (line not known)');
    expect(row('deposit').textContent).toContain('anyone');

    const upgrade = screen.getByRole('region', { name: 'Upgradeability' });
    expect(upgrade.textContent).toContain('%logic, written by upgrade');
    expect(within(upgrade).getByRole('link', { name: 'line 20 EXEC' }).getAttribute('href')).toBe(
      `/mainnet/${KT}/code?line=20`,
    );
    expect(within(upgrade).getByRole('link', { name: EXPR }).getAttribute('href')).toBe(
      `/constant/mainnet/${EXPR}`,
    );
    expect(upgrade.textContent).toContain('SET_DELEGATEreachable');
    expect(upgrade.textContent).toContain('%admin through set_admin, callable by an admin');
    expect(upgrade.textContent).toContain('level 2,490,369');
    expect(screen.queryByText(/stopped at its bounds/)).toBeNull();
  });

  it('says when the analysis stopped at its bounds', async () => {
    routes({ ...SUMMARY, complete: false, steps: 200_000 });
    renderApp(`/mainnet/${KT}/security`);
    await screen.findByRole('heading', { name: 'Findings' });
    expect(screen.getByText(/The analysis stopped at its bounds/).textContent).toContain(
      'some parts are unknown',
    );
  });

  it('the tab says the summary is unavailable instead of an error page', async () => {
    routes(Response.json({ message: 'analysis failed' }, { status: 500 }));
    renderApp(`/mainnet/${KT}/security`);
    await waitFor(() => expect(screen.getAllByText('Security summary unavailable').length).toBe(2));
    expect(screen.getByRole('tab', { name: 'Security' }).getAttribute('aria-selected')).toBe('true');
  });
});
