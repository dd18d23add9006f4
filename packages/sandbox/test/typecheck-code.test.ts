// typecheck_code's type_map: the stack types before and after each instruction, keyed by the
// instruction's Micheline location (preorder index in the program), as the node answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Parser } from '@taquito/michel-codec';
import { openHarness, type Harness } from './helpers';

let h: Harness;
const parser = new Parser();
const head = '/chains/main/blocks/head/helpers/scripts';
const int = { prim: 'int' };
const pairInt = { prim: 'pair', args: [int, int] };
const ops = { prim: 'list', args: [{ prim: 'operation' }] };

beforeAll(async () => {
  h = await openHarness();
});
afterAll(async () => {
  await h.close();
});

describe('typecheck_code', () => {
  it('maps every instruction location to its stack before and after', async () => {
    // Locations: 0 root, 1 parameter, 2 int, 3 storage, 4 int, 5 code, 6 { … }, 7 UNPAIR, 8 ADD,
    // 9 NIL, 10 operation, 11 PAIR.
    const program = parser.parseScript(
      'parameter int; storage int; code { UNPAIR; ADD; NIL operation; PAIR }',
    );
    const r = await h.post(`${head}/typecheck_code`, { program });
    expect(r.status).toBe(200);
    expect(r.body.type_map).toEqual([
      { location: 6, stack_before: [pairInt], stack_after: [{ prim: 'pair', args: [ops, int] }] },
      { location: 7, stack_before: [pairInt], stack_after: [int, int] },
      { location: 8, stack_before: [int, int], stack_after: [int] },
      { location: 9, stack_before: [int], stack_after: [ops, int] },
      { location: 11, stack_before: [ops, int], stack_after: [{ prim: 'pair', args: [ops, int] }] },
    ]);
    expect(Number(r.body.gas)).toBeGreaterThan(0);
  });

  it('covers views and branches, keeps field annotations, omits failing instructions', async () => {
    const program = parser.parseScript(`parameter (or (int %a) (unit %b)); storage (pair (int %x) (nat %y));
      code { CAR; IF_LEFT { DROP; PUSH string "no"; FAILWITH } { DROP; PUSH int 1; PUSH nat 2; SWAP; PAIR; NIL operation; PAIR } };
      view "v" unit int { CDR; CAR }`) as unknown[];
    const r = await h.post(`${head}/typecheck_code`, { program });
    expect(r.status).toBe(200);
    const map = r.body.type_map as Array<{
      location: number;
      stack_before: unknown[];
      stack_after: unknown[];
    }>;
    const locations = map.map((e) => e.location);
    expect(locations).toEqual([...new Set(locations)].sort((a, b) => a - b));
    const param = {
      prim: 'or',
      args: [
        { prim: 'int', annots: ['%a'] },
        { prim: 'unit', annots: ['%b'] },
      ],
    };
    // CAR is the first instruction of the code body: after the parameter section (1..4: parameter,
    // or, int, unit), storage (5..8), code 9, { 10, CAR 11.
    expect(map.find((e) => e.location === 11)).toEqual({
      location: 11,
      stack_before: [
        {
          prim: 'pair',
          args: [
            param,
            {
              prim: 'pair',
              args: [
                { prim: 'int', annots: ['%x'] },
                { prim: 'nat', annots: ['%y'] },
              ],
            },
          ],
        },
      ],
      stack_after: [param],
    });
    // The Left branch always fails: its FAILWITH has no entry, its PUSH string has one.
    const pushes = map.filter((e) => JSON.stringify(e.stack_after[0]) === '{"prim":"string"}');
    expect(pushes).toHaveLength(1);
    expect(
      map.some(
        (e) =>
          e.stack_after.length === 0 &&
          e.stack_before.length === 1 &&
          JSON.stringify(e.stack_before[0]) === '{"prim":"string"}',
      ),
    ).toBe(false);
    // The view body ({ CDR; CAR } on pair unit storage) is mapped too.
    // CAR takes the component's type without the pair's field annotation.
    const storage = {
      prim: 'pair',
      args: [
        { prim: 'int', annots: ['%x'] },
        { prim: 'nat', annots: ['%y'] },
      ],
    };
    expect(map.filter((e) => JSON.stringify(e.stack_before) === JSON.stringify([storage]))).toEqual([
      expect.objectContaining({ stack_after: [int] }),
    ]);
    const hidden = await h.post(`${head}/typecheck_code`, { program, show_types: false });
    expect(hidden.body.type_map).toEqual([]);
  });

  it('still refuses an ill-typed program with the node error', async () => {
    const program = parser.parseScript(
      'parameter int; storage nat; code { UNPAIR; ADD; NIL operation; PAIR }',
    );
    const r = await h.post(`${head}/typecheck_code`, { program });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(Array.isArray(r.body)).toBe(true);
  });
});
