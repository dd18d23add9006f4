// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../../app/testing/render-app';
import type { GlobalConstant } from '@michelscope/api-types';
import { mockFetch, resourceRoute } from '../../../app/testing/mock-fetch';
import { contractFrame } from '../../../app/testing/contract-page';
import { CONSTANTS_PAGE_SIZE } from '../../../api/contract-api';

const KT = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';
const JAKARTA = 'PtJakart2xVj7pYXJBXrqHgd82rdkLey5ZeeGikgPkLX7SNJZF4';
const GRANADA = 'PtGRANADsDU8R9daYKAgWnQYAJ64omN1o3KMGVCykShA97vQbvV';
const CODE = 'parameter (or (unit %default) (nat %bid));\nstorage nat;\ncode { CDR ; NIL operation ; PAIR }';
const constant = (i: number) => `expru${String(i).padStart(3, '0')}${'x'.repeat(43)}`;

const at = { network: 'mainnet', address: KT };
const constantsPage = (offset: number) => ({ ...at, offset, size: CONSTANTS_PAGE_SIZE });

function routes(code: string, constants: GlobalConstant[] = []) {
  return mockFetch([
    ...contractFrame('mainnet', KT),
    resourceRoute('migrations', at, [
      {
        level: 2_490_369,
        timestamp: '2022-06-28T00:00:00Z',
        protocol: JAKARTA,
        prev_protocol: GRANADA,
        kind: 'update',
      },
    ]),
    resourceRoute('contractConstants', constantsPage(7), constants.slice(7)),
    resourceRoute('contractConstants', constantsPage(0), constants.slice(0, 7)),
    resourceRoute('code', { ...at, protocol: GRANADA }, 'parameter unit; storage unit; code { FAILWITH }'),
    resourceRoute('code', { ...at, protocol: null }, code),
  ]);
}

const codeText = async () => {
  await screen.findByRole('region', { name: 'Michelson code' });
  return () => screen.queryByRole('region', { name: 'Michelson code' })?.textContent ?? '';
};

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn());
  vi.stubGlobal('open', vi.fn());
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('code tab', () => {
  it('shows highlighted code and mirrors the protocol version in the query', async () => {
    const mock = routes(CODE);
    const { router } = renderApp(`/mainnet/${KT}/code`);
    const text = await codeText();
    await waitFor(() => expect(text()).toContain('NIL operation'));
    const region = screen.getByRole('region', { name: 'Michelson code' });
    // Instructions and types carry highlight classes (not one plain text run), without CodeMirror.
    expect([...region.querySelectorAll('[data-n] span.ms-keyword')].map((s) => s.textContent)).toEqual([
      'CDR',
      'NIL',
      'PAIR',
    ]);
    expect(region.querySelector('.cm-editor')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Using constants' })).toBeNull();

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Protocol' }));
    // the code differs under the protocol before the update migration only (Jakarta's code is the latest)
    await screen.findByRole('option', { name: 'PtGRANAD' });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Latest', 'PtGRANAD']);
    fireEvent.click(screen.getByRole('option', { name: 'PtGRANAD' }));
    await waitFor(() => expect(router.state.location.search).toBe(`?protocol=${GRANADA}`));
    const older = await codeText();
    await waitFor(() => expect(older()).toContain('FAILWITH'));
    expect(mock.callsTo(`GET /v1/contract/mainnet/${KT}/code?protocol=${GRANADA}`)).toHaveLength(1);
  });

  it('marks and scrolls to ?line=N (the Security tab evidence links), and drops it for another protocol', async () => {
    routes(CODE);
    const scrolled: Element[] = [];
    const scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this);
    });
    Object.defineProperty(Element.prototype, 'scrollIntoView', { value: scrollIntoView, configurable: true });
    try {
      const { router } = renderApp(`/mainnet/${KT}/code?line=3`);
      const text = await codeText();
      await waitFor(() => expect(text()).toContain('NIL operation'));
      const region = screen.getByRole('region', { name: 'Michelson code' });
      const line = region.querySelector('[data-n="3"]')!;
      // the line's text without its indentation is marked, and only that line
      const marked = (el: Element) => [...el.querySelectorAll('[data-failed]')].map((m) => m.textContent);
      expect(marked(line).join('')).toBe('code { CDR ; NIL operation ; PAIR }');
      expect(marked(region)).toEqual(marked(line));
      await waitFor(() => expect(scrolled).toEqual([line]));

      fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Protocol' }));
      fireEvent.click(await screen.findByRole('option', { name: 'PtGRANAD' }));
      await waitFor(() => expect(router.state.location.search).toBe(`?protocol=${GRANADA}`));
    } finally {
      delete (Element.prototype as Partial<Element>).scrollIntoView;
    }
  });

  it('converts the code to Micheline JSON for Raw JSON', async () => {
    routes(CODE);
    renderApp(`/mainnet/${KT}/code`);
    await codeText();
    fireEvent.click(await screen.findByRole('button', { name: 'Raw JSON' }));
    await waitFor(() => expect(screen.getByTestId('raw-json').textContent).toContain('"prim": "parameter"'));
  });

  it(
    'renders long code in chunks with a Rendering label, ending with every line',
    { timeout: 60_000 },
    async () => {
      // 2,500 lines of 40 characters: 3 chunks of 35,000 characters (jsdom is slow with many nodes)
      const long = Array.from(
        { length: 2_500 },
        (_, i) => `PUSH string "${String(i).padStart(22, '.')}" ;`,
      ).join('\n');
      routes(long);
      renderApp(`/mainnet/${KT}/code`);
      expect(await screen.findByText(/^Rendering: \d+%$/)).toBeTruthy();
      // (a direct query: text queries over thousands of lines are slow in jsdom)
      await waitFor(() => expect(document.querySelector('[role="status"]')).toBeNull(), { timeout: 30_000 });
      const region = screen.getByRole('region', { name: 'Michelson code' });
      expect(region.getAttribute('aria-busy')).toBe('false');
      const lines = region.querySelectorAll('[data-n]');
      expect(lines).toHaveLength(2_500);
      expect(lines[2_499]!.getAttribute('data-n')).toBe('2500');
      expect(lines[2_499]!.textContent).toBe('PUSH string "..................2499" ;');
    },
  );

  it('brings CodeMirror with its search panel on Search', async () => {
    routes(CODE);
    renderApp(`/mainnet/${KT}/code`);
    const text = await codeText();
    await waitFor(() => expect(text()).toContain('NIL operation'));
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    // the editor replaces the light view, with the same text, and its search panel open (the focus on
    // its field is checked in chromium: e2e/read-pages)
    await screen.findByRole('textbox', { name: 'Find' });
    const region = screen.getByRole('region', { name: 'Michelson code' });
    expect(region.querySelector('.cm-content')?.textContent).toContain('NIL operation');
    expect(region.querySelector('[data-n]')).toBeNull();
  });

  it('keeps the light view when a click selects text; Ctrl+F in the code brings the editor and its search', async () => {
    routes(CODE);
    renderApp(`/mainnet/${KT}/code`);
    const text = await codeText();
    await waitFor(() => expect(text()).toContain('NIL operation'));
    const region = screen.getByRole('region', { name: 'Michelson code' });
    const selection = window.getSelection()!;
    selection.selectAllChildren(region);
    fireEvent.click(region.querySelector('[data-n]')!);
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.getByRole('region', { name: 'Michelson code' }).querySelector('[data-n]')).not.toBeNull();
    selection.removeAllRanges();
    fireEvent.keyDown(region, { key: 'f', ctrlKey: true });
    await screen.findByRole('textbox', { name: 'Find' });
    expect(screen.getByRole('region', { name: 'Michelson code' }).querySelector('.cm-editor')).not.toBeNull();
  });

  it('lists the global constants in pages of 7, each opening in a new tab', async () => {
    const constants = Array.from({ length: 9 }, (_, i): GlobalConstant => ({
      address: constant(i),
      level: 10 + i,
      timestamp: '2022-01-01T00:00:00Z',
    }));
    routes(CODE, constants);
    renderApp(`/mainnet/${KT}/code`);
    fireEvent.click(await screen.findByRole('button', { name: 'Using constants' }));
    const list = await screen.findByRole('list', { name: 'Global constants' });
    await waitFor(() => expect(within(list).getAllByRole('link')).toHaveLength(7));
    const first = within(list).getAllByRole('link')[0]!;
    expect(first.getAttribute('href')).toBe(`/constant/mainnet/${constant(0)}`);
    expect(first.getAttribute('target')).toBe('_blank');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Global constants' })).getAllByRole('link'),
      ).toHaveLength(2),
    );
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true);
  });
});
