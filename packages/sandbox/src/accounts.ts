// Bootstrap accounts and the genesis state.
import { Kv, State } from './state';

/** The five standard octez sandbox bootstrap accounts (public test keys, never use them elsewhere). */
export const BOOTSTRAP_ACCOUNTS: ReadonlyArray<{ name: string; pkh: string; pk: string; sk: string }> =
  Object.freeze([
    {
      name: 'bootstrap1',
      pkh: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx',
      pk: 'edpkuBknW28nW72KG6RoHtYW7p12T6GKc7nAbwYX5m8Wd9sDVC9yav',
      sk: 'edsk3gUfUPyBSfrS9CCgmCiQsTCHGkviBDusMxDJstFtojtc1zcpsh',
    },
    {
      name: 'bootstrap2',
      pkh: 'tz1gjaF81ZRRvdzjobyfVNsAeSC6PScjfQwN',
      pk: 'edpktzNbDAUjUk697W7gYg2CRuBQjyPxbEg8dLccYYwKSKvkPvjtV9',
      sk: 'edsk39qAm1fiMjgmPkw1EgQYkMzkJezLNewd7PLNHTkr6w9XA2zdfo',
    },
    {
      name: 'bootstrap3',
      pkh: 'tz1faswCTDciRzE4oJ9jn2Vm2dvjeyA9fUzU',
      pk: 'edpkuTXkJDGcFd5nh6VvMz8phXxU3Bi7h6hqgywNFi1vZTfQNnS1RV',
      sk: 'edsk4ArLQgBTLWG5FJmnGnT689VKoqhXwmDPBuGx3z4cvwU9MmrPZZ',
    },
    {
      name: 'bootstrap4',
      pkh: 'tz1b7tUupMgCNw2cCLpKTkSD1NZzB5TkP2sv',
      pk: 'edpkuFrRoDSEbJYgxRtLx2ps82UdaYc1WwfS9sE11yhauZt5DgCHbU',
      sk: 'edsk2uqQB9AY4FvioK2YMdfmyMrer5R8mGFyuaLLFfSRo8EoyNdht3',
    },
    {
      name: 'bootstrap5',
      pkh: 'tz1ddb9NMYHZi5UzPdzTZMYQQZoMub195zgv',
      pk: 'edpkv8EUUH68jmo3f7Um5PezmfGrRF24gnfLpH3sVNwJnV5bVCxL2n',
      sk: 'edsk4QLrcijEffxV31gGdN2HU7UpyJjA8drFoNcmnB28n89YjPNRFm',
    },
  ]);

/** 4,000,000 tez each, in mutez. */
export const BOOTSTRAP_BALANCE = 4_000_000_000_000n;

/** Every block is baked (and signed) by bootstrap1, who receives the fees. */
export const BAKER = BOOTSTRAP_ACCOUNTS[0]!;

/** The state of a new chain: the bootstrap accounts, revealed and registered as delegates. */
export function genesisState(): State {
  const state = new State(new Kv());
  for (const a of BOOTSTRAP_ACCOUNTS) {
    state.setImplicit(a.pkh, {
      balance: String(BOOTSTRAP_BALANCE),
      counter: '0',
      manager: a.pk,
      delegate: a.pkh,
    });
  }
  return state;
}
