import { describe, expect, it } from 'vitest';
import type { Micheline } from '@michelscope/michelson';
import { codeDiff, scriptBlocks } from '../src/services/code-diff';

const prim = (p: string, ...args: Micheline[]): Micheline => (args.length ? { prim: p, args } : { prim: p });
const t = (p: string, name?: string, ...args: Micheline[]): Micheline => ({
  prim: p,
  ...(args.length ? { args } : {}),
  ...(name ? { annots: [`%${name}`] } : {}),
});
/** parameter (or (or (nat %add) (nat %sub)) (unit %reset)); storage nat; a view; `subBody` is sub's branch. */
const script = (subBody: Micheline[], extra: Micheline[] = []): Micheline => [
  prim(
    'parameter',
    t('or', undefined, t('or', undefined, t('nat', 'add'), t('nat', 'sub')), t('unit', 'reset')),
  ),
  prim('storage', t('nat')),
  prim('code', [
    prim('UNPAIR'),
    prim(
      'IF_LEFT',
      [prim('IF_LEFT', [prim('ADD')], subBody)],
      [prim('DROP 2'), prim('PUSH', t('nat'), { int: '0' })],
    ),
    prim('NIL', t('operation')),
    prim('PAIR'),
  ]),
  ...extra,
];
const SUB = [prim('SWAP'), prim('SUB'), prim('ABS')];

describe('code diff by blocks', () => {
  it("cuts the code into the parameter's entrypoint branches, named by their annotations", () => {
    expect(scriptBlocks(script(SUB)).map((b) => b.key)).toEqual([
      'parameter',
      'storage',
      'code:before',
      'entrypoint:add',
      'entrypoint:sub',
      'entrypoint:reset',
      'code:after',
    ]);
  });

  it('names the entrypoint whose branch changed and diffs its lines only', () => {
    const d = codeDiff(script(SUB), script([prim('SWAP'), prim('SUB'), prim('ISNAT'), prim('ASSERT_SOME')]));
    expect(d.changed_entrypoints).toEqual(['sub']);
    const changed = d.blocks.filter((b) => b.status !== 'same');
    expect(changed.map((b) => b.key)).toEqual(['entrypoint:sub']);
    expect(changed[0]!.rows!.some((r) => r.type !== 'same' && r.right?.includes('ISNAT'))).toBe(true);
    expect(d.added).toBeGreaterThan(0);
    // the reference's aligned items: as many left as right lines
    expect(d.left.length).toBe(d.right.length);
    expect(d.left.flat().some((i) => i.type === -1 && i.chunk.includes('ABS'))).toBe(true);
  });

  it('a block on one side only is added or removed; equal scripts have no change', () => {
    const view = prim('view', { string: 'get' }, t('unit'), t('nat'), [prim('CDR')]);
    const d = codeDiff(script(SUB), script(SUB, [view]));
    expect(d.blocks.find((b) => b.key === 'view:get')).toMatchObject({ status: 'added', left_lines: 0 });
    expect(d.changed_entrypoints).toEqual([]);
    const same = codeDiff(script(SUB), script(SUB));
    expect(same.blocks.every((b) => b.status === 'same' && b.rows === undefined)).toBe(true);
    expect(same).toMatchObject({ added: 0, removed: 0, changed: 0 });
  });

  it('a changed parameter type of an entrypoint names it, even with the same code', () => {
    const other: Micheline = [
      prim(
        'parameter',
        t('or', undefined, t('or', undefined, t('int', 'add'), t('nat', 'sub')), t('unit', 'reset')),
      ),
      ...(script(SUB) as Micheline[]).slice(1),
    ];
    expect(codeDiff(script(SUB), other).changed_entrypoints).toEqual(['add']);
  });
});
