// @vitest-environment jsdom
/**
 * The debugger's source line (issue 38): a verified contract's source map puts "Source: <file>:<line>" and
 * the line's text next to the current instruction and in "Why it failed"; a source line is text, never HTML.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatWithLocations, parseMichelsonScript, TraceBuilder } from '@michelscope/michelson';
import type { ContractSource, DebugResult, SourceMapEntry } from '@michelscope/api-types';
import { mockFetch, resourceRoute } from '../../app/testing/mock-fetch';
import DebuggerDialog from './DebuggerDialog';
import { OperationErrors } from '../operation/OperationErrors';
import type { Operation } from '../../api/opg-types';
import type { DebugTarget } from './debug-target';
import { parentPath, pathsOfScript, sourceLocator } from './source-line';

const KT = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';
const at = { network: 'mainnet', address: KT };
const XSS = '<img src=x onerror=alert(1)>';
const target: DebugTarget = { ...at, request: { name: 'add', data: { add: -1 } } };

const SCRIPT = parseMichelsonScript(`parameter (or (unit %increment) (int %add));
storage int;
code { UNPAIR ;
       IF_LEFT
         { DROP ; PUSH int 1 ; ADD }
         { DUP ; GT ; IF {} { PUSH string "negative" ; FAILWITH } ; ADD } ;
       NIL operation ;
       PAIR }`);
const { text: CODE, spans: ALL } = formatWithLocations(SCRIPT);
const PATHS = pathsOfScript(SCRIPT);
const locOf = (path: string) => {
  const loc = PATHS.indexOf(path);
  if (loc < 0) throw new Error(`no node at ${path}`);
  return loc;
};
const lineOf = (path: string) => ALL[locOf(path)]![0] + 1;

const PUSH = 'code.args[0][1].args[0][1]'; // PUSH int 1
const DROP = 'code.args[0][1].args[0][0]'; // not mapped: its enclosing IF_LEFT is
const IF_LEFT = 'code.args[0][1]';
const FAILWITH = 'code.args[0][1].args[1][2].args[1][1]';

const entry = (path: string, file: string, line: number): SourceMapEntry => ({
  path,
  line: lineOf(path),
  file,
  start_line: line,
  start_col: 2,
  end_line: line,
  end_col: 20,
});

const SOURCE: ContractSource = {
  verification: {
    id: 'ab'.repeat(32),
    status: 'verified',
    compiler: 'archetype',
    version: '1.5.3',
    options: {},
    main: 'counter.arl',
    files: [{ name: 'counter.arl', size: 10, sha256: 'cd'.repeat(32) }],
    script_hash: 'expr',
    network: 'mainnet',
    address: KT,
    created_at: '2026-11-30T08:00:00Z',
  },
  inherited: false,
  files: [
    {
      name: 'counter.arl',
      content: [
        'archetype counter',
        'variable count : int = 0',
        'entry increment() {',
        '  match p with',
        '  count += 1',
        '}',
        'entry add(n : int) {',
        `  do_require(n > 0, "negative") // ${XSS}`,
        '}',
      ].join('\n'),
    },
  ],
  source_map: [
    entry(IF_LEFT, 'counter.arl', 4),
    entry(PUSH, 'counter.arl', 5),
    entry(FAILWITH, 'counter.arl', 8),
  ],
};

/** A failed recording of the script: `locs` run (empty stacks), then the FAILWITH. */
function recording(paths: string[]): DebugResult {
  const b = new TraceBuilder(10_000);
  const locs = paths.map(locOf);
  locs.forEach((l, i) => b.add(l, 10_000 - (i + 1) * 10, []));
  const fail = locOf(FAILWITH);
  const spans: DebugResult['spans'] = {};
  for (const l of [...locs, fail]) spans[l] = ALL[l]!;
  return {
    code: CODE,
    spans,
    blocks: {},
    enclosing: {},
    trace: b.trace,
    profile: { total_milligas: 0, fixed_milligas: 0, lines: [], frames: [] },
    status: 'failed',
    consumed_milligas: 100,
    gas_limit: 10_000,
    operations: [],
    failure: { kind: 'script_rejected', message: 'script rejected', location: fail },
    inputs: {
      self: KT,
      entrypoint: 'add',
      parameter: { int: '-1' },
      storage: { int: '0' },
      amount: '0',
      balance: '0',
      now: '0',
      level: '1',
      chain_id: 'NetXdQprcVkpaWU',
    },
  };
}

function open(d: DebugResult, source: ContractSource | Response) {
  const fetched = mockFetch([resourceRoute('debug', at, d), resourceRoute('contractSource', at, source)]);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <DebuggerDialog open onClose={() => {}} target={target} />
    </QueryClientProvider>,
  );
  return fetched;
}

beforeEach(() => vi.stubGlobal('scrollTo', vi.fn()));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('source line of a location', () => {
  it('walks up a path to the nearest enclosing instruction with an entry', () => {
    expect(parentPath('code.args[0][4].args[0][1]')).toBe('code.args[0][4].args[0]');
    expect(parentPath('code.args[0][4].args[0]')).toBe('code.args[0][4]');
    expect(parentPath('code.args[0]')).toBe('code');
    expect(parentPath('code')).toBeUndefined();
    // the recording's code parses back to the script's numbering
    expect(pathsOfScript(parseMichelsonScript(CODE))).toEqual(PATHS);
    const sourceAt = sourceLocator(CODE, SOURCE)!;
    expect(sourceAt(locOf(PUSH))).toEqual({ file: 'counter.arl', line: 5, text: '  count += 1', path: PUSH });
    expect(sourceAt(locOf(DROP))).toMatchObject({ line: 4, path: IF_LEFT });
    expect(sourceAt(locOf('code.args[0][0]'))).toBeUndefined(); // UNPAIR: nothing around it is mapped
    expect(sourceLocator(CODE, { ...SOURCE, source_map: [] })).toBeUndefined();
    expect(sourceLocator(CODE, null)).toBeUndefined();
  });
});

describe('DebuggerDialog: the source line (issue 38)', () => {
  it('shows "Source: counter.arl:5" and its text at a mapped step, the enclosing one at an unmapped step', async () => {
    const fetched = open(recording([PUSH, DROP]), SOURCE);
    const line = await screen.findByRole('group', { name: 'Source line' });
    expect(within(line).getByText('Source: counter.arl:5')).toBeTruthy();
    expect(within(line).getByText('count += 1')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Step' }));
    await waitFor(() =>
      expect(screen.getByRole('group', { name: 'Source line' }).textContent).toContain(
        'Source: counter.arl:4',
      ),
    );
    expect(fetched.callsTo(`GET /v1/contract/mainnet/${KT}/source`)).toHaveLength(1);
  });

  it("puts the failing instruction's source line in Why it failed, a hostile line as text", async () => {
    open(recording([PUSH]), SOURCE);
    const why = await screen.findByRole('alert', { name: 'Why it failed' });
    const failing = await within(why).findByRole('group', { name: 'Failing source line' });
    expect(within(failing).getByText('Source: counter.arl:8')).toBeTruthy();
    expect(failing.textContent).toContain(`do_require(n > 0, "negative") // ${XSS}`);
    expect(failing.querySelector('img')).toBeNull();
    expect(document.querySelector('img[src="x"]')).toBeNull();
    // at the FAILWITH, the step's own source line is the same
    fireEvent.click(screen.getByRole('button', { name: 'Jump to FAILWITH' }));
    await waitFor(() =>
      expect(screen.getByRole('group', { name: 'Source line' }).textContent).toContain(XSS),
    );
  });

  it('shows no source line for a contract without a verified source, after one /source request', async () => {
    const fetched = open(recording([PUSH]), new Response(null, { status: 204 }));
    await screen.findByRole('toolbar', { name: 'Debugger controls' });
    await waitFor(() => expect(fetched.callsTo(`GET /v1/contract/mainnet/${KT}/source`)).toHaveLength(1));
    expect(screen.queryByRole('group', { name: 'Source line' })).toBeNull();
    expect(screen.queryByRole('group', { name: 'Failing source line' })).toBeNull();
  });
});

describe("a simulation's errors: the failing source line (issue 38)", () => {
  it('shows the source line of the FAILWITH under the failed code, as text', async () => {
    const fetched = mockFetch([resourceRoute('contractSource', at, SOURCE)]);
    const op = {
      kind: 'transaction',
      status: 'failed',
      network: 'mainnet',
      destination: KT,
      entrypoint: 'add',
      errors: [
        {
          id: 'proto.024-PtTALLiN.michelson_v1.script_rejected',
          kind: 'temporary',
          title: 'Script failed',
          location: locOf(FAILWITH),
        },
      ],
    } as unknown as Operation;
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <OperationErrors op={op} code={SCRIPT} />
      </QueryClientProvider>,
    );
    expect(fetched.calls).toHaveLength(0); // asked for when the failed code opens
    fireEvent.click(screen.getByRole('button', { name: 'Show failed code' }));
    const failing = await screen.findByRole('group', { name: 'Failing source line' });
    expect(within(failing).getByText('Source: counter.arl:8')).toBeTruthy();
    expect(failing.textContent).toContain(XSS);
    expect(failing.querySelector('img')).toBeNull();
  });
});
