// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { parseMichelsonScript } from '@michelscope/michelson';
import { renderApp } from '../../../app/testing/render-app';
import type { EntrypointSchema } from '@michelscope/api-types';
import {
  anyQueryRoute,
  mockFetch,
  resourceRoute,
  type Call,
  type Route,
} from '../../../app/testing/mock-fetch';
import { contractFrame, contractWithStats, operation } from '../../../app/testing/contract-page';
import { SWAP_FLOW } from '../../operation/flow/flow.fixture';

const KT = 'KT1LuuuC4AA5eDbKtdpkB8gZurbwAgxX6NNf';

// A counter contract like the sandbox seed's, and the entrypoint forms GET …/entrypoints gives for it.
const CODE = parseMichelsonScript(`
parameter (or (or (int %increment) (int %decrement)) (or (pair %note string nat) (nat %withdraw)));
storage int;
code { CDR; NIL operation; PAIR }`);
const ENTRYPOINTS: EntrypointSchema[] = [
  {
    name: 'increment',
    typedef: [{ name: 'increment', type: 'int' }],
    schema: {
      type: 'object',
      properties: { increment: { type: 'integer', prim: 'int', title: 'increment', default: 0 } },
    },
  },
  {
    name: 'withdraw',
    typedef: [{ name: 'withdraw', type: 'nat' }],
    schema: {
      type: 'object',
      properties: { withdraw: { type: 'integer', prim: 'nat', title: 'withdraw', default: 0 } },
    },
  },
  {
    name: 'decrement',
    typedef: [{ name: 'decrement', type: 'int' }],
    schema: {
      type: 'object',
      properties: { decrement: { type: 'integer', prim: 'int', title: 'decrement', default: 0 } },
    },
  },
  {
    name: 'note',
    typedef: [
      {
        name: 'note',
        type: 'pair',
        args: [
          { key: '@string_7', value: 'string' },
          { key: '@nat_8', value: 'nat' },
        ],
      },
    ],
    schema: {
      type: 'object',
      title: 'note',
      properties: {
        '@string_7': { type: 'string', prim: 'string', title: '@string_7', default: '' },
        '@nat_8': { type: 'integer', prim: 'nat', title: '@nat_8', default: 0 },
      },
    },
  },
];

const at = { network: 'sandboxnet', address: KT };

/** The interact tab of the counter contract; `extra` routes answer first. */
function setup(extra: Route[] = []) {
  return mockFetch([
    ...extra,
    ...contractFrame('sandboxnet', KT, { account: { operations_count: 94 } }),
    resourceRoute('script', at, { code: CODE, storage: { int: '0' } }),
    // no call yet: no latest-call model of any entrypoint
    anyQueryRoute(
      'entrypointSchema',
      { ...at, entrypoint: '', fillType: 'latest' },
      new Response('{"message":"not found"}', { status: 404 }),
    ),
    resourceRoute('entrypoints', at, ENTRYPOINTS),
  ]);
}

beforeEach(() => vi.stubGlobal('scrollTo', vi.fn()));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('interact tab', () => {
  it('lists entrypoints by name with bookmark buttons and keeps the selected one in the URL', async () => {
    setup();
    const { router } = renderApp(`/sandboxnet/${KT}/interact`);
    // the file's first render loads the interact screen's modules (over 20 s on a host whose cores CI's other
    // runner kept busy, session 32)
    const list = await screen.findByRole('list', { name: 'Entrypoints' }, { timeout: 60_000 });
    expect(
      within(list)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['decrement', 'increment', 'note', 'withdraw']);
    expect(within(list).getAllByRole('button', { name: 'Add bookmark' })).toHaveLength(4);
    // no entrypoint in the URL: the first one is selected (replace)
    expect(await screen.findByRole('heading', { name: 'decrement', level: 2 })).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/sandboxnet/${KT}/interact/decrement`);
    fireEvent.click(within(list).getByRole('link', { name: 'note' }));
    expect(await screen.findByRole('heading', { name: 'note', level: 2 })).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/sandboxnet/${KT}/interact/note`);
    expect(screen.getByRole('region', { name: 'Parameter type' }).textContent).toContain('nat');
  });

  it('shows the spec text for a negative nat and the Michelson of a valid call', async () => {
    setup();
    renderApp(`/sandboxnet/${KT}/interact/withdraw`);
    const field = await screen.findByLabelText('withdraw');
    fireEvent.change(field, { target: { value: '-3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Michelson' }));
    expect(await screen.findByText('Nat must be positive')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.change(field, { target: { value: '42' } });
    fireEvent.click(screen.getByRole('button', { name: 'Michelson' }));
    const dialog = await screen.findByRole('dialog', { name: 'Michelson' });
    expect(within(dialog).getByText('42')).toBeTruthy();
  });

  it('builds the tezos-client instruction and validates the burn cap', async () => {
    setup();
    renderApp(`/sandboxnet/${KT}/interact/note`);
    // fields without annotation are labelled by their type, never by a generated id (@string_7)
    fireEvent.change(await screen.findByLabelText('string'), { target: { value: 'hello' } });
    fireEvent.change(screen.getByLabelText('nat'), { target: { value: '7' } });
    fireEvent.change(screen.getByLabelText('Source'), {
      target: { value: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx' },
    });
    fireEvent.change(screen.getByLabelText('Amount (mutez)'), { target: { value: '1500000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Command line' }));
    const dialog = await screen.findByRole('dialog', { name: 'Command line' });
    const cli = within(dialog).getByLabelText('tezos-client instruction');
    expect(cli.textContent).toBe(
      `tezos-client transfer 1.5 from tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx to ${KT} --entrypoint 'note' --arg 'Pair "hello" 7'`,
    );
    const burnCap = within(dialog).getByLabelText('Burn cap');
    fireEvent.change(burnCap, { target: { value: '1.2.3' } });
    expect(within(dialog).getByText('The value must be a float number')).toBeTruthy();
    fireEvent.change(burnCap, { target: { value: '00.35' } });
    expect((burnCap as HTMLInputElement).value).toBe('0.35');
    fireEvent.click(within(dialog).getByLabelText('Dry run'));
    expect(cli.textContent).toMatch(/--burn-cap 0\.35 --dry-run$/);
  });

  it("simulates with run_operation for the sandbox's first account and sums gas and burned over internal operations", async () => {
    const mock = setup([
      resourceRoute('runOperation', at, [
        operation('sandboxnet', {
          destination: KT,
          entrypoint: 'increment',
          consumed_gas: 1_520_000,
          gas_limit: 1_040_000,
          storage_limit: 60_000,
          paid_storage_size_diff: 120,
          burned: 30_000,
          storage_diff: { prim: 'int', type: 'int', value: '5' },
        }),
        operation('sandboxnet', {
          content_index: 1,
          destination: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx',
          consumed_gas: 100_000,
          burned: 64_250,
          internal: true,
        }),
      ]),
    ]);
    renderApp(`/sandboxnet/${KT}/interact/increment`);
    fireEvent.change(await screen.findByLabelText('increment'), { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Simulate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Simulation result' });
    const figures = within(dialog)
      .getAllByRole('definition')
      .map((d) => d.textContent);
    // gas 1,520 + 100 of 1,040,000 (0.16 %); storage 120 of 60,000 bytes (0.2 %); burned 30,000 + 64,250 mutez
    expect(figures).toEqual(['1,620 (0.16%)', '120 bytes (0.2%)', '0.09425 ꜩ', '1,040,000', '60,000']);
    expect(within(dialog).getAllByRole('row')).toHaveLength(3);
    const [call] = mock.callsTo(`POST /v1/contract/sandboxnet/${KT}/entrypoints/run_operation`) as [Call];
    expect(call.body).toEqual({
      name: 'increment',
      data: { increment: '5' },
      source: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx',
    });
  });

  it("shows the simulation's flow graph when its Flow section opens, from …/run_operation/flow with the same body (issue 37)", async () => {
    const flow = resourceRoute('runOperationFlow', at, SWAP_FLOW);
    const mock = setup([
      resourceRoute('runOperation', at, [
        operation('sandboxnet', { destination: KT, entrypoint: 'increment' }),
      ]),
      flow,
    ]);
    renderApp(`/sandboxnet/${KT}/interact/increment`);
    fireEvent.change(await screen.findByLabelText('increment'), { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Simulate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Simulation result' });
    const section = within(dialog).getByRole('region', { name: 'Flow' });
    // nothing asked for until the section opens
    expect(mock.callsOf(flow)).toHaveLength(0);
    fireEvent.click(within(section).getByRole('button', { name: 'Show the flow graph' }));
    const table = await within(section).findByRole('table', { name: 'Flow edges' });
    expect(within(table).getAllByRole('row')).toHaveLength(SWAP_FLOW.edges.length + 1);
    expect(
      within(section).getByRole('button', {
        name: '#3 transfer, 1,002 USDt, from Swap <b>pool</b> to KT1XnTn…WR8o',
      }),
    ).toBeTruthy();
    const [run] = mock.callsTo(`POST /v1/contract/sandboxnet/${KT}/entrypoints/run_operation`) as [Call];
    const calls = mock.callsOf(flow);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toEqual(run.body);
    expect(calls[0]!.url).toBe(`/v1/contract/sandboxnet/${KT}/entrypoints/run_operation/flow`);
  });

  it('says the contract was not called yet when the latest-call model is missing', async () => {
    setup();
    renderApp(`/sandboxnet/${KT}/interact/increment`);
    await screen.findByLabelText('increment');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Fill type' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Latest call' }));
    expect(await screen.findByText('This contract most likely has not been called yet.')).toBeTruthy();
  });

  it("waits for a fill's answer before its actions, and drops a late answer of a fill given up", async () => {
    let answer = (_: EntrypointSchema) => {};
    const latest = new Promise<EntrypointSchema>((resolve) => (answer = resolve));
    setup([
      resourceRoute('entrypointSchema', { ...at, entrypoint: 'increment', fillType: 'latest' }, () => latest),
    ]);
    renderApp(`/sandboxnet/${KT}/interact/increment`);
    await screen.findByLabelText('increment', {}, { timeout: 20_000 });
    const chooseFill = async (name: string) => {
      fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Fill type' }));
      fireEvent.click(await screen.findByRole('option', { name }));
    };
    await chooseFill('Latest call');
    // the latest call's model is on its way: the actions wait for it
    for (const name of ['Simulate', 'Raw JSON', 'Michelson', 'Command line', 'Send with wallet'])
      expect(screen.getByRole<HTMLButtonElement>('button', { name }).disabled).toBe(true);
    // the user goes back to Empty before it arrives: the late answer does not land in the form
    await chooseFill('Empty');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Simulate' }).disabled).toBe(false);
    answer({ ...ENTRYPOINTS[0]!, default_model: { increment: 77 } });
    // the answer has been read (the client's request settled) and the form still holds Empty's model
    await latest;
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByLabelText<HTMLInputElement>('increment').value).toBe('0');
  });

  it('fills a tagged contract field with the newest contract of that tag', async () => {
    const NEWEST = 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn';
    const withCallback: EntrypointSchema[] = [
      {
        name: 'getBalance',
        typedef: [],
        schema: {
          type: 'object',
          properties: {
            owner: { type: 'string', prim: 'address', title: 'owner', default: '' },
            callback: { type: 'string', prim: 'contract', title: 'callback', tag: 'view_nat', default: '' },
          },
        },
      },
    ];
    const newest = resourceRoute(
      'contractWithTag',
      { network: 'sandboxnet', tags: 'view_nat' },
      contractWithStats('sandboxnet', NEWEST, { tags: ['view_nat'] }),
    );
    const mock = setup([resourceRoute('entrypoints', at, withCallback), newest]);
    renderApp(`/sandboxnet/${KT}/interact/getBalance`);
    const field = await screen.findByLabelText<HTMLInputElement>('callback', {}, { timeout: 20_000 });
    expect(screen.queryByRole('button', { name: /Fill owner/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Fill callback with the newest view_nat contract' }));
    await vi.waitFor(() => expect(field.value).toBe(NEWEST), { timeout: 15_000 });
    expect(mock.callsOf(newest)).toHaveLength(1);
  });
});
