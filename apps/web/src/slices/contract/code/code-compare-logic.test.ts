import { describe, expect, it } from 'vitest';
import { blockLabel, legFromQuery, legToQuery, unifiedLines } from './code-compare-logic';

const KT = 'KT1CT12nW4oxazyrVRiJiBjpDK53vxY6JTEL';
const PROTO = 'PtTALLiNtPec7mE7yY4m3k26J8Qukef3E3ehzhfXgFZKGtDdAXu';

describe('code compare logic', () => {
  it('reads the other side from the URL and writes it back', () => {
    expect(legFromQuery(`mainnet:${KT}`)).toEqual({ network: 'mainnet', address: KT });
    expect(legFromQuery(`sandboxnet:${KT}@${PROTO}`)).toEqual({
      network: 'sandboxnet',
      address: KT,
      protocol: PROTO,
    });
    expect(legToQuery({ network: 'sandboxnet', address: KT, protocol: PROTO })).toBe(
      `sandboxnet:${KT}@${PROTO}`,
    );
    for (const bad of ['', `mainnet:tz1abc`, `Main:${KT}`, `mainnet:${KT}@nope`, KT])
      expect(legFromQuery(bad)).toBeNull();
  });

  it('labels blocks', () => {
    expect(blockLabel({ kind: 'entrypoint', name: 'transfer', key: 'entrypoint:transfer' })).toBe(
      'entrypoint transfer',
    );
    expect(blockLabel({ kind: 'code', name: null, key: 'code:before' })).toBe(
      'code before the entrypoint dispatch',
    );
    expect(blockLabel({ kind: 'parameter', name: null, key: 'parameter' })).toBe('parameter');
  });

  it('turns side-by-side rows into unified lines, removals of a run before its additions', () => {
    expect(
      unifiedLines([
        { type: 'same', left: 'a', right: 'a' },
        { type: 'changed', left: 'b', right: 'B' },
        { type: 'changed', left: 'c', right: 'C' },
        { type: 'added', left: null, right: 'D' },
        { type: 'same', left: 'e', right: 'e' },
        { type: 'removed', left: 'f', right: null },
      ]).map((l) => `${l.sign}${l.text}`),
    ).toEqual([' a', '-b', '-c', '+B', '+C', '+D', ' e', '-f']);
  });
});
