// The flow graph's batch reads (packages/api/src/flow/opg.ts): the ticket updates of a group's operations and
// the tags of its contracts, one statement each instead of one per operation or node.
import { expect, it } from 'vitest';
import {
  contractTagsOf,
  getContract,
  ticketUpdatesOfOperation,
  ticketUpdatesOfOperations,
} from '../src/read';
import { describeDb } from '../src/testing';

const NET = 'testnet';

// PGlite only: ordinary reads (a window function and an IN list), the same SQL on both backends.
describeDb('flow batch reads', { backends: 'pglite' }, ({ db }) => {
  const ticket = async (ticketer: string, content: string) =>
    (
      await db()
        .insertInto('tickets')
        .values({
          network: NET,
          hash: `h-${ticketer}-${content}`,
          ticketer,
          content_type: JSON.stringify({ prim: 'string' }),
          content: JSON.stringify({ string: content }),
          level: 5,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const update = (operation_id: number, ticket_id: number, account: string, amount: string, network = NET) =>
    db()
      .insertInto('ticket_updates')
      .values({ network, operation_id, level: 5, timestamp: new Date(0), ticket_id, account, amount })
      .execute();

  it("gives each operation's updates in id order, as the one-operation read does, at most limitEach each", async () => {
    const a = await ticket('KT1Ticketer', 'demo');
    const b = await ticket('KT1Ticketer', 'other');
    await update(11, a, 'KT1Receiver', '5');
    await update(12, b, 'tz1Holder', '-1');
    await update(11, b, 'tz1Holder', '2');
    await update(11, a, 'KT1Receiver', '-3');
    await update(13, a, 'tz1Other', '7', 'othernet'); // another network's operation 13

    const all = await ticketUpdatesOfOperations(db(), NET, [11, 12, 13, 11]);
    expect([...all.keys()].sort()).toEqual([11, 12]);
    for (const id of [11, 12]) expect(all.get(id)).toEqual(await ticketUpdatesOfOperation(db(), NET, id));
    expect(all.get(11)!.map((u) => [u.ticketer, u.account, u.amount])).toEqual([
      ['KT1Ticketer', 'KT1Receiver', '5'],
      ['KT1Ticketer', 'tz1Holder', '2'],
      ['KT1Ticketer', 'KT1Receiver', '-3'],
    ]);

    // the limit is per operation: operation 11's three updates do not crowd out operation 12's
    const two = await ticketUpdatesOfOperations(db(), NET, [11, 12], 2);
    expect(two.get(11)!.map((u) => u.amount)).toEqual(['5', '2']);
    expect(two.get(12)!.map((u) => u.amount)).toEqual(['-1']);
    expect((await ticketUpdatesOfOperations(db(), NET, [])).size).toBe(0);
  });

  it("gives the tags mask of the addresses that are the network's contracts, nothing for the others", async () => {
    const script = await db()
      .insertInto('scripts')
      .values({
        network: NET,
        hash: 'expr-flow-batch',
        level: 5,
        code: JSON.stringify([]),
        parameter: JSON.stringify({ prim: 'unit' }),
        storage: JSON.stringify({ prim: 'unit' }),
        views: '[]',
        entrypoints: [],
        fail_strings: [],
        annotations: [],
        hardcoded: [],
        constants: [],
        tags: 6,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [address, tags] of [
      ['KT1Fa12', 6],
      ['KT1Plain', 0],
    ] as const)
      await db()
        .insertInto('contracts')
        .values({
          network: NET,
          address,
          level: 5,
          timestamp: new Date(0),
          script_id: Number(script.id),
          script_hash: 'expr-flow-batch',
          tags,
        })
        .execute();
    const masks = await contractTagsOf(db(), NET, ['KT1Fa12', 'KT1Plain', 'KT1Fa12', 'tz1NotAContract']);
    expect([...masks.entries()].sort()).toEqual([
      ['KT1Fa12', 6],
      ['KT1Plain', 0],
    ]);
    expect(masks.get('KT1Fa12')).toBe((await getContract(db(), NET, 'KT1Fa12'))!.tags);
    expect((await contractTagsOf(db(), 'othernet', ['KT1Fa12'])).size).toBe(0);
    expect((await contractTagsOf(db(), NET, [])).size).toBe(0);
  });
});
