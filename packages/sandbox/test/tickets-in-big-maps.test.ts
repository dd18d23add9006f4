// Tickets held in a contract's big maps count in its holdings: `ticket_updates` of a call that
// stores one in a big map, and `all_ticket_balances`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Parser } from '@taquito/michel-codec';
import { BOOTSTRAP_ACCOUNTS } from '../src/index';
import { originatedAddress } from '../src/execute';
import { groupInjector, openHarness, type Harness } from './helpers';

const b2 = BOOTSTRAP_ACCOUNTS[1]!;
let h: Harness;

beforeAll(async () => {
  h = await openHarness();
});
afterAll(async () => {
  await h.close();
});

const run = groupInjector(() => h, b2);

// Stores under key n a ticket (content n, amount 3) minted by itself.
const VAULT = `parameter nat; storage (big_map nat (ticket nat));
  code { UNPAIR; DUP; PUSH nat 3; SWAP; TICKET; ASSERT_SOME; SOME; SWAP; UPDATE; NIL operation; PAIR }`;

describe('tickets in big maps', () => {
  it('are reported in ticket_updates and all_ticket_balances', async () => {
    const orig = await run([
      { kind: 'origination', balance: '0', script: { code: new Parser().parseScript(VAULT), storage: [] } },
    ]);
    expect(orig.contents[0].metadata.operation_result.status).toBe('applied');
    const vault = originatedAddress(orig.hash, 0);
    const put = (n: number) =>
      run([
        {
          kind: 'transaction',
          amount: '0',
          destination: vault,
          parameters: { entrypoint: 'default', value: { int: String(n) } },
        },
      ]);
    const token = (n: number) => ({
      ticketer: vault,
      content_type: { prim: 'nat' },
      content: { int: String(n) },
    });

    const first = (await put(7)).contents[0].metadata.operation_result;
    expect(first.status).toBe('applied');
    expect(first.ticket_updates).toEqual([
      { ticket_token: token(7), updates: [{ account: vault, amount: '3' }] },
    ]);
    // Replacing the ticket under the same key changes no holding.
    const same = (await put(7)).contents[0].metadata.operation_result;
    expect(same.status).toBe('applied');
    expect(same.ticket_updates).toBeUndefined();
    await put(8);
    const balances = (await h.get(`/chains/main/blocks/head/context/contracts/${vault}/all_ticket_balances`))
      .body;
    expect(balances).toEqual(
      expect.arrayContaining([
        { ...token(7), amount: '3' },
        { ...token(8), amount: '3' },
      ]),
    );
    expect(balances).toHaveLength(2);
  });
});
