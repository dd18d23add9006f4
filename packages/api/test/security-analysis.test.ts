// The permission and upgrade-risk summary (issue 37): the seeded demo contracts and a table of real mainnet
// contracts from ../shared/fixtures/contracts, each with the summary expected from reading its code (the
// `read:` line says what the code does at the places that decide it).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatMichelson, parseMichelsonScript, type Micheline } from '@michelscope/michelson';
import { describe, expect, it } from 'vitest';
import { analyseSecurity, MAX_STEPS, type EntrypointSummary } from '../src/security/analyse';

const here = path.dirname(fileURLToPath(import.meta.url));
const SEED = path.resolve(here, '../../sandbox/src/seed/contracts');
const CONTRACTS = path.resolve(here, '../../../../shared/fixtures/contracts');
const hasShared = existsSync(CONTRACTS);
if (!hasShared) console.warn(`[security tests] ${CONTRACTS} not found: the mainnet table is skipped`);

const seed = (name: string, expandMacros = true): Micheline[] =>
  parseMichelsonScript(readFileSync(path.join(SEED, `${name}.tz`), 'utf8'), { expandMacros });
const byName = (eps: EntrypointSummary[]) => Object.fromEntries(eps.map((e) => [e.name, e]));

describe('security summary of the seeded demo contracts', () => {
  it('upgradable: upgrade (anyone) writes the lambda big map %logic that apply EXECs', () => {
    const r = analyseSecurity(seed('upgradable'));
    expect(r.headline).toBe('Upgradable by anyone (through upgrade)');
    expect(r.upgradable).toBe(true);
    expect(r.complete).toBe(true);
    const e = byName(r.entrypoints);
    expect(e.upgrade).toMatchObject({ who: 'anyone', can: [], writes: ['logic'] });
    expect(e.apply).toMatchObject({ who: 'anyone', can: ['exec_stored_lambda'], writes: ['value'] });
    expect(r.upgrade.stored_lambdas).toMatchObject([{ field: 'logic', written_by: ['upgrade'] }]);
    expect(r.findings[0]!.sentence).toBe(
      "Runs code stored in %logic: the contract's logic can change; upgrade (anyone) can replace it.",
    );
    // the EXEC, on its line of the code tab's text
    const lines = formatMichelson(seed('upgradable')).split('\n');
    const ev = r.upgrade.stored_lambdas[0]!.evidence[0]!;
    expect(ev.instruction).toBe('EXEC');
    expect(lines[ev.line! - 1]).toContain('EXEC');
  });

  it('multisig: main checks signatures of %keys against %threshold and runs the given lambda', () => {
    const storage = parseMichelsonScript('Pair 0 2 { "edpkA" ; "edpkB" ; "edpkC" }')[0];
    const r = analyseSecurity(seed('multisig'), storage);
    expect(r.headline).toBe('Immutable; privileged entrypoints: main (multisig)');
    const e = byName(r.entrypoints);
    expect(e.default).toMatchObject({ who: 'anyone', can: [], writes: [] });
    expect(e.main).toMatchObject({
      who: 'multisig',
      multisig: { keys_field: 'keys', threshold_field: 'threshold', threshold: 2, keys: 3 },
      can: ['exec_parameter_lambda'],
      writes: ['counter'],
    });
    expect(r.upgradable).toBe(false);
  });

  it('delegator: set_delegate (anyone) changes the delegate', () => {
    const r = analyseSecurity(seed('delegator'));
    expect(r.headline).toBe('Immutable; no privileged entrypoint');
    expect(byName(r.entrypoints).set_delegate).toMatchObject({ who: 'anyone', can: ['set_delegate'] });
    expect(r.upgrade.set_delegate).toBe(true);
    expect(r.findings.map((f) => f.kind)).toEqual(['set_delegate']);
    const lines = formatMichelson(seed('delegator')).split('\n');
    expect(lines[r.findings[0]!.evidence[0]!.line! - 1]).toContain('SET_DELEGATE');
  });

  it("fa12: mint only by %admin (named from the storage), the others open; the guard's line is the code tab's", () => {
    const admin = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
    const storage = parseMichelsonScript(`Pair {} {} "${admin}" 0 {}`)[0];
    const r = analyseSecurity(seed('fa12'), storage);
    expect(r.headline).toBe('Immutable; privileged entrypoints: mint (admin)');
    const e = byName(r.entrypoints);
    expect(e.mint).toMatchObject({ who: 'admin', admin: { field: 'admin', address: admin }, can: [] });
    expect(e.mint!.writes).toEqual(['ledger', 'total_supply']);
    expect(e.transfer).toMatchObject({ who: 'anyone', can: [] });
    expect(e.getBalance).toMatchObject({ who: 'anyone', can: ['call_contracts'] });
    expect(r.admins).toEqual([{ field: 'admin', address: admin }]);
    const lines = formatMichelson(seed('fa12')).split('\n');
    expect(lines[e.mint!.evidence[0]!.line! - 1]).toContain('"NotAdmin"');
    // no entrypoint writes %admin: it cannot be replaced
    expect(r.upgrade.admin_replaceable).toEqual([]);
  });

  it('factory: originates a contract and emits an event, for anyone', () => {
    const r = analyseSecurity(seed('factory'));
    expect(r.headline).toBe('Immutable; no privileged entrypoint');
    expect(r.entrypoints).toMatchObject([
      { name: 'default', who: 'anyone', can: ['originate', 'emit_events'] },
    ]);
    expect(r.findings.map((f) => f.kind)).toEqual(['originate']);
  });

  it('the same summaries with the macros left as written (expanded while analysed)', () => {
    for (const name of ['upgradable', 'multisig', 'delegator', 'fa12', 'factory']) {
      const a = analyseSecurity(seed(name));
      const b = analyseSecurity(seed(name, false));
      expect(b.headline, name).toBe(a.headline);
      expect(
        b.entrypoints.map((e) => [e.name, e.who, e.can]),
        name,
      ).toEqual(a.entrypoints.map((e) => [e.name, e.who, e.can]));
    }
  });
});

interface Expected {
  address: string;
  headline: string;
  /** who, the admin field or multisig keys field, and `can` (absent: none) for the entrypoints listed. */
  entrypoints: Record<string, { who: string; admin?: string; multisig?: string; can?: string[] }>;
}

const TABLE: Expected[] = [
  {
    address: 'KT18bAxHmJh511Co2nuFJQn888JxYX939RU3',
    // read: a one-entrypoint script with no SENDER check and no operation
    headline: 'Immutable; no privileged entrypoint',
    entrypoints: { default: { who: 'anyone' } },
  },
  {
    address: 'KT1N8KZ2JETP6ku7kqt7yC8CtUdsRg3z9Dbb',
    // read: replace: `CAR ; SENDER ; COMPARE ; EQ ; IF {} { PUSH string "NOT_ADMIN" ; FAILWITH }` on %admin; default does nothing
    headline: 'Immutable; privileged entrypoints: replace (admin)',
    entrypoints: { default: { who: 'anyone' }, replace: { who: 'admin', admin: 'admin' } },
  },
  {
    address: 'KT1FMTXT5fi3viTNCnouNX8czeUdpEDH2MBY',
    // read: manager.tz: do checks SENDER = IMPLICIT_ACCOUNT (storage key_hash), then EXECs the lambda it was given
    headline: 'Immutable; privileged entrypoints: do (admin)',
    entrypoints: {
      do: { who: 'admin', admin: 'storage', can: ['exec_parameter_lambda'] },
      default: { who: 'anyone' },
    },
  },
  {
    address: 'KT1UQsAay9sPFeKigxX7xZZBSf5fzTwTUiys',
    // read: updateDelegator: SENDER = %guildContract (FAILWITH 401) then SET_DELEGATE; withdraw: SENDER = %owner then a tez transfer
    headline: 'Immutable; privileged entrypoints: updateDelegator (admin), withdraw (admin)',
    entrypoints: {
      default: { who: 'anyone' },
      updateDelegator: { who: 'admin', admin: 'guildContract', can: ['set_delegate'] },
      withdraw: { who: 'admin', admin: 'owner', can: ['transfer_tez'] },
    },
  },
  {
    address: 'KT1PdHb2tnTuyMo7JC8jcj1uw3A41QuWEeii',
    // read: hic et nunc DAO helper: every entrypoint starts with `CAR ; SENDER ; COMPARE ; EQ ; IF` on %admin
    headline:
      'Immutable; privileged entrypoints: set_baker_hicetnuncDAO (admin), update_admin (admin), update_oracle_protocol (admin)',
    entrypoints: {
      set_baker_hicetnuncDAO: { who: 'admin', admin: 'admin', can: ['call_contracts'] },
      update_admin: { who: 'admin', admin: 'admin' },
      update_oracle_protocol: { who: 'admin', admin: 'admin', can: ['call_contracts'] },
    },
  },
  {
    address: 'KT1HqgQdAcR63cvPcbt1qH8rAnDifPQJM1W1',
    // read: vesting: setDelegate compares SENDER with %delegateAdmin in a DIP and FAILWITHs otherwise; vest pays out tez to %target
    headline: 'Immutable; privileged entrypoints: setDelegate (admin)',
    entrypoints: {
      setDelegate: { who: 'admin', admin: 'delegateAdmin', can: ['set_delegate'] },
      vest: { who: 'anyone', can: ['transfer_tez'] },
    },
  },
  {
    address: 'KT1S2TKog9xKJbk6zuS1AxL9KhTWvjk3agBQ',
    // read: default: SENDER MEM a set pushed in the code; command: CHECK_SIGNATURE with the stored %key, then transfer / set delegate / new key
    headline: 'Immutable; privileged entrypoints: default (admin), command (multisig)',
    entrypoints: {
      default: { who: 'admin', admin: 'code' },
      command: { who: 'multisig', multisig: 'key', can: ['transfer_tez', 'set_delegate'] },
    },
  },
  {
    address: 'KT1BgfSZizFUMBVGwbE9J8twjpTkjiMmQpKg',
    // read: a generic multisig on its root entrypoint: CHECK_SIGNATURE over %keys, count compared with %threshold
    headline: 'Immutable; privileged entrypoints: default (multisig)',
    entrypoints: { default: { who: 'multisig', multisig: 'keys', can: ['transfer_tez', 'set_delegate'] } },
  },
  {
    address: 'KT1FtKk4EzjwwkT31VqbKvPAG1dpmaDpct3V',
    // read: the Octez generic multisig: main checks signatures of %keys against %threshold and EXECs the given lambda
    headline: 'Immutable; privileged entrypoints: main (multisig)',
    entrypoints: {
      default: { who: 'anyone' },
      main: { who: 'multisig', multisig: 'keys', can: ['exec_parameter_lambda'] },
    },
  },
  {
    address: 'KT1Rk6XUVAT89wAQnsE15TZq4ezp4sVmSXAa',
    // read: postExtract checks SENDER = %admin; setAdmin checks SENDER = %owner (CDR ; CDR ; CDR) and writes %admin
    headline: 'Immutable; privileged entrypoints: postExtract (admin), setAdmin (admin)',
    entrypoints: {
      postExtract: { who: 'admin', admin: 'admin' },
      setAdmin: { who: 'admin', admin: 'owner' },
    },
  },
  {
    address: 'KT1V4Vp7zhynCNuaBjWMpNU535Xm2sgqkz6M',
    // read: a lambda-dispatch proxy: both entrypoints UNPACK a lambda from big map %lambdas and EXEC it; the new storage is the lambda's result, so who writes %lambdas is not knowable from this code
    headline: 'Runs stored code; who can change it is not known',
    entrypoints: {
      default: { who: 'anyone', can: ['exec_stored_lambda'] },
      runEntrypointLambda: { who: 'anyone', can: ['exec_stored_lambda'] },
    },
  },
  {
    address: 'KT1E2NUZoMUdxwtqPqDPZifMcdXeLWGP3rvB',
    // read: SmartPy token: burn, mint and setAdministrator start with SENDER = %administrator
    headline: 'Immutable; privileged entrypoints: burn (admin), mint (admin), setAdministrator (admin)',
    entrypoints: {
      burn: { who: 'admin', admin: 'administrator' },
      mint: { who: 'admin', admin: 'administrator' },
      setAdministrator: { who: 'admin', admin: 'administrator' },
    },
  },
  {
    address: 'KT1AafHA1C1vk959wvHWBispY9Y2f3fxBUUo',
    // read: Liquidity Baking LQT (FA1.2): mintOrBurn FAILWITHs "OnlyAdmin" unless SENDER = %admin; the getters call back
    headline: 'Immutable; privileged entrypoints: mintOrBurn (admin)',
    entrypoints: {
      approve: { who: 'anyone' },
      getAllowance: { who: 'anyone', can: ['call_contracts'] },
      getBalance: { who: 'anyone', can: ['call_contracts'] },
      getTotalSupply: { who: 'anyone', can: ['call_contracts'] },
      mintOrBurn: { who: 'admin', admin: 'admin' },
      transfer: { who: 'anyone' },
    },
  },
  {
    address: 'KT1Nh9pCoWdQFPT2gXBJNComX63KiZhjqJbi',
    // read: a token whose operations run lambdas from storage; upgrade (SENDER = %owner) replaces them, %owner holds KT1H7yb…
    headline: 'Upgradable by admin KT1H7ybGEKqsgUEvPja26rQfzWxw8wji3BY8',
    entrypoints: {
      upgrade: { who: 'admin', admin: 'owner' },
      setOwner: { who: 'admin', admin: 'owner' },
      mint: { who: 'admin', admin: 'owner', can: ['exec_stored_lambda'] },
      transfer: { who: 'anyone', can: ['exec_stored_lambda'] },
      approve: { who: 'anyone' },
      getBalance: { who: 'anyone', can: ['call_contracts'] },
    },
  },
  {
    address: 'KT1BGQR7t4izzKZ7eRodKWTodAsM23P38v7N',
    // read: Dexter tzBTC/XTZ: setBaker and setManager check SENDER = :manager, updateTokenPoolInternal SENDER = :tokenAddress; updateTokenPool only compares SENDER with an implicit account of its own argument
    headline:
      'Immutable; privileged entrypoints: updateTokenPoolInternal (admin), setBaker (admin), setManager (admin)',
    entrypoints: {
      approve: { who: 'anyone' },
      addLiquidity: { who: 'anyone', can: ['call_contracts'] },
      removeLiquidity: { who: 'anyone', can: ['transfer_tez', 'call_contracts'] },
      xtzToToken: { who: 'anyone', can: ['call_contracts'] },
      tokenToXtz: { who: 'anyone', can: ['transfer_tez', 'call_contracts'] },
      tokenToToken: { who: 'anyone', can: ['transfer_tez', 'call_contracts'] },
      updateTokenPool: { who: 'anyone', can: ['call_contracts'] },
      updateTokenPoolInternal: { who: 'admin', admin: 'tokenAddress' },
      setBaker: { who: 'admin', admin: 'manager', can: ['set_delegate'] },
      setManager: { who: 'admin', admin: 'manager' },
      default: { who: 'anyone' },
    },
  },
  {
    address: 'KT1WeKKoDwdUqh9EXNxDVYJoJPP4wgQxrNYZ',
    // read: lock and reclaim check SENDER = %issuer ({ CAR ; CDR ; CAR }); swap is open and sends tez and tokens
    headline: 'Immutable; privileged entrypoints: lock (admin), reclaim (admin)',
    entrypoints: {
      lock: { who: 'admin', admin: 'issuer' },
      reclaim: { who: 'admin', admin: 'issuer', can: ['call_contracts'] },
      swap: { who: 'anyone', can: ['call_contracts', 'transfer_tez'] },
    },
  },
  {
    address: 'KT1ERaFkZ8F8xUnPtziVqyk67sDHYpebnvmp',
    // read: a game whose only entrypoint checks SENDER = %current_player
    headline: 'Immutable; privileged entrypoints: default (admin)',
    entrypoints: { default: { who: 'admin', admin: 'current_player' } },
  },
  {
    address: 'KT1Sc2dHqCRLQV9gWLmUndQyowVrv12AtcJi',
    // read: changeOwner and sendFunds check SENDER = %ownerKey ({ CDR ; CAR }); feedUserAccount is open
    headline: 'Immutable; privileged entrypoints: changeOwner (admin), sendFunds (admin)',
    entrypoints: {
      changeOwner: { who: 'admin', admin: 'ownerKey' },
      feedUserAccount: { who: 'anyone' },
      sendFunds: { who: 'admin', admin: 'ownerKey', can: ['transfer_tez'] },
    },
  },
  {
    address: 'KT1WPEis2WhAc2FciM2tZVn8qe6pCBe9HkDp',
    // read: vesting multisig: Action checks signatures of %signatories (transfer, set delegate); the unnamed pour entrypoint checks one signature of %pour_authorizer and sends tez
    headline: 'Immutable; privileged entrypoints: Action (multisig), entrypoint_1 (multisig)',
    entrypoints: {
      Action: { who: 'multisig', multisig: 'signatories', can: ['transfer_tez', 'set_delegate'] },
      entrypoint_1: { who: 'multisig', multisig: 'pour_authorizer', can: ['transfer_tez'] },
    },
  },
  {
    address: 'KT1QrxrDkQNYGVwAbWbb7g4T4PHBCV3L4xSM',
    // read: a king-of-the-hill game: withdraw checks SENDER = %leader and sends tez; the get_ entrypoints call back
    headline: 'Immutable; privileged entrypoints: withdraw (admin)',
    entrypoints: {
      default: { who: 'anyone' },
      get_countdown_milliseconds: { who: 'anyone', can: ['call_contracts'] },
      get_leader: { who: 'anyone', can: ['call_contracts'] },
      get_leadership_start_timestamp: { who: 'anyone', can: ['call_contracts'] },
      withdraw: { who: 'admin', admin: 'leader', can: ['transfer_tez'] },
    },
  },
  {
    address: 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn',
    // read: the TZBTC proxy: token entrypoints EXEC stored code at the proxy level (the stored code checks roles); epwSetCode writes the code, its owner check reads a packed value so the caller is unknown
    headline: 'Upgradable (through epwSetCode, caller not known)',
    entrypoints: {
      getVersion: { who: 'anyone', can: ['transfer_tez'] },
      mint: { who: 'anyone', can: ['exec_stored_lambda'] },
      transfer: { who: 'anyone', can: ['exec_stored_lambda'] },
      epwSetCode: { who: 'unknown' },
      upgrade: { who: 'unknown', can: ['exec_parameter_lambda'] },
    },
  },
  {
    address: 'KT1RrM7fzUXzx14Gcryromgiz7GfmmACmgAv',
    // read: a one-entrypoint script with no SENDER check and no operation
    headline: 'Immutable; no privileged entrypoint',
    entrypoints: { default: { who: 'anyone' } },
  },
];

describe.skipIf(!hasShared)(`security summary of ${TABLE.length} mainnet contracts`, () => {
  it.each(TABLE.map((t) => [t.address, t] as const))('%s', (address, t) => {
    const dir = path.join(CONTRACTS, address);
    const script = JSON.parse(readFileSync(path.join(dir, 'code.json'), 'utf8')) as Micheline[];
    const storageFile = path.join(dir, 'storage.json');
    const storage = existsSync(storageFile)
      ? (JSON.parse(readFileSync(storageFile, 'utf8')) as Micheline)
      : undefined;
    const r = analyseSecurity(script, storage);
    expect(r.headline).toBe(t.headline);
    expect(r.complete).toBe(true);
    const eps = byName(r.entrypoints);
    for (const [name, want] of Object.entries(t.entrypoints)) {
      const got = eps[name];
      expect(got, name).toBeDefined();
      expect(
        {
          who: got!.who,
          ...(got!.admin ? { admin: got!.admin.field } : {}),
          ...(got!.multisig ? { multisig: got!.multisig.keys_field } : {}),
          ...(got!.can.length ? { can: got!.can } : {}),
        },
        name,
      ).toEqual(want);
      for (const ev of got!.evidence) expect(ev.line, `${name} ${ev.path}`).toBeGreaterThan(0);
    }
  });
});

describe('bounds and odd code', () => {
  const param = { prim: 'parameter', args: [{ prim: 'unit' }] };
  const storage = { prim: 'storage', args: [{ prim: 'unit' }] };

  it('a hostile script (130 KB: 256 entrypoints, then a long common tail) stops at the bounds, fast, and says so', () => {
    // a comb of 256 entrypoints dispatched by IF_LEFTs: one state each, every one running the 8,000 instructions after
    const leaves = 256;
    let type: Micheline = { prim: 'unit', annots: [`%e${leaves - 1}`] };
    let dispatch: Micheline = [{ prim: 'DROP' }];
    for (let i = leaves - 2; i >= 0; i--) {
      type = { prim: 'or', args: [{ prim: 'unit', annots: [`%e${i}`] }, type] };
      dispatch = [{ prim: 'IF_LEFT', args: [[{ prim: 'DROP' }], dispatch] }];
    }
    const tail: Micheline[] = [];
    for (let i = 0; i < 4_000; i++) tail.push({ prim: 'DUP' }, { prim: 'DROP' });
    const code = [
      { prim: 'UNPAIR' },
      dispatch,
      ...tail,
      { prim: 'NIL', args: [{ prim: 'operation' }] },
      { prim: 'PAIR' },
    ];
    const script: Micheline[] = [
      { prim: 'parameter', args: [type] },
      storage,
      { prim: 'code', args: [code] },
    ];
    expect(JSON.stringify(script).length).toBeGreaterThan(130_000);
    // the CPU the analysis used, not the wall time: a loaded CI machine once took 3.96 s of wall time here
    const cpu = process.cpuUsage();
    const r = analyseSecurity(script);
    const used = process.cpuUsage(cpu);
    expect((used.user + used.system) / 1000).toBeLessThan(3_000);
    expect(r.steps).toBeLessThanOrEqual(MAX_STEPS + leaves);
    expect(r.complete).toBe(false);
    expect(r.entrypoints).toHaveLength(leaves);
    expect(r.entrypoints.some((e) => e.who === 'unknown' && /bounds/.test(e.reason ?? ''))).toBe(true);
    expect(r.headline).toBe('Immutable code; some callers not known');
  });

  it('never throws on odd code: unknown instructions, literals, no code section, wrong stacks', () => {
    const odd: Micheline[][] = [
      [
        param,
        storage,
        { prim: 'code', args: [[{ prim: 'FROBNICATE' }, { prim: 'NIL', args: [{ prim: 'operation' }] }]] },
      ],
      [param, storage, { prim: 'code', args: [[{ int: '1' }]] }],
      [param, storage],
      [param, storage, { prim: 'code', args: [[{ prim: 'DROP', args: [{ int: '5' }] }]] }],
      [param, storage, { prim: 'code', args: [[{ prim: 'constant', args: [{ string: 'exprabc' }] }]] }],
      [],
    ];
    for (const s of odd) {
      const r = analyseSecurity(s);
      expect(r.complete).toBe(false);
      expect(r.entrypoints.every((e) => e.who === 'unknown')).toBe(true);
    }
    const withConstant = analyseSecurity(odd[4]!);
    expect(withConstant.upgrade.global_constants).toEqual(['exprabc']);
  });
});
