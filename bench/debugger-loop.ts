/** The long call of bench/debugger.ts and bench/debugger-encoding.ts (issue 20): ~100,000 steps. */
/** LOOP body: PUSH, SWAP, SUB, DUP, GT and the LOOP's own step: 5 steps a turn (LOOP's own step once). */
export const TURNS = 20_000;
export const LOOP_CODE = [
  { prim: 'parameter', args: [{ prim: 'int' }] },
  { prim: 'storage', args: [{ prim: 'int' }] },
  {
    prim: 'code',
    args: [
      [
        { prim: 'CAR' },
        { prim: 'DUP' },
        { prim: 'GT' },
        {
          prim: 'LOOP',
          args: [
            [
              { prim: 'PUSH', args: [{ prim: 'int' }, { int: '1' }] },
              { prim: 'SWAP' },
              { prim: 'SUB' },
              { prim: 'DUP' },
              { prim: 'GT' },
            ],
          ],
        },
        { prim: 'NIL', args: [{ prim: 'operation' }] },
        { prim: 'PAIR' },
      ],
    ],
  },
];
