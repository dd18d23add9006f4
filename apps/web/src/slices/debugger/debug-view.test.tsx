// @vitest-environment jsdom
/**
 * Stepping the debugger (keys and clicks): the state, the code's current line (one line marked) and the stack
 * follow each step; a click on a line runs to it.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatWithLocations, parseMichelsonScript, TraceBuilder } from '@michelscope/michelson';
import type { DebugResult } from '@michelscope/api-types';
import { pathsOfScript } from './source-line';
import { DebugView } from './DebugView';
import { stubLayoutBox } from '../../app/testing/layout-box';

const KT = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';
const SCRIPT = parseMichelsonScript(`parameter int;
storage int;
code { UNPAIR ;
       PUSH int 1 ;
       ADD ;
       ADD ;
       PUSH string "a long string that makes the code wider than one line" ;
       DROP ;
       NIL operation ;
       PAIR }`);
const { text: CODE, spans: ALL } = formatWithLocations(SCRIPT);
const PATHS = pathsOfScript(SCRIPT);
const locOf = (path: string) => PATHS.indexOf(path);
const lineOf = (loc: number) => ALL[loc]![0] + 1;

/** The call's steps: where each runs, and the stack after it (item indexes, bottom first). */
const STEPS: [string, number[]][] = [
  ['code.args[0][0]', [0, 1]], // UNPAIR: storage 5, parameter 2
  ['code.args[0][1]', [0, 1, 2]], // PUSH int 1
  ['code.args[0][2]', [0, 3]], // ADD: 3
  ['code.args[0][3]', [4]], // ADD: 8
];

function recording(): DebugResult {
  const b = new TraceBuilder(10_000);
  const spans: DebugResult['spans'] = {};
  STEPS.forEach(([path, stack], i) => {
    const loc = locOf(path);
    spans[loc] = ALL[loc]!;
    b.add(loc, 10_000 - (i + 1) * 100, stack);
  });
  b.trace.types = [{ prim: 'int' }];
  b.trace.items = [5, 2, 1, 3, 8].map((n) => [0, { int: String(n) }]);
  return {
    code: CODE,
    spans,
    blocks: {},
    enclosing: {},
    trace: b.trace,
    profile: { total_milligas: 0, fixed_milligas: 0, lines: [], frames: [] },
    status: 'applied',
    consumed_milligas: 400,
    gas_limit: 10_000,
    operations: [],
    inputs: {
      self: KT,
      entrypoint: 'default',
      parameter: { int: '2' },
      storage: { int: '5' },
      amount: '0',
      balance: '0',
      now: '0',
      level: '1',
      chain_id: 'NetXdQprcVkpaWU',
    },
  };
}

beforeEach(stubLayoutBox);
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function open() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <DebugView d={recording()} network="mainnet" source={null} onDebugInternal={() => {}} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const fact = (name: string) => {
  const list = screen.getByLabelText('Debugger state');
  const term = within(list).getByText(name);
  return term.nextElementSibling?.textContent;
};
/** The marked lines of the code pane (1-based numbers). */
const current = () =>
  within(screen.getByRole('list', { name: 'Michelson code' }))
    .getAllByRole('listitem')
    .filter((l) => l.getAttribute('aria-current') === 'step')
    .map((l) => Number(l.getAttribute('data-line')));
const stack = () =>
  within(screen.getByRole('tree', { name: 'Stack items, top first' }))
    .getAllByRole('treeitem')
    .map((r) => r.textContent);

describe('DebugView: stepping', () => {
  it('moves the state, the current line and the stack with s and b', async () => {
    open();
    expect(fact('Step')).toBe('1 / 4');
    expect(fact('Instruction')).toBe('UNPAIR');
    expect(current()).toEqual([lineOf(locOf(STEPS[0]![0]))]);
    expect(stack()).toEqual(['0 · int · changed:2', '1 · int · changed:5']);
    fireEvent.keyDown(document.body, { key: 's' });
    await waitFor(() => expect(fact('Step')).toBe('2 / 4'));
    expect(fact('Instruction')).toBe('PUSH');
    expect(fact('Gas of this step')).toBe('0.1');
    expect(current()).toEqual([lineOf(locOf(STEPS[1]![0]))]);
    expect(stack()).toEqual(['0 · int · changed:1', '1 · int:2', '2 · int:5']);
    fireEvent.keyDown(document.body, { key: 's' });
    fireEvent.keyDown(document.body, { key: 's' });
    await waitFor(() => expect(fact('Step')).toBe('4 / 4'));
    expect(current()).toEqual([lineOf(locOf(STEPS[3]![0]))]);
    expect(stack()).toEqual(['0 · int · changed:8']);
    // at the end, a step stays there
    fireEvent.keyDown(document.body, { key: 's' });
    expect(fact('Step')).toBe('4 / 4');
    fireEvent.keyDown(document.body, { key: 'b' });
    await waitFor(() => expect(fact('Step')).toBe('3 / 4'));
    expect(current()).toEqual([lineOf(locOf(STEPS[2]![0]))]);
    expect(stack()).toEqual(['0 · int · changed:3', '1 · int:5']);
    fireEvent.click(screen.getByRole('button', { name: 'Restart' }));
    await waitFor(() => expect(fact('Step')).toBe('1 / 4'));
    expect(stack()).toEqual(['0 · int · changed:2', '1 · int · changed:5']);
  });

  it('runs to a clicked line, and says so when the line is not run after this step', async () => {
    open();
    const line = (n: number) =>
      within(screen.getByRole('list', { name: 'Michelson code' }))
        .getAllByRole('listitem')
        .find((l) => l.getAttribute('data-line') === String(n))!;
    const third = lineOf(locOf(STEPS[2]![0]));
    fireEvent.click(line(third));
    await waitFor(() => expect(fact('Step')).toBe('3 / 4'));
    expect(current()).toEqual([third]);
    // the first line with an instruction is behind: not run after this step
    const first = lineOf(locOf(STEPS[0]![0]));
    fireEvent.click(line(first));
    expect(await screen.findByText(`Line ${first} is not run after this step.`)).toBeTruthy();
    expect(fact('Step')).toBe('3 / 4');
    // a step clears the notice
    fireEvent.keyDown(document.body, { key: 's' });
    await waitFor(() => expect(fact('Step')).toBe('4 / 4'));
    expect(screen.queryByText(`Line ${first} is not run after this step.`)).toBeNull();
  });
});
