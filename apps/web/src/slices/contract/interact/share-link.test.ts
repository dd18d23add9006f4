import LZString from 'lz-string';
import { describe, expect, it } from 'vitest';
import {
  encodeState,
  FRAGMENT_READ_MAX,
  LINK_FRAGMENT_MAX,
  parseState,
  readFragment,
  shareLink,
  type SharedDeploy,
  type SharedView,
  type ShareState,
} from './share-link';
import { compile } from './share-schema';
import { emptyWhatIf } from './whatif-state';

const ALICE = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
const KT1 = 'KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi';
const ORIGIN = 'https://michelscope.example';

function state(over: Partial<ShareState> = {}): ShareState {
  const w = emptyWhatIf();
  return {
    v: 1,
    network: 'sandboxnet',
    address: KT1,
    entrypoint: 'transfer',
    data: { transfer: [{ from_: ALICE, txs: [{ to_: ALICE, token_id: '0', amount: '5' }] }] },
    settings: { source: ALICE, sender: '', amount: '10' },
    what_if: {
      overrides: {
        ...w.overrides,
        balance: '1000',
        bigMaps: [{ map: 'ledger', key: `"${ALICE}"`, value: '9', remove: false }],
      },
      bundle: [{ entrypoint: 'mint', data: { mint: '7' }, amount: '', source: '', sender: '' }],
    },
    show: 'whatif',
    debug: { call: 1, step: 42, tab: 'profile' },
    ...over,
  };
}
const noStore = () => Promise.reject(new Error('a short state is never stored'));
const fragmentOf = (link: string) => link.slice(link.indexOf('#'));

describe('share links', () => {
  it('keeps the level a simulation ran at; a level that is not a whole number is refused', async () => {
    const pinned = state({ level: 1234 });
    const link = await shareLink(pinned, ORIGIN, noStore);
    expect(readFragment(fragmentOf(link))).toEqual({ state: pinned });
    for (const level of [-1, 1.5, '12'])
      expect(readFragment(`#s=${encodeState({ ...state(), level } as unknown as ShareState)}`)).toMatchObject(
        {
          error: expect.stringMatching(/level/),
        },
      );
  });

  it("keeps the node simulation's storage limit in the settings; one that is not digits is refused", async () => {
    const limited = state({ show: 'simulation', settings: { ...state().settings, storageLimit: '283' } });
    const link = await shareLink(limited, ORIGIN, noStore);
    expect(readFragment(fragmentOf(link))).toEqual({ state: limited });
    expect(parseState(JSON.parse(JSON.stringify(limited))).settings.storageLimit).toBe('283');
    for (const storageLimit of ['', '12a', '1'.repeat(13), 12])
      expect(
        readFragment(
          `#s=${encodeState({ ...state(), settings: { ...state().settings, storageLimit } } as unknown as ShareState)}`,
        ),
      ).toMatchObject({ error: expect.stringMatching(/settings.storageLimit/) });
  });

  it('round-trips a state through the link fragment', async () => {
    const link = await shareLink(state(), ORIGIN, noStore);
    expect(link.startsWith(`${ORIGIN}/sandboxnet/${KT1}/interact/transfer#s=`)).toBe(true);
    expect(readFragment(fragmentOf(link))).toEqual({ state: state() });
    // the fragment is URL-safe as it is
    expect(fragmentOf(link)).toMatch(/^#s=[A-Za-z0-9+\-$]+$/);
    // a state without a debugger position, and the default entrypoint (no name)
    const plain = state({ entrypoint: '', show: 'simulation' });
    delete plain.debug;
    const l2 = await shareLink(plain, ORIGIN, noStore);
    expect(l2).toContain('/interact/#s=');
    expect(readFragment(fragmentOf(l2))).toEqual({ state: plain });
  });

  it('stores a state whose fragment is longer than the limit, and links its id', async () => {
    // a list of many different token ids (hardly compressible)
    const ids = Array.from({ length: 600 }, (_, i) => String((i * 7919) % 100_003));
    const big = state({ data: { update: ids } });
    expect(encodeState(big).length).toBeGreaterThan(LINK_FRAGMENT_MAX);
    const stored: ShareState[] = [];
    const link = await shareLink(
      big,
      ORIGIN,
      async (s) => (stored.push(s), { id: 'AbCdEfGhIjKlMnOpQrStUv' }),
    );
    expect(stored).toEqual([big]);
    expect(link).toBe(`${ORIGIN}/sandboxnet/${KT1}/interact/transfer#share=AbCdEfGhIjKlMnOpQrStUv`);
    expect(readFragment('#share=AbCdEfGhIjKlMnOpQrStUv')).toEqual({ id: 'AbCdEfGhIjKlMnOpQrStUv' });
  });

  it('reads no share from other fragments', () => {
    expect(readFragment('')).toBeNull();
    expect(readFragment('#')).toBeNull();
    expect(readFragment('#storage')).toBeNull();
  });

  it('says why a bad link cannot be opened, and never gives a partial state', () => {
    const enc = (v: unknown) => `#s=${LZString.compressToEncodedURIComponent(JSON.stringify(v))}`;
    const cases: [string, RegExp][] = [
      ['#share=../../etc', /id is not valid/],
      ['#share=' + 'a'.repeat(23), /id is not valid/],
      ['#s=', /does not decompress/],
      ['#s=%%%%not-lz', /damaged/],
      [`#s=${'A'.repeat(FRAGMENT_READ_MAX)}`, /longer than/],
      [`#s=${LZString.compressToEncodedURIComponent('{"v":1,')}`, /not JSON/],
      [enc([1, 2]), /not an object/],
      [enc({ ...state(), v: 2 }), /another version/],
      [enc({ ...state(), extra: 1 }), /unknown field 'extra'/],
      [enc({ ...state(), network: 'Main Net' }), /network is not valid/],
      [enc({ ...state(), address: ALICE }), /address is not valid/],
      [enc({ ...state(), show: 'javascript:alert(1)' }), /show must be one of/],
      [enc({ ...state(), debug: { call: 7, step: 1, tab: 'step' } }), /debug.call/],
      [enc({ ...state(), debug: { call: 0, step: -1, tab: 'step' } }), /debug.step/],
      [enc({ ...state(), data: 'x' }), /data is not an object/],
      [
        enc({ ...state(), data: JSON.parse(`{"a":${'['.repeat(100)}${']'.repeat(100)}}`) as object }),
        /data: JSON nested deeper/,
      ],
      [
        enc({ ...state(), settings: { source: 1, sender: '', amount: '' } }),
        /settings.source is not a string/,
      ],
      [
        enc({
          ...state(),
          what_if: { overrides: state().what_if.overrides, bundle: Array(6).fill(state().what_if.bundle[0]) },
        }),
        /more than 5/,
      ],
      [
        enc({
          ...state(),
          what_if: { ...state().what_if, overrides: { ...state().what_if.overrides, storageMode: 'eval' } },
        }),
        /storageMode/,
      ],
      [
        enc({
          ...state(),
          what_if: {
            ...state().what_if,
            overrides: {
              ...state().what_if.overrides,
              bigMaps: [{ map: 'a', key: 'b', value: 'c', remove: 'yes' }],
            },
          },
        }),
        /remove/,
      ],
      [enc({ ...state(), entrypoint: 'e'.repeat(300) }), /entrypoint is longer/],
    ];
    for (const [hash, message] of cases) {
      const r = readFragment(hash);
      expect(r, hash.slice(0, 60)).toHaveProperty('error');
      expect((r as { error: string }).error, hash.slice(0, 60)).toMatch(message);
    }
    // a state over the API's size bound: refused after decompressing, before parsing
    const huge = `#s=${LZString.compressToEncodedURIComponent(JSON.stringify({ ...state(), data: { x: 'y'.repeat(70_000) } }))}`;
    expect(huge.length).toBeLessThan(FRAGMENT_READ_MAX);
    expect(readFragment(huge)).toEqual({ error: 'the simulation in the link is too large' });
    expect(() => parseState(null)).toThrow('the simulation is not an object');
  });

  const view = (over: Partial<SharedView> = {}): SharedView => ({
    v: 1,
    kind: 'view',
    network: 'sandboxnet',
    address: KT1,
    view: { kind: 'off-chain', name: 'get_balance', implementation: 1 },
    data: { owner: ALICE },
    debug: { step: 9, tab: 'step' },
    ...over,
  });
  const deploy = (over: Partial<SharedDeploy> = {}): SharedDeploy => ({
    v: 1,
    kind: 'deploy',
    network: 'sandboxnet',
    code: 'parameter nat; storage nat; code { UNPAIR; ADD; NIL operation; PAIR }',
    storage: { storage: '7' },
    balance: '',
    show: 'debug',
    call: { entrypoint: 'default', mode: 'form', data: { default: '5' }, text: '' },
    debug: { step: 3, tab: 'profile' },
    ...over,
  });

  it('links a view to its Views tab and the deploy page to /deploy, and reads each back as its kind', async () => {
    const v = await shareLink(view(), ORIGIN, noStore);
    expect(v.startsWith(`${ORIGIN}/sandboxnet/${KT1}/views/get_balance?kind=off-chain#s=`)).toBe(true);
    expect(readFragment(fragmentOf(v), 'view')).toEqual({ state: view() });
    const onChain = view({ view: { kind: 'on-chain', name: 'my view' } });
    expect(await shareLink(onChain, ORIGIN, noStore)).toContain(`/views/my%20view#s=`);
    const d = await shareLink(deploy(), ORIGIN, noStore);
    expect(d.startsWith(`${ORIGIN}/deploy#s=`)).toBe(true);
    expect(readFragment(fragmentOf(d), 'deploy')).toEqual({ state: deploy() });
    // a link opened by a page of another kind says what it is
    expect(readFragment(fragmentOf(d), 'view')).toEqual({
      error: 'it is a link to the deploy page, not a view',
    });
    expect(readFragment(fragmentOf(v))).toEqual({ error: 'it is a link to a view, not a call' });
  });

  it('stores a big script and links /deploy#share={id}', async () => {
    // a script of many distinct constants: its fragment is far over the link's limit
    const code = `parameter nat; storage nat; code { ${Array.from({ length: 800 }, (_, i) => `PUSH nat ${(i * 7919) % 100_003}; DROP;`).join(' ')} CDR; NIL operation; PAIR }`;
    const big = deploy({ code, show: 'simulation' });
    const link = await shareLink(big, ORIGIN, async () => ({ id: 'AbCdEfGhIjKlMnOpQrStUv' }));
    expect(link).toBe(`${ORIGIN}/deploy#share=AbCdEfGhIjKlMnOpQrStUv`);
  });

  it("refuses a view or deploy state outside the API's schema", () => {
    const enc = (v: unknown) => `#s=${LZString.compressToEncodedURIComponent(JSON.stringify(v))}`;
    const cases: [string, 'view' | 'deploy', RegExp][] = [
      [enc({ ...view(), kind: 'script' }), 'view', /kind must be one of view, deploy/],
      [enc({ ...view(), view: { kind: 'sideways', name: 'a' } }), 'view', /view.kind must be one of/],
      [
        enc({ ...view(), view: { kind: 'on-chain', name: 'a', implementation: -1 } }),
        'view',
        /implementation/,
      ],
      [enc({ ...view(), debug: { call: 0, step: 1, tab: 'step' } }), 'view', /unknown field 'call'/],
      [enc({ ...view(), address: ALICE }), 'view', /address is not valid/],
      [enc({ ...deploy(), show: 'whatif' }), 'deploy', /show must be one of simulation, debug/],
      [enc({ ...deploy(), call: { ...deploy().call, mode: 'eval' } }), 'deploy', /call.mode must be one of/],
      [enc({ ...deploy(), storage: [] }), 'deploy', /storage is not an object/],
      [enc({ ...deploy(), balance: 1 }), 'deploy', /balance is not a string/],
      [
        enc({
          ...deploy(),
          call: {
            ...deploy().call,
            data: JSON.parse(`{"a":${'['.repeat(100)}${']'.repeat(100)}}`) as object,
          },
        }),
        'deploy',
        /call.data: JSON nested deeper/,
      ],
    ];
    for (const [hash, kind, message] of cases) {
      const r = readFragment(hash, kind);
      expect(r, hash.slice(0, 60)).toHaveProperty('error');
      expect((r as { error: string }).error, hash.slice(0, 60)).toMatch(message);
    }
  });

  it('compiles only the schema keywords it checks', () => {
    expect(() => compile({ type: 'string', format: 'email' })).toThrow("unsupported keyword 'format'");
    expect(() => compile({ type: 'null' })).toThrow("unsupported type 'null'");
  });
});
