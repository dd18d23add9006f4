/**
 * Big-map bookkeeping when one big map value ends up in several places of the new storage, and the
 * protocol prefix of Octez-style errors.
 */
import { describe, expect, it } from 'vitest';
import type { ChainContext, Expr } from '../src/index';
import { DEFAULT_PROTOCOL_PREFIX, MichelsonError, runContract, toTy } from '../src/index';

const natNat = (): ReturnType<typeof toTy> => toTy({ prim: 'nat' });
const chain: ChainContext = {
  bigMapTypes: (id) => (id === 1n || id === 2n ? { key: natNat(), value: natNat() } : null),
  bigMapGet: () => null,
};
const TWO_MAPS = 'storage (pair (big_map nat nat) (big_map nat nat)); parameter unit;';

function run(code: string): {
  storage: Expr;
  diff: [string, string, string | null, number][];
} {
  let next = 10n;
  const r = runContract({
    script: `${TWO_MAPS} code { ${code} }`,
    storage: { prim: 'Pair', args: [{ int: '1' }, { int: '2' }] },
    parameter: { prim: 'Unit' },
    chain,
    allocateBigMapId: () => next++,
  });
  if (!r.ok) throw new Error(r.error.message);
  return {
    storage: r.storage,
    diff: r.lazyStorageDiff.map((d) => [
      d.id,
      d.diff.action,
      'source' in d.diff ? d.diff.source : null,
      'updates' in d.diff && Array.isArray(d.diff.updates) ? d.diff.updates.length : 0,
    ]),
  };
}

describe('a big map used twice in the new storage', () => {
  it('keeps the existing id for the first occurrence and copies the duplicate to a fresh id', () => {
    const r = run('CDR; CAR; DUP; PAIR; NIL operation; PAIR');
    expect(r.storage).toEqual({ prim: 'Pair', args: [{ int: '1' }, { int: '10' }] });
    expect(r.diff).toEqual([
      ['10', 'copy', '1', 0],
      ['2', 'remove', null, 0],
      ['1', 'update', null, 0],
    ]);
  });

  it('writes the same pending updates to both the updated map and its copy', () => {
    const r = run('CDR; CAR; PUSH (option nat) (Some 5); PUSH nat 3; UPDATE; DUP; PAIR; NIL operation; PAIR');
    expect(r.storage).toEqual({ prim: 'Pair', args: [{ int: '1' }, { int: '10' }] });
    expect(r.diff).toEqual([
      ['10', 'copy', '1', 1],
      ['2', 'remove', null, 0],
      ['1', 'update', null, 1],
    ]);
  });

  it('gives two fresh ids to a new big map stored twice', () => {
    const r = run('DROP; EMPTY_BIG_MAP nat nat; DUP; PAIR; NIL operation; PAIR');
    expect(r.storage).toEqual({ prim: 'Pair', args: [{ int: '10' }, { int: '11' }] });
    expect(r.diff.map(([id, action]) => [id, action])).toEqual([
      ['11', 'alloc'],
      ['10', 'alloc'],
      ['2', 'remove'],
      ['1', 'remove'],
    ]);
  });

  it('every id in the storage appears in the lazy storage diff', () => {
    const r = run('CDR; UNPAIR; SWAP; DROP; DUP; DUP; PAIR; SWAP; DROP; NIL operation; PAIR');
    const ids = JSON.stringify(r.storage).match(/-?\d+/g) ?? [];
    const live = r.diff.filter(([, a]) => a !== 'remove').map(([id]) => id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...live].sort());
  });
});

describe('big maps passed to another contract', () => {
  const target = 'KT1Q36KWPSba7dHsH5E4ZsQHehrChc51e19d';
  const bm = { prim: 'big_map', args: [{ prim: 'nat' }, { prim: 'nat' }] };
  const sender = `parameter unit; storage (big_map nat nat);
    code { CDR; DUP; DUP; PAIR; PUSH address "${target}"; CONTRACT (pair (big_map nat nat) (big_map nat nat));
           ASSERT_SOME; PUSH mutez 0; DIG 2; TRANSFER_TOKENS; NIL operation; SWAP; CONS; PAIR }`;
  const calls: ChainContext = {
    ...chain,
    contract: (a) => (a === target ? { parameter: { prim: 'pair', args: [bm, bm] } } : null),
  };
  const send = (temporary: boolean): { param: unknown; diff: [string, string, string | null][] } => {
    let next = 10n;
    let temp = 0n;
    const r = runContract({
      script: sender,
      storage: { int: '1' },
      parameter: { prim: 'Unit' },
      chain: calls,
      allocateBigMapId: () => next++,
      ...(temporary ? { allocateTemporaryBigMapId: () => --temp } : {}),
    });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.storage).toEqual({ int: '1' });
    return {
      param: (r.operations[0]?.json as { parameters?: { value: unknown } }).parameters?.value,
      diff: r.lazyStorageDiff.map((d) => [d.id, d.diff.action, 'source' in d.diff ? d.diff.source : null]),
    };
  };

  it('copies each occurrence of a big map in the parameter to its own temporary negative id', () => {
    const r = send(true);
    expect(r.param).toEqual({ prim: 'Pair', args: [{ int: '-1' }, { int: '-2' }] });
    expect(r.diff).toEqual([
      ['1', 'update', null],
      ['-1', 'copy', '1'],
      ['-2', 'copy', '1'],
    ]);
  });

  it('uses allocateBigMapId for the copies when no temporary allocator is given', () => {
    const r = send(false);
    expect(r.param).toEqual({ prim: 'Pair', args: [{ int: '10' }, { int: '11' }] });
    expect(r.diff.filter(([, a]) => a === 'copy').map(([id]) => id)).toEqual(['11', '10']);
  });
});

describe('MichelsonError.toOctez', () => {
  it('uses the Tallinn protocol prefix by default', () => {
    const [e] = new MichelsonError('gas_exhausted', 'out of gas').toOctez();
    expect(e?.id).toBe('proto.024-PtTALLiN.gas_exhausted.operation');
  });

  it('is the prefix of errors in a failed runContract result', () => {
    const r = runContract({
      script: 'parameter unit; storage unit; code { PUSH nat 1; FAILWITH }',
      storage: { prim: 'Unit' },
      parameter: { prim: 'Unit' },
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]?.id).toBe('proto.024-PtTALLiN.michelson_v1.script_rejected');
  });

  it('exports the Tallinn prefix as the single default', () => {
    expect(DEFAULT_PROTOCOL_PREFIX).toBe('024-PtTALLiN');
  });

  it('accepts another protocol prefix', () => {
    const [e] = new MichelsonError('overflow', 'x').toOctez('023-PtSeouLo');
    expect(e?.id).toBe('proto.023-PtSeouLo.michelson_v1.script_overflow');
  });
});
