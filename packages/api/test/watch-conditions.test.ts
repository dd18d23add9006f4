/**
 * Watch rules (issue 39): each kind of condition matched over hand-made block facts, the webhook URL check
 * (IPv4/IPv6 private ranges, the allow option), the signature and the back-off.
 */
import { createHmac } from 'node:crypto';
import type { WatchCondition } from '@michelscope/api-types';
import type { WatchBigMapFact, WatchOperationFact } from '@michelscope/db/watch';
import { describe, expect, it } from 'vitest';
import {
  crosses,
  decodeTokenTransfers,
  matchCondition,
  type BlockFacts,
  type FactLookups,
} from '../src/watch/conditions';
import { backoffDelay, signBody } from '../src/watch/delivery';
import { indexRules } from '../src/watch/evaluator';
import { checkWebhookUrl, isPrivateAddress } from '../src/watch/url-check';

const KT = 'KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5';
const FACTORY = 'KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi';
const ALICE = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
const BOB = 'tz1gjaF81ZRRvdzjobyfVNsAeSC6PScjfQwN';

let nextId = 1;
function op(over: Partial<WatchOperationFact>): WatchOperationFact {
  const id = nextId++;
  return {
    id,
    level: 10,
    hash: 'ooHash',
    kind: 'transaction',
    status: 'applied',
    source: ALICE,
    destination: KT,
    initiator: null,
    amount: '0',
    entrypoint: 'default',
    tag: null,
    parameters: null,
    storage: null,
    payload: null,
    internal: false,
    content_index: id,
    nonce: null,
    counter: id,
    ...over,
  };
}

const noLookups: FactLookups = {
  storageType: () => Promise.resolve(undefined),
  storageBefore: () => Promise.resolve(undefined),
  bigMapValueBefore: () => Promise.resolve(undefined),
};

const facts = (operations: WatchOperationFact[], bigMaps: WatchBigMapFact[] = []): BlockFacts => ({
  network: 'sandboxnet',
  operations,
  bigMaps,
});

const match = (c: WatchCondition, f: BlockFacts, l: FactLookups = noLookups, address = KT) =>
  matchCondition(c, address, f, l);

describe('call conditions', () => {
  const block = facts([
    op({
      entrypoint: 'increment',
      amount: '7',
      parameters: { entrypoint: 'increment', value: { int: '1' } },
    }),
    op({ entrypoint: 'increment', amount: '3' }),
    op({ entrypoint: 'decrement', amount: '9' }),
    op({ entrypoint: 'increment', amount: '8', status: 'failed' }),
    op({ entrypoint: 'increment', amount: '6', source: BOB }),
    op({ entrypoint: 'increment', amount: '100', destination: FACTORY }),
  ]);

  it('matches the entrypoint with an amount at least, applied only by default', async () => {
    const m = await match({ kind: 'call', entrypoints: ['increment'], amount_gte: '5' }, block);
    expect(m.map((x) => x.matched.amount)).toEqual(['7', '6']);
    expect(m[0]!.matched).toMatchObject({
      kind: 'call',
      entrypoint: 'increment',
      parameters: { int: '1' },
      sender: ALICE,
      status: 'applied',
    });
    expect(new Set(m.map((x) => x.key)).size).toBe(2);
  });

  it('filters by sender, amount at most, and watches failures when asked', async () => {
    expect(
      (await match({ kind: 'call', entrypoints: [], sender: BOB }, block)).map((x) => x.matched.amount),
    ).toEqual(['6']);
    expect(
      (await match({ kind: 'call', entrypoints: ['increment'], amount_lte: '6' }, block)).map(
        (x) => x.matched.amount,
      ),
    ).toEqual(['3', '6']);
    expect(
      (await match({ kind: 'call', entrypoints: ['increment'], status: ['failed'] }, block)).map(
        (x) => x.matched.status,
      ),
    ).toEqual(['failed']);
  });

  it('gives the same key for the same fact (a replay makes no second delivery)', async () => {
    const c: WatchCondition = { kind: 'call', entrypoints: ['increment'] };
    const a = await match(c, block);
    const b = await match(c, block);
    expect(a.map((x) => x.key)).toEqual(b.map((x) => x.key));
  });
});

describe('events, originations and token transfers', () => {
  it('matches events by tag', async () => {
    const block = facts([
      op({ kind: 'event', source: KT, destination: null, tag: 'minted', payload: { int: '5' } }),
      op({ kind: 'event', source: KT, destination: null, tag: 'burnt' }),
      op({ kind: 'event', source: FACTORY, destination: null, tag: 'minted' }),
    ]);
    const m = await match({ kind: 'event', tags: ['minted'] }, block);
    expect(m).toHaveLength(1);
    expect(m[0]!.matched).toEqual({ kind: 'event', tag: 'minted', payload: { int: '5' }, emitter: KT });
    expect(await match({ kind: 'event', tags: [] }, block)).toHaveLength(2);
  });

  it('matches originations from a factory', async () => {
    const block = facts([
      op({ kind: 'origination', source: FACTORY, destination: KT, internal: true }),
      op({ kind: 'origination', source: ALICE, destination: 'KT1AafHA1C1vk959wvHWBispY9Y2f3fxBUUo' }),
    ]);
    const m = await match({ kind: 'origination' }, block, noLookups, FACTORY);
    expect(m.map((x) => x.matched.originated)).toEqual([KT]);
  });

  it('decodes FA1.2 and FA2 transfers and matches those above the amount', async () => {
    const fa12 = {
      prim: 'Pair',
      args: [{ string: ALICE }, { prim: 'Pair', args: [{ string: BOB }, { int: '500' }] }],
    };
    const fa2 = [
      {
        prim: 'Pair',
        args: [
          { string: ALICE },
          [
            { prim: 'Pair', args: [{ string: BOB }, { prim: 'Pair', args: [{ int: '1' }, { int: '40' }] }] },
            { prim: 'Pair', args: [{ string: BOB }, { int: '2' }, { int: '4' }] },
          ],
        ],
      },
    ];
    expect(decodeTokenTransfers(fa12)).toEqual([
      { standard: 'fa1.2', from: ALICE, to: BOB, token_id: '0', amount: '500' },
    ]);
    expect(decodeTokenTransfers(fa2).map((t) => [t.token_id, t.amount])).toEqual([
      ['1', '40'],
      ['2', '4'],
    ]);
    expect(decodeTokenTransfers({ int: '1' })).toEqual([]);
    const block = facts([
      op({ entrypoint: 'transfer', parameters: { entrypoint: 'transfer', value: fa2 } }),
      op({ entrypoint: 'transfer', parameters: { entrypoint: 'transfer', value: fa12 } }),
    ]);
    const m = await match({ kind: 'token_transfer', amount_gte: '10' }, block);
    expect(m.map((x) => x.matched.amount)).toEqual(['40', '500']);
    const one = await match({ kind: 'token_transfer', amount_gte: '1', token_id: '2' }, block);
    expect(one.map((x) => x.matched)).toEqual([
      {
        kind: 'token_transfer',
        token: KT,
        standard: 'fa2',
        from: ALICE,
        to: BOB,
        token_id: '2',
        amount: '4',
        sender: ALICE,
      },
    ]);
  });
});

describe('big-map keys and storage fields', () => {
  const diff = (over: Partial<WatchBigMapFact>): WatchBigMapFact => ({
    operation_id: 0,
    level: 10,
    hash: 'ooHash',
    ptr: 7,
    name: 'ledger',
    contract: KT,
    key: { string: ALICE },
    key_hash: 'exprAlice',
    value: { int: '10' },
    ...over,
  });

  it('matches any change of a key, by name or id, by key or key hash', async () => {
    const block = facts(
      [],
      [
        diff({}),
        diff({ key: { string: BOB }, key_hash: 'exprBob', value: null }),
        diff({ ptr: 8, name: 'other' }),
      ],
    );
    expect(await match({ kind: 'big_map', big_map: 'ledger' }, block)).toHaveLength(2);
    expect(await match({ kind: 'big_map', big_map: 7, key: BOB }, block)).toEqual([
      expect.objectContaining({ matched: expect.objectContaining({ removed: true, key_hash: 'exprBob' }) }),
    ]);
    expect(await match({ kind: 'big_map', big_map: 'ledger', key_hash: 'exprAlice' }, block)).toHaveLength(1);
  });

  it('matches a value crossing a threshold, once', async () => {
    const lookups = { ...noLookups, bigMapValueBefore: () => Promise.resolve({ int: '3' }) };
    const block = facts(
      [],
      [diff({ value: { int: '4' } }), diff({ value: { int: '12' } }), diff({ value: { int: '20' } })],
    );
    const m = await match({ kind: 'big_map', big_map: 'ledger', above: '10' }, block, lookups);
    expect(m.map((x) => [x.matched.previous, x.matched.value])).toEqual([[{ int: '4' }, { int: '12' }]]);
    const down = await match({ kind: 'big_map', big_map: 'ledger', below: '3' }, block, lookups);
    expect(down).toHaveLength(0);
  });

  it('matches a storage field of the named tree crossing a threshold', async () => {
    const type = {
      prim: 'pair',
      args: [
        { prim: 'address', annots: ['%admin'] },
        {
          prim: 'pair',
          annots: ['%config'],
          args: [
            { prim: 'nat', annots: ['%fee'] },
            { prim: 'int', annots: ['%total'] },
          ],
        },
      ],
    };
    const storage = (fee: number, total: number) => ({
      prim: 'Pair',
      args: [{ string: ALICE }, { prim: 'Pair', args: [{ int: String(fee) }, { int: String(total) }] }],
    });
    const lookups: FactLookups = {
      ...noLookups,
      storageType: () => Promise.resolve({ prim: 'storage', args: [type] }),
      storageBefore: () => Promise.resolve(storage(1, 90)),
    };
    const block = facts([
      op({ storage: storage(1, 95) }),
      op({ storage: storage(1, 105), entrypoint: 'add' }),
      op({ storage: storage(1, 110) }),
      op({ storage: storage(1, 50) }),
    ]);
    const up = await match({ kind: 'storage', path: 'config.total', above: '100' }, block, lookups);
    expect(up.map((x) => x.matched)).toEqual([
      expect.objectContaining({
        kind: 'storage',
        path: 'config.total',
        value: '105',
        previous: '95',
        entrypoint: 'add',
      }),
    ]);
    const down = await match({ kind: 'storage', path: 'config.total', below: '60' }, block, lookups);
    expect(down.map((x) => x.matched.value)).toEqual(['50']);
    expect(await match({ kind: 'storage', path: 'config.nope', above: '1' }, block, lookups)).toEqual([]);
  });

  it('crosses', () => {
    expect(crosses(1n, 5n, '5', undefined)).toBe(true);
    expect(crosses(5n, 6n, '5', undefined)).toBe(false);
    expect(crosses(undefined, 6n, '5', undefined)).toBe(true);
    expect(crosses(9n, 2n, undefined, '3')).toBe(true);
  });
});

describe('the rule index', () => {
  it('indexes rules by network and address, leaving out conditions it does not understand', () => {
    const row = (id: string, address: string, condition: unknown) => ({
      id,
      network: 'sandboxnet',
      address,
      condition,
      url: 'http://x',
      secret: 's',
      token_hash: 'h',
      enabled: true,
      created_at: new Date(),
    });
    const index = indexRules([
      row('a', KT, { kind: 'call', entrypoints: [] }),
      row('b', KT, { kind: 'origination' }),
      row('c', FACTORY, { kind: 'nope' }),
    ]);
    expect(
      index
        .get('sandboxnet')
        ?.get(KT)
        ?.map((r) => r.id),
    ).toEqual(['a', 'b']);
    expect(index.get('sandboxnet')?.has(FACTORY)).toBe(false);
  });
});

describe('webhook URLs', () => {
  it('knows the private, loopback, link-local, CGNAT, multicast and unspecified ranges', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of [
      '8.8.8.8',
      '172.32.0.1',
      '100.128.0.1',
      '1.1.1.1',
      '2001:4860:4860::8888',
      '::ffff:8.8.8.8',
    ])
      expect(isPrivateAddress(a), a).toBe(false);
  });

  it('refuses other schemes, credentials and private targets unless allowed', async () => {
    const resolve = (host: string) =>
      Promise.resolve(host === 'inside.example' ? ['203.0.113.9', '10.0.0.5'] : ['93.184.216.34']);
    const check = (url: string, allowPrivate = false) => checkWebhookUrl(url, { allowPrivate, resolve });
    await expect(check('ftp://example.com/x')).rejects.toThrow('http:// or https://');
    await expect(check('http://u:p@example.com/x')).rejects.toThrow('credentials');
    await expect(check('not a url')).rejects.toThrow('not a valid URL');
    await expect(check('http://127.0.0.1:8080/hook')).rejects.toThrow('private');
    await expect(check('http://[::1]/hook')).rejects.toThrow('private');
    await expect(check('http://[fd00::1]/hook')).rejects.toThrow('private');
    await expect(check('http://localhost/hook')).rejects.toThrow('loopback');
    await expect(check('https://inside.example/hook')).rejects.toThrow('at 203.0.113.9');
    await expect(check('https://hooks.example.com/x')).resolves.toBeInstanceOf(URL);
    await expect(check('http://127.0.0.1:8080/hook', true)).resolves.toBeInstanceOf(URL);
    await expect(check('ftp://127.0.0.1/', true)).rejects.toThrow('http://');
  });
});

describe('signature and back-off', () => {
  it('signs the raw body with HMAC-SHA256 of the secret', () => {
    const body = '{"a":1}';
    const sig = signBody('whsec_x', body);
    expect(sig).toBe(`sha256=${createHmac('sha256', 'whsec_x').update(body).digest('hex')}`);
    expect(signBody('whsec_y', body)).not.toBe(sig);
  });

  it('doubles from the base up to the cap', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, 10_000, 3_600_000))).toEqual([
      10_000, 20_000, 40_000, 80_000,
    ]);
    expect(backoffDelay(20, 10_000, 3_600_000)).toBe(3_600_000);
    expect(backoffDelay(1000, 10_000, 3_600_000)).toBe(3_600_000);
  });
});
