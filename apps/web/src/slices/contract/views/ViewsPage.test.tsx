// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { renderApp } from '../../../app/testing/render-app';
import type { MiguelNode } from '@michelscope/michelson';
import type { ViewSchema } from '@michelscope/api-types';
import { mockFetch, resourceRoute } from '../../../app/testing/mock-fetch';
import { contractFrame } from '../../../app/testing/contract-page';
import { encodeState, readFragment, type SharedView } from '../interact/share-link';

const KT = 'KT1LuuuC4AA5eDbKtdpkB8gZurbwAgxX6NNf';
// GET …/views/schema and POST …/views/execute answers of the sandbox seed's counter contract.
const VIEWS: ViewSchema[] = [
  {
    typedef: [{ name: '@unit_1', type: 'unit' }],
    name: 'get_counter',
    implementation: 0,
    schema: { type: 'object', properties: { '': { prim: 'unit' } } },
    kind: 'on-chain',
  },
  {
    typedef: [{ name: '@string_1', type: 'string' }],
    name: 'get_note',
    implementation: 0,
    schema: {
      type: 'object',
      properties: { '@string_1': { type: 'string', prim: 'string', title: '@string_1', default: '' } },
    },
    kind: 'on-chain',
  },
];

// A TZIP-16 off-chain view without parameter (michelsonStorageView over the storage).
const TOTAL = {
  michelsonStorageView: { returnType: { prim: 'nat' }, code: [{ prim: 'CAR' }] },
};
const METADATA = {
  name: 'Demo',
  views: [
    {
      name: 'total',
      description: 'Total supply.',
      implementations: [{ michelsonStorageView: 'junk' }, TOTAL],
    },
    { name: 'broken' },
  ],
};

function setup(
  execute: MiguelNode[] | Response | ((call: { body: unknown }) => Response),
  metadata: unknown = null,
) {
  const at = { network: 'sandboxnet', address: KT };
  return mockFetch([
    // this contract's views first (the frame answers none)
    resourceRoute('views', at, VIEWS),
    resourceRoute('executeView', at, execute),
    resourceRoute('offChainView', {
      name: 'total',
      kind: 'off-chain',
      implementation: 1,
      description: 'Total supply.',
      typedef: [{ name: '@unit_1', type: 'unit' }],
      schema: { type: 'object', properties: { '': { prim: 'unit' } } },
    }),
    ...contractFrame('sandboxnet', KT, {
      account: { operations_count: 94 },
      metadata: metadata
        ? [{ network: 'sandboxnet', contract: KT, metadata, link: '', status: 3, error: '', retry_count: 0 }]
        : [],
    }),
  ]);
}

beforeEach(() => vi.stubGlobal('scrollTo', vi.fn()));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('views tab', () => {
  it('runs a view without parameters and shows the View result dialog', async () => {
    const mock = setup([{ prim: 'int', type: 'int', name: '@int_1', value: '313' }]);
    renderApp(`/sandboxnet/${KT}/views`);
    const list = await screen.findByRole('list', { name: 'Views' }, { timeout: 20_000 });
    expect(
      within(list)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['get_counteron-chain', 'get_noteon-chain']);
    expect(await screen.findByText('No parameters for this view.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Execute' }));
    const dialog = await screen.findByRole('dialog', { name: 'View result' });
    expect(within(dialog).getByRole('tree').textContent).toContain('313');
    expect(mock.callsTo(`POST /v1/contract/sandboxnet/${KT}/views/execute`)[0]?.body).toEqual({
      kind: 'on-chain',
      name: 'get_counter',
      implementation: 0,
      data: {},
    });
  });

  it("shows a failed execution in a dialog titled '{statusText} — {status}'", async () => {
    setup(
      new Response(JSON.stringify({ message: 'script failed: NotFound' }), {
        status: 400,
        statusText: 'Bad Request',
      }),
    );
    renderApp(`/sandboxnet/${KT}/views/get_note`);
    fireEvent.change(await screen.findByLabelText('string'), { target: { value: 'zz' } });
    fireEvent.click(screen.getByRole('button', { name: 'Execute' }));
    const dialog = await screen.findByRole('dialog', { name: 'Bad Request — 400' });
    expect(within(dialog).getByText('script failed: NotFound')).toBeTruthy();
  });

  it('lists off-chain views from the metadata with kind and description and runs their implementation', async () => {
    const mock = setup([{ prim: 'nat', type: 'nat', name: '@nat_1', value: '1000' }], METADATA);
    renderApp(`/sandboxnet/${KT}/views/total?kind=off-chain`);
    const list = await screen.findByRole('list', { name: 'Views' }, { timeout: 20_000 });
    expect(
      within(list)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['get_counteron-chain', 'get_noteon-chain', 'totalTotal supply.off-chain']);
    // Only the well-formed view is sent to the form builder.
    expect(mock.callsTo('POST /v1/off_chain_view').map((c) => c.body)).toEqual([METADATA.views[0]]);
    expect(await screen.findByText("This implementation doesn't have parameters")).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Execute' }));
    const dialog = await screen.findByRole('dialog', { name: 'View result' });
    expect(within(dialog).getByRole('tree').textContent).toContain('1,000');
    expect(mock.callsTo(`POST /v1/contract/sandboxnet/${KT}/views/execute`)[0]?.body).toEqual({
      kind: 'off-chain',
      name: 'total',
      implementation: 1,
      data: {},
      view: TOTAL,
    });
  });

  it('a link pinned to a level reruns the view there, says so, and reruns at the head on demand', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    // …/views/execute: the note was 17 at level 40; at the head (level 52) it is 42
    const answer = (value: string, level: number, changed: boolean) =>
      new Response(
        JSON.stringify([
          {
            prim: 'option',
            type: 'option',
            name: '@option_1',
            children: [{ prim: 'nat', type: 'nat', name: '@nat_2', value }],
          },
        ]),
        {
          status: 200,
          headers: {
            'content-type': 'application/json',
            'x-simulated-level': String(level),
            'x-head-level': '52',
            'x-changed-since': String(changed),
          },
        },
      );
    const mock = setup(({ body }) =>
      (body as { at_level?: number }).at_level === 40 ? answer('17', 40, true) : answer('42', 52, false),
    );
    const shared: SharedView = {
      v: 1,
      kind: 'view',
      network: 'sandboxnet',
      address: KT,
      view: { kind: 'on-chain', name: 'get_note', implementation: 0 },
      data: { '@string_1': 'genesis' },
      level: 40,
    };
    renderApp(`/sandboxnet/${KT}/views/get_note#s=${encodeState(shared)}`);
    const dialog = await screen.findByRole('dialog', { name: 'View result' }, { timeout: 20_000 });
    const execute = `POST /v1/contract/sandboxnet/${KT}/views/execute`;
    expect(mock.callsTo(execute).map((c) => c.body)).toEqual([
      {
        kind: 'on-chain',
        name: 'get_note',
        implementation: 0,
        data: { '@string_1': 'genesis' },
        at_level: 40,
      },
    ]);
    expect(within(dialog).getByRole('tree').textContent).toContain('17');
    expect(within(dialog).getByLabelText('Simulated at').textContent).toBe('Simulated at level 40');
    expect(within(dialog).getByLabelText('Head moved').textContent).toContain(
      'The contract has changed since: head is at level 52.',
    );
    // its link keeps the level
    const linkState = async () => {
      const copies = writeText.mock.calls.length;
      fireEvent.click(within(dialog).getByRole('button', { name: 'Copy link' }));
      await vi.waitFor(() => expect(writeText.mock.calls.length).toBe(copies + 1), { timeout: 15_000 });
      const link = (writeText.mock.calls.at(-1) as unknown as [string])[0];
      expect(within(dialog).getByRole<HTMLInputElement>('textbox', { name: 'Share link' }).value).toBe(link);
      const opened = readFragment(link.slice(link.indexOf('#')), 'view');
      return opened && 'state' in opened ? opened.state : opened;
    };
    expect(await linkState()).toEqual(shared);

    // 'Rerun at head': the same view and input without a level; the head's value, its level, no note
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rerun at head' }));
    await vi.waitFor(() => expect(within(dialog).getByRole('tree').textContent).toContain('42'), {
      timeout: 15_000,
    });
    expect(mock.callsTo(execute)[1]?.body).toEqual({
      kind: 'on-chain',
      name: 'get_note',
      implementation: 0,
      data: { '@string_1': 'genesis' },
    });
    expect(within(dialog).getByLabelText('Simulated at').textContent).toBe('Simulated at level 52');
    expect(within(dialog).queryByLabelText('Head moved')).toBeNull();
    expect(await linkState()).toEqual({ ...shared, level: 52 });
  });

  it("a failed view says where it ran: 'Simulated at level N', the changed-since note, its link and 'Rerun at head'", async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    // …/views/execute: at level 40 the view FAILWITHs (a 400 with where it ran); at the head (52) it returns 42
    const mock = setup(({ body }) =>
      (body as { at_level?: number }).at_level === 40
        ? new Response(JSON.stringify({ message: 'script_rejected: "no such note"' }), {
            status: 400,
            statusText: 'Bad Request',
            headers: {
              'content-type': 'application/json',
              'x-simulated-level': '40',
              'x-head-level': '52',
              'x-changed-since': 'true',
            },
          })
        : new Response(JSON.stringify([{ prim: 'int', type: 'int', name: '@int_1', value: '42' }]), {
            status: 200,
            headers: {
              'content-type': 'application/json',
              'x-simulated-level': '52',
              'x-head-level': '52',
              'x-changed-since': 'false',
            },
          }),
    );
    const shared: SharedView = {
      v: 1,
      kind: 'view',
      network: 'sandboxnet',
      address: KT,
      view: { kind: 'on-chain', name: 'get_note', implementation: 0 },
      data: { '@string_1': 'gone' },
      level: 40,
    };
    renderApp(`/sandboxnet/${KT}/views/get_note#s=${encodeState(shared)}`);
    const failed = await screen.findByRole('dialog', { name: 'Bad Request — 400' }, { timeout: 20_000 });
    expect(within(failed).getByText('script_rejected: "no such note"')).toBeTruthy();
    expect(within(failed).getByLabelText('Simulated at').textContent).toBe('Simulated at level 40');
    expect(within(failed).getByLabelText('Head moved').textContent).toContain(
      'The contract has changed since: head is at level 52.',
    );
    // its link keeps the level it failed at
    fireEvent.click(within(failed).getByRole('button', { name: 'Copy link' }));
    await vi.waitFor(() => expect(writeText).toHaveBeenCalledTimes(1), { timeout: 15_000 });
    const link = (writeText.mock.calls[0] as unknown as [string])[0];
    const opened = readFragment(link.slice(link.indexOf('#')), 'view');
    expect(opened && 'state' in opened ? opened.state : opened).toEqual(shared);

    // 'Rerun at head': the same view and input without a level; its result at the head, no note
    fireEvent.click(within(failed).getByRole('button', { name: 'Rerun at head' }));
    const result = await screen.findByRole('dialog', { name: 'View result' });
    await vi.waitFor(() => expect(within(result).getByRole('tree').textContent).toContain('42'), {
      timeout: 15_000,
    });
    const execute = `POST /v1/contract/sandboxnet/${KT}/views/execute`;
    expect(mock.callsTo(execute).map((c) => (c.body as { at_level?: number }).at_level)).toEqual([
      40,
      undefined,
    ]);
    expect(within(result).getByLabelText('Simulated at').textContent).toBe('Simulated at level 52');
    expect(within(result).queryByLabelText('Head moved')).toBeNull();
    expect(screen.queryByRole('dialog', { name: 'Bad Request — 400' })).toBeNull();
  });
});
