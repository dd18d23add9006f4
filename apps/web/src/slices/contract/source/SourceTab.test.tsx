// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CompilerInfo, ContractSource, Verification } from '@michelscope/api-types';
import { renderApp } from '../../../app/testing/render-app';
import { anyQueryRoute, mockFetch, resourceRoute, type Route } from '../../../app/testing/mock-fetch';
import { contractFrame } from '../../../app/testing/contract-page';
import { scriptDiffBlock, tokenizeLines, verifiedSentence } from './source-text';

const KT = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';
const OTHER = 'KT1Hkg5qeNhfwpKW4fXvq7HGZB9z2EnmCCA9';
const at = { network: 'mainnet', address: KT };
const XSS = '<img src=x onerror=alert(1)>';

const verification = (fields: Partial<Verification> = {}): Verification => ({
  id: 'ab'.repeat(32),
  status: 'verified',
  compiler: 'archetype',
  version: '1.5.3',
  options: {},
  main: 'counter.arl',
  files: [
    { name: 'counter.arl', size: 10, sha256: 'cd'.repeat(32) },
    { name: 'lib/util.arl', size: 10, sha256: 'ef'.repeat(32) },
  ],
  script_hash: 'expr',
  network: 'mainnet',
  address: KT,
  created_at: '2026-11-30T08:00:00Z',
  ...fields,
});

const SOURCE: ContractSource = {
  verification: verification(),
  inherited: false,
  files: [
    {
      name: 'counter.arl',
      content: `archetype counter\nvariable count : nat = 0\n// ${XSS}\nentry increment() { count += 1 }`,
    },
    { name: 'lib/util.arl', content: `constant label : string = "${XSS}"` },
  ],
};

const COMPILERS: CompilerInfo[] = [
  {
    id: 'archetype',
    name: 'Archetype',
    available: true,
    versions: ['1.5.3'],
    extensions: ['.arl'],
    source_locations: false,
  },
  {
    id: 'ligo',
    name: 'LIGO',
    available: false,
    versions: [],
    extensions: ['.mligo'],
    reason: 'LIGO is not installed on this server: install the ligo binary',
    source_locations: true,
  },
];

/** The server's answer for a contract without a verified source: 204, no body. */
const NOT_VERIFIED = () => new Response(null, { status: 204 });

function routes(source: ContractSource | Response, extra: Route[] = []) {
  return mockFetch([
    ...contractFrame('mainnet', KT),
    ['GET /search/v1/account/', new Response(null, { status: 204 })],
    anyQueryRoute('opgList', { ...at, size: 10, lastId: null }, []),
    resourceRoute('contractSource', at, source),
    resourceRoute(
      'code',
      { ...at, protocol: null },
      'parameter unit;\nstorage nat;\ncode { CDR ; PUSH nat 1 ; ADD }',
    ),
    resourceRoute('verifyCompilers', COMPILERS),
    ...extra,
  ]);
}

beforeEach(() => vi.stubGlobal('scrollTo', vi.fn()));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('source words', () => {
  it('says how the source was verified, and finds Archetype keywords, strings and comments as text', () => {
    expect(verifiedSentence(verification({ options: { 'no-js': true, target: 'michelson' } }))).toBe(
      'Verified: compiled with Archetype 1.5.3 (options no-js, target=michelson) on 2026-11-30 08:00 UTC; ' +
        'the compiled Michelson equals the deployed code.',
    );
    const [line] = tokenizeLines('entry f() { fail("no") } // done');
    expect(line?.filter((t) => t.kind === 'keyword').map((t) => t.text)).toEqual(['entry', 'fail']);
    expect(line?.find((t) => t.kind === 'string')?.text).toBe('"no"');
    expect(line?.at(-1)).toEqual({ text: '// done', kind: 'comment' });
    expect(tokenizeLines('(* a\nb *) var').map((l) => l.map((t) => t.kind))).toEqual([
      ['comment'],
      ['comment', 'plain', 'keyword'],
    ]);
  });

  it('diffs the deployed and compiled code line by line', () => {
    const block = scriptDiffBlock('a\nb\nc\nd', 'a\nB\nc\nd\ne');
    expect(block.status).toBe('changed');
    expect(block.rows).toEqual([
      { type: 'same', left: 'a', right: 'a' },
      { type: 'changed', left: 'b', right: 'B' },
      { type: 'same', left: 'c', right: 'c' },
      { type: 'same', left: 'd', right: 'd' },
      { type: 'added', left: null, right: 'e' },
    ]);
    expect(scriptDiffBlock('x\ny', 'x\ny').status).toBe('same');
    expect(scriptDiffBlock('a\nb\nc', 'x\ny\nz', 4).replaced).toBe(true);
  });
});

describe('verified source on the contract page', () => {
  it('shows the Source tab after Code and the Verified badge when the contract has a verified source', async () => {
    routes(SOURCE);
    renderApp(`/mainnet/${KT}/operations`);
    const badge = await screen.findByRole('link', { name: 'Verified source' });
    expect(badge.getAttribute('href')).toBe(`/mainnet/${KT}/source`);
    const tabs = within(screen.getByRole('tablist', { name: 'Account tabs' }))
      .getAllByRole('tab')
      .map((t) => t.textContent);
    expect(tabs.slice(2, 4)).toEqual(['Code', 'Source']);
  });

  it('hides the tab and the badge when the source answers 204 (none)', async () => {
    const mock = routes(NOT_VERIFIED());
    renderApp(`/mainnet/${KT}/operations`);
    await screen.findByRole('tab', { name: 'Code' });
    await waitFor(() => expect(mock.callsTo(`GET /v1/contract/mainnet/${KT}/source`)).toHaveLength(1));
    expect(screen.queryByRole('tab', { name: 'Source' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Verified source' })).toBeNull();
  });

  it('renders the files as text with their download links', async () => {
    routes(SOURCE);
    const { container } = renderApp(`/mainnet/${KT}/source`);
    await screen.findByText(/Verified: compiled with Archetype 1\.5\.3 on 2026-11-30 08:00 UTC/);
    expect(screen.getByText(/the compiled Michelson equals the deployed code\./)).toBeTruthy();
    // the file list, with the main file marked
    const nav = screen.getByRole('navigation', { name: 'Source files' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['counter.arl', 'lib/util.arl']);
    // the content is text: the markup shows as written, and no element was made of it
    const main = screen.getByLabelText('Source of counter.arl');
    expect(main.textContent).toContain(`// ${XSS}`);
    expect(screen.getByLabelText('Source of lib/util.arl').textContent).toContain(`"${XSS}"`);
    expect(container.querySelector('img')).toBeNull();
    expect(within(main).getByText('archetype').tagName).toBe('SPAN');
    expect(screen.getByRole('link', { name: 'Download counter.arl' }).getAttribute('href')).toBe(
      `/v1/contract/mainnet/${KT}/source/files/counter.arl`,
    );
    expect(screen.getByRole('link', { name: 'Download lib/util.arl' }).getAttribute('href')).toBe(
      `/v1/contract/mainnet/${KT}/source/files/lib%2Futil.arl`,
    );
    expect(screen.queryByText(/Verified through a contract with the same code/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Verify again' })).toBeTruthy();
  });

  it('names the submitted contract when the source is inherited from a same contract', async () => {
    routes({
      ...SOURCE,
      inherited: true,
      verification: verification({ address: OTHER, network: 'ghostnet' }),
    });
    renderApp(`/mainnet/${KT}/source`);
    const line = await screen.findByText(/Verified through a contract with the same code:/);
    expect(within(line).getByRole('link', { name: OTHER }).getAttribute('href')).toBe(
      `/ghostnet/${OTHER}/source`,
    );
  });
});

describe('verify form', () => {
  async function openForm() {
    renderApp(`/mainnet/${KT}/code`);
    fireEvent.click(await screen.findByRole('button', { name: 'Verify source' }));
    const dialog = await screen.findByRole('dialog', { name: 'Verify source' });
    // compilers: the unavailable one says why
    await within(dialog).findByText(/LIGO is not available: LIGO is not installed on this server/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Paste source' }));
    fireEvent.change(within(dialog).getByLabelText('File name'), { target: { value: 'counter.arl' } });
    fireEvent.change(within(dialog).getByLabelText('Source code'), {
      target: { value: 'archetype counter' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify' }));
    return dialog;
  }

  it('shows a failed verification: the difference, both instructions and the diff', async () => {
    const failed = verification({
      status: 'failed',
      difference: {
        section: 'code',
        block: 'entrypoint %increment (code.args[0][4].args[0])',
        deployed: 'PUSH nat 1',
        compiled: 'PUSH nat 2',
        deployed_line: 3,
        compiled_line: 3,
        message:
          'The code differs in entrypoint %increment: the deployed contract has PUSH nat 1 where the compiled source has PUSH nat 2.',
      },
      compiled: 'parameter unit;\nstorage nat;\ncode { CDR ; PUSH nat 2 ; ADD }',
    });
    const mock = routes(NOT_VERIFIED(), [resourceRoute('verifySource', at, failed)]);
    const dialog = await openForm();
    const result = await within(dialog).findByTestId('verify-failed');
    expect(mock.callsTo(`POST /v1/contract/mainnet/${KT}/verify`)[0]?.body).toEqual({
      compiler: 'archetype',
      version: '1.5.3',
      files: [{ name: 'counter.arl', content: 'archetype counter' }],
      main: 'counter.arl',
    });
    expect(within(result).getByRole('alert').textContent).toContain(
      'The code differs in entrypoint %increment: the deployed contract has PUSH nat 1',
    );
    expect(within(result).getByText(/entrypoint %increment \(code\.args/)).toBeTruthy();
    expect(within(result).getByRole('link', { name: 'line 3' }).getAttribute('href')).toBe(
      `/mainnet/${KT}/code?line=3`,
    );
    const diff = await within(result).findByRole('table', { name: 'Side-by-side diff of script' });
    expect(diff.textContent).toContain('code { CDR ; PUSH nat 1 ; ADD }');
    expect(diff.textContent).toContain('code { CDR ; PUSH nat 2 ; ADD }');
  });

  it("shows the server's 422 message as it wrote it", async () => {
    const message = 'The compiler rejected the sources: line 1: syntax error <here>';
    routes(NOT_VERIFIED(), [
      [`POST /v1/contract/mainnet/${KT}/verify`, Response.json({ message }, { status: 422 })],
    ]);
    const dialog = await openForm();
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe(message));
  });

  it('a verified answer says so and reads the source again, which brings the tab and the badge', async () => {
    let verified = false;
    const mock = mockFetch([
      ...contractFrame('mainnet', KT),
      ['GET /search/v1/account/', new Response(null, { status: 204 })],
      // the source answers 200 once the verification is stored
      resourceRoute('contractSource', at, () => (verified ? SOURCE : NOT_VERIFIED())),
      resourceRoute('code', { ...at, protocol: null }, 'parameter unit;'),
      resourceRoute('verifyCompilers', COMPILERS),
      resourceRoute('verifySource', at, () => {
        verified = true;
        return verification();
      }),
    ]);
    const dialog = await openForm();
    await within(dialog).findByText(/Verified: the compiled Michelson equals the deployed code\./);
    expect(within(dialog).getByRole('link', { name: 'View the source' }).getAttribute('href')).toBe(
      `/mainnet/${KT}/source`,
    );
    // behind the dialog, the page has read the source again: after Close, the badge and the tab are there
    await waitFor(() => expect(mock.callsTo(`GET /v1/contract/mainnet/${KT}/source`).length).toBe(2));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await screen.findByRole('link', { name: 'Verified source' });
    expect(screen.getByRole('tab', { name: 'Source' })).toBeTruthy();
    expect(mock.callsTo(`GET /v1/contract/mainnet/${KT}/source`).length).toBeGreaterThanOrEqual(2);
  });
});
